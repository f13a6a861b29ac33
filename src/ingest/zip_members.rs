//! A .zip of submissions read entry by entry, in memory and within the limits: listing
//! reads only its central directory, reading one entry inflates only that entry, at most
//! `max_file_bytes` of it (whatever its header declares). The zip itself is never unpacked.

use std::io::{BufReader, Read, Seek};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use zip::ZipArchive;
use zip::result::ZipError;

use super::open_zips::{OpenZip, OpenZips, SharedFile};
use super::{IngestError, IngestLimits, open_regular, sniff};
use crate::model::Format;

/// One file inside a zip of submissions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZipMember {
    /// Its position in the zip's central directory.
    pub index: usize,
    /// Its name in the zip (`/` separated), as stored.
    pub name: String,
    /// When it was last changed, as the zip records it (`YYYY-MM-DD HH:MM:SS`, the zip's
    /// local time); `None` when the zip records no valid time.
    pub modified: Option<String>,
    /// Its uncompressed size as the zip declares it (never trusted for reading).
    pub declared_bytes: u64,
}

impl ZipMember {
    /// The path that names this entry in messages: the zip's path joined with its name.
    pub fn path_in(&self, zip: &Path) -> PathBuf {
        zip.join(&self.name)
    }
}

/// The files of the zip at `path` (folders left out), in the zip's order; one
/// [`IngestError::BadZip`] (or the error of opening the file) when it cannot be read as a
/// zip, holds more entries than `limits.max_archive_entries`, or is password protected.
pub fn list_zip(path: &Path, limits: &IngestLimits) -> Result<Vec<ZipMember>, IngestError> {
    let (file, _) = open_regular(path)?;
    let bad = |reason: String| IngestError::BadZip { path: path.to_path_buf(), reason };
    let listed = catch_unwind(AssertUnwindSafe(|| list(BufReader::new(file), limits)));
    match listed {
        Ok(Ok(members)) => Ok(members),
        Ok(Err(reason)) => Err(bad(reason)),
        Err(_) => Err(bad("its directory crashed the zip reader".into())),
    }
}

fn list<R: Read + Seek>(reader: R, limits: &IngestLimits) -> Result<Vec<ZipMember>, String> {
    let mut archive = ZipArchive::new(reader).map_err(|e| match e {
        ZipError::InvalidArchive(_) | ZipError::Io(_) => format!("damaged or not a zip: {e}"),
        other => other.to_string(),
    })?;
    if archive.len() > limits.max_archive_entries {
        return Err(format!("{} entries, limit {}", archive.len(), limits.max_archive_entries));
    }
    let mut members = Vec::new();
    let mut encrypted = 0;
    for index in 0..archive.len() {
        let entry = archive.by_index_raw(index).map_err(|e| format!("damaged entry {index}: {e}"))?;
        if entry.is_dir() {
            continue;
        }
        let Ok(name) = entry.name().map(|n| n.into_owned()) else {
            continue;
        };
        encrypted += usize::from(entry.encrypted());
        let modified = entry.last_modified().filter(|t| t.is_valid()).map(|t| {
            format!(
                "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
                t.year(),
                t.month(),
                t.day(),
                t.hour(),
                t.minute(),
                t.second()
            )
        });
        members.push(ZipMember { index, name, modified, declared_bytes: entry.size() });
    }
    if encrypted > 0 && encrypted == members.len() {
        return Err("password protected: export the submissions again without a password".into());
    }
    Ok(members)
}

/// The bytes of `member` of the zip at `zip`, at most `limits.max_file_bytes` of them;
/// the zip's directory is read once and kept in `zips`.
pub(crate) fn read_member(
    zips: &OpenZips,
    zip: &Path,
    member: &ZipMember,
    limits: &IngestLimits,
) -> Result<Vec<u8>, IngestError> {
    let path = member.path_in(zip);
    let read = catch_unwind(AssertUnwindSafe(|| {
        let archive = zips.get(zip, || {
            let (file, _) = open_regular(zip)?;
            ZipArchive::new(SharedFile::new(file)).map_err(|e| bad_entry(&path, format!("damaged or not a zip: {e}")))
        })?;
        inflate(archive, member, &path, limits)
    }));
    let bytes = read.unwrap_or_else(|_| Err(bad_entry(&path, "the entry crashed the zip reader".into())))?;
    if bytes.is_empty() {
        return Err(IngestError::Empty { path });
    }
    Ok(bytes)
}

fn inflate(
    mut archive: OpenZip,
    member: &ZipMember,
    path: &Path,
    limits: &IngestLimits,
) -> Result<Vec<u8>, IngestError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let format = sniff::format_by_extension(&ext).unwrap_or(Format::Text);
    let entry = match archive.by_index(member.index) {
        Ok(entry) => entry,
        Err(ZipError::UnsupportedArchive(m)) if m == ZipError::PASSWORD_REQUIRED => {
            return Err(IngestError::Encrypted { path: path.to_path_buf(), format });
        }
        Err(e) => return Err(bad_entry(path, format!("damaged entry: {e}"))),
    };
    if entry.name().ok().as_deref() != Some(member.name.as_str()) {
        return Err(bad_entry(path, "the zip changed while it was read".into()));
    }
    if entry.encrypted() {
        return Err(IngestError::Encrypted { path: path.to_path_buf(), format });
    }
    let limit = limits.max_file_bytes;
    let mut bytes = Vec::new();
    entry
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| bad_entry(path, format!("cannot inflate the entry: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(IngestError::TooLarge { path: path.to_path_buf(), bytes: bytes.len() as u64, limit });
    }
    Ok(bytes)
}

fn bad_entry(path: &Path, reason: String) -> IngestError {
    IngestError::BadZip { path: path.to_path_buf(), reason }
}

#[cfg(test)]
mod tests {
    use std::io::{Cursor, Write};

    use super::*;

    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .last_modified_time(zip::DateTime::from_date_and_time(2026, 3, 1, 12, 30, 46).unwrap());
        w.add_directory("folder/", options).unwrap();
        for (name, data) in entries {
            w.start_file(*name, options).unwrap();
            w.write_all(data).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn files_are_listed_with_their_times_and_read_within_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.zip");
        std::fs::write(&path, zip_of(&[("folder/a.txt", b"alpha"), ("b.txt", &[b'x'; 4096])])).unwrap();
        let members = list_zip(&path, &IngestLimits::default()).unwrap();
        let zips = OpenZips::default();
        let names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["folder/a.txt", "b.txt"]);
        assert_eq!(members[0].modified.as_deref(), Some("2026-03-01 12:30:46"));
        assert_eq!(read_member(&zips, &path, &members[0], &IngestLimits::default()).unwrap(), b"alpha");
        let small = IngestLimits { max_file_bytes: 100, ..IngestLimits::default() };
        let e = read_member(&zips, &path, &members[1], &small).unwrap_err();
        assert!(matches!(e, IngestError::TooLarge { bytes: 101, .. }), "{e:#}");
    }

    #[test]
    fn a_damaged_or_crowded_zip_is_one_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.zip");
        std::fs::write(&path, b"PK\x03\x04 not really a zip").unwrap();
        let e = list_zip(&path, &IngestLimits::default()).unwrap_err();
        assert!(e.to_string().starts_with("not a readable zip of submissions (damaged or not a zip"), "{e}");
        std::fs::write(&path, zip_of(&[("a.txt", b"a"), ("b.txt", b"b")])).unwrap();
        let few = IngestLimits { max_archive_entries: 2, ..IngestLimits::default() };
        let e = list_zip(&path, &few).unwrap_err();
        assert!(e.to_string().contains("3 entries, limit 2"), "{e}");
    }
}

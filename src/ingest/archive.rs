//! Bounded reading of ZIP containers (.docx, .odt): the entry count, the declared and
//! the actual uncompressed size are all checked, so a zip bomb is refused, not inflated.

use std::collections::BTreeMap;
use std::io::{Cursor, Read};

use zip::ZipArchive;
use zip::result::ZipError;

use super::contain::Budget;
use super::error::Failure;
use super::{Format, IngestLimits};

/// The parts of an archive that were asked for, by name, fully read.
pub(crate) struct Parts {
    pub(crate) parts: BTreeMap<String, Vec<u8>>,
}

impl Parts {
    /// The bytes of part `name`, if it was read.
    pub(crate) fn get(&self, name: &str) -> Option<&[u8]> {
        self.parts.get(name).map(Vec::as_slice)
    }
}

/// What kind of office document a ZIP archive holds, told by its entries.
pub(crate) fn kind(bytes: &[u8], by_ext: Option<Format>, limits: &IngestLimits) -> Result<Format, Failure> {
    let guess = match by_ext {
        Some(f @ Format::Odt) => f,
        _ => Format::Docx,
    };
    let archive = open(bytes, guess, limits)?;
    let names: Vec<&[u8]> = archive.file_names_raw().collect();
    if names.contains(&&b"word/document.xml"[..]) {
        return Ok(Format::Docx);
    }
    if names.contains(&&b"content.xml"[..]) || names.contains(&&b"mimetype"[..]) {
        return Ok(Format::Odt);
    }
    if names.contains(&&b"[Content_Types].xml"[..]) {
        return Ok(Format::Docx);
    }
    Err(match by_ext {
        Some(f @ (Format::Docx | Format::Odt)) => Failure::Corrupt(f, "the ZIP archive holds no document part".into()),
        _ => Failure::Unsupported("a ZIP archive that is neither .docx nor .odt".into()),
    })
}

/// Opens the archive, refusing one with more entries than the limit.
fn open<'a>(bytes: &'a [u8], format: Format, limits: &IngestLimits) -> Result<ZipArchive<Cursor<&'a [u8]>>, Failure> {
    let archive = ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| Failure::Corrupt(format, format!("not a readable ZIP archive: {e}")))?;
    if archive.len() > limits.max_archive_entries {
        return Err(Failure::ArchiveTooLarge(
            format,
            format!("{} entries, limit {}", archive.len(), limits.max_archive_entries),
        ));
    }
    Ok(archive)
}

/// Reads every entry whose name `want` accepts, within `limits`.
pub(crate) fn read_parts(
    bytes: &[u8],
    format: Format,
    limits: &IngestLimits,
    budget: &Budget,
    want: impl Fn(&str) -> bool,
) -> Result<Parts, Failure> {
    let mut archive = open(bytes, format, limits)?;
    let limit = limits.max_uncompressed_bytes;
    let mut wanted = Vec::new();
    let mut declared: u64 = 0;
    for index in 0..archive.len() {
        let entry = archive.by_index_raw(index).map_err(|e| corrupt(format, e))?;
        let Ok(name) = entry.name().map(|n| n.into_owned()) else {
            continue;
        };
        if entry.is_dir() || !want(&name) {
            continue;
        }
        if entry.encrypted() {
            return Err(Failure::Encrypted(format));
        }
        declared = declared.saturating_add(entry.size());
        wanted.push((index, name));
    }
    if declared > limit {
        return Err(Failure::ArchiveTooLarge(format, format!("declares {declared} uncompressed bytes, limit {limit}")));
    }
    let mut parts = BTreeMap::new();
    let mut total: u64 = 0;
    for (index, name) in wanted {
        if budget.exhausted() {
            return Err(Failure::TimedOut);
        }
        let entry = archive.by_index(index).map_err(|e| corrupt(format, e))?;
        let left = limit.saturating_sub(total);
        let mut data = Vec::new();
        // Never trust the declared size: read at most what the limit leaves, plus one.
        entry
            .take(left.saturating_add(1))
            .read_to_end(&mut data)
            .map_err(|e| Failure::Corrupt(format, format!("cannot inflate {name}: {e}")))?;
        total = total.saturating_add(data.len() as u64);
        if total > limit {
            return Err(Failure::ArchiveTooLarge(format, format!("expands to more than {limit} bytes")));
        }
        parts.insert(name, data);
    }
    Ok(Parts { parts })
}

fn corrupt(format: Format, e: ZipError) -> Failure {
    match &e {
        ZipError::UnsupportedArchive(m) if *m == ZipError::PASSWORD_REQUIRED => Failure::Encrypted(format),
        _ => Failure::Corrupt(format, format!("broken ZIP entry: {e}")),
    }
}

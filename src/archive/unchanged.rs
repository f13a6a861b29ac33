//! Deciding "unchanged" before a file is read, as the reference cache does: a file whose
//! resolved path, size, modification time and status-change time are those recorded
//! with its archived version is that version, and its content is not read at all; a file
//! whose stamp differs (or was never recorded) is hashed, and only a file whose SHA-256
//! is new is read, normalized and fingerprinted.
//!
//! The stamps live in the catalog beside each document (`mtime_ns`, `ctime_ns`, with
//! `size`), keyed by the `source` column, so every spelling of a path finds them. A stamp
//! is recorded only for a file modified at least [`SETTLED`] before it was seen: a change
//! within the same clock tick would keep its size and times.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::Path;
use std::time::SystemTime;

use rusqlite::Connection;

pub(super) use super::rows::FileStamp;
use super::rows;
use crate::cache::{SETTLED, nanos_since_epoch, status_changed_ns};

/// The stamp of the file at `path`, if it can be had and the file has settled.
pub(super) fn stamp_of(path: &Path) -> Option<FileStamp> {
    let meta = std::fs::metadata(path).ok().filter(std::fs::Metadata::is_file)?;
    let modified = meta.modified().ok()?;
    let settled = SystemTime::now().duration_since(modified).is_ok_and(|age| age >= SETTLED);
    settled.then(|| FileStamp {
        size: i64::try_from(meta.len()).unwrap_or(i64::MAX),
        mtime_ns: nanos_since_epoch(modified),
        ctime_ns: status_changed_ns(&meta),
    })
}

/// An archived version of a file, as the add's snapshot holds it.
struct Version {
    id: u32,
    sha256: [u8; 32],
    stamp: Option<FileStamp>,
}

/// The catalog's versions of files, read once at the start of an add (the writer lock is
/// held, so only this add changes them): by resolved path, by the path as added for
/// documents archived before resolved paths were recorded, and every SHA-256 (a new file
/// with the bytes of an archived one is a copy, not archived again).
#[derive(Default)]
pub(super) struct Known {
    by_source: HashMap<String, Vec<Version>>,
    by_path: HashMap<String, Vec<Version>>,
    digests: HashSet<[u8; 32]>,
}

/// What the snapshot says of a file once its bytes are hashed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Its bytes are those of these archived versions of it (their stamps are to be
    /// recorded), or of another archived file (a copy: no ids).
    SameBytes(Vec<u32>),
    /// New or changed: to be read and fingerprinted.
    Changed,
}

impl Known {
    /// Reads the snapshot from the catalog.
    pub fn read(conn: &Connection) -> Result<Self, rusqlite::Error> {
        let mut known = Self::default();
        rows::for_each_version(conn, &mut |row| {
            // A SHA-256 that is not one (a damaged row) never matches: the file is read.
            let Some(sha256) = digest_of_hex(&row.sha256) else { return };
            let version = Version { id: row.id, sha256, stamp: row.stamp };
            known.digests.insert(sha256);
            match row.source {
                Some(source) => known.by_source.entry(source).or_default().push(version),
                None => known.by_path.entry(row.path).or_default().push(version),
            }
        })?;
        Ok(known)
    }

    /// Whether the archive held no document: then every file is new and none is hashed
    /// before it is read (its SHA-256 comes with its reading).
    pub fn is_empty(&self) -> bool {
        self.digests.is_empty()
    }

    /// The archived versions of the file resolving to `source`, given as `path`.
    fn versions<'a>(&'a self, source: &str, path: &str) -> impl Iterator<Item = &'a Version> {
        self.by_source.get(source).into_iter().chain(self.by_path.get(path)).flatten()
    }

    /// Whether `stamp` is that of an archived version of the file: nothing to read.
    pub fn same_stamp(&self, source: &str, path: &str, stamp: Option<FileStamp>) -> bool {
        stamp.is_some_and(|s| self.versions(source, path).any(|v| v.stamp == Some(s)))
    }

    /// The verdict on a file whose bytes hash to `sha256`.
    pub fn by_digest(&self, source: &str, path: &str, sha256: &[u8; 32]) -> Verdict {
        let mut versions = self.versions(source, path).peekable();
        if versions.peek().is_none() {
            return if self.digests.contains(sha256) { Verdict::SameBytes(Vec::new()) } else { Verdict::Changed };
        }
        let same: Vec<u32> = versions.filter(|v| v.sha256 == *sha256).map(|v| v.id).collect();
        if same.is_empty() { Verdict::Changed } else { Verdict::SameBytes(same) }
    }
}

/// SHA-256 of the file at `path`, read in pieces.
pub(super) fn file_digest(path: &Path) -> std::io::Result<[u8; 32]> {
    use sha2::Digest;
    let mut file = std::fs::File::open(path)?;
    let mut hasher = sha2::Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buf)? {
            0 => break,
            n => hasher.update(&buf[..n]),
        }
    }
    Ok(hasher.finalize().into())
}

/// The 32 bytes of a lowercase (or uppercase) hex SHA-256; `None` if it is not one.
fn digest_of_hex(hex: &str) -> Option<[u8; 32]> {
    let bytes = hex.as_bytes();
    if bytes.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in bytes.chunks_exact(2).enumerate() {
        let text = std::str::from_utf8(pair).ok()?;
        out[i] = u8::from_str_radix(text, 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_round_trip_through_hex() {
        let hex = crate::ingest::sha256_hex(b"twinspot");
        let digest = digest_of_hex(&hex).unwrap();
        assert_eq!(digest_of_hex(&hex.to_uppercase()), Some(digest));
        assert_eq!(digest_of_hex("abc"), None);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f.txt");
        std::fs::write(&file, b"twinspot").unwrap();
        assert_eq!(file_digest(&file).unwrap(), digest);
    }

    #[test]
    fn a_file_modified_just_now_has_no_stamp_yet() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f.txt");
        std::fs::write(&file, b"text").unwrap();
        assert_eq!(stamp_of(&file), None);
        let past = SystemTime::now() - std::time::Duration::from_secs(60);
        std::fs::File::options().write(true).open(&file).unwrap().set_modified(past).unwrap();
        let stamp = stamp_of(&file).unwrap();
        assert_eq!(stamp.size, 4);
        assert_eq!(stamp_of(dir.path()), None);
    }
}

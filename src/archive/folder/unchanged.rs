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
use std::path::Path;
use std::sync::Mutex;
use std::time::SystemTime;

use rusqlite::Connection;

use super::{catalog, rows};
use crate::archive::error::ArchiveError;
pub(in crate::archive) use crate::archive::records::FileStamp;
use crate::cache::{SETTLED, nanos_since_epoch, status_changed_ns};

/// The stamp of the file at `path`, if it can be had and the file has settled.
pub(in crate::archive) fn stamp_of(path: &Path) -> Option<FileStamp> {
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

/// A whole read of the catalog costs about as much as this many lookups of one file's
/// versions: an add of fewer files than the archive holds documents over this asks for
/// its files' versions batch by batch instead (a call of 5,000 files into a
/// million-document archive); a larger one reads them all at once (the daily add of a
/// whole folder).
const ROWS_PER_LOOKUP: usize = 20;

/// Whether an add of `files` files into an archive of `documents` asks for its files'
/// versions ([`Known::of_files`]) rather than reading every one ([`Known::read`]).
pub(in crate::archive) fn asks_file_by_file(files: usize, documents: usize) -> bool {
    files.saturating_mul(ROWS_PER_LOOKUP) < documents
}

/// How a snapshot tells whether bytes are archived anywhere (a new file with the bytes of
/// an archived one is a copy, not archived again).
enum Digests<'r> {
    /// Every archived SHA-256, read with the snapshot.
    All(HashSet<[u8; 32]>),
    /// Asked of the catalog, one file at a time.
    Ask(&'r Mutex<Connection>),
}

/// The catalog's versions of files as an add sees them (the writer lock is held, so only
/// this add changes them): by resolved path, by the path as added for documents archived
/// before resolved paths were recorded, and whether bytes are archived at all. Either
/// every version, read once at the start of the add ([`Known::read`]), or those of one
/// batch's files ([`Known::of_files`]).
pub(in crate::archive) struct Known<'r> {
    by_source: HashMap<String, Vec<Version>>,
    by_path: HashMap<String, Vec<Version>>,
    digests: Digests<'r>,
}

/// What the snapshot says of a file once its bytes are hashed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::archive) enum Verdict {
    /// Its bytes are those of these archived versions of it (their stamps are to be
    /// recorded), or of another archived file (a copy: no ids).
    SameBytes(Vec<u32>),
    /// New or changed: to be read and fingerprinted.
    Changed,
}

impl Known<'static> {
    /// Reads every archived version from the catalog.
    pub fn read(conn: &Connection) -> Result<Self, rusqlite::Error> {
        let mut known = Self::new(Digests::All(HashSet::new()));
        let mut digests = HashSet::new();
        rows::for_each_version(conn, &mut |row| {
            if let Some(sha256) = known.insert(row) {
                digests.insert(sha256);
            }
        })?;
        known.digests = Digests::All(digests);
        Ok(known)
    }
}

impl<'r> Known<'r> {
    fn new(digests: Digests<'r>) -> Self {
        Self { by_source: HashMap::new(), by_path: HashMap::new(), digests }
    }

    /// Reads the archived versions of `files` alone (each file's resolved path and the
    /// path as given) from `reader`, a connection of the add's own; whether other bytes
    /// are archived is asked of it file by file.
    pub fn of_files(reader: &'r Mutex<Connection>, files: &[(&str, &str)]) -> Result<Self, rusqlite::Error> {
        let mut known = Self::new(Digests::Ask(reader));
        let conn = reader.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut seen: HashSet<u32> = HashSet::new();
        for &(source, path) in files {
            for row in rows::versions_with_stamps(&conn, source, path)? {
                // Two spellings of one file find its versions twice.
                if seen.insert(row.id) {
                    known.insert(row);
                }
            }
        }
        Ok(known)
    }

    /// Files one archived version under its resolved path, or the path as added; its
    /// SHA-256. A SHA-256 that is not one (a damaged row) never matches: the file is read.
    fn insert(&mut self, row: rows::VersionRow) -> Option<[u8; 32]> {
        let sha256 = digest_of_hex(&row.sha256)?;
        let version = Version { id: row.id, sha256, stamp: row.stamp };
        match row.source {
            Some(source) => self.by_source.entry(source).or_default().push(version),
            None => self.by_path.entry(row.path).or_default().push(version),
        }
        Some(sha256)
    }

    /// Whether the archive held no document: then every file is new and none is hashed
    /// before it is read (its SHA-256 comes with its reading).
    /// (A snapshot that asks file by file is taken only of an archive holding documents.)
    pub fn is_empty(&self) -> bool {
        match &self.digests {
            Digests::All(all) => all.is_empty(),
            Digests::Ask(_) => false,
        }
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
            return if self.archived(sha256) { Verdict::SameBytes(Vec::new()) } else { Verdict::Changed };
        }
        let same: Vec<u32> = versions.filter(|v| v.sha256 == *sha256).map(|v| v.id).collect();
        if same.is_empty() { Verdict::Changed } else { Verdict::SameBytes(same) }
    }

    /// Whether some archived document has the bytes hashing to `sha256`. A question the
    /// catalog cannot answer is taken for "no": the file is then read, and its commit
    /// finds the copy all the same and does not archive it twice.
    fn archived(&self, sha256: &[u8; 32]) -> bool {
        match &self.digests {
            Digests::All(all) => all.contains(sha256),
            Digests::Ask(reader) => {
                let conn = reader.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                let hex = crate::ingest::lowercase_hex(sha256);
                rows::first_with_sha256(&conn, &hex).is_ok_and(|id| id.is_some())
            }
        }
    }
}

/// What an add knows of archived versions, batch by batch: every version, read once at
/// its start, or each batch's own, asked of a connection of the add's own (see
/// [`asks_file_by_file`]).
pub(in crate::archive) enum Snapshot {
    Whole(Known<'static>),
    FileByFile(Mutex<Connection>),
}

impl Snapshot {
    /// The snapshot of an add of `files` files to the archive in `dir`: `conn` reads
    /// every version, or a connection of its own asks for each batch's.
    pub fn take(conn: &Connection, dir: &Path, files: usize) -> Result<Self, ArchiveError> {
        let sql = |e| ArchiveError::sql(dir, e);
        let documents = rows::document_count(conn).map_err(sql)?;
        if !asks_file_by_file(files, documents) {
            return Ok(Self::Whole(Known::read(conn).map_err(sql)?));
        }
        Ok(Self::FileByFile(Mutex::new(catalog::open(dir, false)?)))
    }

    /// What it knows of `files` (each file's resolved path and the path as given).
    pub fn of_batch(&self, files: &[(&str, &str)]) -> Result<Batch<'_>, rusqlite::Error> {
        match self {
            Self::Whole(known) => Ok(Batch::Whole(known)),
            Self::FileByFile(reader) => Ok(Batch::Own(Known::of_files(reader, files)?)),
        }
    }
}

/// A batch's view of a [`Snapshot`].
pub(in crate::archive) enum Batch<'a> {
    Whole(&'a Known<'static>),
    Own(Known<'a>),
}

impl<'a> std::ops::Deref for Batch<'a> {
    type Target = Known<'a>;

    fn deref(&self) -> &Known<'a> {
        match self {
            Self::Whole(known) => known,
            Self::Own(known) => known,
        }
    }
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
    fn only_an_add_of_few_files_into_many_documents_asks_file_by_file() {
        assert!(!asks_file_by_file(3, 0));
        assert!(!asks_file_by_file(100_000, 100_000));
        assert!(!asks_file_by_file(5_000, 100_000));
        assert!(asks_file_by_file(5_000, 1_000_000));
        assert!(asks_file_by_file(1, 21));
        assert!(!asks_file_by_file(usize::MAX, usize::MAX));
    }

    #[test]
    fn digests_round_trip_through_hex() {
        let hex = crate::ingest::sha256_hex(b"twinspot");
        let digest = digest_of_hex(&hex).unwrap();
        assert_eq!(digest_of_hex(&hex.to_uppercase()), Some(digest));
        assert_eq!(digest_of_hex("abc"), None);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f.txt");
        std::fs::write(&file, b"twinspot").unwrap();
        assert_eq!(crate::archive::prepare::file_digest(&file).unwrap(), digest);
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

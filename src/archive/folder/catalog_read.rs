//! The archive's catalog behind a trait: what a check reads of an archive, narrow enough
//! for a second store (a database server shared by a department) to provide it. Today
//! one store exists, [`SqliteCatalog`], the `catalog.sqlite` of an archive folder; the
//! writers (add, remove, expire, merges) still speak SQLite through [`super::rows`].
//!
//! A check asks for one snapshot ([`CatalogRead::begin_snapshot`]) and reads everything
//! from it: the segment list, removed ids and counts once, then SimHash neighbours,
//! stored texts, token keys and report rows as candidates come. Errors are
//! [`ArchiveError`]s, whatever the store.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use rusqlite::Connection;
use rustc_hash::FxHashSet;

use super::rows::{self, GlanceFn, SegmentRow};
use crate::archive::error::ArchiveError;
use crate::archive::records::{EntryRow, StoredRow};

/// What a check reads of an archive's catalog.
pub(in crate::archive) trait CatalogRead: Send + Sync {
    /// Begins the snapshot every later read sees (until [`CatalogRead::end_snapshot`]).
    fn begin_snapshot(&self) -> Result<(), ArchiveError>;
    /// Ends the snapshot; nothing was written in it, so ending it cannot fail to matter.
    fn end_snapshot(&self);
    /// Every listed segment, oldest first.
    fn segments(&self) -> Result<Vec<SegmentRow>, ArchiveError>;
    /// The ids of removed documents, whose postings are skipped.
    fn removed_ids(&self) -> Result<FxHashSet<u32>, ArchiveError>;
    /// The number of archived documents.
    fn document_count(&self) -> Result<usize, ArchiveError>;
    /// The largest id ever given (a posting of a larger one is damage).
    fn last_id(&self) -> Result<u32, ArchiveError>;
    /// The first document archived with its character grams, and the oldest document
    /// ([`super::catalog::char_gram_bounds`]).
    fn char_gram_bounds(&self) -> Result<(Option<u32>, Option<u32>), ArchiveError>;
    /// (id, SimHash) of the documents that may lie within 3 bits of `near` (at least all
    /// those that do), or of every document with a SimHash when `None`.
    fn simhash_rows(&self, near: Option<u64>) -> Result<Vec<(u32, u64)>, ArchiveError>;
    /// The stored text, SimHash and keywords of `doc`.
    fn stored(&self, doc: u32) -> Result<Option<StoredRow>, ArchiveError>;
    /// Calls `each` with the token keys and SimHash of each of `docs` that has keys, until
    /// it returns false.
    fn glances(&self, docs: &[u32], each: &mut GlanceFn<'_>) -> Result<(), ArchiveError>;
    /// The first document with these bytes (by SHA-256).
    fn first_with_sha256(&self, sha256: &str) -> Result<Option<u32>, ArchiveError>;
    /// How many documents hold more than `max` characters.
    fn longer_than(&self, max: usize) -> Result<usize, ArchiveError>;
    /// What a report shows of `doc`.
    fn entry(&self, doc: u32) -> Result<Option<EntryRow>, ArchiveError>;
}

/// The catalog of an archive folder: one SQLite connection, one user at a time.
pub(in crate::archive) struct SqliteCatalog {
    dir: PathBuf,
    conn: Mutex<Connection>,
}

impl SqliteCatalog {
    pub(in crate::archive) fn new(dir: &Path, conn: Connection) -> Self {
        Self { dir: dir.to_path_buf(), conn: Mutex::new(conn) }
    }

    /// The connection, for the writers' transactions.
    pub(in crate::archive) fn lock(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn sql(&self, error: rusqlite::Error) -> ArchiveError {
        ArchiveError::sql(&self.dir, error)
    }

    /// Runs `read` on the connection, its error told as the archive's.
    fn read<T>(&self, read: impl FnOnce(&Connection) -> Result<T, rusqlite::Error>) -> Result<T, ArchiveError> {
        read(&self.lock()).map_err(|e| self.sql(e))
    }
}

impl CatalogRead for SqliteCatalog {
    fn begin_snapshot(&self) -> Result<(), ArchiveError> {
        self.read(rows::begin_read)
    }

    fn end_snapshot(&self) {
        rows::end_read(&self.lock());
    }

    fn segments(&self) -> Result<Vec<SegmentRow>, ArchiveError> {
        self.read(rows::segments)
    }

    fn removed_ids(&self) -> Result<FxHashSet<u32>, ArchiveError> {
        self.read(rows::removed_ids)
    }

    fn document_count(&self) -> Result<usize, ArchiveError> {
        self.read(rows::document_count)
    }

    fn last_id(&self) -> Result<u32, ArchiveError> {
        self.read(rows::last_id)
    }

    fn char_gram_bounds(&self) -> Result<(Option<u32>, Option<u32>), ArchiveError> {
        self.read(super::catalog::char_gram_bounds)
    }

    fn simhash_rows(&self, near: Option<u64>) -> Result<Vec<(u32, u64)>, ArchiveError> {
        self.read(|conn| rows::simhash_rows(conn, near))
    }

    fn stored(&self, doc: u32) -> Result<Option<StoredRow>, ArchiveError> {
        self.read(|conn| rows::stored(conn, doc))
    }

    fn glances(&self, docs: &[u32], each: &mut GlanceFn<'_>) -> Result<(), ArchiveError> {
        let ids = serde_json::to_string(docs).map_err(|e| ArchiveError::Corrupt(e.to_string()))?;
        self.read(|conn| rows::glances(conn, &ids, each))
    }

    fn first_with_sha256(&self, sha256: &str) -> Result<Option<u32>, ArchiveError> {
        self.read(|conn| rows::first_with_sha256(conn, sha256))
    }

    fn longer_than(&self, max: usize) -> Result<usize, ArchiveError> {
        self.read(|conn| rows::longer_than(conn, max))
    }

    fn entry(&self, doc: u32) -> Result<Option<EntryRow>, ArchiveError> {
        self.read(|conn| rows::entry(conn, doc))
    }
}

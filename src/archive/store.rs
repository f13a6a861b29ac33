//! The seam between the archive's verbs and the two stores that keep an archive: a folder
//! ([`super::folder`]) and a PostgreSQL schema ([`super::server`]). A verb written once
//! above it ([`super::verbs`]) asks a store for its settings, a snapshot to check against,
//! and row-level reads and writes inside one transaction ([`Rows`]); each store answers
//! in its own SQL, its errors said once, as [`ArchiveError`]s.
//!
//! A new stored signal is one [`crate::index::Signal`] case and one postings store a
//! backend: the verbs above do not change.

use super::ArchiveError;
use crate::index::StoredReferences;
use crate::settings::Settings;

/// Documents with the file each was archived from.
pub(super) type Sources = Vec<(u32, String)>;

/// One store of an archive, as the verbs see it.
pub(super) trait ArchiveStore {
    /// A snapshot of the archive for one check: every read of the check sees it.
    type Snapshot<'a>: StoredReferences
    where
        Self: 'a;

    /// The settings the archive is used with.
    fn settings(&self) -> &Settings;

    /// Refuses a change (`action` names it: "remove from") when this archive was opened
    /// only to read, or the role lacks the right.
    fn require_write(&self, action: &'static str) -> Result<(), ArchiveError>;

    /// Begins a snapshot for a check.
    fn snapshot(&self) -> Result<Self::Snapshot<'_>, ArchiveError>;

    /// A check's error as this store says it (a folder names itself in damage).
    fn told(&self, error: ArchiveError) -> ArchiveError;

    /// Runs `change` in one write transaction: all of it lands, or none.
    fn write<T>(&self, change: impl FnOnce(&mut dyn Rows) -> Result<T, ArchiveError>) -> Result<T, ArchiveError>;
}

/// The row-level reads and writes of a transaction, the same in both stores.
pub(super) trait Rows {
    /// Whether document `id` is archived.
    fn has_document(&mut self, id: u32) -> Result<bool, ArchiveError>;
    /// The documents archived from the file `real` (a path as `given` resolves to it; a
    /// store that recorded no resolved path for older documents also matches `given`).
    fn ids_by_path(&mut self, given: &str, real: &str) -> Result<Vec<u32>, ArchiveError>;
    /// The documents archived under the path `given` as added, with the file each came from.
    fn sources_added_as(&mut self, given: &str) -> Result<Sources, ArchiveError>;
    /// Every document archived with the file it resolved to, by id.
    fn sources(&mut self) -> Result<Sources, ArchiveError>;
    /// The documents dated before `day` (publication date, else the day added), by id.
    fn ids_dated_before(&mut self, day: &str) -> Result<Vec<u32>, ArchiveError>;
    /// Removes document `id` (its group keeps its earliest other member).
    fn remove_document(&mut self, id: u32) -> Result<(), ArchiveError>;
}

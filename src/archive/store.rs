//! The seam between the archive's verbs and the two stores that keep an archive: a folder
//! ([`super::folder`]) and a PostgreSQL schema ([`super::server`]). A verb written once
//! above it ([`super::verbs`]) asks a store for its settings, a snapshot to check against,
//! and row-level reads and writes inside one transaction ([`Rows`]); each store answers
//! in its own SQL, its errors said once, as [`ArchiveError`]s.
//!
//! A new stored signal is one [`crate::index::Signal`] case and one postings store a
//! backend: the verbs above do not change.

use super::error::ArchiveError;
use super::outcomes::{AddOptions, EachText, Stored, VerifyReport};
use super::records::DocumentInfo;
use crate::engine::{CancelFlag, DocumentInput, ProgressSink};
use crate::fingerprint::simhash::Dictionary;
use crate::index::StoredReferences;
use crate::ingest::Extractor;
use crate::settings::Settings;

/// Documents with the file each was archived from.
pub(super) type Sources = Vec<(u32, String)>;

/// One store of an archive, as the verbs see it.
pub(super) trait ArchiveStore {
    /// A snapshot of the archive for one check: every read of the check sees it.
    type Snapshot<'a>: StoredReferences
    where
        Self: 'a;

    /// What a store keeps running until an add ends ([`Self::finish_add`]).
    type Running;

    /// The settings the archive is used with.
    fn settings(&self) -> &Settings;

    /// The archive as it may be shown (a folder, or a server without its password).
    fn shown(&self) -> String;

    /// Refuses a change (`action` names it: "remove from") when this archive was opened
    /// only to read, or the role lacks the right.
    fn require_write(&self, action: &'static str) -> Result<(), ArchiveError>;

    /// Begins a snapshot for a check.
    fn snapshot(&self) -> Result<Self::Snapshot<'_>, ArchiveError>;

    /// A check's error as this store says it (a folder names itself in damage).
    fn told(&self, error: ArchiveError) -> ArchiveError;

    /// Every document, by id.
    fn list(&self) -> Result<Vec<DocumentInfo>, ArchiveError>;

    /// Calls `each` with every document's id and stored text, by id (`None`: its text
    /// is missing).
    fn for_each_text(&self, each: &mut EachText<'_>) -> Result<(), ArchiveError>;

    /// Checks, for `verify`, what this store keeps of its own (a folder: its catalog's
    /// integrity and counts, its segment files), adding what it finds to `report`.
    fn verify_own(&self, report: &mut VerifyReport) -> Result<(), ArchiveError>;

    /// Runs `change` in one write transaction: all of it lands, or none.
    fn write<T>(&self, change: impl FnOnce(&mut dyn Rows) -> Result<T, ArchiveError>) -> Result<T, ArchiveError>;

    /// An add's own part ([`super::verbs::add::add`]): reads and fingerprints `inputs`
    /// with `readers`, in batches committed one by one, telling `sink` of each file;
    /// after a cancel, only what is committed stays.
    fn store_files(
        &self,
        inputs: &[DocumentInput],
        options: &AddOptions,
        readers: (&Extractor, &Dictionary),
        progress: (&dyn ProgressSink, &CancelFlag),
    ) -> Result<Stored<Self::Running>, ArchiveError>;

    /// Ends what [`Self::store_files`] left running, once the add is done.
    fn finish_add(&self, running: Self::Running);

    /// Runs `look` in one transaction that only reads: it waits for no writer.
    fn read<T>(&self, look: impl FnOnce(&mut dyn Rows) -> Result<T, ArchiveError>) -> Result<T, ArchiveError>;
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
    /// The group of document `id`, or `None` when it is not archived.
    fn group_of(&mut self, id: u32) -> Result<Option<u32>, ArchiveError>;
    /// Whether any of `others` is in another group than document `id`'s.
    fn any_outside_group_of(&mut self, id: u32, others: &[u32]) -> Result<bool, ArchiveError>;
    /// The documents archived under `path` (as added) with the bytes `sha256`.
    fn ids_by_path_and_sha256(&mut self, path: &str, sha256: &str) -> Result<Vec<u32>, ArchiveError>;
    /// Moves every member of group `from` into group `into`.
    fn join_groups(&mut self, into: u32, from: u32) -> Result<(), ArchiveError>;
}

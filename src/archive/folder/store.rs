//! The folder archive as an [`ArchiveStore`]: a check's snapshot is its mapped segments
//! ([`ArchiveIndex`]), a transaction one immediate SQLite transaction of its catalog.

use rusqlite::Transaction;

use super::add::Running;
use super::index::ArchiveIndex;
use super::{Archive, rows};
use crate::archive::error::ArchiveError;
use crate::archive::outcomes::{AddOptions, EachText, Stored, VerifyReport};
use crate::archive::records::DocumentInfo;
use crate::archive::store::{ArchiveStore, Rows, Sources};
use crate::engine::{CancelFlag, DocumentInput, ProgressSink};
use crate::fingerprint::simhash::Dictionary;
use crate::ingest::Extractor;
use crate::settings::Settings;

impl ArchiveStore for Archive {
    type Snapshot<'a> = ArchiveIndex<'a>;
    type Running = Running;

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn shown(&self) -> String {
        self.dir.display().to_string()
    }

    fn require_write(&self, _action: &'static str) -> Result<(), ArchiveError> {
        self.require_writable()
    }

    fn snapshot(&self) -> Result<ArchiveIndex<'_>, ArchiveError> {
        ArchiveIndex::open(self)
    }

    /// Damage is said with the folder it was found in.
    fn told(&self, error: ArchiveError) -> ArchiveError {
        match error {
            ArchiveError::Corrupt(what) => ArchiveError::Corrupt(format!("{}: {what}", self.dir.display())),
            other => other,
        }
    }

    fn store_files(
        &self,
        inputs: &[DocumentInput],
        options: &AddOptions,
        readers: (&Extractor, &Dictionary),
        progress: (&dyn ProgressSink, &CancelFlag),
    ) -> Result<Stored<Running>, ArchiveError> {
        Archive::store_files(self, inputs, options, readers, progress)
    }

    fn finish_add(&self, running: Running) {
        Archive::finish_add(self, running);
    }

    fn list(&self) -> Result<Vec<DocumentInfo>, ArchiveError> {
        Archive::list(self)
    }

    fn for_each_text(&self, each: &mut EachText<'_>) -> Result<(), ArchiveError> {
        self.each_stored_text(each)
    }

    fn verify_own(&self, report: &mut VerifyReport) -> Result<(), ArchiveError> {
        self.check_keeping(report)
    }

    /// An immediate transaction: the catalog's write lock from its start.
    fn write<T>(&self, change: impl FnOnce(&mut dyn Rows) -> Result<T, ArchiveError>) -> Result<T, ArchiveError> {
        self.transaction(rusqlite::TransactionBehavior::Immediate, change)
    }

    /// A deferred transaction: it reads one snapshot of the catalog and waits for nothing.
    fn read<T>(&self, look: impl FnOnce(&mut dyn Rows) -> Result<T, ArchiveError>) -> Result<T, ArchiveError> {
        self.transaction(rusqlite::TransactionBehavior::Deferred, look)
    }
}

impl Archive {
    /// Runs `work` in one catalog transaction begun as `behavior` says.
    fn transaction<T>(
        &self,
        behavior: rusqlite::TransactionBehavior,
        work: impl FnOnce(&mut dyn Rows) -> Result<T, ArchiveError>,
    ) -> Result<T, ArchiveError> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(behavior).map_err(|e| self.sql(e))?;
        let out = work(&mut CatalogRows { tx: &tx, archive: self })?;
        tx.commit().map_err(|e| self.sql(e))?;
        Ok(out)
    }
}

/// The rows of one catalog transaction.
struct CatalogRows<'t> {
    tx: &'t Transaction<'t>,
    archive: &'t Archive,
}

impl CatalogRows<'_> {
    /// Runs `read` in the transaction, its error the archive's.
    fn run<T>(&self, read: impl FnOnce(&Transaction<'_>) -> Result<T, rusqlite::Error>) -> Result<T, ArchiveError> {
        read(self.tx).map_err(|e| self.archive.sql(e))
    }
}

impl Rows for CatalogRows<'_> {
    fn has_document(&mut self, id: u32) -> Result<bool, ArchiveError> {
        self.run(|tx| rows::has_document(tx, id))
    }

    fn ids_by_path(&mut self, given: &str, real: &str) -> Result<Vec<u32>, ArchiveError> {
        self.run(|tx| rows::ids_by_path(tx, given, real))
    }

    fn sources_added_as(&mut self, given: &str) -> Result<Sources, ArchiveError> {
        self.run(|tx| rows::sources_added_as(tx, given))
    }

    fn sources(&mut self) -> Result<Sources, ArchiveError> {
        self.run(|tx| rows::sources(tx))
    }

    fn ids_dated_before(&mut self, day: &str) -> Result<Vec<u32>, ArchiveError> {
        self.run(|tx| rows::ids_dated_before(tx, day))
    }

    fn remove_document(&mut self, id: u32) -> Result<(), ArchiveError> {
        self.run(|tx| rows::remove_document(tx, id))
    }

    fn group_of(&mut self, id: u32) -> Result<Option<u32>, ArchiveError> {
        self.run(|tx| rows::group_of(tx, id))
    }

    /// One lookup a document: an index seek each.
    fn any_outside_group_of(&mut self, id: u32, others: &[u32]) -> Result<bool, ArchiveError> {
        self.run(|tx| {
            let own = rows::group_of(tx, id)?;
            for &other in others {
                if rows::group_of(tx, other)?.is_some_and(|group| Some(group) != own) {
                    return Ok(true);
                }
            }
            Ok(false)
        })
    }

    fn ids_by_path_and_sha256(&mut self, path: &str, sha256: &str) -> Result<Vec<u32>, ArchiveError> {
        self.run(|tx| rows::ids_by_path_and_sha256(tx, path, sha256))
    }

    fn join_groups(&mut self, into: u32, from: u32) -> Result<(), ArchiveError> {
        self.run(|tx| rows::join_groups(tx, into, from))
    }
}

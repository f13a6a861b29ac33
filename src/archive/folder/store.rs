//! The folder archive as an [`ArchiveStore`]: a check's snapshot is its mapped segments
//! ([`ArchiveIndex`]), a transaction one immediate SQLite transaction of its catalog.

use rusqlite::Transaction;

use super::index::ArchiveIndex;
use super::{Archive, rows};
use crate::archive::ArchiveError;
use crate::archive::store::{ArchiveStore, Rows, Sources};
use crate::settings::Settings;

impl ArchiveStore for Archive {
    type Snapshot<'a> = ArchiveIndex<'a>;

    fn settings(&self) -> &Settings {
        &self.settings
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

    fn write<T>(&self, change: impl FnOnce(&mut dyn Rows) -> Result<T, ArchiveError>) -> Result<T, ArchiveError> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(|e| self.sql(e))?;
        let out = change(&mut CatalogRows { tx: &tx, archive: self })?;
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
}

//! The shared archive as an [`ArchiveStore`]: a check's snapshot is one repeatable-read
//! transaction ([`ServerIndex`]), a write one transaction under the writers' advisory
//! lock.

use super::db::Tx;
use super::index::ServerIndex;
use super::rows::{self, RowError};
use super::{Schema, ServerArchive, lock_writers};
use crate::archive::ArchiveError;
use crate::archive::store::{ArchiveStore, Rows, Sources};
use crate::settings::Settings;

impl ArchiveStore for ServerArchive {
    type Snapshot<'a> = ServerIndex<'a>;

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn require_write(&self, action: &'static str) -> Result<(), ArchiveError> {
        ServerArchive::require_write(self, action)
    }

    fn snapshot(&self) -> Result<ServerIndex<'_>, ArchiveError> {
        ServerIndex::open(self)
    }

    fn told(&self, error: ArchiveError) -> ArchiveError {
        error
    }

    fn write<T>(&self, change: impl FnOnce(&mut dyn Rows) -> Result<T, ArchiveError>) -> Result<T, ArchiveError> {
        let mut client = self.client();
        let mut tx = client.transaction().map_err(|e| self.sql(RowError::Sql(e)))?;
        lock_writers(&mut tx, &self.schema).map_err(|e| self.sql(RowError::Sql(e)))?;
        let out = change(&mut SchemaRows { tx: &mut tx, archive: self })?;
        tx.commit().map_err(|e| self.sql(RowError::Sql(e)))?;
        Ok(out)
    }
}

/// The rows of one server transaction.
struct SchemaRows<'t, 'c> {
    tx: &'t mut Tx<'c>,
    archive: &'t ServerArchive,
}

impl SchemaRows<'_, '_> {
    /// Runs `read` in the transaction, its error the archive's.
    fn run<T>(&mut self, read: impl FnOnce(&mut Tx<'_>, &Schema) -> Result<T, RowError>) -> Result<T, ArchiveError> {
        read(self.tx, &self.archive.schema).map_err(|e| self.archive.sql(e))
    }
}

impl Rows for SchemaRows<'_, '_> {
    fn has_document(&mut self, id: u32) -> Result<bool, ArchiveError> {
        self.run(|tx, s| rows::has_document(tx, s, id))
    }

    /// Every document of a shared archive has its resolved path: `real` alone names it.
    fn ids_by_path(&mut self, _given: &str, real: &str) -> Result<Vec<u32>, ArchiveError> {
        self.run(|tx, s| rows::ids_by_source(tx, s, real))
    }

    fn sources_added_as(&mut self, given: &str) -> Result<Sources, ArchiveError> {
        self.run(|tx, s| rows::sources_added_as(tx, s, given))
    }

    fn sources(&mut self) -> Result<Sources, ArchiveError> {
        self.run(|tx, s| rows::sources(tx, s))
    }

    fn ids_dated_before(&mut self, day: &str) -> Result<Vec<u32>, ArchiveError> {
        self.run(|tx, s| rows::ids_dated_before(tx, s, day))
    }

    fn remove_document(&mut self, id: u32) -> Result<(), ArchiveError> {
        self.run(|tx, s| rows::remove_document(tx, s, id))
    }
}

//! The shared archive as an [`ArchiveStore`]: a check's snapshot is one repeatable-read
//! transaction ([`ServerIndex`]), a write one transaction under the writers' advisory
//! lock.

use super::db::Tx;
use super::index::ServerIndex;
use super::rows::{self, RowError};
use super::{Schema, ServerArchive, lock_writers};
use crate::archive::error::ArchiveError;
use crate::archive::outcomes::{AddOptions, EachText, Stored, VerifyReport};
use crate::archive::records::DocumentInfo;
use crate::archive::store::{ArchiveStore, Rows, Sources};
use crate::archive::verify_text::StoredText;
use crate::engine::{CancelFlag, DocumentInput, ProgressSink};
use crate::fingerprint::simhash::Dictionary;
use crate::ingest::Extractor;
use crate::settings::Settings;

/// Stored texts `verify` reads in one query.
const TEXTS_AT_ONCE: i64 = 500;

impl ArchiveStore for ServerArchive {
    type Snapshot<'a> = ServerIndex<'a>;
    type Running = ();

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn shown(&self) -> String {
        ServerArchive::shown(self)
    }

    fn store_files(
        &self,
        inputs: &[DocumentInput],
        options: &AddOptions,
        readers: (&Extractor, &Dictionary),
        progress: (&dyn ProgressSink, &CancelFlag),
    ) -> Result<Stored<()>, ArchiveError> {
        ServerArchive::store_files(self, inputs, options, readers, progress)
    }

    /// A server's add leaves nothing running.
    fn finish_add(&self, (): ()) {}

    fn require_write(&self, action: &'static str) -> Result<(), ArchiveError> {
        ServerArchive::require_write(self, action)
    }

    fn snapshot(&self) -> Result<ServerIndex<'_>, ArchiveError> {
        ServerIndex::open(self)
    }

    fn told(&self, error: ArchiveError) -> ArchiveError {
        error
    }

    fn list(&self) -> Result<Vec<DocumentInfo>, ArchiveError> {
        ServerArchive::list(self)
    }

    /// A page of texts at a time, so that an archive of millions is never held whole.
    fn for_each_text(&self, each: &mut EachText<'_>) -> Result<(), ArchiveError> {
        let mut after = 0;
        loop {
            let page = rows::texts_after(&mut *self.client(), &self.schema, after, TEXTS_AT_ONCE);
            let page = page.map_err(|e| self.sql(e))?;
            let Some(&(last, ..)) = page.last() else { return Ok(()) };
            for (id, text, chars, keys) in &page {
                let chars = u64::try_from(*chars).unwrap_or(u64::MAX);
                each(*id, Some(StoredText { id: *id, text, chars, keys: Some((keys, 2)) }));
            }
            after = last;
        }
    }

    /// A server keeps no files of its own: its pages are PostgreSQL's to check.
    fn verify_own(&self, _report: &mut VerifyReport) -> Result<(), ArchiveError> {
        Ok(())
    }

    /// A transaction under the writers' advisory lock.
    fn write<T>(&self, change: impl FnOnce(&mut dyn Rows) -> Result<T, ArchiveError>) -> Result<T, ArchiveError> {
        self.transaction(true, change)
    }

    /// A transaction without the writers' lock: it waits for no adder.
    fn read<T>(&self, look: impl FnOnce(&mut dyn Rows) -> Result<T, ArchiveError>) -> Result<T, ArchiveError> {
        self.transaction(false, look)
    }
}

impl ServerArchive {
    /// Runs `work` in one transaction, under the writers' lock when `locked`.
    fn transaction<T>(
        &self,
        locked: bool,
        work: impl FnOnce(&mut dyn Rows) -> Result<T, ArchiveError>,
    ) -> Result<T, ArchiveError> {
        let mut client = self.client();
        let mut tx = client.transaction().map_err(|e| self.sql(RowError::Sql(e)))?;
        if locked {
            lock_writers(&mut tx, &self.schema).map_err(|e| self.sql(RowError::Sql(e)))?;
        }
        let out = work(&mut SchemaRows { tx: &mut tx, archive: self })?;
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

    fn group_of(&mut self, id: u32) -> Result<Option<u32>, ArchiveError> {
        self.run(|tx, s| rows::group_of(tx, s, id))
    }

    /// One query for them all.
    fn any_outside_group_of(&mut self, id: u32, others: &[u32]) -> Result<bool, ArchiveError> {
        self.run(|tx, s| rows::any_outside_group_of(tx, s, id, others))
    }

    fn ids_by_path_and_sha256(&mut self, path: &str, sha256: &str) -> Result<Vec<u32>, ArchiveError> {
        self.run(|tx, s| rows::ids_by_path_and_sha256(tx, s, path, sha256))
    }

    fn join_groups(&mut self, into: u32, from: u32) -> Result<(), ArchiveError> {
        self.run(|tx, s| rows::join_groups(tx, s, into, from))
    }
}

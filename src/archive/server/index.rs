//! A snapshot of a shared archive for matching: the server's side of the
//! [`ReferenceIndex`] seam. One read-only transaction (repeatable read) for the whole
//! check, so that a document added meanwhile is seen whole or not at all; postings of
//! all the hashes a suspect asks for in one round trip (`hash = ANY(…)`).

use std::borrow::Cow;

use rustc_hash::FxHashSet;

use super::super::codec::bands;
use super::super::signals::{count_up_to, holds_char_grams};
use super::db::{Db, Sql};
use super::lookup::{self, Found};
use super::rows::{self, Postings, RowError};
use super::{ArchiveError, ServerArchive, schema};
use crate::archive::cut_spreads::CutSpreads;
use crate::archive::lookups::{BAND_DISTANCE, nearest};
use crate::archive::read_back::{entry_of, reference_of};
use crate::engine::{CancelFlag, CheckRequest, ProgressSink, Report};
use crate::fingerprint::{FingerprintedDoc, GlancedKeys, TokenKeys};
use crate::index::{Glance, Postings as SignalPostings, ReferenceIndex, Signal, Spread, StoreError, StoredReferences};
use crate::model::DocumentEntry;

/// References glanced at per query.
const GLANCE_CHUNK: usize = 4096;

/// The shared archive's references, as one check sees them.
pub struct ServerIndex<'a> {
    archive: &'a ServerArchive,
    removed: FxHashSet<u32>,
    /// The same ids as postings hold them, for lookups that skip them on the server.
    removed_ids: Vec<i32>,
    documents: usize,
    /// Whether every live document's character grams are stored ([`holds_char_grams`]).
    char_grams: bool,
    /// How the archive holds the hashes whose postings a lookup cut (frequent ones), by
    /// table and hash: the same for every suspect of the check's snapshot.
    cut: CutSpreads,
}

impl<'a> ServerIndex<'a> {
    /// Begins the check's snapshot and reads what it needs once.
    pub fn open(archive: &'a ServerArchive) -> Result<Self, ArchiveError> {
        let (removed, documents, char_grams) = {
            let mut client = archive.client();
            // Lookups are of a few thousand hashes among millions: the planner, which
            // counts a common k-gram's many postings against every hash, would scan
            // whole partitions (130 ms for 2,500 hashes at 1,000 documents, against a
            // few through the index).
            let begin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL enable_seqscan = off";
            client.batch_execute(begin).map_err(|e| archive.sql(RowError::Sql(e)))?;
            let s = &archive.schema;
            let read = rows::removed_ids(&mut *client, s).and_then(|removed| {
                let documents = rows::document_count(&mut *client, s)?;
                let bounds = match archive.char_grams {
                    true => schema::char_gram_bounds(&mut *client, s)?,
                    false => (None, None),
                };
                Ok((removed, documents, holds_char_grams(bounds.0, bounds.1)))
            });
            match read {
                Ok(read) => read,
                Err(e) => {
                    client.batch_execute("ROLLBACK").ok();
                    return Err(archive.sql(e));
                }
            }
        };
        let removed_ids = removed.iter().filter_map(|&id| i32::try_from(id).ok()).collect();
        Ok(Self { archive, removed, removed_ids, documents, char_grams, cut: CutSpreads::new() })
    }

    /// Runs `read` on the connection, its failure the archive's error.
    fn read<T>(&self, read: impl FnOnce(&mut Db) -> Result<T, RowError>) -> Result<T, StoreError> {
        read(&mut self.archive.client()).map_err(|e| StoreError::new(self.archive.sql(e)))
    }
}

impl Drop for ServerIndex<'_> {
    /// Ends the read-only snapshot: nothing was written in it.
    fn drop(&mut self) {
        let mut client = self.archive.client();
        if client.batch_execute("COMMIT").is_err() {
            client.batch_execute("ROLLBACK").ok();
        }
    }
}

impl ReferenceIndex for ServerIndex<'_> {
    /// Character grams when every live document's are stored (an archive upgraded from
    /// a format before 10 keeps none of its older documents').
    fn holds(&self, signal: Signal) -> bool {
        signal != Signal::CharGram || self.char_grams
    }

    /// The live postings of each `signal` hash of `hashes`, a frequent hash's first ones
    /// only; how the archive holds those it cut is kept in [`Self::cut`]. An empty list
    /// for each hash of a signal it does not hold.
    fn postings(&self, signal: Signal, hashes: &[u64]) -> Result<SignalPostings<'_>, StoreError> {
        if !self.holds(signal) {
            return Ok(vec![Cow::Borrowed(&[][..]); hashes.len()]);
        }
        let s = &self.archive.schema;
        let (table, count_up_to) = (Postings::of(signal), count_up_to(signal, self.documents));
        let found: Found =
            self.read(|c| lookup::found(c, s, (table, self.archive.folded), hashes, &self.removed_ids, count_up_to))?;
        self.cut.keep(signal, hashes, &found.spreads);
        Ok(found.lists.into_iter().map(Cow::Owned).collect())
    }

    fn spreads(&self, signal: Signal, hashes: &[u64]) -> Vec<Option<Spread>> {
        self.cut.of(signal, hashes)
    }

    fn simhash_neighbours(
        &self,
        simhash: u64,
        after: Option<u32>,
        limit: usize,
    ) -> Result<Vec<(u32, u32)>, StoreError> {
        let threshold = self.archive.settings.simhash_threshold;
        let s = &self.archive.schema;
        let wanted = (threshold <= BAND_DISTANCE).then(|| bands(simhash));
        let rows = self.read(|c| rows::simhash_rows(c, s, wanted))?;
        Ok(nearest(rows, simhash, threshold, after, limit, &self.removed))
    }

    /// Glances with the keys of the windows asked for only (a few hundred bytes a
    /// reference instead of all its keys).
    fn glances(
        &self,
        docs: &[u32],
        windows: &dyn Fn(u32) -> Vec<(u32, u32)>,
        each: &mut dyn FnMut(u32, &Glance<'_>),
    ) -> Result<(), StoreError> {
        let s = &self.archive.schema;
        for chunk in docs.chunks(GLANCE_CHUNK) {
            let asked: Vec<(u32, Vec<(u32, u32)>)> = chunk.iter().map(|&doc| (doc, windows(doc))).collect();
            let rows = self.read(|c| rows::glances(c, s, &asked))?;
            for rows in rows.chunk_by(|x, y| x.doc == y.doc) {
                let doc = rows[0].doc;
                let glance = glance_of(rows).ok_or_else(|| {
                    StoreError::new(ArchiveError::Corrupt(format!("the token keys of document {doc}: odd length")))
                })?;
                each(doc, &glance);
            }
        }
        Ok(())
    }

    fn reference(&self, doc: u32) -> Result<Option<FingerprintedDoc<'_>>, StoreError> {
        let s = &self.archive.schema;
        match self.read(|c| rows::stored(c, s, doc))? {
            Some(row) => reference_of(doc, row, &self.archive.settings).map(Some).map_err(StoreError::new),
            None => Ok(None),
        }
    }

    fn reference_count(&self) -> usize {
        self.documents
    }
}

impl StoredReferences for ServerIndex<'_> {
    fn as_index(&self) -> &dyn ReferenceIndex {
        self
    }

    fn same_bytes(&self, sha256: &str) -> Result<Option<u32>, StoreError> {
        let s = &self.archive.schema;
        self.read(|c| rows::first_with_sha256(c, s, sha256))
    }

    fn cut_references(&self, max: usize) -> Result<usize, StoreError> {
        let s = &self.archive.schema;
        self.read(|c| rows::longer_than(c, s, max))
    }

    fn entry(&self, doc: u32, id: usize) -> DocumentEntry {
        let s = &self.archive.schema;
        let row = rows::entry(&mut *self.archive.client(), s, doc).map_err(|e| self.archive.sql(e));
        entry_of(doc, id, row, std::path::PathBuf::from(self.archive.shown()), &self.archive.settings)
    }
}

/// The glance at one document from its windows' `rows` (at least one); `None` when its
/// keys are of odd length.
fn glance_of(rows: &[rows::GlanceRow]) -> Option<Glance<'_>> {
    let first = rows.first()?;
    if first.key_bytes % 2 == 1 {
        return None;
    }
    let windows = rows
        .iter()
        .filter(|row| !row.keys.is_empty())
        .map(|row| Some((row.first, TokenKeys::from_bytes(&row.keys)?)))
        .collect::<Option<Vec<_>>>()?;
    Some(Glance { token_keys: GlancedKeys::Windows { len: first.key_bytes / 2, windows }, simhash: first.simhash })
}

/// Checks the documents of `request` — all suspects — against the shared `archive`, as
/// [`crate::archive::check_against`] checks against a folder: the same verb
/// ([`crate::archive::verbs::check::check`]), the same report.
pub fn check_against(
    archive: &ServerArchive,
    request: &CheckRequest,
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<Report, ArchiveError> {
    crate::archive::verbs::check::check(archive, request, sink, cancel)
}

//! Adding to a shared archive: each batch's files are hashed first, and only those whose
//! bytes the archive does not hold are read and fingerprinted (in parallel, as a folder
//! archive reads them); then one transaction per batch, under the writers' advisory lock,
//! inserts the documents, groups them by SimHash and copies their postings in (binary
//! COPY). Two adders adding the same file store it once: the SHA-256 is unique.

use rayon::prelude::*;

use super::super::codec::bands;
use super::super::groups::{Fresh, join_into_earliest, near_by_simhash};
use super::super::prepare::{Prepared, file_digest, prepare, source_of};
use super::super::signals::BySignal;
use super::copiers::Copiers;
use super::db::{Sql, Tx};
use super::rows::{self, Postings, RowError};
use super::{ArchiveError, Schema, ServerArchive};
use crate::archive::outcomes::{AddOptions, AddSummary, Stored};
use crate::archive::verbs;
use crate::engine::{CancelFlag, DocumentInput, Progress, ProgressSink, Stage};
use crate::fingerprint::simhash::Dictionary;
use crate::index::{Posting, Signal};
use crate::ingest;

/// Documents per batch: one transaction each.
const BATCH: usize = 1000;

/// Postings tables are vacuumed and analysed after an add of at least this many documents
/// (the planner's row counts then change enough to matter, and a vacuum marks the new
/// pages all-visible for index-only lookups).
const ANALYZE_AFTER: usize = 1000;

impl ServerArchive {
    /// Adds `inputs` ([`verbs::add::add`]).
    pub fn add(
        &self,
        inputs: &[DocumentInput],
        options: &AddOptions,
        sink: &dyn ProgressSink,
        cancel: &CancelFlag,
    ) -> Result<AddSummary, ArchiveError> {
        verbs::add::add(self, inputs, options, sink, cancel)
    }

    /// The server's part of an add: a file whose bytes are archived is skipped unread but
    /// for its hash, a file whose path is archived with other content replaces it. Batches
    /// commit one by one; a cancel keeps the committed ones.
    pub(super) fn store_files(
        &self,
        inputs: &[DocumentInput],
        options: &AddOptions,
        (extractor, dictionary): (&ingest::Extractor, &Dictionary),
        (sink, cancel): (&dyn ProgressSink, &CancelFlag),
    ) -> Result<Stored<()>, ArchiveError> {
        let mut summary = AddSummary::default();
        let total = inputs.len();
        sink.progress(Progress { stage: Stage::Reading, done: 0, total });
        let mut fresh = Vec::new();
        let mut copiers: Option<Copiers> = None;
        let ticks = std::sync::atomic::AtomicUsize::new(0);
        for batch in inputs.chunks(BATCH) {
            if cancel.is_cancelled() {
                break;
            }
            let digests: Vec<Option<String>> = batch
                .par_iter()
                .map(|input| file_digest(&input.path).ok().map(|d| ingest::lowercase_hex(&d)))
                .collect();
            let wanted: Vec<String> = digests.iter().flatten().cloned().collect();
            let archived =
                rows::archived_digests(&mut *self.client(), &self.schema, &wanted).map_err(|e| self.sql(e))?;
            let read: Vec<Option<Result<Prepared, (String, String)>>> = batch
                .par_iter()
                .zip(&digests)
                .map(|(input, digest)| {
                    let seen = match digest {
                        Some(d) if archived.contains(d) => None,
                        _ => {
                            Some(prepare(&self.settings, input, (extractor, dictionary), source_of(&input.path), None))
                        }
                    };
                    let n = ticks.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                    sink.progress(Progress { stage: Stage::Reading, done: n, total });
                    seen
                })
                .collect();
            if cancel.is_cancelled() {
                break;
            }
            let mut docs = Vec::new();
            for r in read {
                match r {
                    None => {
                        summary.unchanged += 1;
                        summary.hashed += 1;
                    }
                    Some(Ok(doc)) => docs.push(doc),
                    Some(Err(failure)) => summary.failed.push(failure),
                }
            }
            if docs.is_empty() {
                continue;
            }
            let copiers = match &mut copiers {
                Some(open) => open,
                None => copiers.insert(Copiers::open(&self.location)?),
            };
            let rule = (options, self.settings.simhash_threshold, self.char_grams);
            fresh.extend(self.write(|tx, s| commit_batch(tx, s, copiers, docs, rule, &mut summary))?);
        }
        if fresh.len() >= ANALYZE_AFTER {
            let s = &self.schema;
            // Vacuumed too, so that the new postings' pages are marked all-visible and a
            // check reads them from the index alone. Both are the tables' owner's: for a
            // role that may only write, the server skips them with a warning, and its
            // own autovacuum does them.
            let tables: Vec<String> =
                Postings::kept(self.char_grams).iter().map(|t| format!(", {s}.{}", t.table())).collect();
            let analyze = format!("VACUUM (ANALYZE) {s}.documents{}", tables.concat());
            let analyzed = self.client().patiently(|db| db.batch_execute(&analyze));
            analyzed.map_err(|e| self.sql(RowError::Sql(e)))?;
        }
        Ok(Stored { summary, fresh, sharing: Ok(None), running: () })
    }

    /// Removes the archived documents whose file is gone from one of `folders`
    /// ([`crate::archive::verbs::sync::drop_gone`]).
    pub fn drop_gone(&self, folders: &[std::path::PathBuf]) -> Result<usize, ArchiveError> {
        crate::archive::verbs::sync::drop_gone(self, folders)
    }
}

/// One batch in one transaction: old versions out, documents in and grouped by SimHash,
/// their postings copied beside it by `copiers` (see [`super::copiers`] for how a check
/// sees them only with their documents). A file whose bytes are archived (by another
/// adder meanwhile, or twice in this batch) is counted unchanged before anything of it is
/// written. The documents added, for their check by the groups' rule.
fn commit_batch(
    tx: &mut Tx<'_>,
    s: &Schema,
    copiers: &mut Copiers,
    docs: Vec<Prepared>,
    (options, threshold, char_grams): (&AddOptions, u32, bool),
    summary: &mut AddSummary,
) -> Result<Vec<Fresh>, RowError> {
    let mut batch = AddSummary::default();
    let sources: Vec<&str> = docs.iter().map(|doc| doc.source.as_str()).collect();
    let sha256s: Vec<&str> = docs.iter().map(|doc| doc.sha256.as_str()).collect();
    let rows::Held { mut versions, mut bytes } = rows::held(tx, s, &sources, &sha256s)?;
    let docs: Vec<Prepared> = docs
        .into_iter()
        .filter(|doc| {
            let new = bytes.insert(doc.sha256.clone());
            if !new {
                batch.unchanged += 1;
                batch.hashed += 1;
            }
            new
        })
        .collect();
    let mut fresh = Vec::new();
    if !docs.is_empty() {
        let ids = rows::reserve_ids(tx, s, docs.len())?;
        let mut postings: BySignal<Vec<(u64, Posting)>> = BySignal::default();
        for (doc, &id) in docs.iter().zip(&ids) {
            doc.push_postings(id, &mut postings);
        }
        if !char_grams {
            // An archive of an older format has no table for them (its owner's next
            // change makes one).
            postings[Signal::CharGram].clear();
        }
        copiers.reserve(s, &ids)?;
        let (inserted, copied) = std::thread::scope(|scope| {
            let copying = scope.spawn(move || copiers.copy(s, postings));
            let numbered: Vec<(&Prepared, u32)> = docs.iter().zip(ids.iter().copied()).collect();
            let inserted = insert_documents(tx, s, &numbered, &mut versions, (options, threshold), &mut batch);
            (inserted, copying.join().unwrap_or(Err(RowError::WriterLost)))
        });
        fresh = inserted?;
        copied?;
        let whole: Vec<u32> = fresh.iter().map(|f| f.id).collect();
        rows::unmark_removed(tx, s, &whole)?;
    }
    // Counted only once the batch's rows are all written (the commit may still fail, and
    // then the add fails as a whole).
    summary.added += batch.added;
    summary.replaced += batch.replaced;
    summary.unchanged += batch.unchanged;
    summary.hashed += batch.hashed;
    summary.warnings.extend(batch.warnings);
    Ok(fresh)
}

/// Inserts each document under its reserved id, in its group by SimHash, replacing the
/// old `versions` of its file (by the path it resolved to), and counts it in `batch`; one
/// another adder stored meanwhile without the writers' lock is counted unchanged, and its
/// id stays removed. The documents inserted.
fn insert_documents(
    tx: &mut Tx<'_>,
    s: &Schema,
    docs: &[(&Prepared, u32)],
    versions: &mut rustc_hash::FxHashMap<String, Vec<(u32, String)>>,
    (options, threshold): (&AddOptions, u32),
    batch: &mut AddSummary,
) -> Result<Vec<Fresh>, RowError> {
    let mut fresh = Vec::new();
    let insert = rows::insert_sql(tx, s)?;
    let insert = tx.prepare(&insert)?;
    let near = tx.prepare(&rows::near_sql(s))?;
    for &(doc, id) in docs {
        let old = versions.remove(&doc.source).unwrap_or_default();
        for &(old_id, _) in &old {
            rows::remove_document(tx, s, old_id)?;
        }
        let simhash = (doc.simhash.unwrap_or(0), doc.prints.nshash);
        let (group, nshash_neighbour) = group_of_new(tx, (s, &near), id, simhash, (threshold, options.cluster))?;
        if !rows::insert_document(tx, &insert, (id, group), &doc.row(options.published.as_deref()))? {
            batch.unchanged += 1;
            batch.hashed += 1;
            continue;
        }
        versions.insert(doc.source.clone(), vec![(id, doc.sha256.clone())]);
        batch.warnings.extend(doc.warnings.iter().map(|w| (doc.path.clone(), w.clone())));
        fresh.push(doc.fresh(id, nshash_neighbour));
        if old.is_empty() { batch.added += 1 } else { batch.replaced += 1 }
    }
    Ok(fresh)
}

/// The group by SimHash of new document `id` (SimHash, nshash), as a folder archive
/// chooses it (`groups.rs`): its own, or its nearest's with `cluster`, or the earliest of
/// its near duplicates' groups, joined; and whether another shares its nshash key
/// without being its near duplicate by SimHash.
fn group_of_new(
    tx: &mut Tx<'_>,
    (s, near_sql): (&Schema, &tokio_postgres::Statement),
    id: u32,
    (simhash, nshash): (u64, Option<u64>),
    (threshold, cluster): (u32, bool),
) -> Result<(u32, bool), RowError> {
    let rows = rows::near_rows(tx, near_sql, id, bands(simhash), nshash)?;
    let (near, nshash_neighbour) = near_by_simhash(rows, simhash, nshash, threshold);
    let group = match near.first() {
        None => id,
        Some(nearest) if cluster => nearest.2,
        Some(_) => join_all(tx, s, near.iter().map(|n| n.2).collect())?.unwrap_or(id),
    };
    Ok((group, nshash_neighbour))
}

/// Joins `groups` into the earliest of them; returns it, or `None` when there are none,
/// by the rule a folder archive's `join_all` follows too ([`join_into_earliest`]).
fn join_all(tx: &mut Tx<'_>, s: &Schema, groups: Vec<u32>) -> Result<Option<u32>, RowError> {
    join_into_earliest(groups, |target, other| rows::join_groups(tx, s, target, other))
}

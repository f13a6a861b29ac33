//! Adding documents: read and fingerprint in parallel, then one catalog transaction per
//! batch that inserts the documents, writes the batch's two segments and lists them.

use rayon::prelude::*;
use rusqlite::Connection;

use super::backfill::Backfill;
use super::beside_commit::{Before, every_hash};
use super::files::{segment_name, sync_dir};
use super::grouping::assign_group;
use super::near::{NearFinder, Preload};
use super::segments::segment::Kind;
use super::segments::writing;
use super::unchanged::{FileStamp, Known, Snapshot, Verdict, stamp_of};
use super::{Archive, catalog, readahead, rows};
use crate::archive::error::ArchiveError;
use crate::archive::groups::Fresh;
use crate::archive::outcomes::{AddOptions, AddSummary, Sharing, Stored};
use crate::archive::prepare::{Prepared, file_digest, prepare, source_of};
use crate::archive::signals::BySignal;
use crate::archive::verbs;
use crate::engine::{CancelFlag, DocumentInput, Progress, ProgressSink, Stage};
use crate::fingerprint::simhash::Dictionary;
use crate::index::Posting;
use crate::ingest;

/// Documents per batch: one transaction and one pair of segments each.
const BATCH: usize = 1000;

/// The files of a batch that were read (or seen unchanged), the others' failures noted in
/// `summary`.
fn keep_read(summary: &mut AddSummary, read: Vec<Result<Seen, (String, String)>>) -> Vec<Seen> {
    let mut ok = Vec::with_capacity(read.len());
    for r in read {
        match r {
            Ok(p) => ok.push(p),
            Err(failure) => summary.failed.push(failure),
        }
    }
    ok
}

/// What a folder's add keeps running until it ends: the read-ahead of what the groups'
/// rule will look up, and the backfill that moves each commit's pages into the catalog.
pub(in crate::archive) struct Running {
    read_ahead: Option<std::thread::JoinHandle<()>>,
    backfill: Option<Backfill>,
}

/// What became of one file of an add before the catalog is written.
enum Seen {
    /// Its size and times are those of its archived version: not read.
    Same,
    /// Its bytes are those of these archived versions of it, which get its stamp, or of
    /// another archived file (no ids: a copy, not archived again).
    SameBytes { ids: Vec<u32>, source: String, stamp: Option<FileStamp> },
    /// New or changed: read and fingerprinted.
    Read(Box<Prepared>),
}

impl Seen {
    /// The sketch of a file read.
    fn sketch(&self) -> Option<&[u64]> {
        match self {
            Seen::Read(doc) => Some(&doc.sketch),
            Seen::Same | Seen::SameBytes { .. } => None,
        }
    }
}

impl Archive {
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

    /// The folder's part of an add: a file whose SHA-256 is already archived is skipped, a
    /// file whose path is archived with other content replaces it, a file inside the
    /// archive folder is never archived. Batches commit one by one, in order; each batch is
    /// committed (and segments merged) while the next one is read, so that the reading
    /// cores are not idle while the catalog is written. A cancel stops after the running
    /// batch's reading, keeping the committed ones.
    pub(super) fn store_files(
        &self,
        inputs: &[DocumentInput],
        options: &AddOptions,
        (extractor, dictionary): (&ingest::Extractor, &Dictionary),
        (sink, cancel): (&dyn ProgressSink, &CancelFlag),
    ) -> Result<Stored<Running>, ArchiveError> {
        let (inputs, inside) = self.outside_the_archive(inputs);
        let mut summary = AddSummary { inside_archive: inside, ..AddSummary::default() };
        let inputs = &inputs[..];
        let total = inputs.len();
        let mut done = 0;
        sink.progress(Progress { stage: Stage::Reading, done, total });
        let snapshot = Snapshot::take(&self.lock(), &self.dir, inputs.len())?;
        let documents = rows::document_count(&self.lock()).map_err(|e| self.sql(e))?;
        // Read from the first file with new bytes on (`preload`): an add of unchanged
        // files never reads it.
        let mut finder = NearFinder::for_add(inputs.len(), documents, self.dir.clone());
        let preload = finder.preload();
        // A batch read and not yet committed.
        let mut pending: Option<Vec<Seen>> = None;
        // The documents added, for their check by the groups' rule once all are in.
        let mut fresh: Vec<Fresh> = Vec::new();
        // What that check will look up, read ahead once a batch has read a file.
        let mut read_ahead = None;
        // Moves each commit's pages into the catalog while the next batch is read.
        let backfill = Backfill::start(&self.dir);
        let backfill_now = || backfill.iter().for_each(Backfill::committed);
        for batch in inputs.chunks(BATCH) {
            if cancel.is_cancelled() {
                break;
            }
            let sources: Vec<String> = batch.par_iter().map(|input| source_of(&input.path)).collect();
            let (read, committed) = std::thread::scope(|scope| {
                let finder = &mut finder;
                let commit = pending.take().map(|docs| {
                    scope.spawn(|| {
                        let done = self.commit_and_merge(docs, finder, options);
                        backfill_now();
                        done
                    })
                });
                let files: Vec<(&str, &str)> = sources
                    .iter()
                    .zip(batch)
                    .map(|(source, input)| (source.as_str(), input.display.as_str()))
                    .collect();
                let known = snapshot.of_batch(&files).map_err(|e| self.sql(e))?;
                let progress = (sink, done, total);
                let read =
                    self.see_batch(batch, sources, (extractor, dictionary), (&known, preload.as_deref()), progress);
                Ok::<_, ArchiveError>((read, commit.map(|handle| handle.join())))
            })?;
            if let Some(committed) = committed {
                // A panic while committing is a bug: it goes on as if the commit had run here.
                let (done, added) = committed.unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
                summary.absorb(done);
                fresh.extend(added);
            }
            if cancel.is_cancelled() {
                break;
            }
            let ok = keep_read(&mut summary, read);
            if read_ahead.is_none() {
                read_ahead = readahead::start(&self.dir, ok.iter().filter_map(Seen::sketch), (batch.len(), total));
            }
            pending = Some(ok);
            done += batch.len();
        }
        let before = match pending {
            Some(docs) => {
                let before = self.commit_last(docs, (&mut fresh, &mut summary), &mut finder, options)?;
                backfill_now();
                before
            }
            None => None,
        };
        // Every document is committed by now: a check that fails in the groups' rule (a
        // damaged segment, said above) leaves groups by SimHash alone, and says so.
        let sharing = self.known_sharing(&fresh, before.as_ref().map(|(before, _)| before));
        Ok(Stored { summary, fresh, sharing, running: Running { read_ahead, backfill } })
    }

    /// Ends what an add left running: its read-ahead (hints only: a panic there is a bug,
    /// raised here), and the backfill of its log ([`Self::leave_log`]).
    pub(super) fn finish_add(&self, Running { read_ahead, backfill }: Running) {
        if let Some(handle) = read_ahead {
            handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        }
        self.leave_log(backfill);
    }

    /// Ends `backfill` (its last pass done, the rest of the log is moved here) and moves
    /// the add's log (up to `catalog::CHECKPOINT_PAGES`) into the catalog now, not when
    /// the archive is let go: a window or a program that keeps the archive open would
    /// otherwise keep a log of hundreds of megabytes on disk beside it.
    fn leave_log(&self, backfill: Option<Backfill>) {
        drop(backfill);
        catalog::empty_write_ahead_log(&self.lock());
    }

    /// Reads the files of `batch` (their `sources`) on every core, each as [`Self::see`]
    /// decides, telling `sink` of each one read after the `done` of `total` before them.
    fn see_batch(
        &self,
        batch: &[DocumentInput],
        sources: Vec<String>,
        readers: (&ingest::Extractor, &Dictionary),
        (known, preload): (&Known, Option<&Preload>),
        (sink, done, total): (&dyn ProgressSink, usize, usize),
    ) -> Vec<Result<Seen, (String, String)>> {
        let ticks = std::sync::atomic::AtomicUsize::new(done);
        batch
            .par_iter()
            .zip(sources)
            .map(|(input, source)| {
                let prepared = self.see(input, source, readers, known, preload);
                let n = ticks.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                sink.progress(Progress { stage: Stage::Reading, done: n, total });
                prepared
            })
            .collect()
    }

    /// Commits the last batch `docs` (and the merge it may draw) on one core while the
    /// groups' rule looks up, beside it, the segments listed before it; adds what it did
    /// to `summary` and what it added to `fresh`. The segments looked up, for the rule.
    fn commit_last(
        &self,
        docs: Vec<Seen>,
        (fresh, summary): (&mut Vec<Fresh>, &mut AddSummary),
        finder: &mut NearFinder,
        options: &AddOptions,
    ) -> Result<Option<(Before, Vec<u64>)>, ArchiveError> {
        let mut before = self.before_last_commit(fresh, &docs);
        let committed = std::thread::scope(|scope| {
            let looked = before.as_mut().map(|(before, hashes)| scope.spawn(move || before.look_up(hashes)));
            let committed = self.commit_and_merge(docs, finder, options);
            if let Some(handle) = looked {
                // Lookups only read: a panic there is a bug, raised here.
                handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            }
            committed
        });
        let (done, added) = committed?;
        summary.absorb(done);
        fresh.extend(added);
        Ok(before)
    }

    /// Commits one batch, then merges segments if a tier is full; what it added.
    fn commit_and_merge(
        &self,
        docs: Vec<Seen>,
        finder: &mut NearFinder,
        options: &AddOptions,
    ) -> Result<(AddSummary, Vec<Fresh>), ArchiveError> {
        let mut summary = AddSummary::default();
        let fresh = self.commit_batch(docs, finder, options, &mut summary)?;
        summary.damaged_segments = self.merge_if_needed()?;
        Ok((summary, fresh))
    }

    /// The k-gram segments listed before the last commit, and the sketch hashes to look
    /// up in them: those of the documents added (`fresh`) and of the files of `docs` read.
    /// `None` when there are none, or when the segments do not open: the groups' rule then
    /// looks everything up after the add, and meets (and says) what kept them shut.
    fn before_last_commit(&self, fresh: &[Fresh], docs: &[Seen]) -> Option<(Before, Vec<u64>)> {
        let sketches = fresh.iter().map(|doc| doc.sketch.as_slice()).chain(docs.iter().filter_map(Seen::sketch));
        let hashes = every_hash(sketches);
        if hashes.is_empty() {
            return None;
        }
        Some((Before::open(&self.dir, &self.lock()).ok()?, hashes))
    }

    /// What the groups' rule's sharing says of the new documents `fresh`, from what was
    /// found of their sketches `before` the last commit and the segments it wrote, when
    /// that is the whole answer; else `None`, and the rule looks them up in every segment.
    fn known_sharing(&self, fresh: &[Fresh], before: Option<&Before>) -> Result<Option<Sharing>, ArchiveError> {
        match before {
            Some(before) if !fresh.is_empty() => before.sharing((&self.dir, &self.lock()), fresh),
            _ => Ok(None),
        }
    }

    /// The inputs that are not files of the archive folder itself, and the names of those
    /// that are (a folder holding the archive was given).
    fn outside_the_archive(&self, inputs: &[DocumentInput]) -> (Vec<DocumentInput>, Vec<String>) {
        let own = std::fs::canonicalize(&self.dir).unwrap_or_else(|_| self.dir.clone());
        let (inside, outside): (Vec<&DocumentInput>, Vec<&DocumentInput>) = inputs.iter().partition(|input| {
            let real = std::fs::canonicalize(&input.path).unwrap_or_else(|_| input.path.clone());
            real.starts_with(&own)
        });
        (outside.into_iter().cloned().collect(), inside.into_iter().map(|i| i.display.clone()).collect())
    }

    /// Decides whether `input` changed, reading as little as it can: nothing when its
    /// size and times are those recorded with its archived version, its bytes (hashed)
    /// when they are not, and only a file with new bytes is read and fingerprinted.
    /// `source` is the path it resolves to ([`source_of`]); a file read starts `preload`.
    fn see(
        &self,
        input: &DocumentInput,
        source: String,
        readers: (&ingest::Extractor, &Dictionary),
        known: &Known,
        preload: Option<&Preload>,
    ) -> Result<Seen, (String, String)> {
        // Seen before anything is read: a change made while it is read shows next time.
        let stamp = stamp_of(&input.path);
        if known.same_stamp(&source, &input.display, stamp) {
            return Ok(Seen::Same);
        }
        // A file that cannot be hashed is read as a check reads it, which says why not.
        if !known.is_empty()
            && let Ok(digest) = file_digest(&input.path)
            && let Verdict::SameBytes(ids) = known.by_digest(&source, &input.display, &digest)
        {
            return Ok(Seen::SameBytes { ids, source, stamp });
        }
        if let Some(preload) = preload {
            preload.start();
        }
        prepare(&self.settings, input, readers, source, stamp).map(|p| Seen::Read(Box::new(p)))
    }

    /// One transaction: documents in, old versions out, segments written and listed. The
    /// documents added, for their check by the groups' rule.
    fn commit_batch(
        &self,
        docs: Vec<Seen>,
        finder: &mut NearFinder,
        options: &AddOptions,
        summary: &mut AddSummary,
    ) -> Result<Vec<Fresh>, ArchiveError> {
        let mut conn = self.lock();
        let dir = self.dir.clone();
        let sql = |e| ArchiveError::sql(&dir, e);
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(sql)?;
        let mut postings: BySignal<Vec<(u64, Posting)>> = BySignal::default();
        let mut first_id = None;
        let mut fresh = Vec::new();
        for seen in docs {
            let doc = match seen {
                Seen::Same => {
                    summary.unchanged += 1;
                    continue;
                }
                Seen::SameBytes { ids, source, stamp } => {
                    for id in ids {
                        rows::record_stamp(&tx, id, &source, stamp).map_err(sql)?;
                    }
                    summary.unchanged += 1;
                    summary.hashed += 1;
                    continue;
                }
                Seen::Read(doc) => doc,
            };
            let Some(old) = archived_versions(&tx, &doc).map_err(sql)? else {
                summary.unchanged += 1;
                continue;
            };
            summary.warnings.extend(doc.warnings.iter().map(|w| (doc.path.clone(), w.clone())));
            for &id in &old {
                rows::remove_document(&tx, id).map_err(sql)?;
            }
            let id = rows::insert_document(&tx, &doc.row(options.published.as_deref())).map_err(sql)?;
            first_id.get_or_insert(id);
            let keys = (doc.simhash.unwrap_or(0), doc.prints.nshash);
            let rule = (self.settings.simhash_threshold, options.cluster);
            let nshash_neighbour = assign_group(&tx, finder, id, keys, rule).map_err(sql)?;
            finder.added(id, doc.simhash, doc.prints.nshash);
            fresh.push(doc.fresh(id, nshash_neighbour));
            doc.push_postings(id, &mut postings);
            if old.is_empty() { summary.added += 1 } else { summary.replaced += 1 }
        }
        if let Some(first) = first_id {
            for (signal, entries) in postings.into_iter() {
                let kind = Kind::of(signal);
                let file = segment_name(kind, &first.to_string());
                let count = writing::write(&self.dir.join(&file), kind, entries)?;
                rows::insert_segment(&tx, kind.code(), &file, count).map_err(sql)?;
            }
            sync_dir(&self.dir)?;
        }
        tx.commit().map_err(sql)?;
        Ok(fresh)
    }
}

/// The ids of the archived versions of `doc`'s file, which `doc` replaces; `None` when it
/// is not to be archived: one of them has its bytes, or it is a new file with the bytes of
/// another archived one (a copy is not archived twice).
fn archived_versions(conn: &Connection, doc: &Prepared) -> Result<Option<Vec<u32>>, rusqlite::Error> {
    let old = rows::versions_of(conn, &doc.source, &doc.path)?;
    if old.iter().any(|(_, sha)| *sha == doc.sha256) {
        return Ok(None);
    }
    if old.is_empty() && rows::first_with_sha256(conn, &doc.sha256)?.is_some() {
        return Ok(None);
    }
    Ok(Some(old.into_iter().map(|(id, _)| id).collect()))
}

//! A snapshot of an archive for matching: its segments mapped, its removed documents
//! known; the archive's side of the [`ReferenceIndex`] seam. Document ids are the
//! archive's stable ids.

use std::borrow::{Borrow, Cow};
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use super::segments::batched_lookup::{Found, first_postings_sorted};
use super::segments::lookup::{Held, SegmentLookup};
use super::segments::segment::Kind;
use super::{Archive, rows};
use crate::archive::cut_spreads::CutSpreads;
use crate::archive::error::ArchiveError;
use crate::archive::lookups::{BAND_DISTANCE, CAP, nearest};
use crate::archive::read_back::{entry_of, reference_of};
use crate::archive::signals::{BySignal, count_up_to, holds_char_grams};
use crate::fingerprint::FingerprintedDoc;
use crate::fingerprint::{GlancedKeys, TokenKeys};
use crate::index::{
    Glance, MAX_POSITIONS_PER_DOCUMENT, Posting, Postings, ReferenceIndex, Signal, Spread, StoreError,
    StoredReferences, distinct_documents,
};
use crate::model::DocumentEntry;

/// Documents glanced at per query.
const GLANCE_CHUNK: usize = 4096;

/// A hash's first postings, and how the archive holds it when they are not all.
type Capped = (Vec<Posting>, Option<Spread>);

/// The archive's references, as one check sees them.
pub struct ArchiveIndex<'a> {
    archive: &'a Archive,
    /// The segments of each signal.
    segments: BySignal<Vec<Arc<SegmentLookup>>>,
    /// Whether every document's character grams are in the segments
    /// ([`holds_char_grams`]).
    char_grams: bool,
    removed: FxHashSet<u32>,
    documents: usize,
    /// The largest id the catalog ever gave: a posting of a larger one (or of 0) comes
    /// from a damaged segment.
    last_id: u32,
    /// How the archive holds the hashes whose postings a lookup cut.
    cut: CutSpreads,
}

impl<'a> ArchiveIndex<'a> {
    /// Maps the archive's current segments. A merge may delete a segment between the
    /// listing and the mapping: then the listing is read again.
    pub fn open(archive: &'a Archive) -> Result<Self, ArchiveError> {
        let mut last = None;
        for _ in 0..3 {
            match Self::try_open(archive) {
                Ok(index) => return Ok(index),
                Err(ArchiveError::Io { path, error }) if error.kind() == std::io::ErrorKind::NotFound => {
                    last = Some(ArchiveError::Io { path, error });
                }
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| ArchiveError::Corrupt("segments keep disappearing".into())))
    }

    fn try_open(archive: &'a Archive) -> Result<Self, ArchiveError> {
        let catalog = archive.catalog();
        // One snapshot for the whole check: one view of segments and documents, and no
        // lock taken and schema read again per query (a check asks for tens of thousands
        // of rows).
        catalog.begin_snapshot()?;
        let (listed, removed, documents, last_id) =
            (catalog.segments()?, catalog.removed_ids()?, catalog.document_count()?, catalog.last_id()?);
        let (from, oldest) = catalog.char_gram_bounds()?;
        let char_grams = holds_char_grams(from, oldest);
        // From here on the index owns the transaction: it ends when the index is dropped.
        let mut index = Self {
            archive,
            segments: BySignal::default(),
            char_grams,
            removed,
            documents,
            last_id,
            cut: CutSpreads::new(),
        };
        let files: Vec<&str> = listed.iter().map(|s| s.file.as_str()).collect();
        let opened = archive.open_segments.listed(&archive.dir, &files)?;
        for (rows::SegmentRow { kind, file, .. }, segment) in listed.iter().zip(opened) {
            let Some(kind) = Kind::from_code(*kind) else {
                return Err(ArchiveError::Corrupt(format!("segment {file} of unknown kind {kind}")));
            };
            index.segments[kind.signal()].push(segment);
        }
        Ok(index)
    }

    /// Number of segments opened (k-grams, sentences).
    pub fn segment_counts(&self) -> (usize, usize) {
        (self.segments[Signal::Kgram].len(), self.segments[Signal::Sentence].len())
    }

    /// The first [`CAP`] live postings of `hash`, the lowest documents first, from what
    /// each of `segments` holds of it (`found`, in their order), and when it has more, how
    /// the archive holds it: its documents counted up to `min_documents` (the number that
    /// makes a k-gram common; 0 for sentences). A hash held by more than
    /// [`crate::engine::MAX_POSTINGS`] postings is matched against its first documents
    /// only, so the rest of a frequent Chinese phrase's postings (tens of thousands in a
    /// large archive) need not be read. A segment that failed, or named a document the
    /// archive never held, is damaged: the check cannot go on soundly.
    fn capped(
        &self,
        segments: &[Arc<SegmentLookup>],
        hash: u64,
        found: Vec<Found>,
        min_documents: usize,
    ) -> Result<Capped, ArchiveError> {
        let mut out = Vec::new();
        let mut held = Vec::with_capacity(segments.len());
        for (segment, found) in segments.iter().map(Arc::as_ref).zip(found) {
            let (postings, entries) = found.map_err(|error| damaged(segment, &error.to_string()))?;
            if let Some(stray) = postings.iter().find(|p| p.doc == 0 || p.doc > self.last_id) {
                let what = format!("it names document {}, which the archive never held", stray.doc);
                return Err(damaged(segment, &what));
            }
            out.extend(postings);
            held.push((segment, entries));
        }
        if segments.len() > 1 {
            out.sort_unstable();
        }
        if out.len() < CAP {
            return Ok((out, None));
        }
        out.truncate(CAP);
        let documents = self.documents_of(hash, &held, &out, min_documents)?;
        let spread = Spread::of(&out, documents);
        Ok((out, Some(spread)))
    }

    /// The live documents holding `hash`, counted up to `min_documents`, of which `first`
    /// are the first postings and `held` the entries of each segment (removed documents'
    /// included): known from the entries when they are too few or too many to leave a
    /// doubt (a document keeps at most [`MAX_POSITIONS_PER_DOCUMENT`] positions of a hash),
    /// counted otherwise. Too few is first told by the bounds the lookups gave, which
    /// cost no read: at a million documents a k-gram is common in 50,000 of them, more
    /// than the buckets it can lie in hold.
    fn documents_of(
        &self,
        hash: u64,
        held: &[(&SegmentLookup, Held)],
        first: &[Posting],
        min_documents: usize,
    ) -> Result<usize, ArchiveError> {
        let seen = distinct_documents(first);
        if seen >= min_documents || held.iter().map(|(_, h)| h.most()).sum::<usize>() < min_documents {
            return Ok(seen);
        }
        let mut entries = 0;
        for (segment, h) in held {
            entries += segment.entries(h).map_err(|error| damaged(segment, &error.to_string()))?;
        }
        if entries < min_documents {
            return Ok(seen);
        }
        let most_removed = MAX_POSITIONS_PER_DOCUMENT * self.removed.len();
        let at_least = entries.saturating_sub(most_removed) / MAX_POSITIONS_PER_DOCUMENT;
        if at_least >= min_documents {
            return Ok(at_least);
        }
        let live = |p: &Posting| !self.removed.contains(&p.doc);
        let mut counted = 0;
        for (segment, _) in held {
            if counted >= min_documents {
                break;
            }
            counted +=
                segment.documents(hash, min_documents - counted, live).map_err(|e| damaged(segment, &e.to_string()))?;
        }
        Ok(counted.max(seen))
    }

    /// [`Self::capped`] for each `signal` hash of `hashes`, the spreads of those cut kept
    /// in [`Self::cut`]. Each distinct hash is looked up once.
    fn capped_all(&self, signal: Signal, hashes: &[u64]) -> Result<Vec<Cow<'static, [Posting]>>, ArchiveError> {
        let (segments, min_documents) = (&self.segments[signal], count_up_to(signal, self.documents));
        let mut distinct = hashes.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        let live = |p: &Posting| !self.removed.contains(&p.doc);
        let found = on_lookup_threads(|| -> Result<Vec<Capped>, ArchiveError> {
            let found = found_in_every_segment(segments, &distinct, &live);
            distinct
                .par_iter()
                .zip(found)
                .map(|(&hash, found)| self.capped(segments, hash, found, min_documents))
                .collect()
        })?;
        let (lists, spreads): (Vec<Vec<Posting>>, Vec<Option<Spread>>) = hashes
            .iter()
            .map(|hash| distinct.binary_search(hash).map_or_else(|_| (Vec::new(), None), |i| found[i].clone()))
            .unzip();
        self.cut.keep(signal, hashes, &spreads);
        Ok(lists.into_iter().map(Cow::Owned).collect())
    }

    fn simhash_rows(&self, simhash: u64, threshold: u32) -> Result<Vec<(u32, u64)>, ArchiveError> {
        self.archive.catalog().simhash_rows((threshold <= BAND_DISTANCE).then_some(simhash))
    }

    /// Calls `each` with the stored token keys and SimHash of every document of `docs`
    /// that has keys (documents archived before format 3 have none): one query per
    /// [`GLANCE_CHUNK`] documents, in id order.
    fn load_glances(&self, docs: &[u32], each: &mut dyn FnMut(u32, &Glance<'_>)) -> Result<(), ArchiveError> {
        for chunk in docs.chunks(GLANCE_CHUNK) {
            let mut odd = None;
            self.archive.catalog().glances(
                chunk,
                &mut |doc, (keys, width), simhash| match stored_keys(keys, width) {
                    Some(token_keys) => {
                        each(doc, &Glance { token_keys: GlancedKeys::Whole(token_keys), simhash });
                        true
                    }
                    None => {
                        odd = Some(doc);
                        false
                    }
                },
            )?;
            if let Some(doc) = odd {
                return Err(ArchiveError::Corrupt(format!(
                    "the token keys of document {doc}: not a whole number of keys of their width"
                )));
            }
        }
        Ok(())
    }
}

/// Lookups a check keeps in flight at once. On a cold page cache each lookup waits on a
/// read from disk, and a disk answers many scattered reads at once nearly as fast as
/// one: measured here, 8,000 cold reads of 64 bytes took 0.71 s one at a time, 0.29 s two
/// at a time, 0.12 s 32 at a time. On a warm cache the extra threads only take turns on
/// the cores.
const LOOKUPS_IN_FLIGHT: usize = 16;

/// Distinct hashes a thread looks up in one segment at a time, of `count`: enough that
/// crowded hashes share reads (the sketches of an add), few enough that every thread of
/// the pool has lookups until the last (a suspect's 10,000 in the largest segment, whose
/// reads from disk are most of a check on a cold page cache: 34 tasks of 256 kept 16
/// threads busy for two rounds and 2 for a third, 1.95 s against 1.65 s a check).
fn hashes_at_once(count: usize) -> usize {
    count.div_ceil(8 * LOOKUPS_IN_FLIGHT).clamp(16, 256)
}

/// For each of `distinct` (ascending), the first [`CAP`] postings that `live` keeps of it
/// in each of `segments`, in their order. Each segment is gone through in ascending order
/// (`spans.rs`), a share of the hashes at a time on each thread, so that one suspect's
/// check waits on neither one core nor one read from disk at a time.
pub(in crate::archive) fn found_in_every_segment(
    segments: &[impl Borrow<SegmentLookup> + Sync],
    distinct: &[u64],
    live: &(impl Fn(&Posting) -> bool + Sync),
) -> Vec<Vec<Found>> {
    let per_segment: Vec<Vec<Found>> = segments
        .par_iter()
        .map(|segment| {
            let shares = distinct.par_chunks(hashes_at_once(distinct.len()));
            shares.map(|share| first_postings_sorted(segment.borrow(), share, CAP, live)).flatten_iter().collect()
        })
        .collect();
    let mut columns: Vec<_> = per_segment.into_iter().map(Vec::into_iter).collect();
    distinct.iter().map(|_| columns.iter_mut().filter_map(Iterator::next).collect()).collect()
}

/// Runs `lookups` on the threads segment lookups run on ([`lookup_pool`]), or on the
/// common pool when there are none.
pub(in crate::archive) fn on_lookup_threads<T: Send>(lookups: impl FnOnce() -> T + Send) -> T {
    match lookup_pool() {
        Some(pool) => pool.install(lookups),
        None => lookups(),
    }
}

/// The threads segment lookups run on ([`LOOKUPS_IN_FLIGHT`] of them), made at the first
/// check and kept for the process; `None` when the system would not give them, and the
/// lookups run on the common pool instead.
fn lookup_pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(LOOKUPS_IN_FLIGHT)
            .thread_name(|i| format!("archive-lookup-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// Token keys of `width` bytes as the catalog stores them; `None` when they are not.
fn stored_keys(keys: &[u8], width: i64) -> Option<TokenKeys<'_>> {
    TokenKeys::from_stored(keys, usize::try_from(width).ok()?)
}

impl Drop for ArchiveIndex<'_> {
    /// Ends the read transaction begun at [`ArchiveIndex::open`]. Nothing was written in
    /// it, so ending it cannot lose anything; should `COMMIT` fail, `ROLLBACK` ends it,
    /// and failing that SQLite ends it when the connection closes (every job opens the
    /// archive for itself).
    fn drop(&mut self) {
        self.archive.catalog().end_snapshot();
    }
}

/// What a check says of a segment it could not read soundly.
fn damaged(segment: &SegmentLookup, what: &str) -> ArchiveError {
    let name = segment.path().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    ArchiveError::Corrupt(format!(
        "segment {name} is damaged ({what}): matches with the documents it holds would be missed; \
         run `twinspot archive verify` and restore the archive from a copy"
    ))
}

impl ReferenceIndex for ArchiveIndex<'_> {
    /// Character grams when every document's are stored (an archive written before they
    /// were keeps none of its older documents').
    fn holds(&self, signal: Signal) -> bool {
        signal != Signal::CharGram || self.char_grams
    }

    fn postings(&self, signal: Signal, hashes: &[u64]) -> Result<Postings<'_>, StoreError> {
        self.capped_all(signal, hashes).map_err(StoreError::new)
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
        let rows = self.simhash_rows(simhash, threshold).map_err(StoreError::new)?;
        Ok(nearest(rows, simhash, threshold, after, limit, &self.removed))
    }

    /// Glances with all of a reference's keys: they are read from this computer's disk.
    fn glances(
        &self,
        docs: &[u32],
        _windows: &dyn Fn(u32) -> Vec<(u32, u32)>,
        each: &mut dyn FnMut(u32, &Glance<'_>),
    ) -> Result<(), StoreError> {
        self.load_glances(docs, each).map_err(StoreError::new)
    }

    fn reference(&self, doc: u32) -> Result<Option<FingerprintedDoc<'_>>, StoreError> {
        let row = self.archive.catalog().stored(doc).map_err(StoreError::new)?;
        match row {
            Some(row) => reference_of(doc, row, &self.archive.settings).map(Some).map_err(StoreError::new),
            // Postings of removed documents were dropped before: this one's are stray.
            None => Err(StoreError::new(ArchiveError::Corrupt(format!(
                "the segments name document {doc}, which the catalog does not hold: a segment is damaged; \
                 run `twinspot archive verify`"
            )))),
        }
    }

    fn reference_count(&self) -> usize {
        self.documents
    }
}

impl StoredReferences for ArchiveIndex<'_> {
    fn as_index(&self) -> &dyn ReferenceIndex {
        self
    }

    fn same_bytes(&self, sha256: &str) -> Result<Option<u32>, StoreError> {
        self.archive.catalog().first_with_sha256(sha256).map_err(StoreError::new)
    }

    fn cut_references(&self, max: usize) -> Result<usize, StoreError> {
        self.archive.catalog().longer_than(max).map_err(StoreError::new)
    }

    fn entry(&self, doc: u32, id: usize) -> DocumentEntry {
        let row = self.archive.catalog().entry(doc);
        entry_of(doc, id, row, self.archive.dir.clone(), &self.archive.settings)
    }
}

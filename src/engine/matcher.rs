//! Compares one suspect with every reference of a [`ReferenceIndex`]: hits from the k-gram
//! postings, shared sentences, SimHash candidates, then one alignment per candidate.
//! The same code serves a check's in-memory index and the archive.

use rustc_hash::FxHashMap;

use crate::fingerprint::hashing::kgram_hashes;
use crate::fingerprint::{DocumentFingerprints, simhash};
use crate::index::ReferenceIndex;
use crate::matching::{Hit, LazyStream, MatchTuning, PairContext, Side, match_pair, overlaps};
use crate::report::Pair;
use crate::score::{is_near_duplicate, pair_scores};
use crate::settings::Settings;

/// A k-gram held by more reference positions than this is too common to say anything
/// (boilerplate, stock phrases): it is skipped at lookup. The cap grows with the number
/// of references: one in [`COMMON_SHARE`] of them, but never below [`MIN_POSTINGS_CAP`].
const COMMON_SHARE: usize = 20;
const MIN_POSTINGS_CAP: usize = 50;

/// The cap on postings of one k-gram for an index of `references` documents.
pub fn max_postings(references: usize) -> usize {
    (references / COMMON_SHARE).max(MIN_POSTINGS_CAP)
}

/// One suspect as the matcher reads it; `id` becomes `Pair::a`.
pub struct SuspectDoc<'a> {
    pub id: usize,
    pub prints: &'a DocumentFingerprints,
    pub text: &'a str,
    pub masked_chars: &'a [(u32, u32)],
    pub countable_chars: usize,
    pub simhash: Option<u64>,
}

/// Which (suspect, reference) pairs are compared at all.
pub type PairRule<'a> = &'a (dyn Fn(usize, usize) -> bool + Sync);

/// Compares suspects with the references of one index.
pub struct Matcher<'a> {
    pub index: &'a dyn ReferenceIndex,
    pub settings: &'a Settings,
    pub tuning: &'a MatchTuning,
    pub max_postings: usize,
    pub wanted: PairRule<'a>,
}

impl Matcher<'_> {
    /// Every pair of `doc` with a reference that shares a passage or is a near duplicate.
    /// `Pair::b` is the reference's id in the index.
    pub fn pairs_of(&self, doc: &SuspectDoc) -> Vec<Pair> {
        let a = doc.id;
        let prints = doc.prints;
        let index = self.index;
        // (reference, hit), sorted below: one vector for all references, not one each.
        let mut found: Vec<(u32, Hit)> = Vec::new();
        // Every k-gram of the suspect is looked up, not only its winnowed ones: the
        // references' fingerprints are winnowed, and a shared run shorter than t still
        // hits whenever the reference kept one of its k-grams.
        let k = self.settings.k.max(1);
        let tokens = &prints.tokenized.tokens;
        let hashes = kgram_hashes(tokens.iter().map(|t| t.hash), k);
        index.kgram_postings(&hashes, self.max_postings, &mut |position, p| {
            if !doc.masked_chars.is_empty()
                && overlaps(doc.masked_chars, (tokens[position].start, tokens[position + k - 1].end))
            {
                return;
            }
            if (self.wanted)(a, p.doc as usize) {
                found.push((p.doc, Hit { a: position as u32, b: p.position }));
            }
        });
        found.sort_unstable();
        let (hit_docs, hits): (Vec<u32>, Vec<Hit>) = found.into_iter().unzip();
        let hits_of = |b: u32| {
            let start = hit_docs.partition_point(|&d| d < b);
            let end = start + hit_docs[start..].partition_point(|&d| d == b);
            &hits[start..end]
        };
        let shared_sentences = self.shared_sentences(doc);
        let mut candidates = hit_docs.clone();
        if let Some(h) = doc.simhash {
            candidates.extend(index.simhash_neighbours(h).into_iter().filter(|&b| (self.wanted)(a, b as usize)));
        }
        candidates.sort_unstable();
        candidates.dedup();

        let suspect_stream = LazyStream::new(doc.text, self.settings.normalize);
        let mut pairs = Vec::new();
        for b in candidates {
            let Some(reference) = index.reference(b) else {
                continue;
            };
            let ctx = PairContext {
                k,
                min_chars: self.settings.min_chars,
                tuning: self.tuning,
                suspect_masked: doc.masked_chars,
                reference_masked: &reference.masked_chars,
            };
            let reference_stream = LazyStream::new(&reference.text, self.settings.normalize);
            let suspect = Side { prints, stream: &suspect_stream };
            let passages =
                match_pair(suspect, Side { prints: &reference.prints, stream: &reference_stream }, hits_of(b), &ctx);
            let scores = pair_scores(
                &passages,
                doc.countable_chars,
                reference.countable_chars,
                doc.masked_chars,
                &reference.masked_chars,
            );
            let simhash_distance = match (doc.simhash, reference.simhash) {
                (Some(x), Some(y)) => Some(simhash::hamming(x, y)),
                _ => None,
            };
            let near_duplicate = is_near_duplicate(
                &scores,
                simhash_distance,
                self.settings.simhash_threshold,
                self.settings.near_duplicate_coverage,
            );
            if passages.is_empty() && !near_duplicate {
                continue;
            }
            pairs.push(Pair {
                a,
                b: b as usize,
                score: scores.score,
                score_b: scores.score_b,
                simhash_distance,
                passages,
                longest: scores.longest,
                shared_sentences: shared_sentences.get(&b).copied().unwrap_or(0),
                near_duplicate,
            });
        }
        pairs
    }

    /// How many of the suspect's sentences each reference holds.
    fn shared_sentences(&self, doc: &SuspectDoc) -> FxHashMap<u32, u32> {
        let hashes: Vec<u64> = doc.prints.sentences.iter().map(|s| s.hash).collect();
        // (sentence, reference), deduplicated: a reference counts once per sentence.
        let mut holders: Vec<(usize, u32)> = Vec::new();
        self.index.sentence_postings(&hashes, &mut |i, p| {
            if (self.wanted)(doc.id, p.doc as usize) {
                holders.push((i, p.doc));
            }
        });
        holders.sort_unstable();
        holders.dedup();
        let mut shared: FxHashMap<u32, u32> = FxHashMap::default();
        for (_, b) in holders {
            *shared.entry(b).or_default() += 1;
        }
        shared
    }
}

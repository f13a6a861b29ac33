//! Compares one suspect with every reference of a [`ReferenceIndex`]: hits from the k-gram
//! postings (common text and stop passages judged on the way), shared sentences, SimHash
//! candidates, then one alignment per candidate, its passages classified and scored. The
//! same code serves a check's in-memory index and the archive.

use std::time::Instant;

use rustc_hash::FxHashMap;

use super::policy::PairPolicy;
use super::progress::MatchClock;
use super::reworded::{Rewording, carry_reworded};
use super::translated::add_translated;
use crate::exclusions::quoted::quoted_spans;
use crate::exclusions::{Exclusions, SuspectExclusions, SuspectKgrams, token_ranges};
use crate::fingerprint::keywords::{may_reach, similarity};
use crate::fingerprint::{FingerprintedDoc, simhash};
use crate::hash::kgram_hashes;
use crate::index::{Glance, MAX_POSITIONS_PER_DOCUMENT, ReferenceIndex, Signal, StoreError};
use crate::matching::across::fold_across_pairs;
use crate::matching::char_seeds::{ShortSearch, ShortSuspect};
use crate::matching::closeness::shared_trigrams;
use crate::matching::dense::Ties;
use crate::matching::reordered::join_reordered_pieces;
use crate::matching::{
    Hit, LazyStream, MIN_HITS, MatchTuning, PairContext, Side, align, glance_windows, lone_hit_may_open_box,
    may_open_box, overlaps,
};
use crate::meaning::collection::Collection;
use crate::model::saturating_u32;
use crate::model::{Pair, Passage, TokenAt};
use crate::score::{KEYWORD_SIMILARITY, near_duplicate_rule, pair_scores};
use crate::settings::Settings;

/// A k-gram held by more reference positions than this (at most 8 in one document), in
/// fewer documents than make it common, is *frequent*: looked up, like common text, only
/// against the first documents holding it ([`crate::exclusions::COMMON_SHOWN`]), but
/// counted as any copy. The cap does not grow with the collection: a k-gram that pairs a
/// suspect with up to a few thousand references (one in twenty of 100,000) made a check's
/// candidates, and a join's pairs, grow with the collection's square. Common k-grams are
/// matched the same way and shown as common (see [`crate::exclusions::common`]); a
/// sentence held this often is not counted as shared.
pub const MAX_POSTINGS: usize = 50;

/// A suspect is compared with at most this many near-duplicate candidates found by SimHash
/// alone (the closest): a folder of thousands of identical files stays linear.
const MAX_SIMHASH_CANDIDATES: usize = 32;

/// Compares suspects with the references of one index.
pub(crate) struct Matcher<'a> {
    pub index: &'a dyn ReferenceIndex,
    pub settings: &'a Settings,
    pub tuning: &'a MatchTuning,
    pub exclusions: &'a Exclusions,
    /// Which (suspect, reference) pairs are compared at all.
    pub policy: &'a PairPolicy<'a>,
    /// Where the matching's time goes (finding candidates, aligning them), for a check
    /// whose sink is told; `None` where nobody listens.
    pub clock: Option<&'a MatchClock>,
    /// The references as the meaning layer reads them, when the check crosses languages.
    pub meaning: Option<&'a Collection<'a>>,
    /// The meaning layer for reworded copies in one language, unless it is switched off.
    pub reworded: Option<&'a Rewording>,
}

/// A suspect's k-gram hits in the references, sorted by reference, and what the
/// exclusions judged of its k-grams on the way.
struct SuspectHits {
    /// The reference of each hit, sorted (one entry per hit).
    docs: Vec<u32>,
    hits: Vec<Hit>,
    judged: SuspectKgrams,
}

impl SuspectHits {
    /// The hits of reference `b`.
    fn of(&self, b: u32) -> &[Hit] {
        let start = self.docs.partition_point(|&d| d < b);
        let end = start + self.docs[start..].partition_point(|&d| d == b);
        &self.hits[start..end]
    }
}

impl Matcher<'_> {
    /// Every pair of `doc` with a reference that shares a passage or is a near duplicate,
    /// scored, with the text found in several references shown against the best of them.
    /// `a` is the suspect's id (`Pair::a`); `Pair::b` is the reference's id in the index.
    /// Fails when the index cannot be read.
    pub fn pairs_of(&self, a: usize, doc: &FingerprintedDoc) -> Result<Vec<Pair>, StoreError> {
        let mut pairs = self.pairs_in_words(a, doc)?;
        if let Some(collection) = self.meaning {
            let wanted = |b: usize| self.policy.wanted(a, b);
            let reference = |b: usize| match u32::try_from(b) {
                Ok(b) => self.index.reference(b),
                Err(_) => Ok(None),
            };
            let score = |pair: &mut Pair, x: &FingerprintedDoc, y: &FingerprintedDoc| self.score(pair, x, y);
            add_translated(collection, (a, doc), &mut pairs, &wanted, &reference, &score)?;
        }
        Ok(pairs)
    }

    /// The pairs of `doc` whose two sides share words.
    fn pairs_in_words(&self, a: usize, doc: &FingerprintedDoc) -> Result<Vec<Pair>, StoreError> {
        let finding = Instant::now();
        let hits = self.hits(a, doc)?;
        let suspect_stream = LazyStream::new(doc.compared_text(), self.settings.normalize);
        let short = self.short_search(a, doc, &suspect_stream)?;
        let candidates = self.candidates(a, doc, &hits, &short)?;
        if candidates.is_empty() {
            self.clock.inspect(|c| c.found(finding, 0));
            return Ok(Vec::new());
        }
        let shared_sentences = self.shared_sentences(a, doc)?;
        let tokens = &doc.prints.tokenized.tokens;
        let excluded = SuspectExclusions {
            common: token_ranges(tokens, &hits.judged.flagged),
            quoted: quoted_spans(&doc.text, &self.exclusions.dictionary),
        };
        self.clock.inspect(|c| c.found(finding, candidates.len()));
        let aligning = Instant::now();
        let mut read: Vec<(u32, FingerprintedDoc)> = Vec::with_capacity(candidates.len());
        for b in candidates {
            read.extend(self.index.reference(b)?.map(|reference| (b, reference)));
        }
        let short = self.short_search_among(a, doc, &suspect_stream, &read).unwrap_or(short);
        let mut pairs = Vec::new();
        let mut references = Vec::new();
        for (b, reference) in read {
            let mut pair = self.align((a, doc), &suspect_stream, (b, &reference), hits.of(b), &short);
            excluded.classify(&mut pair.passages);
            pair.shared_sentences = shared_sentences.get(&b).copied().unwrap_or(0);
            self.score(&mut pair, doc, &reference);
            if pair.passages.is_empty() && !pair.near_duplicate {
                continue;
            }
            pairs.push(pair);
            references.push(reference);
        }
        // One suspect span, one source: text found in several references is shown against
        // the one whose text it matches most closely (character trigrams of both sides, on
        // the normalized streams; a reference's stream is built only when asked). Then the
        // pieces of a reordered copy that each pair keeps are joined.
        let streams: Vec<LazyStream> =
            references.iter().map(|r| LazyStream::new(r.compared_text(), self.settings.normalize)).collect();
        let changed = fold_across_pairs(&mut pairs, self.settings.min_chars, |i, p| {
            shared_trigrams(suspect_stream.chars_in(p.a_start, p.a_end), streams[i].chars_in(p.b_start, p.b_end))
        });
        for (((pair, reference), changed), stream) in pairs.iter_mut().zip(&references).zip(changed).zip(&streams) {
            let pieces = pair.passages.len();
            let masked = (&doc.masked_chars[..], &reference.masked_chars[..]);
            // Text of the suspect that the reference holds, edited, near the pieces: half
            // its character trigrams or more.
            let copied = |hole: (u32, u32), window: (u32, u32)| {
                let text = suspect_stream.chars_in(hole.0, hole.1);
                let trigrams = text.len().saturating_sub(2);
                2 * shared_trigrams(text, stream.chars_in(window.0, window.1)) >= trigrams
            };
            let passages = std::mem::take(&mut pair.passages);
            pair.passages = join_reordered_pieces(passages, self.tuning.gap_chars, masked, &copied);
            if changed || pair.passages.len() != pieces {
                self.score(pair, doc, reference);
            }
        }
        if let Some(rewording) = self.reworded {
            let changed = carry_reworded(rewording, doc, &mut pairs, &references);
            for ((pair, reference), changed) in pairs.iter_mut().zip(&references).zip(changed) {
                if changed {
                    self.score(pair, doc, reference);
                }
            }
        }
        pairs.retain(|p| !p.passages.is_empty() || p.near_duplicate);
        self.clock.inspect(|c| c.aligned(aligning, pairs.len()));
        Ok(pairs)
    }

    /// Looks up every k-gram of the suspect, not only its winnowed ones: the references'
    /// fingerprints are winnowed, and a shared run shorter than t still hits whenever the
    /// reference kept one of its k-grams. Common text and stop passages are judged on the
    /// way; masked (template) text and pairs the policy does not want give no hit.
    fn hits(&self, a: usize, doc: &FingerprintedDoc) -> Result<SuspectHits, StoreError> {
        // (reference, hit), sorted below: one vector for all references, not one each.
        let mut found: Vec<(u32, Hit)> = Vec::new();
        let k = self.settings.k.max(1);
        let tokens = &doc.prints.tokenized.tokens;
        // How often the suspect looked up each k-gram that a reference repeats: like the
        // index, the suspect keeps only the first occurrences of a repeated phrase.
        let mut repeated: FxHashMap<u64, usize> = FxHashMap::default();
        let hashes = kgram_hashes(tokens.iter().map(|t| t.hash), k);
        let lists = self.index.postings(Signal::Kgram, &hashes)?;
        // Where the index holds only part of the collection, the collection's counts decide.
        let spreads = self.index.spreads(Signal::Kgram, &hashes);
        let judged = self
            .exclusions
            .judge(&hashes, k, MAX_POSTINGS, |position| (lists[position].as_ref(), spreads[position].as_ref()));
        // No k-gram is skipped for its postings: one held by more than MAX_POSTINGS is
        // common or frequent, and so restricted to the documents it is shown against.
        for (position, (&hash, postings)) in hashes.iter().zip(&lists).enumerate() {
            let restricted = judged.is_restricted(position);
            let count = spreads[position].map_or(postings.len(), |s| s.postings);
            if postings.is_empty() {
                continue;
            }
            if count >= MAX_POSITIONS_PER_DOCUMENT {
                let seen = repeated.entry(hash).or_default();
                *seen += 1;
                if *seen > MAX_POSITIONS_PER_DOCUMENT {
                    continue;
                }
            }
            if !doc.masked_chars.is_empty()
                && overlaps(&doc.masked_chars, (tokens[position].start, tokens[position + k - 1].end))
            {
                continue;
            }
            for p in postings
                .iter()
                .filter(|p| self.policy.wanted(a, p.doc as usize) && (!restricted || judged.is_shown(p.doc)))
            {
                found.push((p.doc, Hit { a: TokenAt(saturating_u32(position)), b: TokenAt(p.position) }));
            }
        }
        drop(lists);
        found.sort_unstable();
        let (docs, hits): (Vec<u32>, Vec<Hit>) = found.into_iter().unzip();
        Ok(SuspectHits { docs, hits, judged })
    }

    /// The references worth aligning with `doc`, sorted: those its hits tie it to, but
    /// for a lone hit that cannot grow into a box, and its closest near duplicates by
    /// SimHash whatever their hits; of these, those a glance proves would come to nothing
    /// are left out.
    fn candidates(
        &self,
        a: usize,
        doc: &FingerprintedDoc,
        hits: &SuspectHits,
        short: &ShortSearch,
    ) -> Result<Vec<u32>, StoreError> {
        // One entry per reference (`hits.docs` is sorted: one entry per hit).
        let mut candidates = hits.docs.clone();
        candidates.dedup();
        let (near, every_near_listed) = self.simhash_candidates(a, doc)?;
        // A reference tied to the suspect by one hit that cannot grow into a box comes to
        // nothing (no passage, and no near duplicate unless listed in `near`): not read.
        if every_near_listed {
            let min_exact = self.tuning.min_exact(self.settings.min_chars);
            let (k, w) = (self.settings.k.max(1), self.settings.w.max(1));
            let tokens = &doc.prints.tokenized.tokens;
            candidates.retain(|&b| {
                let of_b = hits.of(b);
                of_b.len() >= MIN_HITS || of_b.iter().any(|hit| lone_hit_may_open_box(tokens, hit.a, k, w, min_exact))
            });
        }
        candidates.extend_from_slice(&near);
        candidates.extend(short.references());
        candidates.sort_unstable();
        candidates.dedup();
        if candidates.is_empty() {
            return Ok(candidates);
        }
        // Where the index keeps glances, references that cannot come to anything are not
        // read; those the character grams tie are read (the glance judges word hits only).
        let mut by_grams: Vec<u32> = short.references().collect();
        by_grams.sort_unstable();
        let glanced: Vec<u32> = candidates.iter().copied().filter(|b| near.binary_search(b).is_err()).collect();
        let ctx = self.glance_context(doc);
        let windows = |b: u32| glance_windows(hits.of(b), &ctx);
        let mut passed_over: Vec<u32> = Vec::new();
        self.index.glances(&glanced, &windows, &mut |b, glance| {
            if by_grams.binary_search(&b).is_err() && !self.worth_reading(doc, glance, hits.of(b)) {
                passed_over.push(b);
            }
        })?;
        passed_over.sort_unstable();
        candidates.retain(|b| passed_over.binary_search(b).is_err());
        Ok(candidates)
    }

    /// The references closest to `doc` by SimHash (at most [`MAX_SIMHASH_CANDIDATES`]),
    /// sorted, and whether they are all of those within the SimHash threshold's reach.
    fn simhash_candidates(&self, a: usize, doc: &FingerprintedDoc) -> Result<(Vec<u32>, bool), StoreError> {
        let Some(h) = doc.simhash else {
            return Ok((Vec::new(), true));
        };
        let after = self.policy.simhash_after_suspect().then_some(saturating_u32(a));
        let mut close: Vec<(u32, u32)> = self
            .index
            .simhash_neighbours(h, after, 4 * MAX_SIMHASH_CANDIDATES)?
            .into_iter()
            .filter(|&(b, _)| self.policy.wanted(a, b as usize))
            .collect();
        close.sort_unstable_by_key(|&(b, distance)| (distance, b));
        let every_near_listed = close.len() <= MAX_SIMHASH_CANDIDATES;
        let mut near: Vec<u32> = close.into_iter().take(MAX_SIMHASH_CANDIDATES).map(|(b, _)| b).collect();
        near.sort_unstable();
        Ok((near, every_near_listed))
    }

    /// The pair of suspect `doc` (id `a`) and `reference` (id `b`) with its passages
    /// aligned, not yet classified or scored.
    fn align(
        &self,
        (a, doc): (usize, &FingerprintedDoc),
        suspect_stream: &LazyStream,
        (b, reference): (u32, &FingerprintedDoc),
        hits: &[Hit],
        short: &ShortSearch,
    ) -> Pair {
        let ctx = PairContext {
            k: self.settings.k.max(1),
            min_chars: self.settings.min_chars,
            tuning: self.tuning,
            suspect_masked: &doc.masked_chars,
            reference_masked: &reference.masked_chars,
        };
        let reference_stream = LazyStream::new(reference.compared_text(), self.settings.normalize);
        let suspect = Side { prints: &doc.prints, stream: suspect_stream };
        let reference_side = Side { prints: &reference.prints, stream: &reference_stream };
        let simhash_distance = match (doc.simhash, reference.simhash) {
            (Some(x), Some(y)) => Some(simhash::hamming(x, y)),
            _ => None,
        };
        let gap_chars = self.tuning.gap_chars;
        let more = |found| short.add_to(found, b, reference, &reference_stream, gap_chars);
        let passages = align(suspect, reference_side, hits, simhash_distance, &ctx, more);
        Pair {
            a,
            b: b as usize,
            score: 0.0,
            score_b: 0.0,
            simhash_distance,
            passages,
            longest: 0,
            shared_sentences: 0,
            near_duplicate: false,
        }
    }

    /// How `doc` is matched with a reference known by a glance (its masked text only).
    fn glance_context<'c>(&'c self, doc: &'c FingerprintedDoc) -> PairContext<'c> {
        PairContext {
            k: self.settings.k.max(1),
            min_chars: self.settings.min_chars,
            tuning: self.tuning,
            suspect_masked: &doc.masked_chars,
            reference_masked: &[],
        }
    }

    /// False when a glance at a reference proves that the pair would come to nothing: its
    /// `hits` with `doc` open no box, so the first pass finds no passage; the dense pass
    /// aligns only around groups of hits that pass a stricter form of the same test
    /// (enough hits *and* exact runs long enough), so it finds none either; and the
    /// SimHash values are too far apart for a near duplicate by themselves. Only a pair
    /// without hits, tied by SimHash alone, is aligned densely as a whole. The
    /// reference's text need not be read.
    fn worth_reading(&self, doc: &FingerprintedDoc, glance: &Glance<'_>, hits: &[Hit]) -> bool {
        let ctx = self.glance_context(doc);
        let simhash_distance = match (doc.simhash, glance.simhash) {
            (Some(x), Some(y)) => Some(simhash::hamming(x, y)),
            _ => None,
        };
        simhash_distance.is_some_and(|d| d <= self.settings.simhash_threshold)
            || (hits.is_empty() && Ties { boxes: 0, hits, simhash_distance }.tied(&ctx))
            || may_open_box(&doc.prints.tokenized.tokens, &glance.token_keys, hits, &ctx)
    }

    /// The search for short edited copies of `doc` from character grams.
    fn short_search<'d>(
        &self,
        a: usize,
        doc: &'d FingerprintedDoc,
        stream: &'d LazyStream<'d>,
    ) -> Result<ShortSearch<'d>, StoreError> {
        let suspect = ShortSuspect { stream, masked: &doc.masked_chars, min_chars: self.settings.min_chars };
        if !self.settings.short_copies {
            // A store keeps its grams whatever the check asks: none are looked up.
            return Ok(ShortSearch::among(&[], self.settings.normalize, suspect, |_| false));
        }
        ShortSearch::new(self.index, suspect, |b| self.policy.wanted(a, b as usize))
    }

    /// The search for short edited copies of `doc` among the references `read` for it,
    /// where the index holds no character grams to search them all (an archive): the
    /// rest of a copy whose k-grams found a part, a copy beside it in the same reference.
    /// `None` where the index searched them all already, or the check searches none.
    fn short_search_among<'d>(
        &self,
        a: usize,
        doc: &'d FingerprintedDoc,
        stream: &'d LazyStream<'d>,
        read: &[(u32, FingerprintedDoc)],
    ) -> Option<ShortSearch<'d>> {
        let wanted = self.settings.short_copies && self.policy.short_copies_among_read();
        if !wanted || read.is_empty() || self.index.holds(Signal::CharGram) {
            return None;
        }
        let suspect = ShortSuspect { stream, masked: &doc.masked_chars, min_chars: self.settings.min_chars };
        let texts: Vec<(u32, &str)> = read.iter().map(|(b, r)| (*b, r.compared_text())).collect();
        Some(ShortSearch::among(&texts, self.settings.normalize, suspect, |b| self.policy.wanted(a, b as usize)))
    }

    /// Sets the scores and the near-duplicate flag of `pair` from its counted passages.
    fn score(&self, pair: &mut Pair, a: &FingerprintedDoc, b: &FingerprintedDoc) {
        let counted: Vec<Passage> =
            pair.passages.iter().filter(|p| p.counts(self.settings.count_quoted)).cloned().collect();
        let scores = pair_scores(&counted, a.countable_chars, b.countable_chars, &a.masked_chars, &b.masked_chars);
        pair.score = scores.score;
        pair.score_b = scores.score_b;
        pair.longest = scores.longest;
        // The keyword signal needs some coverage too: most pairs stop at that test, before
        // their keywords are compared.
        let keyword_similarity = || match (a.keywords.as_deref(), b.keywords.as_deref()) {
            (Some(x), Some(y)) if may_reach(x, y, KEYWORD_SIMILARITY) => similarity(x, y),
            _ => 0.0,
        };
        pair.near_duplicate = near_duplicate_rule(
            &scores,
            pair.simhash_distance,
            keyword_similarity,
            self.settings.simhash_threshold,
            self.settings.near_duplicate_coverage,
        );
    }

    /// How many of the suspect's sentences each reference holds.
    fn shared_sentences(&self, a: usize, doc: &FingerprintedDoc) -> Result<FxHashMap<u32, u32>, StoreError> {
        let hashes: Vec<u64> = doc.prints.sentences.iter().map(|s| s.hash).collect();
        let mut shared: FxHashMap<u32, u32> = FxHashMap::default();
        let lists = self.index.postings(Signal::Sentence, &hashes)?;
        let spreads = self.index.spreads(Signal::Sentence, &hashes);
        for (postings, spread) in lists.into_iter().zip(spreads) {
            // A sentence most references hold says nothing (and would cost every suspect
            // a walk over all of them).
            if spread.map_or(postings.len(), |s| s.postings) > MAX_POSTINGS {
                continue;
            }
            let mut docs: Vec<u32> =
                postings.iter().map(|p| p.doc).filter(|&b| self.policy.wanted(a, b as usize)).collect();
            docs.dedup();
            for b in docs {
                *shared.entry(b).or_default() += 1;
            }
        }
        Ok(shared)
    }
}

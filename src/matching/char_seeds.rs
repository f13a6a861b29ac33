//! Short edited copies: English passages of 50–150 characters with a typo every ten
//! characters or so keep no run of five intact words, so no word k-gram reaches the
//! index. They keep runs of six intact letters: character grams
//! ([`crate::fingerprint::char_grams`]), which the check's index holds for its references.
//!
//! A suspect looks up every gram of its Latin text. A hit with company on its diagonal
//! (other hits close by, allowing a few characters inserted or deleted) is an anchor: the
//! alignment grows from it both ways over text that still aligns ([`super::extend`]), the
//! Chinese words of a line that mixes both scripts included, and
//! the stretch becomes a passage when it is long enough, few enough edits apart, and held
//! by enough separate hits. Chance grams are many but scattered; a copy's line up.
//!
//! These passages only add to what the word k-grams find: a pair keeps the short copies
//! that none of its other passages overlaps.

use std::borrow::Cow;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::closeness::shared_trigrams;
use super::edits::{SHORT_COPY_LENGTH_FACTOR, copy_edits_between};
use super::extend::{MAX_EXTENSION, MAX_EXTENSION_LEN, extend};
use super::{LazyStream, overlaps};
use crate::fingerprint::char_grams::{GRAM_CHARS, GRAM_LEN, gram_hashes, grams_of_text, is_gram};
use crate::fingerprint::{Fingerprint, FingerprintedDoc};
use crate::index::{InvertedIndex, Posting, ReferenceIndex, Signal, StoreError};
use crate::model::{Passage, saturating_u32};
use crate::normalize::{CharStream, NormalizeOptions};

/// A gram held by more reference positions than this says nothing (a common syllable).
const MAX_GRAM_POSTINGS: usize = 24;
/// Diagonals a hit's company may stand off its own (characters inserted or deleted).
const BAND: i64 = 4;
/// Stream characters either side of a hit within which its company is counted.
const REACH: i64 = 60;
/// Hits (the anchor's own included) on separate stretches a passage needs.
const MIN_SEEDS: usize = 2;
/// How far the score of a growing end may fall below its best (see [`extend`]).
const X_DROP: i32 = 6;
/// Characters of the suspect a chain of hits through an anchor must span: a copy long
/// enough to report keeps a hit in nearly every run of eight intact letters (the
/// reference keeps one gram of every [`crate::fingerprint::char_grams::GRAM_WINDOW`]),
/// while most chance anchors are one long word or two short ones held in common.
const MIN_CHAIN: u32 = 18;
/// Characters a chain may pass without a hit (a typo kills every gram that holds it).
const CHAIN_GAP: u32 = 36;
/// A reference whose hits outnumber the suspect's grams this many times over shares them
/// by chance: in a small alphabet (DNA, words of a few letters) every gram is held all
/// over every text. A copy holds about one hit in two of its grams (the reference keeps a
/// gram in every few), so only a reference that holds the copied text four times over
/// comes near, and the k-grams find that copy anyway.
const MAX_HITS_PER_GRAM: usize = 2;
/// Hits on one reference below which [`MAX_HITS_PER_GRAM`] is not asked: so few cost
/// nothing, whatever they are.
const FEW_HITS: usize = 10_000;
/// The most hits on one reference the search looks at: the sweep for anchors grows with
/// them ([`anchors`]). A reference with more is not searched.
const MAX_PAIR_HITS: usize = 1_000_000;
/// The most stretches grown from anchors per pair: each costs an alignment both ways and
/// an edit distance. A pair of the development sets grows fewer than a hundred.
const MAX_GROWN: usize = 10_000;

/// The character gram index of a check's references: `(id, its winnowed grams)`.
pub fn gram_index(references: Vec<(u32, Vec<Fingerprint>)>) -> InvertedIndex {
    let entries: Vec<(u64, Posting)> = references
        .into_par_iter()
        .flat_map_iter(|(doc, grams)| grams.into_iter().map(move |f| (f.hash, Posting { doc, position: f.position })))
        .collect();
    InvertedIndex::build(entries)
}

/// One suspect as the short-copy search reads it.
pub struct ShortSuspect<'a> {
    /// The character stream of its compared text (shared with its alignments).
    pub stream: &'a LazyStream<'a>,
    /// Template text, never matched (sorted).
    pub masked: &'a [(u32, u32)],
    pub min_chars: usize,
}

/// The short-copy search of one suspect: its gram hits on every reference, kept for the
/// references where some hit has company ([`MIN_SEEDS`]); grown into passages pair by
/// pair ([`ShortSearch::add_to`]) only where the pair's other passages leave room.
pub struct ShortSearch<'a> {
    suspect: ShortSuspect<'a>,
    /// Per reference: its hits and the anchors among them.
    by_reference: FxHashMap<u32, ReferenceHits>,
}

/// A suspect's gram hits on one reference, each (diagonal, suspect stream index), in
/// suspect order, and the hits with company among them.
struct ReferenceHits {
    hits: Vec<(i64, u32)>,
    anchors: Vec<(i64, u32)>,
}

impl<'a> ShortSearch<'a> {
    /// Looks up the grams of `suspect` in `index`, among the references `wanted` lets it
    /// be compared with. An index that holds no grams finds nothing.
    /// Fails when the index cannot be read.
    pub fn new(
        index: &dyn ReferenceIndex,
        suspect: ShortSuspect<'a>,
        wanted: impl Fn(u32) -> bool,
    ) -> Result<Self, StoreError> {
        if !index.holds(Signal::CharGram) {
            return Ok(Self { suspect, by_reference: FxHashMap::default() });
        }
        Self::search(|hashes| index.postings(Signal::CharGram, hashes), suspect, wanted)
    }

    /// Looks up the grams of `suspect` in `references` alone (id and compared text, their
    /// grams taken here with `normalize`): for an index that holds no grams (an archive),
    /// among the references a check reads anyway.
    pub fn among(
        references: &[(u32, &str)],
        normalize: NormalizeOptions,
        suspect: ShortSuspect<'a>,
        wanted: impl Fn(u32) -> bool,
    ) -> Self {
        let grams = references.iter().map(|&(doc, text)| (doc, grams_of_text(text, normalize))).collect();
        let index = gram_index(grams);
        let lookup = |hashes: &[u64]| Ok(hashes.iter().map(|&h| Cow::Borrowed(index.get(h))).collect());
        match Self::search::<std::convert::Infallible>(lookup, suspect, wanted) {
            Ok(search) => search,
            Err(never) => match never {},
        }
    }

    /// The search itself: the suspect's grams looked up with `lookup` (their postings, in
    /// the order asked).
    fn search<'i, E>(
        lookup: impl FnOnce(&[u64]) -> Result<Vec<Cow<'i, [Posting]>>, E>,
        suspect: ShortSuspect<'a>,
        wanted: impl Fn(u32) -> bool,
    ) -> Result<Self, E> {
        let stream = suspect.stream.get();
        let hashes = gram_hashes(&stream.chars);
        let (at, looked_up): (Vec<u32>, Vec<u64>) =
            hashes.iter().enumerate().filter(|(_, h)| is_gram(**h)).map(|(i, &h)| (saturating_u32(i), h)).unzip();
        let lists = lookup(&looked_up)?;
        // (reference, suspect index, diagonal), in suspect order.
        let mut hits: Vec<(u32, u32, i64)> = Vec::new();
        for (&i, list) in at.iter().zip(&lists) {
            if list.is_empty() || list.len() > MAX_GRAM_POSTINGS {
                continue;
            }
            if !suspect.masked.is_empty() && overlaps(suspect.masked, span(stream, i, i + GRAM_LEN)) {
                continue;
            }
            hits.extend(list.iter().filter(|p| wanted(p.doc)).map(|p| (p.doc, i, i as i64 - p.position as i64)));
        }
        drop(lists);
        let mut by_reference = FxHashMap::default();
        let most = (MAX_HITS_PER_GRAM * looked_up.len()).clamp(FEW_HITS, MAX_PAIR_HITS);
        for on_doc in by_document(hits, most) {
            let anchors = anchors(&on_doc.1);
            if !anchors.is_empty() {
                by_reference.insert(on_doc.0, ReferenceHits { hits: on_doc.1, anchors });
            }
        }
        Ok(Self { suspect, by_reference })
    }

    /// The references that may hold a short copy.
    pub fn references(&self) -> impl Iterator<Item = u32> + '_ {
        self.by_reference.keys().copied()
    }

    /// `passages` (the pair's with `reference`, sorted by suspect offset) with the short
    /// copies found where none of them lies (cut where one runs into them); one within
    /// `gap_chars` of another passage on both sides joins it (the rest of an edited
    /// passage the k-grams found in part). `reference_stream` is the reference's
    /// character stream.
    pub fn add_to(
        &self,
        passages: Vec<Passage>,
        doc: u32,
        reference: &FingerprintedDoc,
        reference_stream: &LazyStream,
        gap_chars: u32,
    ) -> Vec<Passage> {
        let Some(ReferenceHits { hits, anchors }) = self.by_reference.get(&doc) else { return passages };
        let stream = self.suspect.stream.get();
        let mut found: Vec<(u32, u32)> = passages.iter().map(|p| (p.a_start, p.a_end)).collect();
        found.sort_unstable();
        let free: Vec<(i64, u32)> =
            anchors.iter().copied().filter(|&(_, i)| !overlaps(&found, span(stream, i, i + GRAM_LEN))).collect();
        if free.is_empty() {
            return passages;
        }
        let sides = (stream, reference_stream.get());
        let short = copies_in_reference(sides, reference, hits, free, &self.suspect);
        with_short_copies(passages, &short, gap_chars, shortest(self.suspect.min_chars))
    }
}

/// `hits` (reference, suspect index, diagonal), in suspect order, grouped by reference:
/// each group (diagonal, suspect index) still in suspect order; a reference with fewer
/// than [`MIN_SEEDS`] hits or more than `most` left out. A counting sort: the hits are
/// many, the references few.
fn by_document(hits: Vec<(u32, u32, i64)>, most: usize) -> Vec<(u32, Vec<(i64, u32)>)> {
    let Some(last) = hits.iter().map(|h| h.0 as usize).max() else { return Vec::new() };
    let mut counts = vec![0u32; last + 1];
    for h in &hits {
        counts[h.0 as usize] += 1;
    }
    let mut groups: Vec<(u32, Vec<(i64, u32)>)> = counts
        .iter()
        .zip(0u32..)
        .filter(|(n, _)| (MIN_SEEDS..=most).contains(&(**n as usize)))
        .map(|(&n, doc)| (doc, Vec::with_capacity(n as usize)))
        .collect();
    // Group of each reference holding enough hits to have company.
    let mut slot = vec![u32::MAX; last + 1];
    for ((doc, _), g) in groups.iter().zip(0u32..) {
        slot[*doc as usize] = g;
    }
    for (doc, i, diagonal) in hits {
        if let Some(group) = groups.get_mut(slot[doc as usize] as usize) {
            group.1.push((diagonal, i));
        }
    }
    groups
}

/// The anchors among `hits` (diagonal, suspect index) in suspect order: hits with company
/// ([`MIN_SEEDS`] separate stretches of hits within [`BAND`] diagonals and [`REACH`]
/// characters, their own included), found in one sweep of a window along the suspect,
/// on a chain of hits that spans [`MIN_CHAIN`] characters.
fn anchors(hits: &[(i64, u32)]) -> Vec<(i64, u32)> {
    let mut anchors = Vec::new();
    let (mut lo, mut hi) = (0, 0);
    for (at, &(diagonal, i)) in hits.iter().enumerate() {
        let i = i as i64;
        while (hits[lo].1 as i64) < i - REACH {
            lo += 1;
        }
        while hi < hits.len() && hits[hi].1 as i64 <= i + REACH {
            hi += 1;
        }
        if has_company(&hits[lo..hi], diagonal) && chain_reaches(hits, at, MIN_CHAIN) {
            anchors.push((diagonal, hits[at].1));
        }
    }
    anchors
}

/// Whether the chain of hits through `hits[at]` (in suspect order) spans `length`
/// characters of the suspect: each next hit within [`BAND`] diagonals of the last and at
/// most [`CHAIN_GAP`] characters after it, followed both ways until it does.
fn chain_reaches(hits: &[(i64, u32)], at: usize, length: u32) -> bool {
    let (diagonal, i) = hits[at];
    let reached = |start: u32, end: u32| end + GRAM_LEN >= start + length;
    let (mut d, mut end) = (diagonal, i);
    for &(next_d, next_i) in &hits[at + 1..] {
        if next_i > end + CHAIN_GAP || reached(i, end) {
            break;
        }
        if (next_d - d).abs() <= BAND {
            (d, end) = (next_d, next_i);
        }
    }
    let (mut d, mut start) = (diagonal, i);
    for &(previous_d, previous_i) in hits[..at].iter().rev() {
        if previous_i + CHAIN_GAP < start || reached(start, end) {
            break;
        }
        if (previous_d - d).abs() <= BAND {
            (d, start) = (previous_d, previous_i);
        }
    }
    reached(start, end)
}

/// Whether the hits of `window` (in suspect order) within [`BAND`] of `diagonal` make
/// [`MIN_SEEDS`] separate stretches: one on another diagonal is a stretch besides the
/// hit's own; on its own diagonal, the stretches [`Stretches`] counts.
fn has_company(window: &[(i64, u32)], diagonal: i64) -> bool {
    const _: () = assert!(MIN_SEEDS == 2, "has_company counts to two");
    let mut own = Stretches::default();
    for &(d, i) in window {
        if (d - diagonal).abs() > BAND {
            continue;
        }
        if d != diagonal || own.push(i) >= MIN_SEEDS {
            return true;
        }
    }
    false
}

/// The short copies held by `reference`, grown from `anchors` among the suspect's `hits`
/// on it (diagonal, suspect stream index), sorted.
fn copies_in_reference(
    (suspect, reference_stream): (&CharStream, &CharStream),
    reference: &FingerprintedDoc,
    hits: &[(i64, u32)],
    anchors: Vec<(i64, u32)>,
    settings: &ShortSuspect,
) -> Vec<Passage> {
    // Each anchor outside the stretches grown so far on its diagonal grows into one.
    let mut grown: Vec<Candidate> = Vec::new();
    let mut tried = Tried::default();
    let mut by_suspect = anchors;
    by_suspect.sort_unstable_by_key(|&(d, i)| (i, d));
    for (diagonal, i) in by_suspect {
        if tried.holds(i, diagonal) {
            continue;
        }
        if tried.len() == MAX_GROWN {
            break;
        }
        let Ok(j) = u32::try_from(i as i64 - diagonal) else { continue };
        let Some((a, b)) = grow(suspect, reference_stream, i, j) else { continue };
        tried.push(i, a, diagonal);
        if !is_copy(suspect, reference_stream, a, b, hits, diagonal) {
            continue;
        }
        let passage = Passage::copied(span(suspect, a.0, a.1), span(reference_stream, b.0, b.1));
        let shortest = shortest(settings.min_chars);
        let long_enough = passage.a_len() >= shortest && passage.b_len() >= shortest;
        let masked = overlaps(settings.masked, (passage.a_start, passage.a_end))
            || overlaps(&reference.masked_chars, (passage.b_start, passage.b_end));
        if long_enough && !masked {
            let (x, y) =
                (&suspect.chars[a.0 as usize..a.1 as usize], &reference_stream.chars[b.0 as usize..b.1 as usize]);
            grown.push(Candidate { passage, a, close: shared_trigrams(x, y) });
        }
    }
    // Where the reference holds the text twice (or two similar sentences), the closest
    // twin wins: the one sharing the most of the suspect's text ([`shared_trigrams`], as
    // twins are chosen everywhere), so a near twin of part of the copy does not take it.
    grown.sort_by(|x, y| y.close.cmp(&x.close).then((y.a.1 - y.a.0).cmp(&(x.a.1 - x.a.0))));
    let mut passages: Vec<Passage> = Vec::new();
    for candidate in grown {
        if !passages.iter().any(|p| p.a_start < candidate.passage.a_end && candidate.passage.a_start < p.a_end) {
            passages.push(candidate.passage);
        }
    }
    passages.sort_by_key(|p| (p.a_start, p.b_start));
    passages
}

/// The fewest characters a short copy holds on each side
/// ([`SHORT_COPY_LENGTH_FACTOR`] times the shortest passage).
#[expect(clippy::cast_possible_truncation, reason = "a length of a few hundred characters; `as` saturates")]
fn shortest(min_chars: usize) -> u32 {
    (SHORT_COPY_LENGTH_FACTOR * min_chars as f64) as u32
}

/// The stretches grown so far on one reference, each (the suspect index of its anchor,
/// its suspect stream range, its diagonal), in the order of their anchors.
#[derive(Default)]
struct Tried(Vec<(u32, (u32, u32), i64)>);

impl Tried {
    /// The stretches grown so far.
    fn len(&self) -> usize {
        self.0.len()
    }

    /// Keeps the stretch `a` grown from the anchor at suspect index `i` on `diagonal`.
    fn push(&mut self, i: u32, a: (u32, u32), diagonal: i64) {
        self.0.push((i, a, diagonal));
    }

    /// Whether a stretch grown so far holds suspect index `i` (at or after every anchor
    /// so far) within [`BAND`] diagonals of `diagonal`. A stretch ends at most a gram and
    /// [`MAX_EXTENSION`] characters after its anchor, so only the stretches of anchors that
    /// close to `i` are looked at.
    fn holds(&self, i: u32, diagonal: i64) -> bool {
        let reach = GRAM_LEN + MAX_EXTENSION_LEN;
        self.0
            .iter()
            .rev()
            .take_while(|&&(anchor, _, _)| anchor.saturating_add(reach) >= i)
            .any(|&(_, a, d)| i >= a.0 && i < a.1 && (d - diagonal).abs() <= BAND)
    }
}

/// A stretch grown from an anchor: its passage, suspect stream range and closeness.
struct Candidate {
    passage: Passage,
    a: (u32, u32),
    close: usize,
}

/// Separate stretches among hits at ascending suspect indices.
fn stretches(at: impl Iterator<Item = u32>) -> usize {
    let mut counted = Stretches::default();
    at.fold(0, |_, i| counted.push(i))
}

/// Counts separate stretches among hits pushed at ascending suspect indices: hits of one
/// exact run are at most a window of grams apart (the reference keeps one gram in every
/// [`crate::fingerprint::char_grams::GRAM_WINDOW`]), and grams on either side of a typo
/// cannot overlap, so a hit more than a gram after the last starts a stretch. So does a
/// hit [`MIN_CHAIN`] characters after the start of its run: a run of intact letters that
/// long (a copy whose spaces or punctuation were changed, which the word k-grams miss)
/// is evidence of two.
#[derive(Default)]
struct Stretches {
    count: usize,
    /// Where the current stretch starts and its last hit.
    current: Option<(u32, u32)>,
}

impl Stretches {
    /// Counts the hit at `i`; the stretches so far.
    fn push(&mut self, i: u32) -> usize {
        self.current = match self.current {
            Some((start, last)) if i <= last + GRAM_LEN && i < start + MIN_CHAIN => Some((start, i)),
            _ => {
                self.count += 1;
                Some((i, i))
            }
        };
        self.count
    }
}

/// The stretch around the gram hit at suspect index `i`, reference index `j`, grown
/// both ways while the texts still align: half-open stream ranges on each side.
fn grow(a: &CharStream, b: &CharStream, i: u32, j: u32) -> Option<((u32, u32), (u32, u32))> {
    let (i, j) = (i as usize, j as usize);
    let q = GRAM_CHARS;
    if i + q > a.chars.len() || j + q > b.chars.len() || a.chars[i..i + q] != b.chars[j..j + q] {
        return None;
    }
    // The anchor is Latin text; the stretch grows over whatever still aligns, the Chinese
    // words of a line that mixes both included.
    let back = |s: &[char], at: usize| -> Vec<char> {
        s[at.saturating_sub(MAX_EXTENSION)..at].iter().rev().copied().collect()
    };
    let (fa, fb) = extend(ahead(&a.chars, i + q), ahead(&b.chars, j + q), X_DROP);
    let (ba, bb) = extend(&back(&a.chars, i), &back(&b.chars, j), X_DROP);
    Some(((saturating_u32(i - ba), saturating_u32(i + q + fa)), (saturating_u32(j - bb), saturating_u32(j + q + fb))))
}

/// Up to [`MAX_EXTENSION`] characters of `s` from `at` on.
fn ahead(s: &[char], at: usize) -> &[char] {
    &s[at..(at + MAX_EXTENSION).min(s.len())]
}

/// Whether the stretches `a` (suspect) and `b` (reference) are a copy: few enough edits
/// apart, and held by [`MIN_SEEDS`] separate hits near `diagonal`.
fn is_copy(sa: &CharStream, sb: &CharStream, a: (u32, u32), b: (u32, u32), hits: &[(i64, u32)], diagonal: i64) -> bool {
    let (x, y) = (&sa.chars[a.0 as usize..a.1 as usize], &sb.chars[b.0 as usize..b.1 as usize]);
    let longer = x.len().max(y.len());
    // The hits inside the stretch, found by their suspect index (`hits` is in suspect
    // order): the work is the stretch's, never the pair's.
    let from = hits.partition_point(|&(_, i)| i < a.0);
    let mut inside: Vec<u32> = hits[from..]
        .iter()
        .take_while(|&&(_, i)| i + GRAM_LEN <= a.1)
        .filter(|&&(d, _)| (d - diagonal).abs() <= BAND + (longer as i64) / 10)
        .map(|&(_, i)| i)
        .collect();
    inside.dedup();
    stretches(inside.into_iter()) >= MIN_SEEDS && copy_edits_between(x, y).is_some()
}

/// The character span of stream indices `[from, to)`.
fn span(s: &CharStream, from: u32, to: u32) -> (u32, u32) {
    let last = (to.max(from + 1) as usize).min(s.offsets.len()) - 1;
    (s.offsets[from as usize], s.offsets[last] + 1)
}

/// `passages` (one pair's, sorted by suspect offset) with the parts of `short` that no
/// passage of them covers ([`free_part`]), passages near each other on both sides joined.
fn with_short_copies(mut passages: Vec<Passage>, short: &[Passage], gap_chars: u32, shortest: u32) -> Vec<Passage> {
    let mut found: Vec<(u32, u32)> = passages.iter().map(|p| (p.a_start, p.a_end)).collect();
    found.sort_unstable();
    let added: Vec<Passage> = short.iter().filter_map(|p| free_part(p, &found, shortest)).collect();
    if added.is_empty() {
        return passages;
    }
    passages.extend(added);
    super::merge_passages(passages, gap_chars)
}

/// The part of the short copy `p` that none of `found` (suspect spans, sorted) covers,
/// when they overlap it only at its ends and the part keeps `shortest` characters: a
/// stretch grown from a free anchor may run a few characters into the passage of the
/// sentence beside it, where the two sentences end alike. Its reference side is cut in
/// proportion.
fn free_part(p: &Passage, found: &[(u32, u32)], shortest: u32) -> Option<Passage> {
    let (mut start, mut end) = (p.a_start, p.a_end);
    for &(s, e) in found.iter().filter(|&&(s, e)| s < p.a_end && p.a_start < e) {
        if s <= start {
            start = start.max(e);
        } else if e >= end {
            end = end.min(s);
        } else {
            return None;
        }
    }
    if end <= start || end - start < shortest {
        return None;
    }
    Some(p.part((start, end)))
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "the tests' values are small")]
mod tests {
    use super::*;

    /// Separate stretches of hits within [`BAND`] diagonals and [`REACH`] characters of
    /// `hit` (its own included); `hits` sorted by diagonal, then suspect index.
    fn company(hits: &[(i64, u32)], (diagonal, i): (i64, u32)) -> usize {
        let (i, reach) = (i as i64, REACH);
        (diagonal - BAND..=diagonal + BAND)
            .map(|d| {
                let lo = hits.partition_point(|&(hd, hi)| (hd, hi as i64) < (d, i - reach));
                let hi = hits.partition_point(|&(hd, hi)| (hd, hi as i64) <= (d, i + reach));
                stretches(hits[lo..hi].iter().map(|&(_, at)| at))
            })
            .sum()
    }

    /// The characters spanned by the whole chain of hits through `hits[at]`.
    fn chain_span(hits: &[(i64, u32)], at: usize) -> u32 {
        (GRAM_CHARS as u32..).take_while(|&length| chain_reaches(hits, at, length)).last().unwrap_or(0)
    }

    #[test]
    fn a_short_copy_keeps_the_part_no_passage_covers() {
        let copy = Passage::copied((100, 200), (1000, 1100));
        let ends = |p: Option<Passage>| p.map(|p| (p.a_start, p.a_end, p.b_start, p.b_end));
        assert_eq!(ends(free_part(&copy, &[(0, 50), (300, 400)], 60)), Some((100, 200, 1000, 1100)));
        // Running a few characters into the passages either side: cut, both sides alike.
        assert_eq!(ends(free_part(&copy, &[(0, 108), (195, 300)], 60)), Some((108, 195, 1008, 1095)));
        // A passage inside it, or too little left: nothing.
        assert_eq!(ends(free_part(&copy, &[(140, 160)], 60)), None);
        assert_eq!(ends(free_part(&copy, &[(0, 150)], 60)), None);
    }

    #[test]
    fn company_counts_hits_near_the_diagonal_once_each_stretch() {
        let mut hits = vec![(0, 10), (0, 13), (0, 30), (2, 50), (9, 40), (0, 200)];
        hits.sort_unstable();
        assert_eq!(company(&hits, (0, 10)), 3);
        assert_eq!(company(&hits, (0, 200)), 1);
    }

    #[test]
    fn the_sweep_finds_the_hits_with_company_the_count_finds() {
        // Hits of a few references' worth, scattered and in runs, on nearby diagonals.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            state = crate::hash::fmix64(state.wrapping_add(0x9e37_79b9_7f4a_7c15));
            state % n
        };
        for _ in 0..50 {
            let mut by_suspect: Vec<(i64, u32)> = (0..200).map(|_| (next(12) as i64 - 6, next(600) as u32)).collect();
            by_suspect.sort_unstable_by_key(|&(d, i)| (i, d));
            by_suspect.dedup();
            let mut by_diagonal = by_suspect.clone();
            by_diagonal.sort_unstable();
            let on_chain =
                |h: &(i64, u32)| by_suspect.iter().position(|x| x == h).map(|at| chain_span(&by_suspect, at));
            let mut want: Vec<(i64, u32)> = by_diagonal
                .iter()
                .copied()
                .filter(|h| company(&by_diagonal, *h) >= MIN_SEEDS && on_chain(h) >= Some(MIN_CHAIN))
                .collect();
            let mut got = anchors(&by_suspect);
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn the_stretches_near_an_anchor_hold_it_when_any_stretch_does() {
        let mut state = 0x51_7cc1_b727_220au64;
        let mut next = |n: u64| {
            state = crate::hash::fmix64(state.wrapping_add(0x9e37_79b9_7f4a_7c15));
            state % n
        };
        for _ in 0..50 {
            let mut anchors: Vec<(i64, u32)> = (0..300).map(|_| (next(20) as i64 - 10, next(5_000) as u32)).collect();
            anchors.sort_unstable_by_key(|&(d, i)| (i, d));
            let (mut tried, mut every) = (Tried::default(), Vec::new());
            for (diagonal, i) in anchors {
                let scan =
                    every.iter().any(|&(a, d): &((u32, u32), i64)| i >= a.0 && i < a.1 && (d - diagonal).abs() <= BAND);
                assert_eq!(tried.holds(i, diagonal), scan);
                if !scan {
                    // A stretch as grow makes one: up to its reach either side of the anchor.
                    let reach = (GRAM_CHARS + MAX_EXTENSION) as u64;
                    let a = (i.saturating_sub(next(reach) as u32), i + GRAM_CHARS as u32 + next(reach - 5) as u32);
                    tried.push(i, a, diagonal);
                    every.push((a, diagonal));
                }
            }
        }
    }

    #[test]
    fn a_reference_with_more_hits_than_the_bound_is_left_out() {
        // 50 hits on reference 0, 100 on reference 1, one on reference 2.
        let mut hits: Vec<(u32, u32, i64)> = (0..50u32).flat_map(|i| [(0, i, 0), (1, i, 0), (1, i, 1)]).collect();
        hits.push((2, 50, 5));
        let kept: Vec<(u32, usize)> = by_document(hits, 60).into_iter().map(|(doc, on)| (doc, on.len())).collect();
        assert_eq!(kept, vec![(0, 50)]);
    }

    #[test]
    fn a_chain_follows_hits_near_its_last_diagonal_across_gaps_a_typo_leaves() {
        // An edited copy: runs of hits drifting by one diagonal after each typo.
        let copy = [(0, 100), (0, 104), (1, 118), (1, 121), (2, 140), (2, 150)];
        assert_eq!(chain_span(&copy, 0), 150 + GRAM_CHARS as u32 - 100);
        assert_eq!(chain_span(&copy, 3), 150 + GRAM_CHARS as u32 - 100);
        // One long word in common: two hits a few letters apart, nothing near.
        let word = [(7, 10), (7, 17), (40, 20), (7, 90)];
        assert_eq!(chain_span(&word, 0), 17 + GRAM_CHARS as u32 - 10);
        assert!(chain_span(&word, 0) < MIN_CHAIN);
        // A hit far off the diagonal does not carry the chain.
        let off = [(0, 0), (BAND + 1, 20), (0, 30)];
        assert_eq!(chain_span(&off, 0), 30 + GRAM_CHARS as u32);
        assert_eq!(chain_span(&off, 1), GRAM_CHARS as u32);
    }
}

//! Match: turns the fingerprint hits between a suspect and one reference into passages —
//! character ranges on both sides — that survive light edits and reordered sentences.
//!
//! 1. Hits of winnowed k-grams (from the index) are grouped roughly ([`mod@cluster`]); each
//!    group marks a box of the two texts worth a closer look.
//! 2. Inside each box, every shared short run of normalized characters (three Han
//!    characters, or about nine Latin letters: see [`MatchTuning::seed_weight`]) is a
//!    dense seed. Working on characters rather than words keeps a word split by a line
//!    break, or two words run together, matching.
//! 3. Dense seeds are grouped with small gaps on both sides; a group that covers enough
//!    of its own span on both sides becomes a passage, extended to its seeds' ends and
//!    mapped to character offsets. Passages that touch or overlap are merged, so one
//!    copied passage is reported once.

pub mod across;
mod align;
pub mod alternatives;
pub mod bridge;
pub mod char_seeds;
pub mod closeness;
pub mod cluster;
pub mod dense;
mod edits;
pub mod extend;
mod prefilter;
pub mod reordered;
mod runs;

pub use align::align;
pub use prefilter::{MIN_HITS, glance_windows, join_windows, lone_hit_may_open_box, lone_hit_reach, may_open_box};

use std::cell::OnceCell;

use rustc_hash::FxHashMap;

use crate::fingerprint::DocumentFingerprints;
use crate::hash::fmix64;
use crate::model::{Passage, StreamAt, TokenAt, saturating_u32};
use crate::normalize::{CharStream, NormalizeOptions, Token, char_stream, is_single_char_token};
use cluster::{Spanned, cluster};

/// Internal tuning of the matcher. The defaults are what the engine uses; they are
/// measured on the development corpus, not user settings.
#[derive(Clone, Debug)]
pub struct MatchTuning {
    /// Weight a dense seed needs: a Han/Kana/Hangul character weighs 3, any other 1.
    pub seed_weight: u32,
    /// A box is opened only when the exact runs through its hits cover this share of the
    /// minimum passage length on the suspect side (see `exact_coverage`). Copied
    /// passages on the development corpus, lightly edited ones included, cover at least
    /// 34 characters (0.85 of the default 40); groups of chance hits on the benchmark
    /// corpus reach 20 characters 24 times in 160,000.
    pub min_exact_share: f64,
    /// A box needs at least this many k-gram hits: a copied passage of the minimum length
    /// shares several, a chance phrase one.
    pub min_hits: usize,
    /// Hits further apart than this many characters (on either side) start a new box.
    pub rough_gap_chars: u32,
    /// Normalized characters added around a box of hits before looking for dense seeds.
    pub box_margin: u32,
    /// Dense seeds further apart than this many characters start a new passage.
    pub gap_chars: u32,
    /// Share of a passage's normalized characters, on each side, that seeds must cover.
    pub min_density: f64,
    /// Seeds whose gram occurs more often than this inside one reference box are noise.
    pub max_seed_repeats: usize,
    /// A seed counts only inside a run of at least this many seeds on one diagonal
    /// (consecutive characters matching on both sides): chance matches are isolated.
    pub min_run: u32,
    /// The longer side of a passage may have at most this many times the normalized
    /// characters of the shorter: copied text keeps its length, chance matches of a few
    /// phrases spread out on one side.
    pub max_length_ratio: f64,
    /// A passage's ends grow over edited text until the alignment score drops this far
    /// below its best (see [`extend`]).
    pub extension_x_drop: i32,
    /// Before its ends grow, the exactly matched part of a passage must already span this
    /// share of the minimum passage length: the minimum is evidence, not only a length.
    pub min_seeded_share: f64,
    /// The dense pass ([`dense`]) runs on a pair whose first pass opened a box (or whose
    /// SimHash values are at most this far apart).
    pub dense_simhash_distance: u32,
    /// Dense pass: normalized characters added around a group of hits.
    pub dense_box_margin: u32,
    /// Dense pass: weight a seed needs (see `seed_weight`).
    pub dense_seed_weight: u32,
    /// Dense pass: share of a passage's characters, on each side, that seeds must cover.
    pub dense_min_density: f64,
    /// Dense pass: seeds in a run shorter than this are dropped.
    pub dense_min_run: u32,
    /// A passage only the dense pass finds (overlapping none of the first pass) needs this
    /// many times the minimum passage length: weaker evidence needs more of it. Shorter
    /// ones on the development sets were host text on the same subject as the reference
    /// (code examples, references to the same manual), not copies.
    pub dense_only_length_factor: f64,
}

impl Default for MatchTuning {
    fn default() -> Self {
        Self {
            seed_weight: 9,
            min_exact_share: 0.5,
            min_hits: 2,
            rough_gap_chars: 300,
            box_margin: 120,
            gap_chars: 60,
            min_density: 0.75,
            max_seed_repeats: 8,
            min_run: 3,
            max_length_ratio: 1.5,
            extension_x_drop: 6,
            min_seeded_share: 1.0,
            dense_simhash_distance: 12,
            dense_box_margin: 200,
            dense_seed_weight: 6,
            dense_min_density: 0.5,
            dense_min_run: 2,
            dense_only_length_factor: 3.75,
        }
    }
}

impl MatchTuning {
    /// Characters the exact runs of a group of hits must cover on the suspect side for it
    /// to open a box, given the minimum passage length (see `min_exact_share`).
    pub fn min_exact(&self, min_chars: usize) -> f64 {
        self.min_exact_share * min_chars as f64
    }

    /// The tuning of the dense pass: shorter seeds, shorter runs, lower density.
    pub fn dense(&self) -> Self {
        Self {
            seed_weight: self.dense_seed_weight,
            min_density: self.dense_min_density,
            min_run: self.dense_min_run,
            ..self.clone()
        }
    }
}

/// What one comparison needs besides the two documents.
#[derive(Clone, Debug)]
pub struct PairContext<'a> {
    pub k: usize,
    pub min_chars: usize,
    pub tuning: &'a MatchTuning,
    /// Character ranges of the suspect that are template text (never matched), sorted.
    pub suspect_masked: &'a [(u32, u32)],
    /// The same for the reference.
    pub reference_masked: &'a [(u32, u32)],
}

/// A document's normalized character stream, built the first time it is asked for: most
/// pairs of documents share only chance k-grams and never need it.
pub struct LazyStream<'a> {
    text: &'a str,
    options: NormalizeOptions,
    built: OnceCell<CharStream>,
}

impl<'a> LazyStream<'a> {
    /// The stream of `text` (the document's extracted text), normalized with `options`.
    pub fn new(text: &'a str, options: NormalizeOptions) -> Self {
        Self { text, options, built: OnceCell::new() }
    }

    fn get(&self) -> &CharStream {
        self.built.get_or_init(|| char_stream(self.text, self.options))
    }

    /// The normalized characters that came from characters `[from, to)` of the text.
    pub fn chars_in(&self, from: u32, to: u32) -> &[char] {
        let stream = self.get();
        let start = stream.offsets.partition_point(|&o| o < from);
        let end = stream.offsets.partition_point(|&o| o < to);
        &stream.chars[start..end.max(start)]
    }
}

/// One side of a comparison: a document's fingerprints and its character stream.
#[derive(Clone, Copy)]
pub struct Side<'a> {
    pub prints: &'a DocumentFingerprints,
    pub stream: &'a LazyStream<'a>,
}

/// A shared k-gram: where it starts in the suspect's tokens and in the reference's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hit {
    pub a: TokenAt,
    pub b: TokenAt,
}

/// A hit or seed: where it starts on each side (a [`TokenAt`] for a k-gram hit, a
/// [`StreamAt`] for a dense seed), how many of those positions it spans, and the
/// character spans it covers, for clustering.
#[derive(Clone, Copy, Debug)]
struct Seed<P> {
    a_at: P,
    b_at: P,
    len: u32,
    a: (u32, u32),
    b: (u32, u32),
}

/// A k-gram hit as a seed: `len` tokens from `a_at` and `b_at`.
type TokenSeed = Seed<TokenAt>;
/// A dense seed: `len` stream characters from `a_at` and `b_at`.
type StreamSeed = Seed<StreamAt>;

impl<P> Spanned for Seed<P> {
    fn a_span(&self) -> (u32, u32) {
        self.a
    }
    fn b_span(&self) -> (u32, u32) {
        self.b
    }
}

impl Spanned for Passage {
    fn a_span(&self) -> (u32, u32) {
        (self.a_start, self.a_end)
    }
    fn b_span(&self) -> (u32, u32) {
        (self.b_start, self.b_end)
    }
}

/// The character span of `len` tokens from `first`.
fn token_span(tokens: &[Token], first: TokenAt, len: usize) -> (u32, u32) {
    let last = (first.index() + len).min(tokens.len()).saturating_sub(1);
    (tokens[first.index()].start, tokens[last].end)
}

/// The character span of `len` stream characters from `first`.
fn stream_span(s: &CharStream, first: StreamAt, len: u32) -> (u32, u32) {
    let last = (first.index() + len as usize).min(s.offsets.len()).saturating_sub(1);
    (s.offsets[first.index()], s.offsets[last] + 1)
}

/// The character span of the stream characters in `[start, end)`.
fn stream_range_span(s: &CharStream, (start, end): (StreamAt, StreamAt)) -> (u32, u32) {
    stream_span(s, start, end - start)
}

/// First stream index at or after character offset `offset`.
fn stream_index(s: &CharStream, offset: u32) -> StreamAt {
    StreamAt(saturating_u32(s.offsets.partition_point(|&o| o < offset)))
}

/// The end of a stream: one past its last character.
fn stream_end(s: &CharStream) -> StreamAt {
    StreamAt(saturating_u32(s.chars.len()))
}

/// A half-open range of stream indices on each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct StreamBox {
    a: (StreamAt, StreamAt),
    b: (StreamAt, StreamAt),
}

impl StreamBox {
    /// The box around character spans `a` and `b` of the two texts, `margin` stream
    /// characters wider on each side, within both streams.
    fn around(streams: (&CharStream, &CharStream), a: (u32, u32), b: (u32, u32), margin: u32) -> Self {
        let widen = |s: &CharStream, (lo, hi): (u32, u32)| {
            (stream_index(s, lo).back(margin), (stream_index(s, hi) + margin).min(stream_end(s)))
        };
        Self { a: widen(streams.0, a), b: widen(streams.1, b) }
    }
}

/// How often a box may grow before its passages are taken as they are.
const MAX_BOX_ROUNDS: usize = 8;

/// Finds the passages shared by `suspect` and `reference`, given the k-gram `hits`
/// between them. Passages are sorted by suspect offset and never overlap on both sides.
pub fn match_pair(suspect: Side, reference: Side, hits: &[Hit], ctx: &PairContext) -> Vec<Passage> {
    match_pair_counting(suspect, reference, hits, ctx).0
}

/// [`match_pair`], and how many boxes it opened: groups of hits whose exact runs were
/// long enough to deserve a closer look, whether or not they made a passage.
pub fn match_pair_counting(suspect: Side, reference: Side, hits: &[Hit], ctx: &PairContext) -> (Vec<Passage>, usize) {
    let (sa, rb) = (&suspect.prints.tokenized, &reference.prints.tokenized);
    if hits.is_empty() || sa.tokens.is_empty() || rb.tokens.is_empty() {
        return (Vec::new(), 0);
    }
    let tuning = ctx.tuning;
    let k = ctx.k.max(1);
    let min_exact = tuning.min_exact(ctx.min_chars);
    let in_range = |h: &&Hit| h.a.index() < sa.tokens.len() && h.b.index() < rb.tokens.len();
    // No group can cover more than all the hits together: most pairs stop here.
    if (exact_coverage(&sa.tokens, &rb.tokens, hits.iter().filter(in_range).map(|h| (h.a, h.b)), k) as f64) < min_exact
    {
        return (Vec::new(), 0);
    }
    let rough = rough_seeds(hits, &sa.tokens, rb.tokens.len(), k, |b| token_span(&rb.tokens, b, k));
    let same = |i: usize, j: usize| sa.tokens[i].hash == rb.tokens[j].hash;
    let margin = tuning.box_margin;
    let mut passages = Vec::new();
    let mut boxes = 0;
    for group in cluster(rough, tuning.rough_gap_chars, tuning.rough_gap_chars) {
        if !group_opens_box(&group, &sa.tokens, rb.tokens.len(), same, ctx) {
            continue;
        }
        boxes += 1;
        let (a_stream, b_stream) = (suspect.stream.get(), reference.stream.get());
        let (a_len, b_len) = (stream_end(a_stream), stream_end(b_stream));
        let a_lo = group.iter().map(|s| s.a.0).min().unwrap_or(0);
        let a_hi = group.iter().map(|s| s.a.1).max().unwrap_or(0);
        let b_lo = group.iter().map(|s| s.b.0).min().unwrap_or(0);
        let b_hi = group.iter().map(|s| s.b.1).max().unwrap_or(0);
        let mut stream_box = StreamBox::around((a_stream, b_stream), (a_lo, a_hi), (b_lo, b_hi), margin);
        // Grow the box while a passage found in it runs into one of its inner edges.
        for round in 0..MAX_BOX_ROUNDS {
            let found = passages_in_box(suspect, reference, stream_box, ctx);
            let grown = grow_box(stream_box, &found, margin, (a_len, b_len), tuning.seed_weight);
            if grown == stream_box || round + 1 == MAX_BOX_ROUNDS {
                passages.extend(found.into_iter().map(|f| f.passage));
                break;
            }
            stream_box = grown;
        }
    }
    (merge_passages(passages, tuning.gap_chars), boxes)
}

/// Characters of the suspect covered by the exact runs through `hits` (token index on
/// each side): each hit grows along its diagonal while tokens match on both sides. A
/// copied passage, even edited, has long exact stretches; k-grams shared by chance are
/// short and scattered, and they are most of the groups.
///
/// Each run grows at most [`MAX_RUN_GROWTH`] tokens each way: the coverage only has to
/// reach the minimum length, and in a text that repeats itself every hit would otherwise
/// walk the whole document.
fn exact_coverage(a: &[Token], b: &[Token], hits: impl Iterator<Item = (TokenAt, TokenAt)>, k: usize) -> u32 {
    exact_coverage_by(a, b.len(), |i, j| a[i].hash == b[j].hash, hits, k)
}

/// The `hits` inside both documents (the reference of `b_len` tokens) as seeds to cluster:
/// each spans its `k` tokens, on the suspect in characters, on the reference as `b_span`
/// says from the hit's token index.
fn rough_seeds(
    hits: &[Hit],
    suspect: &[Token],
    b_len: usize,
    k: usize,
    b_span: impl Fn(TokenAt) -> (u32, u32),
) -> Vec<TokenSeed> {
    hits.iter()
        .filter(|h| h.a.index() < suspect.len() && h.b.index() < b_len)
        .map(|h| Seed { a_at: h.a, b_at: h.b, len: saturating_u32(k), a: token_span(suspect, h.a, k), b: b_span(h.b) })
        .collect()
}

/// The first pass's test of one group of hits: it opens a box when its exact runs cover
/// [`MatchTuning::min_exact_share`] of the minimum passage on the suspect side and it has
/// [`MatchTuning::min_hits`] hits, or its runs cover the minimum passage itself (a copy
/// of eight words brings one hit, and is a passage whatever surrounds it), or one of its
/// hits has support around it. `same(i, j)` says whether suspect token `i` and
/// reference token `j` (of `b_len`) agree.
fn group_opens_box(
    group: &[TokenSeed],
    suspect: &[Token],
    b_len: usize,
    same: impl Fn(usize, usize) -> bool + Copy,
    ctx: &PairContext,
) -> bool {
    let (k, tuning) = (ctx.k.max(1), ctx.tuning);
    let covered = f64::from(exact_coverage_by(suspect, b_len, same, group.iter().map(|h| (h.a_at, h.b_at)), k));
    covered >= tuning.min_exact(ctx.min_chars)
        && (group.len() >= tuning.min_hits
            || covered >= ctx.min_chars as f64
            || group.iter().any(|h| diagonal_support(suspect.len(), b_len, same, h, k)))
}

/// [`exact_coverage`] with token equality given by `same(i, j)` (suspect token `i`,
/// reference token `j`, of `b_len`).
fn exact_coverage_by(
    a: &[Token],
    b_len: usize,
    same: impl Fn(usize, usize) -> bool,
    hits: impl Iterator<Item = (TokenAt, TokenAt)>,
    k: usize,
) -> u32 {
    let mut by_diagonal: Vec<(i64, usize)> = hits.map(|(at, twin)| (at.diagonal(twin), at.index())).collect();
    by_diagonal.sort_unstable();
    let mut runs: Vec<(usize, usize)> = Vec::with_capacity(by_diagonal.len());
    let mut last: Option<(i64, usize)> = None;
    for (diagonal, at) in by_diagonal {
        // A hit inside the run just grown on its diagonal adds nothing.
        if last.is_some_and(|(d, end)| d == diagonal && at < end) {
            continue;
        }
        let twin = usize::try_from(at as i64 - diagonal).unwrap_or(usize::MAX);
        let (mut start, mut twin_start) = (at, twin);
        let floor = at.saturating_sub(MAX_RUN_GROWTH);
        while start > floor && twin_start > 0 && same(start - 1, twin_start - 1) {
            start -= 1;
            twin_start -= 1;
        }
        let (mut end, mut twin_end) = (at + k, twin + k);
        let ceiling = end + MAX_RUN_GROWTH;
        while end < ceiling && end < a.len() && twin_end < b_len && same(end, twin_end) {
            end += 1;
            twin_end += 1;
        }
        let end = end.min(a.len());
        runs.push((start, end));
        last = Some((diagonal, end));
    }
    runs.sort_unstable();
    let (mut covered, mut reach) = (0, 0);
    for (start, end) in runs {
        let start = start.max(reach);
        if end > start {
            covered += a[end - 1].end - a[start].start;
            reach = end;
        }
    }
    covered
}

/// How far (in tokens) [`exact_coverage`] grows one run each way: far more than any
/// minimum passage length needs (every token is at least one character).
const MAX_RUN_GROWTH: usize = 1 << 16;

/// Tokens looked at on each side of a lone hit, and how many beyond its own k must
/// match near its diagonal for it to deserve a closer look.
const SUPPORT_RADIUS: usize = 24;
const SUPPORT_EXTRA: usize = 4;
/// Diagonals looked at on each side of a lone hit's own (a word or two inserted).
const SUPPORT_SHIFT: usize = 2;

/// Whether a lone k-gram hit has company: tokens around it that also match, on its
/// diagonal or a diagonal or two beside it (a word inserted or deleted). A chance phrase
/// stands alone; a copied passage under light edits does not. Much cheaper than a box.
/// `same(i, j)` says whether suspect token `i` (of `a_len`) and reference token `j` (of
/// `b_len`) agree.
fn diagonal_support(
    a_len: usize,
    b_len: usize,
    same: impl Fn(usize, usize) -> bool,
    hit: &TokenSeed,
    k: usize,
) -> bool {
    let (i, j) = (i64::from(hit.a_at.0), i64::from(hit.b_at.0));
    let r = SUPPORT_RADIUS as i64;
    let index = |at: i64, len: usize| usize::try_from(at).ok().filter(|&x| x < len);
    let matched = (-r..r + k as i64)
        .filter(|d| {
            let shift = SUPPORT_SHIFT as i64;
            (-shift..=shift).any(|shift| match (index(i + d, a_len), index(j + d + shift, b_len)) {
                (Some(x), Some(y)) => same(x, y),
                _ => false,
            })
        })
        .count();
    matched >= k + SUPPORT_EXTRA
}

/// A passage and the stream box it spans.
struct FoundPassage {
    passage: Passage,
    span: StreamBox,
}

/// The box grown by `margin` on each inner edge that a found passage comes within
/// `slack` of (and that is not already the stream's end, `a_len` or `b_len`).
fn grow_box(
    current: StreamBox,
    found: &[FoundPassage],
    margin: u32,
    (a_len, b_len): (StreamAt, StreamAt),
    slack: u32,
) -> StreamBox {
    let mut next = current;
    for f in found {
        if f.span.a.0 < current.a.0 + slack && current.a.0 > StreamAt(0) {
            next.a.0 = current.a.0.back(margin);
        }
        if f.span.a.1 + slack > current.a.1 && current.a.1 < a_len {
            next.a.1 = (current.a.1 + margin).min(a_len);
        }
        if f.span.b.0 < current.b.0 + slack && current.b.0 > StreamAt(0) {
            next.b.0 = current.b.0.back(margin);
        }
        if f.span.b.1 + slack > current.b.1 && current.b.1 < b_len {
            next.b.1 = (current.b.1 + margin).min(b_len);
        }
    }
    next
}

/// True when `span` overlaps one of the sorted, disjoint `ranges`.
pub fn overlaps(ranges: &[(u32, u32)], span: (u32, u32)) -> bool {
    let i = ranges.partition_point(|r| r.1 <= span.0);
    ranges.get(i).is_some_and(|r| r.0 < span.1)
}

/// The dense-seed grams starting at each stream index of `[lo, hi)`: a gram takes
/// characters until their weight reaches `weight`; returns (hash, length) per start, or
/// none for starts too close to `hi`.
fn grams(stream: &[char], (lo, hi): (StreamAt, StreamAt), weight: u32) -> Vec<Option<(u64, u32)>> {
    (lo.index()..hi.index())
        .map(|start| {
            let mut h = 0x6772_616du64;
            let mut w = 0;
            for (n, &c) in stream[start..hi.index()].iter().enumerate() {
                h = fmix64(h ^ c as u64);
                w += if is_single_char_token(c) { 3 } else { 1 };
                if w >= weight {
                    return Some((h, saturating_u32(n) + 1));
                }
            }
            None
        })
        .collect()
}

fn passages_in_box(suspect: Side, reference: Side, sb: StreamBox, ctx: &PairContext) -> Vec<FoundPassage> {
    let (sa, rb) = (suspect.stream.get(), reference.stream.get());
    let weight = ctx.tuning.seed_weight.max(1);
    if sb.a.1 <= sb.a.0 || sb.b.1 <= sb.b.0 {
        return Vec::new();
    }
    let mut positions: FxHashMap<u64, Vec<StreamAt>> = FxHashMap::default();
    for (j, gram) in (sb.b.0.0..).map(StreamAt).zip(grams(&rb.chars, sb.b, weight)) {
        let Some((h, len)) = gram else { break };
        if !overlaps(ctx.reference_masked, stream_span(rb, j, len)) {
            positions.entry(h).or_default().push(j);
        }
    }
    let mut seeds = Vec::new();
    for (i, gram) in (sb.a.0.0..).map(StreamAt).zip(grams(&sa.chars, sb.a, weight)) {
        let Some((h, len)) = gram else { break };
        let Some(js) = positions.get(&h) else { continue };
        let a = stream_span(sa, i, len);
        if js.len() > ctx.tuning.max_seed_repeats || overlaps(ctx.suspect_masked, a) {
            continue;
        }
        seeds.extend(js.iter().map(|&j| Seed { a_at: i, b_at: j, len, a, b: stream_span(rb, j, len) }));
    }
    let seeds = runs::keep_runs(seeds, ctx.tuning.min_run, ctx.tuning.rough_gap_chars, sb);
    let mut found = Vec::new();
    accept_groups(seeds, ctx.tuning.gap_chars, (suspect, reference), ctx, &mut found);
    found
}

/// Gaps are halved, while a group is loose, down to this.
const MIN_SPLIT_GAP: u32 = 8;

/// Clusters `seeds` with `gap` and keeps the groups that make passages. A group whose two
/// sides differ too much in length, or whose seeds cover too little of its span, may hold
/// chance matches beside the copied text (a copy beside text that shares scattered
/// phrases with the reference): it is clustered again with half the gap, which sheds
/// them.
fn accept_groups(
    seeds: Vec<StreamSeed>,
    gap: u32,
    docs: (Side, Side),
    ctx: &PairContext,
    found: &mut Vec<FoundPassage>,
) {
    for group in cluster(seeds, gap, gap) {
        match accept(&group, docs, ctx) {
            Verdict::Passage(passage) => found.push(passage),
            Verdict::Loose if gap / 2 >= MIN_SPLIT_GAP => accept_groups(group, gap / 2, docs, ctx, found),
            Verdict::Loose | Verdict::Rejected => {}
        }
    }
}

/// What a group of seeds amounts to.
enum Verdict {
    Passage(FoundPassage),
    /// Its sides differ too much in length, or its seeds are too sparse to be a passage
    /// whole.
    Loose,
    Rejected,
}

/// Share of the stream characters in `[lo, hi)` covered by some seed (its start, its
/// length).
fn density(seeds: impl Iterator<Item = (StreamAt, u32)>, lo: StreamAt, hi: StreamAt) -> f64 {
    let mut covered = vec![false; (hi - lo) as usize];
    for (start, len) in seeds {
        covered[(start - lo) as usize..((start + len).min(hi) - lo) as usize].iter_mut().for_each(|c| *c = true);
    }
    covered.iter().filter(|&&c| c).count() as f64 / covered.len().max(1) as f64
}

/// Number of tokens starting inside the character range.
fn tokens_in(tokens: &[Token], (start, end): (u32, u32)) -> usize {
    tokens.partition_point(|t| t.start < end) - tokens.partition_point(|t| t.start < start)
}

fn accept(group: &[StreamSeed], (suspect, reference): (Side, Side), ctx: &PairContext) -> Verdict {
    let (sa, rb) = (suspect.stream.get(), reference.stream.get());
    let (Some(a_lo), Some(a_hi), Some(b_lo), Some(b_hi)) = (
        group.iter().map(|s| s.a_at).min(),
        group.iter().map(|s| s.a_at + s.len).max(),
        group.iter().map(|s| s.b_at).min(),
        group.iter().map(|s| s.b_at + s.len).max(),
    ) else {
        return Verdict::Rejected;
    };
    let (a_stream, b_stream) = (f64::from(a_hi - a_lo), f64::from(b_hi - b_lo));
    if a_stream.max(b_stream) > ctx.tuning.max_length_ratio * a_stream.min(b_stream) {
        return Verdict::Loose;
    }
    let da = density(group.iter().map(|s| (s.a_at, s.len)), a_lo, a_hi);
    let db = density(group.iter().map(|s| (s.b_at, s.len)), b_lo, b_hi);
    if da.min(db) < ctx.tuning.min_density {
        return Verdict::Loose;
    }
    let seeded = stream_range_span(sa, (a_lo, a_hi));
    if ((seeded.1 - seeded.0) as f64) < ctx.tuning.min_seeded_share * ctx.min_chars as f64 {
        return Verdict::Rejected;
    }
    let span = extend_ends(sa, rb, StreamBox { a: (a_lo, a_hi), b: (b_lo, b_hi) }, ctx);
    let (a, b) = (stream_range_span(sa, span.a), stream_range_span(rb, span.b));
    let passage = Passage::copied(a, b);
    if (passage.a_len() as usize) < ctx.min_chars
        || (passage.b_len() as usize) < ctx.min_chars
        || tokens_in(&suspect.prints.tokenized.tokens, a) < ctx.k
    {
        return Verdict::Rejected;
    }
    Verdict::Passage(FoundPassage { passage, span })
}

/// Grows both ends of a passage (in stream indices) over text that still aligns, never
/// into template text.
fn extend_ends(sa: &CharStream, rb: &CharStream, span: StreamBox, ctx: &PairContext) -> StreamBox {
    let x_drop = ctx.tuning.extension_x_drop;
    let (mut a, mut b) = (span.a, span.b);
    let (fa, fb) = extend::extend(&sa.chars[a.1.index()..], &rb.chars[b.1.index()..], x_drop);
    let grown = StreamBox { a: (a.1, a.1 + saturating_u32(fa)), b: (b.1, b.1 + saturating_u32(fb)) };
    if fa > 0 && fb > 0 && !touches_mask(sa, rb, grown, ctx) {
        (a.1, b.1) = (grown.a.1, grown.b.1);
    }
    let back = |stream: &[char], at: StreamAt| -> Vec<char> {
        stream[at.back(extend::MAX_EXTENSION_LEN).index()..at.index()].iter().rev().copied().collect()
    };
    let (ra, rb_rev) = (back(&sa.chars, a.0), back(&rb.chars, b.0));
    let (ba, bb) = extend::extend(&ra, &rb_rev, x_drop);
    let grown = StreamBox { a: (a.0.back(saturating_u32(ba)), a.0), b: (b.0.back(saturating_u32(bb)), b.0) };
    if ba > 0 && bb > 0 && !touches_mask(sa, rb, grown, ctx) {
        (a.0, b.0) = (grown.a.0, grown.b.0);
    }
    StreamBox { a, b }
}

fn touches_mask(sa: &CharStream, rb: &CharStream, grown: StreamBox, ctx: &PairContext) -> bool {
    let empty = |r: (StreamAt, StreamAt)| r.1 <= r.0;
    (!empty(grown.a) && overlaps(ctx.suspect_masked, stream_range_span(sa, grown.a)))
        || (!empty(grown.b) && overlaps(ctx.reference_masked, stream_range_span(rb, grown.b)))
}

/// Unions passages that overlap or nearly touch on both sides.
pub fn merge_passages(passages: Vec<Passage>, gap_chars: u32) -> Vec<Passage> {
    let mut merged: Vec<Passage> = cluster(passages, gap_chars, gap_chars)
        .into_iter()
        .filter_map(|group| {
            Some(Passage {
                a_start: group.iter().map(|p| p.a_start).min()?,
                a_end: group.iter().map(|p| p.a_end).max()?,
                b_start: group.iter().map(|p| p.b_start).min()?,
                b_end: group.iter().map(|p| p.b_end).max()?,
                kind: group.iter().map(|p| p.kind).min()?,
                alternatives: group.iter().flat_map(|p| p.alternatives.iter().copied()).collect(),
                translated: None,
                reworded: None,
            })
        })
        .collect();
    merged.sort_by_key(|p| (p.a_start, p.b_start));
    merged
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "the tests' values are small")]
mod tests {
    use super::*;
    use crate::fingerprint::{GlancedKeys, TokenKeys};
    use crate::settings::Settings;

    fn hits_between(a: &DocumentFingerprints, b: &DocumentFingerprints) -> Vec<Hit> {
        let mut hits = Vec::new();
        for fa in &a.kgrams {
            for fb in b.kgrams.iter().filter(|fb| fb.hash == fa.hash) {
                hits.push(Hit { a: TokenAt(fa.position), b: TokenAt(fb.position) });
            }
        }
        hits
    }

    /// The passages the first pass finds between `a` (suspect) and `b` with `tuning` and
    /// a minimum of `min_chars`.
    fn first_pass_passages(a: &str, b: &str, tuning: &MatchTuning, min_chars: usize) -> Vec<Passage> {
        let settings = Settings::default();
        let fa = DocumentFingerprints::compute(a, &settings);
        let fb = DocumentFingerprints::compute(b, &settings);
        let ctx = PairContext { k: settings.k, min_chars, tuning, suspect_masked: &[], reference_masked: &[] };
        let (sa, sb) = (LazyStream::new(a, settings.normalize), LazyStream::new(b, settings.normalize));
        let (side_a, side_b) = (Side { prints: &fa, stream: &sa }, Side { prints: &fb, stream: &sb });
        match_pair(side_a, side_b, &hits_between(&fa, &fb), &ctx)
    }

    fn find(a: &str, b: &str) -> Vec<(String, String)> {
        let ca: Vec<char> = a.chars().collect();
        let cb: Vec<char> = b.chars().collect();
        first_pass_passages(a, b, &MatchTuning::default(), 30)
            .iter()
            .map(|p| {
                (
                    ca[p.a_start as usize..p.a_end as usize].iter().collect(),
                    cb[p.b_start as usize..p.b_end as usize].iter().collect(),
                )
            })
            .collect()
    }

    /// man-db's manpath page, and a suspect that copies a sentence of it right after text
    /// (copied from elsewhere) that shares scattered phrases with it.
    const MANPATH: &str = "如果设置了 $MANPATH，manpath 只会显示其内容并显示一条警告。如果未设置，manpath 会确定一个合适的手册页层次结构搜索路径并显示结果。\n如果此系统可以访问其他操作系统的手册页层次结构，可以使用此选项将它们包含在 manpath 的输出中。要包含NewOS 的手册页层次结构，使用 -m NewOS 选项。\n指定的 系统 选项可以是逗号分隔的操作系统名称组合。要包括本地操作系统的手册页层次结构，可以在参数字符串中包含系统名 man。此选项会覆盖 $SYSTEM 环境变量。\n";
    const COPY: &str = "系统的手册页层次结构，可以使用此选项将它们包含在 manpath 的输出中。要包含NewOS 的手册页";
    const BESIDE: &str = "SYSTEM 环境变量，它们应该包含使用英文逗号或冒号分隔的操系作统名称的列表。它将作为模板，并再一次扩展为搜索路径径以访问其它操作系 ";

    /// The suspect text of the passages the first pass finds between `suspect` and
    /// `reference` with `tuning` and a 40-character minimum.
    fn first_pass(suspect: &str, reference: &str, tuning: &MatchTuning) -> Vec<String> {
        let chars: Vec<char> = suspect.chars().collect();
        first_pass_passages(suspect, reference, tuning, 40)
            .iter()
            .map(|p| chars[p.a_start as usize..p.a_end as usize].iter().collect())
            .collect()
    }

    #[test]
    fn a_copy_beside_text_that_shares_scattered_phrases_keeps_its_passage() {
        let suspect = format!(
            "这是一些无关的文字，讲述天气和季节的变化。\n{BESIDE}{COPY}\n今天我们去公园散步，看见很多人在跑步。\n"
        );
        // Taken whole, the group of seeds is too sparse: the copy was lost with it.
        let found = first_pass(&suspect, MANPATH, &MatchTuning::default());
        assert!(found.iter().any(|p| p.contains(COPY)), "{found:?}");
    }

    #[test]
    fn eight_copied_words_are_a_passage_wherever_they_stand() {
        let reference = "Many small fixes went into this release, including clarification of the API \
            documentation, tightening the code to honor documented length limit, etc.\n* Remove the escape \
            hatch we added when we introduced the weather balloon to use variadic macros unconditionally, to \
            make it official that we now have a hard dependency on the feature.\n";
        let copy = "introduced the weather balloon to use variadic macros";
        // One k-gram hit, and nothing around it that matches: at the end of the suspect, at
        // its start, and between unrelated sentences.
        for suspect in [
            format!("They have been corrected.\n{copy} \n"),
            format!("{copy}\nOur group wrote a small tool for the course.\n"),
            format!("Hello there.\n{copy}\nAnd then some more unrelated text follows here.\n"),
        ] {
            let found = first_pass(&suspect, reference, &MatchTuning::default());
            assert!(found.iter().any(|p| p.contains(copy)), "{suspect:?}: {found:?}");
        }
    }

    #[test]
    fn a_lone_hit_may_open_a_box_only_where_its_longest_run_reaches_the_minimum() {
        let settings = Settings::default();
        let (k, w, min_exact) = (settings.k, settings.w, 20.0);
        let zh = DocumentFingerprints::compute(COPIED, &settings);
        let tokens = &zh.tokenized.tokens;
        assert!((0..tokens.len() as u32 - 5).all(|at| !lone_hit_may_open_box(tokens, TokenAt(at), k, w, min_exact)));
        let en = DocumentFingerprints::compute(
            "The package maintainer keeps the upstream software in line with the policy manual.",
            &settings,
        );
        assert!(lone_hit_may_open_box(&en.tokenized.tokens, TokenAt(3), k, w, min_exact));
    }

    /// The premise of [`lone_hit_may_open_box`]: a run shared exactly over k + 2w − 1
    /// tokens always brings two hits on its diagonal, whatever the texts around it.
    #[test]
    fn a_run_longer_than_a_lone_hit_allows_brings_two_hits() {
        let settings = Settings::default();
        let alphabet: Vec<char> =
            "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动".chars().collect();
        let mut random = crate::hash::xorshift(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: usize| (random() % n as u64) as usize;
        let run_len = settings.k + 2 * settings.w - 1;
        for _ in 0..200 {
            let mut text = |len: usize| -> String { (0..len).map(|_| alphabet[next(alphabet.len())]).collect() };
            let run = text(run_len);
            let (before_a, after_a, before_b, after_b) = (text(30), text(30), text(50), text(20));
            let a = format!("{before_a}{run}{after_a}");
            let b = format!("{before_b}{run}{after_b}");
            let fa = DocumentFingerprints::compute(&a, &settings);
            let fb = DocumentFingerprints::compute(&b, &settings);
            // Every k-gram of the suspect against the reference's winnowed ones.
            let hashes = crate::hash::kgram_hashes(fa.tokenized.tokens.iter().map(|t| t.hash), settings.k);
            let diagonal = before_a.chars().count() as i64 - before_b.chars().count() as i64;
            let on_run = hashes
                .iter()
                .enumerate()
                .flat_map(|(i, &h)| {
                    fb.kgrams.iter().filter(move |f| f.hash == h).map(move |f| (i as i64, f.position as i64))
                })
                .filter(|&(i, j)| i - j == diagonal && (i as usize) >= before_a.chars().count())
                .count();
            assert!(on_run >= 2, "{a} / {b}: {on_run} hit on the run");
        }
    }

    const COPIED: &str =
        "软件包管理系统可以帮助用户安装、升级和删除软件包，维护者负责打包上游软件并确保它符合政策手册的要求。";

    #[test]
    fn verbatim_passage_is_found_with_exact_ends_on_both_sides() {
        let a = format!("今天我们讨论完全不同的话题比如天气和运动。{COPIED}最后还有一些别的内容在这里结尾。");
        let b = format!("这是参考文献的开头部分内容介绍。{COPIED}参考文献后面还有其它的文字说明。");
        let found = find(&a, &b);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].0.starts_with("软件包管理"), "{found:?}");
        assert!(found[0].0.ends_with("要求"), "{found:?}");
        assert_eq!(found[0].0, found[0].1);
    }

    #[test]
    fn lightly_edited_and_reordered_passage_is_one_passage() {
        let b = "第一句话讲的是软件包的安装过程和依赖关系。第二句话说明维护者如何上传新的版本到仓库。第三句话介绍发行版的冻结和测试流程。第四句话总结整个项目的社区治理方式。";
        let a = "开头是毫不相关的一些话语用来填充。第三句话介绍发行版的冻结与测试流程。第一句话讲的是软件包的安装过程和依赖关系。第四句话总结整个项目的社区治理方法。第二句话说明维护者怎样上传新的版本到仓库。结尾又是另外一些无关的话。";
        let found = find(a, b);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].0.starts_with("第三句话"), "{found:?}");
        assert!(found[0].0.ends_with("仓库"), "{found:?}");
    }

    #[test]
    fn unrelated_texts_share_nothing() {
        assert!(
            find(
                "The quick brown fox jumps over the lazy dog again and again.",
                "Lorem ipsum dolor sit amet, consectetur adipiscing elit sed do."
            )
            .is_empty()
        );
    }

    proptest::proptest! {
        /// A reference passed over on its token keys could never have opened a box: the
        /// test on keys says yes whenever matching on tokens opens one, with keys as stored
        /// and with keys that collide wherever they can.
        #[test]
        fn a_pair_passed_over_on_token_keys_opens_no_box(
            a in proptest::collection::vec(0usize..6, 1..120),
            b in proptest::collection::vec(0usize..6, 1..120),
            min_chars in 10usize..60,
        ) {
            const WORDS: [&str; 6] = ["alpha", "be", "c", "delta", "e", "foxtrot"];
            let text = |words: &[usize]| words.iter().map(|&w| WORDS[w]).collect::<Vec<_>>().join(" ");
            let (ta, tb) = (text(&a), text(&b));
            let settings = Settings::default();
            let fa = DocumentFingerprints::compute(&ta, &settings);
            let fb = DocumentFingerprints::compute(&tb, &settings);
            let tuning = MatchTuning::default();
            let ctx = PairContext { k: settings.k, min_chars, tuning: &tuning, suspect_masked: &[], reference_masked: &[] };
            let (sa, sb) = (LazyStream::new(&ta, settings.normalize), LazyStream::new(&tb, settings.normalize));
            let hits = hits_between(&fa, &fb);
            let (_, boxes) =
                match_pair_counting(Side { prints: &fa, stream: &sa }, Side { prints: &fb, stream: &sb }, &hits, &ctx);
            let tokens = &fa.tokenized.tokens;
            let stored = TokenKeys::of(&fb.tokenized.tokens);
            // Keys that agree where tokens agree, and also wherever they do not (each
            // unmatched reference token takes the key of the suspect's first token).
            let first = TokenKeys::key(fa.tokenized.tokens[0].hash);
            let collided: Vec<u8> = fb
                .tokenized
                .tokens
                .iter()
                .flat_map(|t| {
                    let held = fa.tokenized.tokens.iter().any(|s| s.hash == t.hash);
                    (if held { TokenKeys::key(t.hash) } else { first }).to_le_bytes()
                })
                .collect();
            let colliding = TokenKeys::from_bytes(&collided).unwrap();
            if boxes > 0 {
                proptest::prop_assert!(may_open_box(tokens, &GlancedKeys::Whole(stored.narrowed()), &hits, &ctx));
                proptest::prop_assert!(may_open_box(tokens, &GlancedKeys::Whole(stored), &hits, &ctx));
                proptest::prop_assert!(may_open_box(tokens, &GlancedKeys::Whole(colliding), &hits, &ctx));
            }
        }

        /// A glance that holds only the keys of [`glance_windows`] answers as one that
        /// holds them all, on texts long enough for runs to leave the windows.
        #[test]
        fn windows_of_keys_answer_as_all_the_keys(
            a in proptest::collection::vec(0usize..5, 1..400),
            b in proptest::collection::vec(0usize..5, 1..400),
            min_chars in 10usize..200,
        ) {
            const WORDS: [&str; 5] = ["alpha", "be", "c", "delta", "e"];
            let text = |words: &[usize]| words.iter().map(|&w| WORDS[w]).collect::<Vec<_>>().join(" ");
            let settings = Settings::default();
            let fa = DocumentFingerprints::compute(&text(&a), &settings);
            let fb = DocumentFingerprints::compute(&text(&b), &settings);
            let tuning = MatchTuning::default();
            let ctx = PairContext { k: settings.k, min_chars, tuning: &tuning, suspect_masked: &[], reference_masked: &[] };
            let hits = hits_between(&fa, &fb);
            let stored = TokenKeys::of(&fb.tokenized.tokens);
            let bytes = stored.as_bytes();
            let windows = glance_windows(&hits, &ctx)
                .into_iter()
                .map(|(first, end)| (first as usize, (end as usize).min(stored.len())))
                .filter(|(first, end)| first < end)
                .map(|(first, end)| (first, TokenKeys::from_bytes(&bytes[2 * first..2 * end]).unwrap()))
                .collect();
            let windowed = GlancedKeys::Windows { len: stored.len(), windows };
            let tokens = &fa.tokenized.tokens;
            proptest::prop_assert_eq!(
                may_open_box(tokens, &windowed, &hits, &ctx),
                may_open_box(tokens, &GlancedKeys::Whole(stored.clone()), &hits, &ctx)
            );
        }
    }
}

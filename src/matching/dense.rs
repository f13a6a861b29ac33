//! The dense pass: a second, more permissive alignment between two documents that other
//! signals already tie together (the first pass opened a box of hits, or their SimHash
//! values are close). Reworded copies (洗稿: half of the content words swapped for synonyms,
//! clauses moved around a comma) keep short runs of characters — function words, the
//! words left alone, parts of compound words — but rarely the long exact runs that open a
//! box in the first pass. Here the whole of both documents is one box, seeds are shorter,
//! and a passage needs less of its span covered.

use super::cluster::cluster;
use super::edits::{SHORT_COPY_LENGTH_FACTOR, copy_edits_between};
use super::{
    FoundPassage, Hit, PairContext, Seed, Side, StreamBox, TokenSeed, exact_coverage, merge_passages, passages_in_box,
    stream_end, token_span,
};
use crate::model::{Passage, StreamAt, saturating_u32};

/// Documents longer than this many normalized characters (either side) are not aligned
/// densely as a whole when no k-gram hit says where to look: the cost grows with their
/// length.
pub const MAX_DENSE_CHARS: usize = 200_000;

/// Whether two documents are tied together strongly enough to deserve the dense pass.
#[derive(Clone, Copy, Debug)]
pub struct Ties<'h> {
    /// Boxes the first pass opened between them (see [`super::match_pair_counting`]).
    pub boxes: usize,
    /// The k-gram hits between them.
    pub hits: &'h [Hit],
    /// Hamming distance of their SimHash values.
    pub simhash_distance: Option<u32>,
}

impl Ties<'_> {
    /// True when another signal already ties the two documents: the first pass found
    /// exact runs worth a closer look, or their SimHash values are close.
    pub fn tied(&self, ctx: &PairContext) -> bool {
        self.boxes > 0 || self.simhash_distance.is_some_and(|d| d <= ctx.tuning.dense_simhash_distance)
    }
}

/// Adds the passages of the dense pass to `found` (the first pass's), merged so that no
/// suspect span is reported twice. Returns `found` unchanged when the pair is not tied or
/// too long.
pub fn densify(suspect: Side, reference: Side, found: Vec<Passage>, ties: Ties<'_>, ctx: &PairContext) -> Vec<Passage> {
    if !ties.tied(ctx) {
        return found;
    }
    let boxes = dense_boxes(suspect, reference, &found, ties.hits, ctx);
    if boxes.is_empty() {
        return found;
    }
    let dense_tuning = ctx.tuning.dense();
    let dense_ctx = PairContext { tuning: &dense_tuning, ..ctx.clone() };
    let extra: Vec<FoundPassage> =
        boxes.into_iter().flat_map(|sb| passages_in_box(suspect, reference, sb, &dense_ctx)).collect();
    if extra.is_empty() {
        return found;
    }
    // A passage of the dense pass that extends or joins one of the first pass is kept; one
    // of its own needs more length, or few enough edits to be a short edited copy.
    let min_alone = ctx.tuning.dense_only_length_factor * ctx.min_chars as f64;
    let firsts: Vec<(u32, u32)> = found.iter().map(|p| (p.a_start, p.a_end)).collect();
    let extra = extra.into_iter().filter(|f| {
        firsts.iter().any(|&(s, e)| s < f.passage.a_end && f.passage.a_start < e)
            || f64::from(f.passage.a_len()) >= min_alone
            || short_edited_copy(suspect, reference, f, ctx.min_chars)
    });
    let mut all = found;
    all.extend(extra.into_iter().map(|f| f.passage));
    merge_passages(all, ctx.tuning.gap_chars)
}

/// Whether a passage of the dense pass is a short edited copy: at least
/// [`SHORT_COPY_LENGTH_FACTOR`] times the minimum length, and its two sides few enough
/// edits apart ([`copy_edits_between`]). Chinese text with a typo every ten characters
/// keeps runs too short for the first pass, while host text on the reference's subject
/// that the dense pass aligns is far more than a fifth apart.
fn short_edited_copy(suspect: Side, reference: Side, f: &FoundPassage, min_chars: usize) -> bool {
    if f64::from(f.passage.a_len()) < SHORT_COPY_LENGTH_FACTOR * min_chars as f64 {
        return false;
    }
    let (sa, rb) = (suspect.stream.get(), reference.stream.get());
    let (a, b) = (f.span.a.0.index()..f.span.a.1.index(), f.span.b.0.index()..f.span.b.1.index());
    match (sa.chars.get(a), rb.chars.get(b)) {
        (Some(x), Some(y)) => copy_edits_between(x, y).is_some(),
        _ => false,
    }
}

/// The boxes of the two streams worth aligning densely: around each group of k-gram hits
/// (grouped as in the first pass) whose exact runs cover at least what opens a box in
/// the first pass, unless the first pass's passages already cover nine tenths of it.
/// Two documents with close SimHash values and no hits at all are one box.
fn dense_boxes(suspect: Side, reference: Side, found: &[Passage], hits: &[Hit], ctx: &PairContext) -> Vec<StreamBox> {
    let (ta, tb) = (&suspect.prints.tokenized.tokens, &reference.prints.tokenized.tokens);
    let k = ctx.k.max(1);
    let in_range = |h: &&Hit| h.a.index() + k <= ta.len() && h.b.index() + k <= tb.len();
    let rough: Vec<TokenSeed> = hits
        .iter()
        .filter(in_range)
        .map(|h| Seed {
            a_at: h.a,
            b_at: h.b,
            len: saturating_u32(k),
            a: token_span(ta, h.a, k),
            b: token_span(tb, h.b, k),
        })
        .collect();
    let min_exact = ctx.tuning.min_exact(ctx.min_chars);
    // Character spans (a, b) of the groups worth a look; the streams are built only when
    // there is one.
    let mut spans: Vec<((u32, u32), (u32, u32))> = Vec::new();
    let whole = rough.is_empty();
    for group in cluster(rough, ctx.tuning.rough_gap_chars, ctx.tuning.rough_gap_chars) {
        if group.len() < ctx.tuning.min_hits
            || f64::from(exact_coverage(ta, tb, group.iter().map(|h| (h.a_at, h.b_at)), k)) < min_exact
        {
            continue;
        }
        let (Some(a_lo), Some(a_hi), Some(b_lo), Some(b_hi)) = (
            group.iter().map(|s| s.a.0).min(),
            group.iter().map(|s| s.a.1).max(),
            group.iter().map(|s| s.b.0).min(),
            group.iter().map(|s| s.b.1).max(),
        ) else {
            continue;
        };
        let covered: u32 =
            found.iter().map(|p| p.a_end.min(a_hi).saturating_sub(p.a_start.max(a_lo))).max().unwrap_or(0);
        if covered * 10 < (a_hi - a_lo) * 9 {
            spans.push(((a_lo, a_hi), (b_lo, b_hi)));
        }
    }
    if !whole && spans.is_empty() {
        return Vec::new();
    }
    let (sa, rb) = (suspect.stream.get(), reference.stream.get());
    if whole {
        let small = sa.chars.len() <= MAX_DENSE_CHARS && rb.chars.len() <= MAX_DENSE_CHARS;
        let all = StreamBox { a: (StreamAt(0), stream_end(sa)), b: (StreamAt(0), stream_end(rb)) };
        return if small { vec![all] } else { Vec::new() };
    }
    let margin = ctx.tuning.dense_box_margin;
    spans.into_iter().map(|(a, b)| StreamBox::around((sa, rb), a, b, margin)).collect()
}

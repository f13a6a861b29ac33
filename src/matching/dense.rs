//! The dense pass: a second, more permissive alignment between two documents that other
//! signals already tie together (a passage found, close SimHash values, many shared
//! k-grams). Reworded copies (洗稿: half of the content words swapped for synonyms,
//! clauses moved around a comma) keep short runs of characters — function words, the
//! words left alone, parts of compound words — but rarely the long exact runs that open a
//! box in the first pass. Here the whole of both documents is one box, seeds are shorter,
//! and a passage needs less of its span covered.

use super::{PairContext, Side, StreamBox, merge_passages, passages_in_box};
use crate::report::Passage;

/// Documents longer than this many normalized characters (either side) are not aligned
/// densely as a whole: the cost grows with their length.
pub const MAX_DENSE_CHARS: usize = 200_000;

/// Whether two documents are tied together strongly enough to deserve the dense pass.
#[derive(Clone, Copy, Debug)]
pub struct Ties {
    /// Passages the first pass found between them.
    pub passages: usize,
    /// k-gram hits between them.
    pub hits: usize,
    /// Hamming distance of their SimHash values.
    pub simhash_distance: Option<u32>,
}

impl Ties {
    /// True when another signal already ties the two documents.
    pub fn tied(&self, ctx: &PairContext) -> bool {
        self.passages > 0
            || self.hits >= ctx.tuning.dense_min_hits
            || self.simhash_distance.is_some_and(|d| d <= ctx.tuning.dense_simhash_distance)
    }
}

/// Adds the passages of the dense pass to `found` (the first pass's), merged so that no
/// suspect span is reported twice. Returns `found` unchanged when the pair is not tied or
/// too long.
pub fn densify(suspect: Side, reference: Side, found: Vec<Passage>, ties: Ties, ctx: &PairContext) -> Vec<Passage> {
    if !ties.tied(ctx) {
        return found;
    }
    let (sa, rb) = (suspect.stream.get(), reference.stream.get());
    if sa.chars.len() > MAX_DENSE_CHARS || rb.chars.len() > MAX_DENSE_CHARS {
        return found;
    }
    let dense_tuning = ctx.tuning.dense();
    let dense_ctx = PairContext { tuning: &dense_tuning, ..ctx.clone() };
    let whole = StreamBox { a: (0, sa.chars.len() as u32), b: (0, rb.chars.len() as u32) };
    let extra = passages_in_box(suspect, reference, whole, &dense_ctx);
    if extra.is_empty() {
        return found;
    }
    // A passage of the dense pass that extends or joins one of the first pass is kept; one
    // of its own needs more length.
    let min_alone = ctx.tuning.dense_only_length_factor * ctx.min_chars as f64;
    let firsts: Vec<(u32, u32)> = found.iter().map(|p| (p.a_start, p.a_end)).collect();
    let extra = extra.into_iter().filter(|f| {
        firsts.iter().any(|&(s, e)| s < f.passage.a_end && f.passage.a_start < e)
            || f64::from(f.passage.a_len()) >= min_alone
    });
    let mut all = found;
    all.extend(extra.into_iter().map(|f| f.passage));
    merge_passages(all, ctx.tuning.gap_chars)
}

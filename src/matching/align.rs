//! The one entry of matching: [`align`] turns the k-gram hits between a suspect and a
//! reference into passages — the first pass over the hits, the dense pass where the pair is
//! tied closely enough, edited gaps bridged, other twins folded into alternatives.

use super::alternatives::fold_alternatives;
use super::bridge::bridge_edited_gaps;
use super::closeness::shared_trigrams;
use super::dense::{Ties, densify};
use super::{Hit, PairContext, Side, match_pair_counting};
use crate::model::Passage;

/// The passages that `suspect` and `reference` share, ranges into both texts, each
/// suspect span once (other twins as its alternatives). `hits` are their shared k-grams;
/// `simhash_distance` ties a pair without hits; `more` adds what other seeds found (the
/// short edited copies of [`super::char_seeds`]) to the passages the k-grams gave, before
/// twins are folded. Not yet classified (common, quoted) or scored.
pub fn align(
    suspect: Side,
    reference: Side,
    hits: &[Hit],
    simhash_distance: Option<u32>,
    ctx: &PairContext,
    more: impl FnOnce(Vec<Passage>) -> Vec<Passage>,
) -> Vec<Passage> {
    // Identical texts (a document against its copy, however repetitive) in one pass.
    let (passages, boxes) = match identical_text(suspect, reference, ctx) {
        Some(whole) => (vec![whole], 0),
        None => match_pair_counting(suspect, reference, hits, ctx),
    };
    let ties = Ties { boxes, hits, simhash_distance };
    let passages = densify(suspect, reference, passages, ties, ctx);
    let passages = bridge_edited_gaps(passages, ctx);
    let closeness = |p: &Passage| {
        shared_trigrams(suspect.stream.chars_in(p.a_start, p.a_end), reference.stream.chars_in(p.b_start, p.b_end))
    };
    fold_alternatives(more(passages), ctx.min_chars, closeness)
}

/// One passage over the whole of two documents whose compared tokens are the same, in
/// the same order (an identical copy, whatever it repeats): found in one linear pass,
/// where matching would have to wade through every repetition. `None` otherwise, or when
/// template text is masked in either.
fn identical_text(a: Side, b: Side, ctx: &PairContext) -> Option<Passage> {
    let (ta, tb) = (&a.prints.tokenized.tokens, &b.prints.tokenized.tokens);
    if ta.len() != tb.len() || !ctx.suspect_masked.is_empty() || !ctx.reference_masked.is_empty() {
        return None;
    }
    if ta.iter().zip(tb.iter()).any(|(x, y)| x.hash != y.hash) {
        return None;
    }
    let (first_a, last_a, first_b, last_b) = (ta.first()?, ta.last()?, tb.first()?, tb.last()?);
    if ((last_a.end - first_a.start) as usize) < ctx.min_chars {
        return None;
    }
    Some(Passage::copied((first_a.start, last_a.end), (first_b.start, last_b.end)))
}

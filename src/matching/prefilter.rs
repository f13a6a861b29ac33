//! Prefilters: proofs, before any text is read, that a pair can come to nothing. A
//! reference known only by its token keys ([`may_open_box`]) or tied to the suspect by a
//! single k-gram hit ([`lone_hit_may_open_box`]) is read only when it may open a box as
//! the first pass of [`super::match_pair_counting`] needs: `false` is certain.

use super::cluster::cluster;
use super::{Hit, PairContext, SUPPORT_RADIUS, SUPPORT_SHIFT, group_opens_box, rough_seeds};
use crate::fingerprint::GlancedKeys;
use crate::model::{TokenAt, saturating_u32};
use crate::normalize::Token;

/// Whether a reference known only by its token keys may open a box with `suspect`
/// through `hits`: [`match_pair_counting`]'s tests on groups of hits, each passed at
/// least as easily as with the reference's tokens. Keys agree wherever tokens agree, so
/// runs and support measured on keys are never shorter; hits are grouped by their
/// suspect characters and their reference tokens (a token is at least one character), so
/// each group holds whole groups of the real clustering. `false` is therefore certain:
/// the pair opens no box, and the reference's text need not be read.
///
/// The keys may be only those of [`glance_windows`] of `hits`: the answer is the same.
pub fn may_open_box(suspect: &[Token], reference: &GlancedKeys<'_>, hits: &[Hit], ctx: &PairContext) -> bool {
    let (k, tuning) = (ctx.k.max(1), ctx.tuning);
    let b_len = reference.len();
    // The reference's text is not read: its side of each hit spans its k tokens, counted
    // in tokens, which never makes a gap wider than in characters (see above).
    let rough = rough_seeds(hits, suspect, b_len, k, |b: TokenAt| (b.0, saturating_u32((b.index() + k).min(b_len))));
    let same = |i: usize, j: usize| reference.holds(j, suspect[i].hash);
    cluster(rough, tuning.rough_gap_chars, tuning.rough_gap_chars)
        .iter()
        .any(|group| group_opens_box(group, suspect, b_len, same, ctx))
}

/// The reference tokens [`may_open_box`] may read for `hits`, as sorted, disjoint
/// (first, end) windows: around each hit's k-gram, its support's reach
/// ([`SUPPORT_RADIUS`] and [`SUPPORT_SHIFT`]) or the minimum passage length in tokens,
/// whichever is more. A run grown from a hit stops inside its window unless it has
/// already covered that many tokens, so at least as many characters as opens a box
/// whatever else the group holds: the answer with these keys only is the answer with all
/// of them.
pub fn glance_windows(hits: &[Hit], ctx: &PairContext) -> Vec<(u32, u32)> {
    let k = ctx.k.max(1);
    let reach = (SUPPORT_RADIUS + SUPPORT_SHIFT).max(ctx.min_chars);
    let mut around: Vec<(u32, u32)> = hits
        .iter()
        .map(|h| (saturating_u32(h.b.index().saturating_sub(reach)), saturating_u32(h.b.index() + k + reach)))
        .collect();
    around.sort_unstable();
    join_windows(around, 0)
}

/// `windows` (first, end; sorted by first) with those that overlap or lie within `gap`
/// tokens of each other joined into one.
pub fn join_windows(windows: impl IntoIterator<Item = (u32, u32)>, gap: u32) -> Vec<(u32, u32)> {
    let mut joined: Vec<(u32, u32)> = Vec::new();
    for (first, end) in windows {
        match joined.last_mut() {
            Some(last) if first <= last.1.saturating_add(gap) => last.1 = last.1.max(end),
            _ => joined.push((first, end)),
        }
    }
    joined
}

/// A pair tied by this many k-gram hits or more is worth aligning whatever their
/// places; with fewer (one), only where [`lone_hit_may_open_box`]. The candidate rule of
/// the SQL join reads the same number (`min_hits` of its `rule` table).
pub const MIN_HITS: usize = 2;

/// Whether the only hit of a pair, the k-gram at suspect token `at`, may grow into exact
/// runs covering `min_exact` characters, as a box needs (see [`group_opens_box`]): whether
/// its [`lone_hit_reach`] reaches `min_exact`.
pub fn lone_hit_may_open_box(suspect: &[Token], at: TokenAt, k: usize, w: usize, min_exact: f64) -> bool {
    f64::from(lone_hit_reach(suspect, at, k, w)) >= min_exact
}

/// The most characters a run of exactly matching text that brings the suspect a single
/// hit, the k-gram at token `at`, can cover (0 when `at` is past the end).
///
/// A run of L tokens matching exactly holds L − k + 1 shared k-grams, and the reference
/// kept at least one of every `w` consecutive k-grams of its text (winnowing): each one
/// it kept inside the run is a hit. A run that brought a single hit therefore holds fewer
/// than 2w k-grams, so at most k + 2w − 2 tokens, and the characters of the longest such
/// stretch of the suspect around `at` bound what it can cover. With the default k = 5,
/// w = 4 that is 11 tokens: 11 Han characters, never a box, while a lone English hit
/// (11 words) may be one. The bound leaves out only k-grams the index holds back (a
/// phrase the reference repeats, common text): runs made of them are no evidence.
/// `twinspot fingerprint --parquet` writes it with every posting (column `reach`), so
/// that the SQL join applies the same test.
pub fn lone_hit_reach(suspect: &[Token], at: TokenAt, k: usize, w: usize) -> u32 {
    let (k, w) = (k.max(1), w.max(1));
    let longest = k + 2 * w - 2;
    let at = at.index();
    if at >= suspect.len() {
        return 0;
    }
    (at.saturating_sub(longest - k)..=at)
        .map(|first| {
            let last = (first + longest).min(suspect.len()) - 1;
            suspect[last].end.saturating_sub(suspect[first].start)
        })
        .max()
        .unwrap_or(0)
}

//! Scores: the share of each side's characters inside shared passages, the longest
//! passage, shared sentences, and the near-duplicate decision from coverage and SimHash
//! together; [`groups`] turns near-duplicate pairs into groups.

pub mod groups;

pub use groups::near_duplicate_groups;

use crate::model::Passage;

/// Characters covered by the union of `ranges` (half-open), minus those inside `masked`.
pub fn covered_chars(ranges: impl Iterator<Item = (u32, u32)>, masked: &[(u32, u32)]) -> usize {
    let mut ranges: Vec<(u32, u32)> = ranges.filter(|r| r.1 > r.0).collect();
    ranges.sort_unstable();
    let mut total = 0usize;
    let mut current: Option<(u32, u32)> = None;
    let mut flush = |r: (u32, u32)| total += (r.1 - r.0) as usize - overlap(r, masked);
    for r in ranges {
        current = match current {
            Some(c) if r.0 <= c.1 => Some((c.0, c.1.max(r.1))),
            Some(c) => {
                flush(c);
                Some(r)
            }
            None => Some(r),
        };
    }
    if let Some(c) = current {
        flush(c);
    }
    total
}

/// Characters of `r` inside the sorted, disjoint `masked` ranges.
fn overlap(r: (u32, u32), masked: &[(u32, u32)]) -> usize {
    masked.iter().map(|m| (r.1.min(m.1).saturating_sub(r.0.max(m.0))) as usize).sum()
}

/// Scores of one pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairScores {
    pub score: f64,
    pub score_b: f64,
    pub longest: u32,
}

/// Coverage on both sides. `countable_*` are the characters that count (template text
/// excluded); `masked_*` the template ranges to leave out of the numerators too.
pub fn pair_scores(
    passages: &[Passage],
    countable_a: usize,
    countable_b: usize,
    masked_a: &[(u32, u32)],
    masked_b: &[(u32, u32)],
) -> PairScores {
    let ca = covered_chars(passages.iter().map(|p| (p.a_start, p.a_end)), masked_a);
    let cb = covered_chars(passages.iter().map(|p| (p.b_start, p.b_end)), masked_b);
    let ratio = |c: usize, n: usize| {
        if n == 0 { 0.0 } else { (c as f64 / n as f64).min(1.0) }
    };
    PairScores {
        score: ratio(ca, countable_a),
        score_b: ratio(cb, countable_b),
        longest: passages.iter().map(Passage::a_len).max().unwrap_or(0),
    }
}

/// Near duplicates: SimHash within the threshold, or shared passages covering at least
/// `coverage` of both documents (SimHash alone misses many lightly edited reposts).
pub fn is_near_duplicate(
    scores: &PairScores,
    simhash_distance: Option<u32>,
    simhash_threshold: u32,
    coverage: f64,
) -> bool {
    simhash_distance.is_some_and(|d| d <= simhash_threshold) || (scores.score >= coverage && scores.score_b >= coverage)
}

/// The one meaning of "near duplicate", for a check's pairs and the archive's groups
/// alike: SimHash values at most `simhash_threshold` bits apart, passages covering
/// `coverage` of both documents ([`is_near_duplicate`]), or keywords that agree with half
/// that coverage ([`keywords_agree`]). `keyword_similarity` is asked for only when the
/// coverage leaves the keyword signal a chance.
pub fn near_duplicate_rule(
    scores: &PairScores,
    simhash_distance: Option<u32>,
    keyword_similarity: impl FnOnce() -> f64,
    simhash_threshold: u32,
    coverage: f64,
) -> bool {
    is_near_duplicate(scores, simhash_distance, simhash_threshold, coverage)
        || (keywords_agree(1.0, scores, coverage) && keywords_agree(keyword_similarity(), scores, coverage))
}

/// Keyword fingerprints ([`crate::fingerprint::keywords`]) at least this similar are the
/// third near-duplicate signal. On the development sets every listed repost reaches 0.92
/// or 0.54–0.58 (reworded), every other pair at most 0.54: reworded reposts are found by
/// the coverage of the dense pass, and this signal stays clear of documents that only
/// share a subject.
pub const KEYWORD_SIMILARITY: f64 = 0.75;

/// The third near-duplicate signal: the documents share at least [`KEYWORD_SIMILARITY`]
/// of their top keywords and passages cover at least half the usual `coverage` of both.
/// A repost with much new text keeps its subject (its keywords) while its passages
/// cover less of it; documents on one subject share keywords but few passages.
pub fn keywords_agree(keyword_similarity: f64, scores: &PairScores, coverage: f64) -> bool {
    keyword_similarity >= KEYWORD_SIMILARITY && scores.score.min(scores.score_b) >= coverage / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covered_chars_unions_overlaps_and_skips_masks() {
        assert_eq!(covered_chars([(0, 10), (5, 15), (20, 25)].into_iter(), &[]), 20);
        assert_eq!(covered_chars([(0, 10)].into_iter(), &[(2, 4), (8, 30)]), 6);
    }

    #[test]
    fn near_duplicate_by_either_signal() {
        let high = PairScores { score: 0.8, score_b: 0.9, longest: 100 };
        let low = PairScores { score: 0.2, score_b: 0.9, longest: 100 };
        assert!(is_near_duplicate(&high, Some(30), 3, 0.5));
        assert!(is_near_duplicate(&low, Some(2), 3, 0.5));
        assert!(!is_near_duplicate(&low, Some(4), 3, 0.5));
        assert!(!is_near_duplicate(&low, None, 3, 0.5));
        let reworded = PairScores { score: 0.3, score_b: 0.35, longest: 400 };
        assert!(keywords_agree(0.8, &reworded, 0.5));
        assert!(!keywords_agree(0.6, &reworded, 0.5));
        assert!(!keywords_agree(0.9, &low, 0.5));
    }
}

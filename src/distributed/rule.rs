//! The candidate rule's numbers, written once: taken from the constants `compare` decides
//! with, recorded in every fingerprint file's settings and written as the one-row table
//! `rule` that the SQL files read (`CROSS JOIN` of its columns) instead of literals.
//!
//! ```text
//! OUT/rule/shard-00003.parquet   one row per shard, the same in every shard
//! ```

use crate::engine::MAX_POSTINGS;
use crate::exclusions::common::{COMMON_FLOOR, COMMON_ONE_IN};
use crate::index::MAX_POSITIONS_PER_DOCUMENT;
use crate::matching::{MIN_HITS, MatchTuning};
use crate::model::saturating_u32;

/// SimHash blocks written per document: 4 blocks of 16 bits, the pigeonhole for a
/// Hamming distance of at most 3 (the default near-duplicate threshold).
pub const SIMHASH_BLOCKS: u32 = 4;
/// The largest SimHash threshold the `simhash_b*` columns can serve.
pub const MAX_SIMHASH_THRESHOLD: u32 = SIMHASH_BLOCKS - 1;

/// When the SQL join makes a pair a candidate, in the numbers of `compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct JoinRule {
    /// A pair needs this many k-gram hits ([`MIN_HITS`]) …
    pub min_hits: u32,
    /// … or one hit whose lone reach ([`crate::matching::lone_hit_reach`], the postings'
    /// column `reach`) covers this many characters: the exact share of a box.
    pub min_reach: u32,
    /// The passage length `min_reach` was derived from: `align` refuses a shorter one.
    pub min_chars: u32,
    /// A k-gram held by at least max(`common_floor`, n / `common_one_in`) of the n
    /// documents is common ([`COMMON_FLOOR`], [`COMMON_ONE_IN`]).
    pub common_floor: u32,
    pub common_one_in: u32,
    /// A k-gram or sentence held by more postings than this is frequent ([`MAX_POSTINGS`]).
    pub max_postings: u32,
    /// Postings of one hash counted in one document ([`MAX_POSITIONS_PER_DOCUMENT`]).
    pub max_positions: u32,
    /// SimHash values at most this many bits apart make a near-duplicate candidate.
    pub simhash_threshold: u32,
}

/// A whole, non-negative number of characters as the rule holds it (`as` saturates).
#[expect(clippy::cast_possible_truncation, reason = "a length of a few hundred characters, already whole")]
fn rounded(x: f64) -> u32 {
    x as u32
}

impl JoinRule {
    /// The rule for passages of at least `min_chars` characters.
    pub fn for_min_chars(min_chars: usize) -> Self {
        let min_exact = MatchTuning::default().min_exact(min_chars).ceil().max(0.0);
        Self {
            min_hits: saturating_u32(MIN_HITS),
            min_reach: rounded(min_exact),
            min_chars: saturating_u32(min_chars),
            common_floor: saturating_u32(COMMON_FLOOR),
            common_one_in: saturating_u32(COMMON_ONE_IN),
            max_postings: saturating_u32(MAX_POSTINGS),
            max_positions: saturating_u32(MAX_POSITIONS_PER_DOCUMENT),
            simhash_threshold: MAX_SIMHASH_THRESHOLD,
        }
    }

    /// Whether pairs found under this rule hold every pair a check with passages of at
    /// least `min_chars` characters finds: its lone hits must reach no further.
    pub fn serves(&self, min_chars: usize) -> bool {
        let min_exact = MatchTuning::default().min_exact(min_chars);
        f64::from(self.min_reach) <= min_exact.ceil()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_takes_compare_s_numbers() {
        let rule = JoinRule::for_min_chars(40);
        assert_eq!((rule.min_hits, rule.min_reach, rule.common_floor, rule.common_one_in), (2, 20, 5, 20));
        assert_eq!((rule.max_postings, rule.max_positions, rule.simhash_threshold), (50, 8, 3));
        assert!(rule.serves(40) && rule.serves(100));
        assert!(!rule.serves(30), "shorter passages need lone hits the pairs left out");
    }
}

//! Pigeonhole index over 64-bit SimHash values: split into d + 1 blocks, two values within
//! Hamming distance d agree on at least one whole block, so a lookup touches only the
//! buckets of its own blocks instead of the whole archive.

use rustc_hash::FxHashMap;

use crate::fingerprint::simhash::hamming;
use crate::model::saturating_u32;

/// Finds every indexed SimHash within a fixed Hamming distance.
#[derive(Debug)]
pub struct SimhashIndex {
    max_distance: u32,
    blocks: Vec<(u32, u32)>,
    buckets: Vec<FxHashMap<u64, Vec<u32>>>,
    values: Vec<(u32, u64)>,
}

impl SimhashIndex {
    /// An index answering queries for distance ≤ `max_distance` (at most 63).
    pub fn new(max_distance: u32) -> Self {
        let max_distance = max_distance.min(63);
        let count = max_distance + 1;
        let blocks = (0..count).map(|i| (i * 64 / count, (i + 1) * 64 / count)).collect::<Vec<_>>();
        let buckets = vec![FxHashMap::default(); blocks.len()];
        Self { max_distance, blocks, buckets, values: Vec::new() }
    }

    fn block(value: u64, (lo, hi): (u32, u32)) -> u64 {
        let width = hi - lo;
        let mask = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
        (value >> lo) & mask
    }

    /// Adds document `doc` with SimHash `value`.
    pub fn insert(&mut self, doc: u32, value: u64) {
        let slot = saturating_u32(self.values.len());
        self.values.push((doc, value));
        for (bucket, &range) in self.buckets.iter_mut().zip(&self.blocks) {
            bucket.entry(Self::block(value, range)).or_default().push(slot);
        }
    }

    /// Every indexed document within the distance of `value`, with its distance, sorted by
    /// document.
    pub fn query(&self, value: u64) -> Vec<(u32, u32)> {
        self.query_after(value, None, usize::MAX)
    }

    /// Like [`Self::query`], but only documents after `after` (when given), and at most
    /// about `limit` entries of each block's bucket, in document order: a collection of
    /// thousands of identical documents must not cost every document a look at every
    /// other. Documents must have been inserted in ascending order for `after` to hold.
    pub fn query_after(&self, value: u64, after: Option<u32>, limit: usize) -> Vec<(u32, u32)> {
        let mut found: Vec<(u32, u32)> = Vec::new();
        for (bucket, &range) in self.buckets.iter().zip(&self.blocks) {
            let slots = bucket.get(&Self::block(value, range)).map(Vec::as_slice).unwrap_or(&[]);
            let first = after.map_or(0, |after| slots.partition_point(|&slot| self.values[slot as usize].0 <= after));
            for &slot in slots[first..].iter().take(limit) {
                let (doc, other) = self.values[slot as usize];
                let distance = hamming(value, other);
                if distance <= self.max_distance {
                    found.push((doc, distance));
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "the tests' values are small")]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn finds_exactly_what_a_linear_scan_finds(values in proptest::collection::vec(any::<u64>(), 1..40), flips in proptest::collection::vec(0u32..64, 0..6), d in 0u32..6) {
            let mut index = SimhashIndex::new(d);
            let mut all = values.clone();
            // A near neighbour of the first value.
            all.push(flips.iter().fold(values[0], |v, &b| v ^ (1 << b)));
            for (i, &v) in all.iter().enumerate() {
                index.insert(i as u32, v);
            }
            let expected: Vec<(u32, u32)> = all.iter().enumerate()
                .map(|(i, &v)| (i as u32, hamming(values[0], v)))
                .filter(|&(_, dist)| dist <= d)
                .collect();
            prop_assert_eq!(index.query(values[0]), expected);
        }
    }
}

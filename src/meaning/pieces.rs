//! The per-piece rows of the forward pass, cached by piece id: what depends on one piece
//! alone is computed once per piece and shared by every thread that embeds, in a bounded
//! cache (a few thousand pieces; an arbitrary one leaves a full shard for a new one).

use std::sync::{Mutex, PoisonError};

use rustc_hash::FxHashMap;

/// Shards of the cache: threads that embed at once rarely wait on one another.
const SHARDS: usize = 16;

/// A bounded map from piece id to its row of `width` values.
pub(crate) struct PieceCache {
    shards: Vec<Mutex<FxHashMap<u32, Box<[f32]>>>>,
    width: usize,
    per_shard: usize,
}

/// The rows of a run of tokens: each distinct piece's row once, and each token's row index.
pub(crate) struct Rows {
    /// `distinct × width` values, row `i` the `i`-th distinct piece's.
    pub values: Vec<f32>,
    /// For each token, the index of its row in `values`.
    pub of_token: Vec<usize>,
}

impl Rows {
    /// The row of token `t`.
    pub fn of(&self, t: usize, width: usize) -> &[f32] {
        let at = self.of_token[t] * width;
        &self.values[at..at + width]
    }
}

impl PieceCache {
    /// A cache of rows `width` long holding about `capacity` of them (at least one a shard).
    pub(crate) fn new(width: usize, capacity: usize) -> PieceCache {
        let shards = (0..SHARDS).map(|_| Mutex::new(FxHashMap::default())).collect();
        PieceCache { shards, width, per_shard: capacity.div_ceil(SHARDS).max(1) }
    }

    /// The bytes the cached rows hold now.
    pub(crate) fn bytes(&self) -> usize {
        let rows: usize = self.shards.iter().map(|s| s.lock().unwrap_or_else(PoisonError::into_inner).len()).sum();
        rows * self.width * 4
    }

    /// The most bytes the cached rows can hold.
    pub(crate) fn capacity_bytes(&self) -> usize {
        SHARDS * self.per_shard * self.width * 4
    }

    /// Forgets every row (memory, or a cold start measured).
    pub(crate) fn clear(&self) {
        for shard in &self.shards {
            shard.lock().unwrap_or_else(PoisonError::into_inner).clear();
        }
    }

    /// The rows of `ids`: cached ones copied, the others made by `compute(missing, out)`
    /// (`out` is `missing.len() × width`, zeroed) in one call, and kept.
    pub(crate) fn rows(&self, ids: &[u32], compute: impl FnOnce(&[u32], &mut [f32])) -> Rows {
        let mut index: FxHashMap<u32, usize> = FxHashMap::default();
        let mut distinct = Vec::new();
        let of_token = ids
            .iter()
            .map(|&id| {
                *index.entry(id).or_insert_with(|| {
                    distinct.push(id);
                    distinct.len() - 1
                })
            })
            .collect();
        let width = self.width;
        let mut values = vec![0.0f32; distinct.len() * width];
        let (mut missing, mut missing_at) = (Vec::new(), Vec::new());
        for (i, (&id, row)) in distinct.iter().zip(values.chunks_exact_mut(width)).enumerate() {
            if !self.copy_into(id, row) {
                missing.push(id);
                missing_at.push(i);
            }
        }
        if !missing.is_empty() {
            let mut made = vec![0.0f32; missing.len() * width];
            compute(&missing, &mut made);
            for ((&id, &i), row) in missing.iter().zip(&missing_at).zip(made.chunks_exact(width)) {
                values[i * width..(i + 1) * width].copy_from_slice(row);
                self.insert(id, row);
            }
        }
        Rows { values, of_token }
    }

    fn shard(&self, id: u32) -> std::sync::MutexGuard<'_, FxHashMap<u32, Box<[f32]>>> {
        let i = (id as usize).wrapping_mul(0x9E37_79B9) >> 8;
        self.shards[i % SHARDS].lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Copies the cached row of `id` into `out`; false when it is not cached.
    fn copy_into(&self, id: u32, out: &mut [f32]) -> bool {
        let shard = self.shard(id);
        let Some(row) = shard.get(&id) else { return false };
        out.copy_from_slice(row);
        true
    }

    fn insert(&self, id: u32, row: &[f32]) {
        let mut shard = self.shard(id);
        if shard.len() >= self.per_shard
            && !shard.contains_key(&id)
            && let Some(&old) = shard.keys().next()
        {
            shard.remove(&old);
        }
        shard.insert(id, row.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row that says which id it belongs to, and counts how often it was made.
    fn make(calls: &mut Vec<u32>) -> impl FnOnce(&[u32], &mut [f32]) + '_ {
        move |missing, out| {
            for (&id, row) in missing.iter().zip(out.chunks_exact_mut(3)) {
                calls.push(id);
                row.copy_from_slice(&[id as f32, 1.0, -(id as f32)]);
            }
        }
    }

    #[test]
    fn each_piece_is_made_once_and_rows_follow_the_tokens() {
        let cache = PieceCache::new(3, 64);
        let mut calls = Vec::new();
        let rows = cache.rows(&[5, 7, 5, 9, 7], make(&mut calls));
        assert_eq!(calls, [5, 7, 9]);
        for (t, id) in [5, 7, 5, 9, 7].into_iter().enumerate() {
            assert_eq!(rows.of(t, 3), [id as f32, 1.0, -(id as f32)]);
        }
        let mut again = Vec::new();
        let rows = cache.rows(&[9, 11, 5], make(&mut again));
        assert_eq!(again, [11], "only the new piece is made");
        assert_eq!(rows.of(1, 3), [11.0, 1.0, -11.0]);
        assert_eq!(rows.of(2, 3), [5.0, 1.0, -5.0]);
        assert_eq!(cache.bytes(), 4 * 3 * 4);
        cache.clear();
        assert_eq!(cache.bytes(), 0);
    }

    #[test]
    fn the_cache_stays_within_its_capacity() {
        let cache = PieceCache::new(3, 32);
        let ids: Vec<u32> = (0..1000).collect();
        let mut calls = Vec::new();
        let rows = cache.rows(&ids, make(&mut calls));
        assert_eq!(calls.len(), 1000);
        assert_eq!(rows.of(999, 3), [999.0, 1.0, -999.0], "a batch larger than the cache is still whole");
        assert!(cache.bytes() <= cache.capacity_bytes(), "{} > {}", cache.bytes(), cache.capacity_bytes());
        assert!(cache.bytes() > 0);
    }
}

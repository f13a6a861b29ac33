//! The spreads of the hashes whose postings a check's lookup cut to their first ones (see
//! [`super::lookup::CAP`]), kept for the matcher, which asks for them after the postings
//! ([`crate::index::ReferenceIndex::kgram_spreads`]). Both archives keep them so: the
//! same for every suspect of the check's snapshot.

use std::hash::Hash;
use std::sync::Mutex;

use rustc_hash::FxHashMap;

use crate::index::Spread;

/// Spreads by (kind of postings, hash).
pub(super) struct CutSpreads<K> {
    spreads: Mutex<FxHashMap<(K, u64), Spread>>,
}

impl<K: Copy + Eq + Hash> CutSpreads<K> {
    pub(super) fn new() -> Self {
        Self { spreads: Mutex::default() }
    }

    /// Keeps the spread of each hash of `hashes` that has one (`spreads` in the same order).
    pub(super) fn keep(&self, kind: K, hashes: &[u64], spreads: &[Option<Spread>]) {
        let mut kept = self.spreads.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        for (&hash, spread) in hashes.iter().zip(spreads) {
            if let Some(spread) = spread {
                kept.insert((kind, hash), *spread);
            }
        }
    }

    /// The spread kept for each of `hashes`, `None` for a hash not cut.
    pub(super) fn of(&self, kind: K, hashes: &[u64]) -> Vec<Option<Spread>> {
        let kept = self.spreads.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        hashes.iter().map(|&hash| kept.get(&(kind, hash)).copied()).collect()
    }
}

//! The spreads of the hashes whose postings a check's lookup cut to their first ones (see
//! [`super::lookups::CAP`]), kept for the matcher, which asks for them after the postings
//! ([`crate::index::ReferenceIndex::spreads`]). Both archives keep them so, by signal:
//! the same for every suspect of the check's snapshot.

use std::sync::Mutex;

use rustc_hash::FxHashMap;

use crate::index::{Signal, Spread};

/// Spreads by (signal, hash).
pub(super) struct CutSpreads {
    spreads: Mutex<FxHashMap<(Signal, u64), Spread>>,
}

impl CutSpreads {
    pub(super) fn new() -> Self {
        Self { spreads: Mutex::default() }
    }

    /// Keeps the spread of each hash of `hashes` that has one (`spreads` in the same order).
    pub(super) fn keep(&self, signal: Signal, hashes: &[u64], spreads: &[Option<Spread>]) {
        let mut kept = self.spreads.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        for (&hash, spread) in hashes.iter().zip(spreads) {
            if let Some(spread) = spread {
                kept.insert((signal, hash), *spread);
            }
        }
    }

    /// The spread kept for each of `hashes`, `None` for a hash not cut.
    pub(super) fn of(&self, signal: Signal, hashes: &[u64]) -> Vec<Option<Spread>> {
        let kept = self.spreads.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        hashes.iter().map(|&hash| kept.get(&(signal, hash)).copied()).collect()
    }
}

//! Every tunable of a check in one plain-data struct, with the engine's defaults.
//! The window edits it, the command line fills it from flags, and the report records it.

use serde::{Deserialize, Serialize};

use crate::ingest::IngestLimits;
use crate::normalize::NormalizeOptions;

/// Settings of one check. `Settings::default()` is what the engine recommends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Tokens per k-gram. Nothing shorter than `k` tokens is ever reported.
    pub k: usize,
    /// Winnowing window, in k-grams.
    pub w: usize,
    /// Passages shorter than this many characters (on the suspect side) are dropped.
    pub min_chars: usize,
    /// Normalization switches.
    pub normalize: NormalizeOptions,
    /// Two documents whose SimHash values differ in at most this many bits are near duplicates.
    pub simhash_threshold: u32,
    /// Two documents that each have at least this share of their text in shared passages
    /// are near duplicates (SimHash alone misses many lightly edited reposts).
    pub near_duplicate_coverage: f64,
    /// A sentence needs at least this many tokens to get a sentence fingerprint.
    pub min_sentence_tokens: usize,
    /// Limits on what one input file may cost to read.
    pub ingest: IngestLimits,
    /// Passages to ignore (stock phrases, a licence, a standard disclaimer): text of a
    /// suspect that holds one is reported as common, never counted.
    pub stop_passages: Vec<String>,
    /// Count quoted passages (inside quotation marks with an attribution, or in a
    /// bibliography) in the scores; by default they are shown but not counted.
    pub count_quoted: bool,
    /// Look for short edited copies with character grams (English passages of 50-150
    /// characters with a typo every few words). A check of suspects against references
    /// only: archives hold no character grams, and an all-vs-all check gives what the
    /// distributed join gives.
    pub short_copies: bool,
    /// Use the meaning layer (a sentence encoder and a bilingual dictionary shipped with
    /// Twinspot): passages translated between Chinese and English, and copied passages
    /// carried over the reworded sentences beyond their words. On by default: a check
    /// that crosses languages embeds only the references a cheaper pass ties to a
    /// suspect, and one in one language loads the layer only when a sentence beside a
    /// copied passage shares enough of its source's letters (docs/meaning.md). A check against an archive and the Parquet + SQL flow compare
    /// words only, and their reports say so. Recorded in a report's settings only when
    /// off.
    #[serde(skip_serializing_if = "is_true")]
    pub meaning: bool,
}

/// Whether `value` is true (serde's test for a setting recorded only when off).
fn is_true(value: &bool) -> bool {
    *value
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            k: 5,
            w: 4,
            min_chars: 40,
            normalize: NormalizeOptions::default(),
            simhash_threshold: 3,
            near_duplicate_coverage: 0.5,
            min_sentence_tokens: 5,
            ingest: IngestLimits::default(),
            stop_passages: Vec::new(),
            count_quoted: false,
            short_copies: true,
            meaning: true,
        }
    }
}

/// The settings that shape fingerprints: two fingerprints can be compared only when they
/// were taken with the same shape, so a store (an archive, a Parquet folder) records it and
/// checks against it with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FingerprintShape {
    pub k: usize,
    pub w: usize,
    pub min_sentence_tokens: usize,
    pub normalize: NormalizeOptions,
}

impl Settings {
    /// The part of these settings that shapes fingerprints.
    pub fn shape(&self) -> FingerprintShape {
        FingerprintShape {
            k: self.k,
            w: self.w,
            min_sentence_tokens: self.min_sentence_tokens,
            normalize: self.normalize,
        }
    }

    /// These settings with fingerprints shaped as `shape` says; the others kept.
    pub fn with_shape(self, shape: FingerprintShape) -> Self {
        Self {
            k: shape.k,
            w: shape.w,
            min_sentence_tokens: shape.min_sentence_tokens,
            normalize: shape.normalize,
            ..self
        }
    }

    /// The winnowing guarantee: every shared run of at least `t = w + k − 1` tokens
    /// yields at least one shared fingerprint.
    pub fn guarantee_t(&self) -> usize {
        self.w + self.k.max(1) - 1
    }

    /// Clamps values into the ranges the engine accepts (k ≥ 1, w ≥ 1, …).
    pub fn sanitized(mut self) -> Self {
        self.k = self.k.clamp(1, 64);
        self.w = self.w.clamp(1, 256);
        self.simhash_threshold = self.simhash_threshold.min(32);
        if !self.near_duplicate_coverage.is_finite() {
            self.near_duplicate_coverage = Settings::default().near_duplicate_coverage;
        }
        self.near_duplicate_coverage = self.near_duplicate_coverage.clamp(0.0, 1.0);
        self.min_sentence_tokens = self.min_sentence_tokens.max(1);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guarantee_is_w_plus_k_minus_one() {
        let s = Settings { k: 5, w: 4, ..Settings::default() };
        assert_eq!(s.guarantee_t(), 8);
    }

    #[test]
    fn sanitized_clamps_zero_k_and_w() {
        let s = Settings { k: 0, w: 0, near_duplicate_coverage: f64::NAN, ..Settings::default() }.sanitized();
        assert_eq!((s.k, s.w), (1, 1));
        assert!(s.near_duplicate_coverage.is_finite());
    }
}

//! The shared option groups of the grammar (`grammar::shared`) turned into the engine's
//! settings, once for every command that flattens them in.

use twinspot::Settings;

use super::grammar::shared::{PassageFlags, PrintFlags};
use twinspot::model::usize_from;

impl PrintFlags {
    /// The engine's settings with these reading and fingerprint options, the rest default;
    /// extraction in helper processes where it runs there.
    pub(super) fn settings(&self) -> Settings {
        // The parsers bound every value, so these conversions are exact.
        let mut s = Settings { k: usize_from(self.k), w: usize_from(self.w), ..Settings::default() };
        s.normalize.nfkc = !self.no_nfkc;
        s.normalize.case_fold = !self.no_case_fold;
        s.normalize.traditional_to_simplified = !self.no_t2s;
        s.normalize.drop_punctuation = !self.keep_punctuation;
        s.ingest.max_file_bytes = self.max_file_mb.saturating_mul(1024 * 1024);
        s.ingest.timeout_secs = self.timeout;
        s.ingest.isolation = super::isolation();
        s
    }
}

impl PassageFlags {
    /// Sets in `s` which passages and near duplicates are kept.
    pub(super) fn apply(&self, s: &mut Settings) {
        // The parsers bound every value, so these conversions are exact.
        s.min_chars = usize_from(self.min_chars);
        s.simhash_threshold = u32::try_from(self.simhash_threshold).unwrap_or(u32::MAX);
        s.near_duplicate_coverage = self.near_duplicate_coverage;
    }
}

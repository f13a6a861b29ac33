//! Option groups that several commands flatten in (`#[command(flatten)]`), so that each
//! flag is defined, documented and bounded once: how documents are read and fingerprinted
//! ([`PrintFlags`]: `compare`, `fingerprint`), and which passages and near duplicates a
//! report keeps ([`PassageFlags`]: `compare`, `archive check`, `align`).

use clap::Args;

use super::defaults;
use super::values::{K_RANGE, W_RANGE, number_in, whole_in};

/// How documents are read and fingerprinted.
#[derive(Debug, Args)]
pub struct PrintFlags {
    /// Tokens per k-gram: nothing shorter than k tokens is ever reported.
    #[arg(short = 'k', long, default_value_t = defaults::K as u64, value_parser = whole_in(K_RANGE))]
    pub k: u64,
    /// Winnowing window (in k-grams); every shared run of t = w + k − 1 tokens is found.
    #[arg(short = 'w', long, default_value_t = defaults::W as u64, value_parser = whole_in(W_RANGE))]
    pub w: u64,
    /// Do not apply Unicode NFKC (full-width and half-width forms then differ).
    #[arg(long)]
    pub no_nfkc: bool,
    /// Do not fold case.
    #[arg(long)]
    pub no_case_fold: bool,
    /// Do not fold traditional Chinese to simplified.
    #[arg(long)]
    pub no_t2s: bool,
    /// Keep punctuation as tokens instead of dropping it.
    #[arg(long)]
    pub keep_punctuation: bool,
    /// Refuse files larger than this many megabytes.
    #[arg(long, value_name = "MB", default_value_t = defaults::MAX_FILE_MB, value_parser = whole_in(1..=4096))]
    pub max_file_mb: u64,
    /// Abandon the extraction of one file after this many seconds.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = defaults::TIMEOUT_SECS,
        value_parser = number_in(0.1..=86_400.0)
    )]
    pub timeout: f64,
}

/// Which passages and near duplicates a report keeps.
#[derive(Debug, Args)]
pub struct PassageFlags {
    /// Drop passages shorter than this many characters (suspect side).
    #[arg(long, default_value_t = defaults::MIN_CHARS as u64, value_parser = whole_in(1..=1_000_000))]
    pub min_chars: u64,
    /// Near duplicates: SimHash values at most this many bits apart.
    #[arg(long, default_value_t = u64::from(defaults::SIMHASH_THRESHOLD), value_parser = whole_in(0..=32))]
    pub simhash_threshold: u64,
    /// Near duplicates: shared passages cover at least this share of both documents.
    #[arg(long, default_value_t = defaults::NEAR_DUPLICATE_COVERAGE, value_parser = number_in(0.01..=1.0))]
    pub near_duplicate_coverage: f64,
}

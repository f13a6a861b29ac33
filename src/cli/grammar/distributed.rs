//! The options of `twinspot fingerprint`, `align` and `merge`: the commands that work
//! with an external SQL engine.

use std::path::PathBuf;

use clap::Args;

use super::defaults;
use super::values::parse_slice;

/// Options of `twinspot fingerprint`.
#[derive(Debug, Args)]
pub struct FingerprintArgs {
    /// The fingerprint folder to write this shard into (documents/, postings/, sentences/).
    #[arg(long, value_name = "OUT_DIR")]
    pub parquet: PathBuf,
    /// Documents (files or folders, read recursively).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// This machine's shard number: ids are shard × 2³² + index, unique across machines.
    #[arg(long, default_value_t = 0)]
    pub shard: u32,
    /// Postings are partitioned into this many buckets by the low bits of the hash (a power of two).
    #[arg(long, default_value_t = 16)]
    pub buckets: u32,
    #[command(flatten)]
    pub prints: PrintFlags,
    /// No progress bar and no summary.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The settings that shape fingerprints, shared by every shard of a folder.
#[derive(Debug, Args)]
pub struct PrintFlags {
    /// Tokens per k-gram.
    #[arg(short = 'k', long, default_value_t = defaults::K)]
    pub k: usize,
    /// Winnowing window (in k-grams).
    #[arg(short = 'w', long, default_value_t = defaults::W)]
    pub w: usize,
    /// Do not apply Unicode NFKC.
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
    #[arg(long, value_name = "MB", default_value_t = defaults::MAX_FILE_MB)]
    pub max_file_mb: u64,
    /// Abandon the extraction of one file after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = defaults::TIMEOUT_SECS)]
    pub timeout: f64,
}

/// Options of `twinspot align`.
#[derive(Debug, Args)]
pub struct AlignArgs {
    /// Candidate pairs (a Parquet file or folder with columns `a` and `b`), from sql/candidate_pairs.sql.
    #[arg(long, value_name = "PAIRS.parquet")]
    pub pairs: PathBuf,
    /// How the whole collection holds its frequent hashes (a Parquet file or folder with columns
    /// `kind`, `hash`, `documents`, `postings`, `first_doc`, `second_doc`), from sql/kgram_spreads.sql and
    /// sql/sentence_spreads.sql.
    #[arg(long, value_name = "COMMON.parquet")]
    pub common: PathBuf,
    /// The fingerprint folder written by `twinspot fingerprint --parquet`.
    #[arg(long, value_name = "DIR")]
    pub documents: PathBuf,
    /// Read relative document paths below this folder (when this machine mounts them elsewhere).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Align only slice I of N of the pairs (0-based, split by the pairs' smaller id), for N
    /// processes; join with `twinspot merge`.
    #[arg(long, value_name = "I/N", value_parser = parse_slice)]
    pub slice: Option<(usize, usize)>,
    /// Read the documents of at most this many characters at once: suspects are aligned group
    /// by group, and memory holds about 45 bytes a character of one group.
    #[arg(long, value_name = "CHARS", default_value_t = defaults::GROUP_CHARS)]
    pub group_chars: usize,
    /// Write the result as JSON to OUT ('-' for standard output).
    #[arg(long, value_name = "OUT")]
    pub json: Option<PathBuf>,
    /// Write one CSV row per pair to OUT ('-' for standard output).
    #[arg(long, value_name = "OUT")]
    pub csv: Option<PathBuf>,
    /// Write a self-contained HTML report to OUT.
    #[arg(long, value_name = "OUT")]
    pub html: Option<PathBuf>,
    /// Drop passages shorter than this many characters.
    #[arg(long, default_value_t = defaults::MIN_CHARS)]
    pub min_chars: usize,
    /// Near duplicates: SimHash values at most this many bits apart (at most 3).
    #[arg(long, default_value_t = defaults::SIMHASH_THRESHOLD)]
    pub simhash_threshold: u32,
    /// Near duplicates: shared passages cover at least this share of both documents.
    #[arg(long, default_value_t = defaults::NEAR_DUPLICATE_COVERAGE)]
    pub near_duplicate_coverage: f64,
    /// A text file of passages to ignore, one a line, as `compare --stop-passages`.
    #[arg(long, value_name = "FILE")]
    pub stop_passages: Option<PathBuf>,
    /// Count quoted passages in the scores, as `compare --count-quoted`.
    #[arg(long)]
    pub count_quoted: bool,
    /// No progress bar and no summary.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Options of `twinspot merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Partial JSON reports written by `twinspot align --slice I/N --json`.
    #[arg(required = true, value_name = "REPORT.json")]
    pub reports: Vec<PathBuf>,
    /// Write the merged result as JSON to OUT ('-' for standard output).
    #[arg(long, value_name = "OUT")]
    pub json: Option<PathBuf>,
    /// Write one CSV row per pair to OUT ('-' for standard output).
    #[arg(long, value_name = "OUT")]
    pub csv: Option<PathBuf>,
    /// No summary.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

//! The options of `twinspot fingerprint`, `align` and `merge`: the commands that work
//! with an external SQL engine.

use std::path::PathBuf;

use clap::Args;

use super::defaults;
use super::shared::{PassageFlags, PrintFlags};
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
    /// The passages and near duplicates kept. `--simhash-threshold` is at most 3 here:
    /// sql/candidate_pairs.sql pairs near duplicates up to 3 bits apart.
    #[command(flatten)]
    pub passages: PassageFlags,
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

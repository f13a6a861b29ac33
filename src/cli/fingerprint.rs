//! `twinspot fingerprint --parquet OUT PATH...`: fingerprints documents for an external
//! SQL engine, as one shard of a Parquet folder.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context;
use clap::Args;
use twinspot::distributed::fingerprint::{ShardRequest, fingerprint_shard};
use twinspot::engine::collect_inputs;
use twinspot::{CancelFlag, Progress, ProgressSink, Role, Settings, Stage};

use super::progress_bar::TerminalProgress;

/// Options of `twinspot fingerprint`.
#[derive(Debug, Args)]
pub struct FingerprintArgs {
    /// The fingerprint folder to write this shard into (documents/, postings/, sentences/).
    #[arg(long, value_name = "OUT_DIR")]
    parquet: PathBuf,
    /// Documents (files or folders, read recursively).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// This machine's shard number: ids are shard × 2³² + index, unique across machines.
    #[arg(long, default_value_t = 0)]
    shard: u32,
    /// Postings are partitioned into this many buckets by the low bits of the hash (a power of two).
    #[arg(long, default_value_t = 16)]
    buckets: u32,
    #[command(flatten)]
    prints: PrintFlags,
    /// No progress bar and no summary.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// The settings that shape fingerprints, shared by every shard of a folder.
#[derive(Debug, Args)]
pub struct PrintFlags {
    /// Tokens per k-gram.
    #[arg(short = 'k', long, default_value_t = Settings::default().k)]
    k: usize,
    /// Winnowing window (in k-grams).
    #[arg(short = 'w', long, default_value_t = Settings::default().w)]
    w: usize,
    /// Do not apply Unicode NFKC.
    #[arg(long)]
    no_nfkc: bool,
    /// Do not fold case.
    #[arg(long)]
    no_case_fold: bool,
    /// Do not fold traditional Chinese to simplified.
    #[arg(long)]
    no_t2s: bool,
    /// Keep punctuation as tokens instead of dropping it.
    #[arg(long)]
    keep_punctuation: bool,
    /// Refuse files larger than this many megabytes.
    #[arg(long, value_name = "MB", default_value_t = Settings::default().ingest.max_file_bytes / (1024 * 1024))]
    max_file_mb: u64,
    /// Abandon the extraction of one file after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = Settings::default().ingest.timeout_secs)]
    timeout: f64,
}

impl PrintFlags {
    fn settings(&self) -> Settings {
        let mut s = Settings { k: self.k, w: self.w, ..Settings::default() };
        s.normalize.nfkc = !self.no_nfkc;
        s.normalize.case_fold = !self.no_case_fold;
        s.normalize.traditional_to_simplified = !self.no_t2s;
        s.normalize.drop_punctuation = !self.keep_punctuation;
        s.ingest.max_file_bytes = self.max_file_mb.saturating_mul(1024 * 1024);
        s.ingest.timeout_secs = self.timeout;
        // Read as `compare` reads: extraction in helper processes where it runs there.
        s.ingest.isolation = super::isolation();
        s
    }
}

pub fn run(args: FingerprintArgs) -> anyhow::Result<ExitCode> {
    let inputs = collect_inputs(&args.paths, Role::Suspect);
    if inputs.is_empty() {
        eprintln!("twinspot: no documents found in the paths given");
        return Ok(ExitCode::from(2));
    }
    let settings = args.prints.settings();
    let request = ShardRequest { out: &args.parquet, shard: args.shard, buckets: args.buckets, settings: &settings };
    let progress = TerminalProgress::new(args.quiet);
    let done = AtomicUsize::new(0);
    let total = inputs.len();
    let tick = || {
        let done = done.fetch_add(1, Ordering::Relaxed) + 1;
        progress.progress(Progress { stage: Stage::Reading, done, total });
    };
    let summary = fingerprint_shard(&inputs, &request, &tick, &CancelFlag::new())
        .with_context(|| format!("shard {} was not written", args.shard))?;
    progress.finish();
    if !args.quiet {
        println!(
            "shard {}: {} documents ({} could not be read), {} postings, {} sentences → {}",
            args.shard,
            summary.documents,
            summary.unreadable,
            summary.postings,
            summary.sentences,
            args.parquet.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

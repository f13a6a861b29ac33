//! `twinspot align`: aligns the candidate pairs an SQL engine found over a fingerprint
//! folder and writes the usual reports.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context;
use clap::Args;
use twinspot::distributed::align::{AlignRequest, align_pairs};
use twinspot::distributed::read::{read_fingerprints, read_pairs, read_spreads};
use twinspot::{Progress, ProgressSink, Settings, Stage};

use super::compare::read_stop_passages;
use super::output::{ReportOutputs, summary_line};
use super::progress_bar::TerminalProgress;

/// Options of `twinspot align`.
#[derive(Debug, Args)]
pub struct AlignArgs {
    /// Candidate pairs (a Parquet file or folder with columns `a` and `b`), from sql/candidate_pairs.sql.
    #[arg(long, value_name = "PAIRS.parquet")]
    pairs: PathBuf,
    /// How the whole collection holds its frequent hashes (a Parquet file or folder with columns
    /// `kind`, `hash`, `documents`, `postings`, `first_doc`, `second_doc`), from sql/kgram_spreads.sql and
    /// sql/sentence_spreads.sql.
    #[arg(long, value_name = "COMMON.parquet")]
    common: PathBuf,
    /// The fingerprint folder written by `twinspot fingerprint --parquet`.
    #[arg(long, value_name = "DIR")]
    documents: PathBuf,
    /// Read relative document paths below this folder (when this machine mounts them elsewhere).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Align only slice I of N of the pairs (0-based, split by the pairs' smaller id), for N
    /// processes; join with `twinspot merge`.
    #[arg(long, value_name = "I/N", value_parser = parse_slice)]
    slice: Option<(usize, usize)>,
    /// Write the result as JSON to OUT ('-' for standard output).
    #[arg(long, value_name = "OUT")]
    json: Option<PathBuf>,
    /// Write one CSV row per pair to OUT ('-' for standard output).
    #[arg(long, value_name = "OUT")]
    csv: Option<PathBuf>,
    /// Write a self-contained HTML report to OUT.
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
    /// Drop passages shorter than this many characters.
    #[arg(long, default_value_t = Settings::default().min_chars)]
    min_chars: usize,
    /// Near duplicates: SimHash values at most this many bits apart (at most 3).
    #[arg(long, default_value_t = Settings::default().simhash_threshold)]
    simhash_threshold: u32,
    /// Near duplicates: shared passages cover at least this share of both documents.
    #[arg(long, default_value_t = Settings::default().near_duplicate_coverage)]
    near_duplicate_coverage: f64,
    /// A text file of passages to ignore, one a line, as `compare --stop-passages`.
    #[arg(long, value_name = "FILE")]
    stop_passages: Option<PathBuf>,
    /// Count quoted passages in the scores, as `compare --count-quoted`.
    #[arg(long)]
    count_quoted: bool,
    /// No progress bar and no summary.
    #[arg(long, short = 'q')]
    quiet: bool,
}

fn parse_slice(s: &str) -> Result<(usize, usize), String> {
    let (i, n) = s.split_once('/').ok_or("expected I/N, e.g. 0/4")?;
    let (i, n): (usize, usize) =
        (i.parse().map_err(|_| "I is not a number")?, n.parse().map_err(|_| "N is not a number")?);
    if n == 0 || i >= n {
        return Err("need 0 ≤ I < N".into());
    }
    Ok((i, n))
}

pub fn run(args: AlignArgs) -> anyhow::Result<ExitCode> {
    let outputs =
        ReportOutputs { json: args.json.clone(), csv: args.csv.clone(), html: args.html.clone(), ..Default::default() };
    // Never a report over what this run reads: the pair and hash files given here, and
    // (checked again when writing) every document the pairs name.
    let given = || [args.pairs.as_path(), args.common.as_path()].into_iter().chain(args.stop_passages.as_deref());
    if let Err(e) = outputs.check(given()) {
        eprintln!("twinspot: {e}");
        return Ok(ExitCode::from(2));
    }
    let fingerprints = read_fingerprints(&args.documents).context("cannot use the fingerprint folder")?;
    let pairs = read_pairs(&args.pairs).context("cannot read the pairs")?;
    let spreads = read_spreads(&args.common).context("cannot read the hash spreads")?;
    let mut settings = Settings {
        min_chars: args.min_chars,
        simhash_threshold: args.simhash_threshold,
        near_duplicate_coverage: args.near_duplicate_coverage,
        count_quoted: args.count_quoted,
        ..Settings::default()
    };
    if let Some(path) = &args.stop_passages {
        settings.stop_passages = read_stop_passages(path)?;
    }
    settings.ingest.isolation = super::isolation();
    let request = AlignRequest {
        fingerprints: &fingerprints,
        pairs: &pairs,
        pairs_path: &args.pairs,
        spreads: &spreads,
        spreads_path: &args.common,
        settings: &settings,
        root: args.root.as_deref(),
        slice: args.slice.unwrap_or((0, 1)),
    };
    let progress = TerminalProgress::new(args.quiet);
    let done = AtomicUsize::new(0);
    let suspects = pairs.iter().map(|p| p.0).collect::<std::collections::BTreeSet<_>>().len();
    let total = suspects.div_ceil(request.slice.1);
    let tick = || {
        let done = done.fetch_add(1, Ordering::Relaxed) + 1;
        progress.progress(Progress { stage: Stage::Matching, done, total });
    };
    let report = align_pairs(&request, &tick).context("the pairs were not aligned")?;
    progress.finish();
    for doc in report.errors() {
        eprintln!("twinspot: {}", doc.error.as_ref().map(ToString::to_string).unwrap_or_default());
    }
    let inputs: Vec<&std::path::Path> = report.documents.iter().map(|d| d.source.as_path()).chain(given()).collect();
    Ok(outputs.finish(&report, inputs.iter().copied(), (!args.quiet).then(|| summary_line(&report))))
}

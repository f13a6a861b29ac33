//! `twinspot align`: aligns the candidate pairs an SQL engine found over a fingerprint
//! folder and writes the usual reports.

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context;
use twinspot::distributed::align::{AlignRequest, align_pairs};
use twinspot::distributed::read::{read_fingerprints, read_pairs, read_spreads};
use twinspot::{Progress, ProgressSink, Settings, Stage};

use super::compare::read_stop_passages;
use super::grammar::distributed::AlignArgs;
use super::output::{ReportOutputs, summary_line};
use super::progress_bar::TerminalProgress;

/// The widest SimHash distance sql/candidate_pairs.sql pairs documents by.
const MAX_PAIRED_SIMHASH: u64 = 3;

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
    if args.passages.simhash_threshold > MAX_PAIRED_SIMHASH {
        eprintln!(
            "twinspot: align takes --simhash-threshold {MAX_PAIRED_SIMHASH} at most: sql/candidate_pairs.sql pairs \
             near duplicates up to {MAX_PAIRED_SIMHASH} bits apart, so a wider threshold would miss some"
        );
        return Ok(ExitCode::from(2));
    }
    let fingerprints = read_fingerprints(&args.documents).context("cannot use the fingerprint folder")?;
    let pairs = read_pairs(&args.pairs).context("cannot read the pairs")?;
    let spreads = read_spreads(&args.common).context("cannot read the hash spreads")?;
    let mut settings = Settings { count_quoted: args.count_quoted, ..Settings::default() };
    args.passages.apply(&mut settings);
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
        group_chars: args.group_chars,
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

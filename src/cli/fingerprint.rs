//! `twinspot fingerprint --parquet OUT PATH...`: fingerprints documents for an external
//! SQL engine, as one shard of a Parquet folder.

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context;
use twinspot::distributed::fingerprint::{ShardRequest, fingerprint_shard};
use twinspot::engine::collect_inputs;
use twinspot::{CancelFlag, Progress, ProgressSink, Role, Stage};

use super::grammar::distributed::FingerprintArgs;
use super::progress_bar::TerminalProgress;

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

//! `twinspot compare`: runs a check and writes JSON/CSV/HTML reports, or a summary table.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use twinspot::engine::collect_inputs;
use twinspot::report::{csv::to_csv, html::to_html, json::to_json};
use twinspot::{CancelFlag, CheckRequest, Mode, Report, Role, Settings, run_check};

use super::progress_bar::TerminalProgress;

/// Options of `twinspot compare`. Files and folders may be mixed; folders are read
/// recursively (.txt .md .docx .pdf .html .htm .odt).
#[derive(Debug, Args)]
#[command(after_long_help = GUARANTEE_HELP)]
pub struct CompareArgs {
    /// Documents (files or folders) that suspects may have copied from.
    #[arg(long, short = 'r', num_args = 1.., value_name = "PATH")]
    reference: Vec<PathBuf>,
    /// Documents (files or folders) to check against the references.
    #[arg(long, short = 's', num_args = 1.., value_name = "PATH")]
    suspect: Vec<PathBuf>,
    /// Template documents (an assignment sheet, a standard header): their text is removed
    /// from every comparison and not counted in any score.
    #[arg(long, short = 't', num_args = 1.., value_name = "PATH")]
    template: Vec<PathBuf>,
    /// Compare every document in DIR with every other (a class's submissions); no
    /// reference set needed.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["reference", "suspect"])]
    all: Option<PathBuf>,
    /// Write the result as JSON (schema version 1) to OUT ('-' for standard output).
    #[arg(long, value_name = "OUT")]
    json: Option<PathBuf>,
    /// Write one CSV row per pair to OUT ('-' for standard output).
    #[arg(long, value_name = "OUT")]
    csv: Option<PathBuf>,
    /// Write a self-contained HTML report (both texts side by side, passages lit) to OUT.
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
    /// Tokens per k-gram: nothing shorter than k tokens is ever reported.
    #[arg(short = 'k', long, default_value_t = Settings::default().k)]
    k: usize,
    /// Winnowing window (in k-grams); every shared run of t = w + k − 1 tokens is found.
    #[arg(short = 'w', long, default_value_t = Settings::default().w)]
    w: usize,
    /// Drop passages shorter than this many characters (suspect side).
    #[arg(long, default_value_t = Settings::default().min_chars)]
    min_chars: usize,
    /// Near duplicates: SimHash values at most this many bits apart.
    #[arg(long, default_value_t = Settings::default().simhash_threshold)]
    simhash_threshold: u32,
    /// Near duplicates: shared passages cover at least this share of both documents.
    #[arg(long, default_value_t = Settings::default().near_duplicate_coverage)]
    near_duplicate_coverage: f64,
    /// Do not apply Unicode NFKC (full-width and half-width forms then differ).
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
    /// No progress bar and no summary.
    #[arg(long, short = 'q')]
    quiet: bool,
}

const GUARANTEE_HELP: &str = "\
How matching works: text is normalized (NFKC, case, traditional→simplified Chinese, \
punctuation dropped), split into tokens (one Han/Kana/Hangul character, or one run of \
letters/digits), and every k consecutive tokens are hashed. Winnowing keeps the smallest \
hash in every window of w hashes. Guarantee: any run of at least t = w + k − 1 identical \
tokens shared by two documents yields a shared fingerprint (defaults k=5, w=4: t=8), and \
nothing shorter than k tokens is ever reported. Around those hits the two texts are \
aligned closely, so lightly edited and reordered passages come out whole.

Exit status: 0 when the run finished, also when some files could not be read (each is \
reported on standard error and in the JSON); 2 on bad arguments.";

impl CompareArgs {
    fn settings(&self) -> Settings {
        let mut s = Settings {
            k: self.k,
            w: self.w,
            min_chars: self.min_chars,
            simhash_threshold: self.simhash_threshold,
            near_duplicate_coverage: self.near_duplicate_coverage,
            ..Settings::default()
        };
        s.normalize.nfkc = !self.no_nfkc;
        s.normalize.case_fold = !self.no_case_fold;
        s.normalize.traditional_to_simplified = !self.no_t2s;
        s.normalize.drop_punctuation = !self.keep_punctuation;
        s.ingest.max_file_bytes = self.max_file_mb.saturating_mul(1024 * 1024);
        s.ingest.timeout_secs = self.timeout;
        s
    }
}

pub fn run(args: CompareArgs) -> anyhow::Result<ExitCode> {
    let (mode, documents) = match &args.all {
        Some(dir) => (Mode::AllVsAll, collect_inputs(std::slice::from_ref(dir), Role::Suspect)),
        None => {
            if args.reference.is_empty() || args.suspect.is_empty() {
                eprintln!(
                    "twinspot: compare needs --reference and --suspect, or --all DIR (see twinspot compare --help)"
                );
                return Ok(ExitCode::from(2));
            }
            let mut docs = collect_inputs(&args.suspect, Role::Suspect);
            docs.extend(collect_inputs(&args.reference, Role::Reference));
            (Mode::SuspectsVsReferences, docs)
        }
    };
    let mut documents = documents;
    documents.extend(collect_inputs(&args.template, Role::Template));
    if documents.is_empty() {
        eprintln!("twinspot: no documents found in the paths given");
        return Ok(ExitCode::from(2));
    }
    // One check and the process ends: the dictionary can go as soon as SimHash is done.
    let request = CheckRequest { documents, mode, settings: args.settings(), keep_dictionary: false };
    let progress = TerminalProgress::new(args.quiet);
    let report = run_check(&request, &progress, &CancelFlag::new()).context("the check did not finish")?;
    progress.finish();

    for doc in report.errors() {
        eprintln!("twinspot: {}", doc.error.as_deref().unwrap_or_default());
    }
    if let Some(out) = &args.json {
        write_output(out, &to_json(&report))?;
    }
    if let Some(out) = &args.csv {
        write_output(out, &to_csv(&report))?;
    }
    if let Some(out) = &args.html {
        write_output(out, &to_html(&report))?;
    }
    let to_stdout = |o: &Option<PathBuf>| o.as_deref() == Some(Path::new("-"));
    if !args.quiet && !to_stdout(&args.json) && !to_stdout(&args.csv) {
        print_summary(&report);
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn write_output(out: &Path, content: &str) -> anyhow::Result<()> {
    if out == Path::new("-") {
        print!("{content}");
        return Ok(());
    }
    std::fs::write(out, content).with_context(|| format!("cannot write {}", out.display()))
}

pub(super) fn print_summary(report: &Report) {
    let name = |id: usize| report.documents.get(id).map(|d| d.path.as_str()).unwrap_or("?");
    let readable = report.documents.iter().filter(|d| d.error.is_none()).count();
    println!(
        "{} documents read ({} could not be read), {} pairs with shared text, {} near duplicates",
        readable,
        report.documents.len() - readable,
        report.pairs.len(),
        report.near_duplicates.len()
    );
    if report.pairs.is_empty() {
        return;
    }
    println!("{:>7} {:>7} {:>4} {:>8}  {:<}", "copied", "of ref", "sim", "passages", "suspect ⇐ reference");
    for p in report.pairs.iter().take(50) {
        println!(
            "{:>6.1}% {:>6.1}% {:>4} {:>8}  {} ⇐ {}{}",
            p.score * 100.0,
            p.score_b * 100.0,
            p.simhash_distance.map(|d| d.to_string()).unwrap_or_else(|| "-".into()),
            p.passages.len(),
            name(p.a),
            name(p.b),
            if p.near_duplicate { "  [near duplicate]" } else { "" }
        );
    }
    if report.pairs.len() > 50 {
        println!("… {} more pairs (use --json or --csv for all)", report.pairs.len() - 50);
    }
}

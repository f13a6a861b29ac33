//! `twinspot compare`: runs a check and writes JSON/CSV/HTML reports, or a summary table.

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use twinspot::DocumentInput;
use twinspot::cache::{self, ReferenceCache};
use twinspot::engine::run_check_cached;
use twinspot::engine::{InputSet, Skipped, display_path};
use twinspot::report::html::Scope;
use twinspot::report::words::ReportLang;
use twinspot::{CancelFlag, CheckRequest, Mode, Report, Role, Settings, run_check};

use super::args::{number_in, whole_in};
use super::output::ReportOutputs;
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
    /// Narrow the HTML report to one suspect (named as the report names it, or by its path)
    /// and its pairs.
    #[arg(long, value_name = "SUSPECT", requires = "html", conflicts_with = "html_pair")]
    html_suspect: Option<String>,
    /// Narrow the HTML report to one pair: a suspect and a reference (or, with --all, two
    /// documents), named as the report names them or by their paths.
    #[arg(long, num_args = 2, value_names = ["SUSPECT", "REFERENCE"], requires = "html")]
    html_pair: Vec<String>,
    /// Language of the HTML report: en or zh.
    #[arg(long, value_name = "LANG", default_value = "en", value_parser = parse_lang)]
    lang: ReportLang,
    /// Tokens per k-gram: nothing shorter than k tokens is ever reported.
    #[arg(short = 'k', long, default_value_t = Settings::default().k as u64, value_parser = whole_in(1..=64))]
    k: u64,
    /// Winnowing window (in k-grams); every shared run of t = w + k − 1 tokens is found.
    #[arg(short = 'w', long, default_value_t = Settings::default().w as u64, value_parser = whole_in(1..=256))]
    w: u64,
    /// Drop passages shorter than this many characters (suspect side).
    #[arg(long, default_value_t = Settings::default().min_chars as u64, value_parser = whole_in(1..=1_000_000))]
    min_chars: u64,
    /// Near duplicates: SimHash values at most this many bits apart.
    #[arg(long, default_value_t = u64::from(Settings::default().simhash_threshold), value_parser = whole_in(0..=32))]
    simhash_threshold: u64,
    /// Near duplicates: shared passages cover at least this share of both documents.
    #[arg(long, default_value_t = Settings::default().near_duplicate_coverage, value_parser = number_in(0.01..=1.0))]
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
    #[arg(
        long,
        value_name = "MB",
        default_value_t = Settings::default().ingest.max_file_bytes / (1024 * 1024),
        value_parser = whole_in(1..=4096)
    )]
    max_file_mb: u64,
    /// Abandon the extraction of one file after this many seconds.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = Settings::default().ingest.timeout_secs,
        value_parser = number_in(0.1..=86_400.0)
    )]
    timeout: f64,
    /// A text file of passages to ignore, one a line (a licence, a standard disclaimer,
    /// stock phrases): suspect text holding one is shown as common, never counted.
    #[arg(long, value_name = "FILE")]
    stop_passages: Option<PathBuf>,
    /// Count quoted passages (inside quotation marks with an attribution, or in a
    /// bibliography) in the scores; by default they are shown but not counted.
    #[arg(long)]
    count_quoted: bool,
    /// Do not look for short edited copies with character grams (what an archive check
    /// finds, which holds none).
    #[arg(long)]
    no_short_copies: bool,
    /// Read every reference file, without the reference cache (by default the texts of
    /// references are kept in the user's cache folder, and unchanged files are not read
    /// again; TWINSPOT_CACHE_DIR names another folder).
    #[arg(long)]
    no_cache: bool,
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
reported on standard error and in the JSON); 2 on bad arguments (checked before any work, \
report targets included: a report is never written over an input); 1 when a report could \
not be written (the others still are). Each report is written whole or not at all.";

impl CompareArgs {
    fn settings(&self) -> anyhow::Result<Settings> {
        // The parsers bound every value, so these conversions are exact.
        let mut s = Settings {
            k: self.k as usize,
            w: self.w as usize,
            min_chars: self.min_chars as usize,
            simhash_threshold: self.simhash_threshold as u32,
            near_duplicate_coverage: self.near_duplicate_coverage,
            ..Settings::default()
        };
        s.normalize.nfkc = !self.no_nfkc;
        s.normalize.case_fold = !self.no_case_fold;
        s.normalize.traditional_to_simplified = !self.no_t2s;
        s.normalize.drop_punctuation = !self.keep_punctuation;
        s.ingest.max_file_bytes = self.max_file_mb.saturating_mul(1024 * 1024);
        s.ingest.timeout_secs = self.timeout;
        s.count_quoted = self.count_quoted;
        s.short_copies = !self.no_short_copies;
        if let Some(path) = &self.stop_passages {
            s.stop_passages = read_stop_passages(path)?;
        }
        s.ingest.isolation = super::isolation();
        Ok(s)
    }
}

/// The passages of a stop-passage file: its non-empty lines, trimmed.
pub(super) fn read_stop_passages(path: &Path) -> anyhow::Result<Vec<String>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the stop passages (a UTF-8 text file) {}", path.display()))?;
    Ok(text.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect())
}

pub fn run(args: CompareArgs) -> anyhow::Result<ExitCode> {
    let mut inputs = InputSet::new();
    let mode = match &args.all {
        Some(dir) => {
            inputs.add(std::slice::from_ref(dir), Role::Suspect);
            Mode::AllVsAll
        }
        None => {
            if args.reference.is_empty() || args.suspect.is_empty() {
                eprintln!(
                    "twinspot: compare needs --reference and --suspect, or --all DIR (see twinspot compare --help)"
                );
                return Ok(ExitCode::from(2));
            }
            inputs.add(&args.suspect, Role::Suspect);
            inputs.add(&args.reference, Role::Reference);
            Mode::SuspectsVsReferences
        }
    };
    inputs.add(&args.template, Role::Template);
    if let Some(missing) = inputs.missing().first() {
        eprintln!("twinspot: no such file or folder: {}", display_path(missing));
        return Ok(ExitCode::from(2));
    }
    let (documents, skipped) = inputs.finish();
    if documents.is_empty() {
        for s in &skipped {
            eprintln!("twinspot: {}", skipped_line(s));
        }
        eprintln!("twinspot: no documents found in the paths given");
        return Ok(ExitCode::from(2));
    }
    let wanted = match html_scope_names(&args, &documents, args.all.is_some()) {
        Ok(wanted) => wanted,
        Err(e) => {
            eprintln!("twinspot: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let mut outputs = ReportOutputs {
        json: args.json.clone(),
        csv: args.csv.clone(),
        html: args.html.clone(),
        lang: args.lang,
        ..Default::default()
    };
    if let Err(e) = outputs.check(read_by_the_run(&documents, args.stop_passages.as_deref())) {
        eprintln!("twinspot: {e}");
        return Ok(ExitCode::from(2));
    }
    for s in &skipped {
        eprintln!("twinspot: {}", skipped_line(s));
    }
    let settings = match args.settings() {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("twinspot: {error:#}");
            return Ok(ExitCode::from(2));
        }
    };
    // One check and the process ends: the dictionary can go as soon as SimHash is done.
    let request = CheckRequest { documents, mode, settings, keep_dictionary: false, skipped };
    let progress = TerminalProgress::new(args.quiet);
    let cache = if args.no_cache { None } else { reference_cache(&args.reference, &request) };
    let report = match &cache {
        Some(cache) => run_check_cached(&request, cache, &progress, &CancelFlag::new()),
        None => run_check(&request, &progress, &CancelFlag::new()),
    }
    .context("the check did not finish")?;
    progress.finish();
    if let Some(cache) = &cache {
        say_cache_outcome(cache);
    }
    outputs.scope = match wanted.scope_in(&report) {
        Ok(scope) => scope,
        Err(e) => {
            eprintln!("twinspot: {e}");
            return Ok(ExitCode::from(1));
        }
    };

    for doc in &report.documents {
        match &doc.error {
            Some(error) => eprintln!("twinspot: {error}"),
            None => {
                for warning in &doc.warnings {
                    eprintln!("twinspot: note: {warning}: {}", doc.path);
                }
            }
        }
    }
    let inputs = read_by_the_run(&request.documents, args.stop_passages.as_deref());
    Ok(outputs.finish(&report, inputs, (!args.quiet).then(|| summary(&report))))
}

/// The cache of the run's reference set, when it has plain references (not only files
/// that are suspects too) and the cache can be opened; else `None`, with one note saying
/// why when something went wrong.
fn reference_cache(roots: &[PathBuf], request: &CheckRequest) -> Option<ReferenceCache> {
    let plain = |d: &DocumentInput| d.role == Role::Reference && !d.also_reference;
    if request.mode != Mode::SuspectsVsReferences || !request.documents.iter().any(plain) {
        return None;
    }
    let Some(dir) = cache::default_dir() else {
        eprintln!("twinspot: note: no cache folder (set {} or HOME): every reference is read", cache::CACHE_DIR_VAR);
        return None;
    };
    match ReferenceCache::open(&dir, roots, &request.settings.ingest) {
        Ok(cache) => Some(cache),
        Err(e) => {
            eprintln!("twinspot: note: the reference cache cannot be used ({e}): every reference is read");
            None
        }
    }
}

/// Writes the cache's changes and says how the references were had (one note), and what
/// went wrong with the cache, if anything (it never changes the results).
fn say_cache_outcome(cache: &ReferenceCache) {
    match cache.finish() {
        Ok(s) => eprintln!("twinspot: note: references: {} from cache, {} read", s.from_cache, s.read),
        Err(e) => {
            let s = cache.summary();
            eprintln!(
                "twinspot: note: references: {} from cache, {} read; the cache could not be updated ({e})",
                s.from_cache, s.read
            );
        }
    }
    for problem in cache.problems() {
        eprintln!("twinspot: note: reference cache: {problem}");
    }
}

/// The documents `--html-suspect` / `--html-pair` name, by the name the report gives them.
enum WantedScope {
    Run,
    Suspect(String),
    Pair(String, String),
}

impl WantedScope {
    /// The report's scope for these names, once the check has run.
    fn scope_in(&self, report: &Report) -> Result<Scope, String> {
        let id = |name: &str| report.documents.iter().position(|d| d.path == name);
        match self {
            WantedScope::Run => Ok(Scope::Run),
            WantedScope::Suspect(name) => {
                id(name).map(Scope::Suspect).ok_or_else(|| format!("{name} is not in the report"))
            }
            WantedScope::Pair(a, b) => {
                let (ia, ib) = (id(a), id(b));
                report
                    .pairs
                    .iter()
                    .position(|p| (Some(p.a), Some(p.b)) == (ia, ib) || (Some(p.a), Some(p.b)) == (ib, ia))
                    .map(Scope::Pair)
                    .ok_or_else(|| format!("{a} and {b} share no text: there is no pair to report"))
            }
        }
    }
}

/// Resolves the names of `--html-suspect` / `--html-pair` before any work: each must be a
/// document of the run in the right part (in all-vs-all mode, any document).
fn html_scope_names(args: &CompareArgs, documents: &[DocumentInput], all: bool) -> Result<WantedScope, String> {
    let find = |name: &str, role: Role, part: &str| -> Result<String, String> {
        documents
            .iter()
            .filter(|d| all || d.role == role || (role == Role::Reference && d.also_reference))
            .find(|d| d.display == name || d.path == Path::new(name))
            .map(|d| d.display.clone())
            .ok_or_else(|| format!("'{name}' is no {part} of this run"))
    };
    if let Some(name) = &args.html_suspect {
        return find(name, Role::Suspect, "suspect").map(WantedScope::Suspect);
    }
    match args.html_pair.as_slice() {
        [a, b] => Ok(WantedScope::Pair(find(a, Role::Suspect, "suspect")?, find(b, Role::Reference, "reference")?)),
        _ => Ok(WantedScope::Run),
    }
}

/// Every file the run reads, which no report may replace: the documents and the
/// stop-passage file.
pub(super) fn read_by_the_run<'a>(
    documents: &'a [DocumentInput],
    stop_passages: Option<&'a Path>,
) -> impl Iterator<Item = &'a Path> + Clone {
    documents.iter().map(|d| d.path.as_path()).chain(stop_passages)
}

/// One line for a path passed over.
pub(super) fn skipped_line(s: &Skipped) -> String {
    if s.path.is_empty() { s.reason.to_string() } else { format!("skipped {}: {}", s.path, s.reason) }
}

pub(super) fn parse_lang(s: &str) -> Result<ReportLang, String> {
    ReportLang::parse(s).ok_or_else(|| format!("unknown language '{s}' (en or zh)"))
}

pub(super) fn summary(report: &Report) -> String {
    let name = |id: usize| report.documents.get(id).map(|d| d.path.as_str()).unwrap_or("?");
    let readable = report.documents.iter().filter(|d| d.error.is_none()).count();
    let mut out = format!(
        "{} documents read ({} could not be read), {} pairs with shared text, {} near duplicates\n",
        readable,
        report.documents.len() - readable,
        report.pairs.len(),
        report.near_duplicates.len()
    );
    if report.pairs.is_empty() {
        return out;
    }
    let _ =
        writeln!(out, "{:>7} {:>7} {:>4} {:>8}  {:<}", "copied", "of ref", "sim", "passages", "suspect ⇐ reference");
    for p in report.pairs.iter().take(50) {
        let _ = writeln!(
            out,
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
        let _ = writeln!(out, "… {} more pairs (use --json or --csv for all)", report.pairs.len() - 50);
    }
    out
}

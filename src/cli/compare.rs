//! `twinspot compare`: runs a check and writes JSON/CSV/HTML reports, or a summary table.

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use twinspot::DocumentInput;
use twinspot::cache::{self, ReferenceCache};
use twinspot::engine::run_check_cached;
use twinspot::engine::{InputSet, Skipped, display_path};
use twinspot::report::html::Scope;
use twinspot::report::marks::Marks;
use twinspot::report::words::ReportLang;
use twinspot::{CancelFlag, CheckRequest, Mode, Report, Role, Settings, run_check};

use super::grammar::compare::CompareArgs;
use super::grammar::values::Lang;
use super::output::{ReportOutputs, count};
use super::progress_bar::TerminalProgress;

impl CompareArgs {
    fn settings(&self) -> anyhow::Result<Settings> {
        let mut s = self.prints.settings();
        self.passages.apply(&mut s);
        s.count_quoted = self.count_quoted;
        s.short_copies = !self.no_short_copies;
        s.meaning = !self.no_meaning;
        if let Some(path) = &self.stop_passages {
            s.stop_passages = read_stop_passages(path)?;
        }
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
    let Some((mode, mut inputs)) = inputs_of(&args) else {
        eprintln!(
            "twinspot: compare needs --reference and --suspect, --suspect with --classmates, or --all DIR (see twinspot compare --help)"
        );
        return Ok(ExitCode::from(2));
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
    let marks = match args.review.as_deref().map(Marks::load).transpose() {
        Ok(marks) => marks,
        Err(e) => {
            eprintln!("twinspot: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let mut outputs = ReportOutputs {
        json: args.json.clone(),
        csv: args.csv.clone(),
        html: args.html.clone(),
        pdf: args.pdf.clone(),
        lang: report_lang(args.lang),
        anonymize: args.anonymize,
        pdf_appendix: args.pdf_appendix,
        marks,
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
    let request = CheckRequest { documents, mode, settings, skipped, ..CheckRequest::default() };
    let progress = TerminalProgress::new(args.quiet).with_timings(args.timings);
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
    say_document_problems(&report);
    let inputs = read_by_the_run(&request.documents, args.stop_passages.as_deref());
    Ok(outputs.finish(&report, inputs, (!args.quiet).then(|| summary(&report))))
}

/// The mode of the check `args` ask for and its suspects and references (a .zip given by
/// name, a class's submissions from the LMS, read entry by entry); `None` when they name
/// neither a folder for `--all` nor suspects with references (or `--classmates`).
fn inputs_of(args: &CompareArgs) -> Option<(Mode, InputSet)> {
    let mut inputs = InputSet::reading_zips();
    let mode = match &args.all {
        Some(dir) => {
            inputs.add(std::slice::from_ref(dir), Role::Suspect);
            return Some((Mode::AllVsAll, inputs));
        }
        None if args.classmates => Mode::Classmates,
        None if args.reference.is_empty() || args.suspect.is_empty() => return None,
        None => Mode::SuspectsVsReferences,
    };
    inputs.add(&args.suspect, Role::Suspect);
    inputs.add(&args.reference, Role::Reference);
    Some((mode, inputs))
}

/// Each document's error, or its notes, on standard error.
fn say_document_problems(report: &Report) {
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

/// The report language `--lang` names.
pub(super) fn report_lang(lang: Lang) -> ReportLang {
    match lang {
        Lang::En => ReportLang::En,
        Lang::Zh => ReportLang::Zh,
    }
}

pub(super) fn summary(report: &Report) -> String {
    let name = |id: usize| report.documents.get(id).map(|d| d.path.as_str()).unwrap_or("?");
    let readable = report.documents.iter().filter(|d| d.error.is_none()).count();
    let mut out = format!(
        "{} read ({} could not be read), {} with shared text, {}\n",
        count(readable, "document", "documents"),
        report.documents.len() - readable,
        count(report.pairs.len(), "pair", "pairs"),
        count(report.near_duplicates.len(), "near duplicate", "near duplicates"),
    );
    if report.pairs.is_empty() {
        return out;
    }
    writeln!(out, "{:>7} {:>7} {:>4} {:>8}  {:<}", "copied", "of ref", "sim", "passages", "suspect ⇐ reference").ok();
    for p in report.pairs.iter().take(50) {
        writeln!(
            out,
            "{:>6.1}% {:>6.1}% {:>4} {:>8}  {} ⇐ {}{}",
            p.score * 100.0,
            p.score_b * 100.0,
            p.simhash_distance.map(|d| d.to_string()).unwrap_or_else(|| "-".into()),
            p.passages.len(),
            name(p.a),
            name(p.b),
            if p.near_duplicate { "  [near duplicate]" } else { "" }
        )
        .ok();
    }
    if report.pairs.len() > 50 {
        writeln!(out, "… {} more pairs (use --json or --csv for all)", report.pairs.len() - 50).ok();
    }
    out
}

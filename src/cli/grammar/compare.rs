//! The options of `twinspot compare`.

use std::path::PathBuf;

use clap::Args;

use super::shared::{PassageFlags, PrintFlags};
use super::values::Lang;

/// Options of `twinspot compare`. Files and folders may be mixed; folders are read
/// recursively (.txt .md .docx .pdf .html .htm .odt).
#[derive(Debug, Args)]
#[command(after_long_help = GUARANTEE_HELP)]
#[command(group = clap::ArgGroup::new("document_report").args(["html", "pdf"]).multiple(true))]
pub struct CompareArgs {
    /// Documents (files or folders) that suspects may have copied from.
    #[arg(long, short = 'r', num_args = 1.., value_name = "PATH")]
    pub reference: Vec<PathBuf>,
    /// Documents (files or folders) to check against the references.
    #[arg(long, short = 's', num_args = 1.., value_name = "PATH")]
    pub suspect: Vec<PathBuf>,
    /// Template documents (an assignment sheet, a standard header): their text is removed
    /// from every comparison and not counted in any score.
    #[arg(long, short = 't', num_args = 1.., value_name = "PATH")]
    pub template: Vec<PathBuf>,
    /// Compare every document in DIR with every other (a class's submissions); no
    /// reference set needed.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["reference", "suspect"])]
    pub all: Option<PathBuf>,
    /// Check a class against its classmates and its sources in one run: every suspect
    /// against every other suspect and against every reference; references are never
    /// compared with each other (--reference may then be left out).
    #[arg(long, requires = "suspect", conflicts_with = "all")]
    pub classmates: bool,
    /// Write the result as JSON (schema version 1) to OUT ('-' for standard output).
    #[arg(long, value_name = "OUT")]
    pub json: Option<PathBuf>,
    /// Write one CSV row per pair to OUT ('-' for standard output).
    #[arg(long, value_name = "OUT")]
    pub csv: Option<PathBuf>,
    /// Write a self-contained HTML report (both texts side by side, passages lit) to OUT.
    #[arg(long, value_name = "OUT")]
    pub html: Option<PathBuf>,
    /// Write the same report as a PDF to OUT, printed by a headless Chromium or Chrome
    /// found on the PATH (or named by TWINSPOT_CHROMIUM), on A4 or, where the locale's
    /// paper is Letter, on Letter. Without a browser the HTML report is written beside OUT
    /// (OUT with .html) and the command says so and ends with status 1.
    #[arg(long, value_name = "OUT")]
    pub pdf: Option<PathBuf>,
    /// Narrow the HTML/PDF report to one suspect (named as the report names it, or by its
    /// path) and its pairs: the report to hand to one student.
    #[arg(long, value_name = "SUSPECT", requires = "document_report", conflicts_with = "html_pair")]
    pub html_suspect: Option<String>,
    /// Narrow the HTML/PDF report to one pair: a suspect and a reference (or, with --all,
    /// two documents), named as the report names them or by their paths.
    #[arg(long, num_args = 2, value_names = ["SUSPECT", "REFERENCE"], requires = "document_report")]
    pub html_pair: Vec<String>,
    /// In the HTML/PDF report, name other students "Student A", "Student B", … and every
    /// document by its file name only (a hand-out that names no classmate). JSON and CSV
    /// are not changed.
    #[arg(long, requires = "document_report")]
    pub anonymize: bool,
    /// Print the PDF report's appendix too: both full texts of each pair and every
    /// document's SHA-256 (left out by default: the report lists each passage once).
    #[arg(long, requires = "pdf")]
    pub pdf_appendix: bool,
    /// The reviewer's marks and notes (the window's twinspot-review.json): the HTML/PDF
    /// report shows the verdicts and notes, and lists dismissed passages as not counted.
    #[arg(long, value_name = "FILE", requires = "document_report")]
    pub review: Option<PathBuf>,
    /// Language of the HTML/PDF report: en or zh.
    #[arg(long, value_name = "LANG", default_value = "en", ignore_case = true)]
    pub lang: Lang,
    #[command(flatten)]
    pub prints: PrintFlags,
    #[command(flatten)]
    pub passages: PassageFlags,
    /// A text file of passages to ignore, one a line (a licence, a standard disclaimer,
    /// stock phrases): suspect text holding one is shown as common, never counted.
    #[arg(long, value_name = "FILE")]
    pub stop_passages: Option<PathBuf>,
    /// Count quoted passages (inside quotation marks with an attribution, or in a
    /// bibliography) in the scores; by default they are shown but not counted.
    #[arg(long)]
    pub count_quoted: bool,
    /// Do not look for short edited copies with character grams.
    #[arg(long)]
    pub no_short_copies: bool,
    /// Do not use the meaning layer (a sentence encoder and a bilingual dictionary shipped
    /// with Twinspot, on by default): no passages translated between Chinese and English,
    /// and no copied passage carried over the reworded sentences beyond its words.
    #[arg(long)]
    pub no_meaning: bool,
    /// Look for translated passages (the default; kept for scripts that ask for it).
    #[arg(long, hide = true, conflicts_with = "no_meaning")]
    pub meaning: bool,
    /// Read every reference file, without the reference cache (by default the texts of
    /// references are kept in the user's cache folder, and unchanged files are not read
    /// again; TWINSPOT_CACHE_DIR names another folder).
    #[arg(long)]
    pub no_cache: bool,
    /// Say on standard error where the matching spent its time: finding each suspect's
    /// candidates, and aligning the references read (each suspect's time, summed over
    /// the suspects).
    #[arg(long)]
    pub timings: bool,
    /// No progress bar and no summary.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

pub const GUARANTEE_HELP: &str = "\
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

//! Where a command's reports go (`--json`, `--csv`, `--html`, `--pdf`, `-` for standard
//! output): checked before any work, written each on its own and atomically, so one target
//! that fails neither drops the others nor leaves half a file, and a closed pipe is not a
//! crash. Without a browser to print the PDF, its HTML is written beside it instead.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use twinspot::Report;
use twinspot::report::html::{HtmlOptions, Scope, now_utc, render};
use twinspot::report::marks::Marks;
use twinspot::report::pdf::{Paper, PdfError, PrintOptions, find_browser, print_pdf_with};
use twinspot::report::words::ReportLang;
use twinspot::report::write::{Output, StdoutError, Target, WriteError, check_outputs, write_atomic, write_stdout};
use twinspot::report::{csv::to_csv, json::to_json};

/// The report files a command was asked to write.
#[derive(Clone, Debug, Default)]
pub struct ReportOutputs {
    pub json: Option<PathBuf>,
    pub csv: Option<PathBuf>,
    pub html: Option<PathBuf>,
    pub pdf: Option<PathBuf>,
    /// The language of the HTML/PDF report.
    pub lang: ReportLang,
    /// What the HTML/PDF report covers: the whole run, one suspect or one pair.
    pub scope: Scope,
    /// Other students named by letters in the HTML/PDF report.
    pub anonymize: bool,
    /// The PDF report prints its optional appendix (full texts, SHA-256) too.
    pub pdf_appendix: bool,
    /// The reviewer's marks shown in the HTML/PDF report.
    pub marks: Option<Marks>,
}

/// The formats a command writes.
#[derive(Clone, Copy, Debug)]
enum Format {
    Json,
    Csv,
    Html,
    Pdf,
}

/// How writing the reports ended when it did not end well.
#[derive(Debug)]
pub enum WriteFailure {
    /// Standard output was closed by its reader: nothing more to say.
    StdoutClosed,
    /// These reports could not be written (the others were).
    Failed(Vec<String>),
}

impl fmt::Display for WriteFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteFailure::StdoutClosed => f.write_str("standard output was closed"),
            WriteFailure::Failed(errors) => f.write_str(&errors.join("\n")),
        }
    }
}

impl ReportOutputs {
    fn outputs(&self) -> Vec<(Output, Format)> {
        let mut out = Vec::new();
        let mut push = |name: &'static str, path: &Option<PathBuf>, format: Format| {
            if let Some(path) = path {
                out.push((Output { format: name, target: Target::parse(path) }, format));
            }
        };
        push("JSON", &self.json, Format::Json);
        push("CSV", &self.csv, Format::Csv);
        push("HTML", &self.html, Format::Html);
        push("PDF", &self.pdf, Format::Pdf);
        out
    }

    fn html(&self, report: &Report) -> String {
        let options = HtmlOptions {
            lang: self.lang,
            date: now_utc(),
            scope: self.scope,
            marks: self.marks.as_ref(),
            anonymize: self.anonymize,
            ..HtmlOptions::default()
        };
        render(report, &options)
    }

    /// The report's bytes in `format`; a PDF that cannot be printed is an error that
    /// says so (its HTML is written by the caller).
    fn render(&self, format: Format, report: &Report) -> Result<Vec<u8>, PdfError> {
        Ok(match format {
            Format::Json => to_json(report).into_bytes(),
            Format::Csv => to_csv(report).into_bytes(),
            Format::Html => self.html(report).into_bytes(),
            Format::Pdf => {
                let browser = find_browser().ok_or(PdfError::NoBrowser)?;
                let print = PrintOptions { paper: Paper::from_locale(), appendix: self.pdf_appendix };
                print_pdf_with(&browser, &self.html(report), print)?
            }
        })
    }

    /// Without a PDF, the HTML beside its target (`OUT.html`), and what to say.
    fn html_instead<'a>(
        &self,
        report: &Report,
        target: &Target,
        error: &PdfError,
        inputs: impl IntoIterator<Item = &'a Path>,
    ) -> String {
        let Target::File(path) = target else {
            return format!("cannot write the PDF report: {error}");
        };
        let beside = path.with_extension("html");
        match write_atomic("HTML", &beside, self.html(report).as_bytes(), inputs) {
            Ok(()) => format!(
                "cannot write the PDF report: {error}; the same report is written as HTML to {} \
                 (open it in a browser and print it to PDF)",
                beside.display()
            ),
            Err(e) => format!("cannot write the PDF report: {error}; nor its HTML: {e}"),
        }
    }

    /// True when one of the reports goes to standard output.
    pub fn uses_stdout(&self) -> bool {
        self.outputs().iter().any(|(o, _)| o.target == Target::Stdout)
    }

    /// Checks every target before the check runs: not an input, not shared, at most one
    /// on standard output, in a folder that takes files.
    pub fn check<'a>(&self, inputs: impl IntoIterator<Item = &'a Path>) -> Result<(), WriteError> {
        let outputs: Vec<Output> = self.outputs().into_iter().map(|(o, _)| o).collect();
        check_outputs(&outputs, inputs)
    }

    /// Writes every report; a failure of one does not stop the others.
    pub fn write<'a>(
        &self,
        report: &Report,
        inputs: impl IntoIterator<Item = &'a Path> + Clone,
    ) -> Result<(), WriteFailure> {
        let mut errors = Vec::new();
        let mut closed = false;
        for (output, format) in self.outputs() {
            let content = match self.render(format, report) {
                Ok(content) => content,
                Err(e) => {
                    errors.push(self.html_instead(report, &output.target, &e, inputs.clone()));
                    continue;
                }
            };
            let written = match &output.target {
                Target::Stdout => match write_stdout(&content) {
                    Ok(()) => Ok(()),
                    Err(StdoutError::Closed) => {
                        closed = true;
                        Ok(())
                    }
                    Err(StdoutError::Failed(e)) => {
                        Err(format!("cannot write the {} report to standard output: {e}", output.format))
                    }
                },
                Target::File(path) => {
                    write_atomic(output.format, path, &content, inputs.clone()).map_err(|e| e.to_string())
                }
            };
            if let Err(e) = written {
                errors.push(e);
            }
        }
        match (errors.is_empty(), closed) {
            (false, _) => Err(WriteFailure::Failed(errors)),
            (true, true) => Err(WriteFailure::StdoutClosed),
            (true, false) => Ok(()),
        }
    }
}

impl ReportOutputs {
    /// Writes the reports, then `summary` (when given and no report went to standard
    /// output), and says how the command ends: 0, or 1 when something could not be
    /// written (said on standard error). A closed pipe ends quietly.
    pub fn finish<'a>(
        &self,
        report: &Report,
        inputs: impl IntoIterator<Item = &'a Path> + Clone,
        summary: Option<String>,
    ) -> ExitCode {
        let written = self.write(report, inputs);
        let summary = match summary {
            Some(text) if !self.uses_stdout() => print_stdout(&text),
            _ => Ok(()),
        };
        match written.and(summary) {
            Ok(()) | Err(WriteFailure::StdoutClosed) => ExitCode::SUCCESS,
            Err(failure) => {
                eprintln!("twinspot: {failure}");
                ExitCode::from(1)
            }
        }
    }
}

/// One line saying what a report holds, for commands without a table of their own.
#[cfg(feature = "distributed")]
pub fn summary_line(report: &Report) -> String {
    format!(
        "{}, {} with shared text, {} in {}\n",
        count(report.documents.len(), "document", "documents"),
        count(report.pairs.len(), "pair", "pairs"),
        count(report.near_duplicates.len(), "near duplicate", "near duplicates"),
        count(report.groups.len(), "group", "groups"),
    )
}

/// "1 pair", "0 pairs", "2 pairs".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Prints `text` on standard output; a closed pipe ends quietly, another failure is an
/// error.
pub fn print_stdout(text: &str) -> Result<(), WriteFailure> {
    match write_stdout(text.as_bytes()) {
        Ok(()) => Ok(()),
        Err(StdoutError::Closed) => Err(WriteFailure::StdoutClosed),
        Err(StdoutError::Failed(e)) => Err(WriteFailure::Failed(vec![format!("cannot write to standard output: {e}")])),
    }
}

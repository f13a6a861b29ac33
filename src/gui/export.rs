//! Export of the results through a native save dialog: JSON (the design's schema), CSV of
//! pairs, or the self-contained HTML report (whole check, one document or one pair, in the
//! window's language) — as a PDF when the name chosen ends in `.pdf`, and anonymised for a
//! hand-out when the reviewer says so. A closed dialog (or no dialog backend at all,
//! which the dialogs report the same way) is not an error. The window writes on a thread of its
//! own (the export job); this module asks where and writes.

use std::path::{Path, PathBuf};

use super::dialogs::{self, Dialog, Filter};
use crate::Report;
use crate::report::html::{HtmlOptions, Scope, render};
use crate::report::pdf::{Paper, PdfError, PrintOptions, find_browser, print_pdf_unless};
use crate::report::words::ReportLang;
use crate::report::write::write_atomic;
use crate::report::{csv::to_csv, json::to_json};

/// A format to export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportKind {
    Json,
    Csv,
    Html,
}

impl ExportKind {
    fn extension(self) -> &'static str {
        match self {
            ExportKind::Json => "json",
            ExportKind::Csv => "csv",
            ExportKind::Html => "html",
        }
    }

    fn format_name(self) -> &'static str {
        match self {
            ExportKind::Json => "JSON",
            ExportKind::Csv => "CSV",
            ExportKind::Html => "HTML",
        }
    }

    /// The report in this format (the options apply to HTML only).
    pub fn render(self, report: &Report, options: &HtmlOptions<'_>) -> String {
        match self {
            ExportKind::Json => to_json(report),
            ExportKind::Csv => to_csv(report),
            ExportKind::Html => render(report, options),
        }
    }

    /// A file name for the export.
    fn file_name(self, report: &Report, scope: Scope) -> String {
        let stem = |id: usize| {
            report
                .documents
                .get(id)
                .and_then(|d| d.source.file_stem())
                .map_or("document".into(), |s| s.to_string_lossy().into_owned())
        };
        let what = match (self, scope) {
            (ExportKind::Html, Scope::Suspect(d)) => format!("twinspot-{}", stem(d)),
            (ExportKind::Html, Scope::Pair(p)) => match report.pairs.get(p) {
                Some(pair) => format!("twinspot-{}-{}", stem(pair.a), stem(pair.b)),
                None => "twinspot-pair".into(),
            },
            _ => "twinspot-report".into(),
        };
        format!("{what}.{}", self.extension())
    }
}

/// Where the reviewer wants the export: a path and, for HTML (and PDF), whether other
/// students are named "Student A", "Student B", …; `None`: a dialog was closed.
pub fn ask_where(
    kind: ExportKind,
    report: &Report,
    scope: Scope,
    lang: ReportLang,
    title: &str,
    last_dir: Option<&Path>,
) -> Option<(PathBuf, bool)> {
    let ext = kind.extension();
    let upper = ext.to_uppercase();
    let exts = [ext];
    let mut filters = vec![Filter { name: &upper, extensions: &exts }];
    if kind == ExportKind::Html {
        filters.push(Filter { name: "PDF", extensions: &["pdf"] });
    }
    let name = kind.file_name(report, scope);
    let dialog = Dialog { title, start: last_dir, file_name: Some(&name), filters: &filters };
    let path = dialogs::save_file(&dialog)?;
    let anonymize = if kind == ExportKind::Html { ask_anonymize(lang)? } else { false };
    Some((path, anonymize))
}

/// Asks whether the report is a hand-out that names no other student; `None`: cancelled.
fn ask_anonymize(lang: ReportLang) -> Option<bool> {
    let (title, text, yes, no, cancel) = match lang {
        ReportLang::En => (
            "Report to hand on",
            "Replace the names of other students by \"Student A\", \"Student B\", … (for a report shown to one student)?",
            "Anonymise",
            "Keep names",
            "Cancel",
        ),
        ReportLang::Zh => (
            "导出报告",
            "是否用“学生 A”“学生 B”…代替其他学生的姓名（用于给单个学生看的报告）？",
            "隐去姓名",
            "保留姓名",
            "取消",
        ),
    };
    let answer = rfd::MessageDialog::new()
        .set_title(title)
        .set_description(text)
        .set_buttons(rfd::MessageButtons::YesNoCancelCustom(yes.into(), no.into(), cancel.into()))
        .show();
    match answer {
        rfd::MessageDialogResult::Custom(c) if c == yes => Some(true),
        rfd::MessageDialogResult::Custom(c) if c == no => Some(false),
        rfd::MessageDialogResult::Yes => Some(true),
        rfd::MessageDialogResult::No => Some(false),
        _ => None,
    }
}

/// True when `path` names a PDF.
pub fn is_pdf(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdf"))
}

/// What a printer is asked besides the HTML.
pub struct PrintAsk<'a> {
    /// Print the report's appendix too.
    pub appendix: bool,
    /// True once the export is cancelled: a printer stops then (the browser is killed)
    /// instead of finishing a PDF nobody will save.
    pub cancelled: &'a dyn Fn() -> bool,
}

/// `html` printed to PDF by the Chromium or Chrome found (`TWINSPOT_CHROMIUM`, the `PATH`),
/// on the locale's paper, with the report's appendix when asked; the browser is killed as
/// soon as the export is cancelled.
pub fn print_with_chromium(html: &str, ask: &PrintAsk<'_>) -> Result<Vec<u8>, PdfError> {
    let browser = find_browser().ok_or(PdfError::NoBrowser)?;
    print_pdf_unless(&browser, html, PrintOptions { paper: Paper::from_locale(), appendix: ask.appendix }, ask.cancelled)
}

/// Writes the report in `kind` to `path` (see [`write_with`]), printing a PDF with
/// Chromium.
pub fn write(kind: ExportKind, report: &Report, options: &HtmlOptions<'_>, path: &Path) -> Result<(), String> {
    write_with(kind, report, options, path, &|html| print_with_chromium(html, &PrintAsk { appendix: false, cancelled: &|| false }), &|| true).map(|_| ())
}

/// Writes the report in `kind` to `path`, atomically (a crash leaves the previous file or
/// the new one), and never over one of the report's own documents. An HTML report written
/// to a `.pdf` name is printed to PDF by `print`; when that fails, its HTML is written
/// beside it, and the error says so. `go_on` is asked once, just before a file is
/// written: false (the export was cancelled) writes nothing and returns `Ok(false)`.
pub fn write_with(
    kind: ExportKind,
    report: &Report,
    options: &HtmlOptions<'_>,
    path: &Path,
    print: &dyn Fn(&str) -> Result<Vec<u8>, PdfError>,
    go_on: &dyn Fn() -> bool,
) -> Result<bool, String> {
    let inputs = report.documents.iter().map(|d| d.source.as_path());
    let html = kind.render(report, options);
    if kind == ExportKind::Html && is_pdf(path) {
        let printed = print(&html);
        if !go_on() {
            return Ok(false);
        }
        return match printed {
            Ok(pdf) => write_atomic("PDF", path, &pdf, inputs).map(|()| true).map_err(|e| e.to_string()),
            Err(e) => {
                let beside = path.with_extension("html");
                write_atomic("HTML", &beside, html.as_bytes(), inputs).map_err(|e| e.to_string())?;
                Err(format!("{e}. The report is saved as HTML instead: {}", beside.display()))
            }
        };
    }
    if !go_on() {
        return Ok(false);
    }
    write_atomic(kind.format_name(), path, html.as_bytes(), inputs).map(|()| true).map_err(|e| e.to_string())
}

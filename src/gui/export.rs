//! Export of the results through a native save dialog: JSON (the design's schema), CSV of
//! pairs, or the self-contained HTML report (whole check, one document or one pair, in the
//! window's language). A closed dialog (or no dialog backend at all,
//! which rfd reports the same way) is not an error.

use std::path::{Path, PathBuf};

use crate::Report;
use crate::report::html::{HtmlOptions, Scope, render};
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

/// Asks where to save and writes the file. `Ok(None)`: the user closed the dialog.
pub fn export_with_dialog(
    kind: ExportKind,
    report: &Report,
    options: &HtmlOptions<'_>,
    last_dir: Option<&Path>,
) -> Result<Option<PathBuf>, String> {
    let ext = kind.extension();
    let mut dialog = rfd::FileDialog::new()
        .set_file_name(kind.file_name(report, options.scope))
        .add_filter(ext.to_uppercase(), &[ext]);
    if let Some(dir) = last_dir {
        dialog = dialog.set_directory(dir);
    }
    let Some(path) = dialog.save_file() else {
        return Ok(None);
    };
    write(kind, report, options, &path)?;
    Ok(Some(path))
}

/// Writes the report in `kind` to `path`, atomically (a crash leaves the previous file or
/// the new one), and never over one of the report's own documents.
pub fn write(kind: ExportKind, report: &Report, options: &HtmlOptions<'_>, path: &Path) -> Result<(), String> {
    let inputs = report.documents.iter().map(|d| d.source.as_path());
    write_atomic(kind.format_name(), path, kind.render(report, options).as_bytes(), inputs).map_err(|e| e.to_string())
}

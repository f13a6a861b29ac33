//! Export of the results through a native save dialog: JSON (the design's schema), CSV of
//! pairs, or the self-contained HTML report. A closed dialog (or no dialog backend at all,
//! which rfd reports the same way) is not an error.

use std::path::{Path, PathBuf};

use crate::Report;
use crate::report::{csv::to_csv, html::to_html, json::to_json};

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

    /// The report in this format.
    pub fn render(self, report: &Report) -> String {
        match self {
            ExportKind::Json => to_json(report),
            ExportKind::Csv => to_csv(report),
            ExportKind::Html => to_html(report),
        }
    }
}

/// Asks where to save and writes the file. `Ok(None)`: the user closed the dialog.
pub fn export_with_dialog(
    kind: ExportKind,
    report: &Report,
    last_dir: Option<&Path>,
) -> Result<Option<PathBuf>, String> {
    let ext = kind.extension();
    let mut dialog =
        rfd::FileDialog::new().set_file_name(format!("twinspot-report.{ext}")).add_filter(ext.to_uppercase(), &[ext]);
    if let Some(dir) = last_dir {
        dialog = dialog.set_directory(dir);
    }
    let Some(path) = dialog.save_file() else {
        return Ok(None);
    };
    write(kind, report, &path)?;
    Ok(Some(path))
}

/// Writes the report in `kind` to `path`.
pub fn write(kind: ExportKind, report: &Report, path: &Path) -> Result<(), String> {
    std::fs::write(path, kind.render(report)).map_err(|e| format!("{}: {e}", path.display()))
}

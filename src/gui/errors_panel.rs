//! The problems panel: every document that could not be read (an error), every document
//! read with a remark (a note: an encoding guessed, a duplicate file) and every path passed
//! over, each path once and in the window's language, so the run can finish and the user
//! still sees what was skipped or remarked; and why the last export failed.

use egui::{Color32, RichText};

use super::i18n::Lang;
use crate::engine::Skipped;
use crate::{DocumentEntry, Report};

/// One line of the panel.
enum Line<'a> {
    Document(&'a DocumentEntry),
    Skipped(&'a Skipped),
}

/// Draws the failed export, if any, then the documents with errors, then those with
/// notes, in the window's language.
pub fn errors_ui(ui: &mut egui::Ui, lang: Lang, report: Option<&Report>, export_error: Option<&str>) {
    let tr = lang.tr();
    // The engine's messages are translated where the HTML report translates them.
    let words = lang.report_lang();
    ui.label(RichText::new(format!("{} · {}", tr.problems, tr.notes)).strong());
    if let Some(e) = export_error {
        let text = format!("{}: {e}", lang.review_tr().export_failed);
        ui.label(RichText::new(text).color(Color32::from_rgb(0xd0, 0x40, 0x40)));
    }
    let mut documents: Vec<&DocumentEntry> = report
        .map(|r| r.documents.iter().filter(|d| d.error.is_some() || !d.warnings.is_empty()).collect())
        .unwrap_or_default();
    documents.sort_by_key(|d| (d.error.is_none(), d.id));
    let skipped = report.map(|r| r.skipped.as_slice()).unwrap_or_default();
    let problems: Vec<Line> =
        documents.into_iter().map(Line::Document).chain(skipped.iter().map(Line::Skipped)).collect();
    if problems.is_empty() {
        if export_error.is_none() {
            ui.label(RichText::new(tr.no_problems).weak());
        }
        return;
    }
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    egui::ScrollArea::vertical().auto_shrink(false).show_rows(ui, row_height, problems.len(), |ui, rows| {
        for line in rows.filter_map(|i| problems.get(i)) {
            let doc = match line {
                Line::Document(doc) => doc,
                Line::Skipped(skipped) => {
                    ui.horizontal(|ui| {
                        if !skipped.path.is_empty() {
                            ui.label(RichText::new(&skipped.path).strong());
                        }
                        let text = format!("{}: {}", tr.note_word, words.skip_reason(&skipped.reason));
                        ui.label(RichText::new(text).weak());
                    });
                    continue;
                }
            };
            ui.horizontal(|ui| {
                ui.label(RichText::new(&doc.path).strong());
                if let Some(e) = &doc.error {
                    let text = format!("{}: {}", tr.error_word, words.doc_error(e, &doc.path));
                    ui.label(RichText::new(text).color(Color32::from_rgb(0xd0, 0x40, 0x40)));
                }
                for w in &doc.warnings {
                    ui.label(RichText::new(format!("{}: {}", tr.note_word, words.notice(w))).weak());
                }
            });
        }
    });
}

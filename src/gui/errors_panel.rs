//! The problems panel: every document that could not be read (and every warning), per
//! file, so the run can finish and the user still sees what was skipped.

use egui::{Color32, RichText};

use super::i18n::Tr;
use crate::Report;

/// Draws the list of documents with errors or warnings.
pub fn errors_ui(ui: &mut egui::Ui, tr: &Tr, report: Option<&Report>) {
    ui.label(RichText::new(tr.problems).strong());
    let problems: Vec<_> = report
        .map(|r| r.documents.iter().filter(|d| d.error.is_some() || !d.warnings.is_empty()).collect())
        .unwrap_or_default();
    if problems.is_empty() {
        ui.label(RichText::new(tr.no_problems).weak());
        return;
    }
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    egui::ScrollArea::vertical().auto_shrink(false).show_rows(ui, row_height, problems.len(), |ui, rows| {
        for doc in rows.filter_map(|i| problems.get(i)) {
            ui.horizontal(|ui| {
                ui.label(RichText::new(&doc.path).strong());
                if let Some(e) = &doc.error {
                    ui.label(RichText::new(e).color(Color32::from_rgb(0xd0, 0x40, 0x40)));
                }
                for w in &doc.warnings {
                    ui.label(RichText::new(w).weak());
                }
            });
        }
    });
}

//! The collapsible settings section: k, w (with the guarantee t = w + k - 1), minimum
//! passage length, the normalization switches and the near-duplicate thresholds.

use egui::RichText;

use super::i18n::Tr;
use crate::Settings;

/// Draws the settings section.
pub fn settings_ui(ui: &mut egui::Ui, tr: &Tr, settings: &mut Settings) {
    egui::CollapsingHeader::new(RichText::new(tr.settings).strong()).id_salt("settings").show(ui, |ui| {
        egui::Grid::new("settings-grid").num_columns(2).spacing([8.0, 6.0]).show(ui, |ui| {
            number(ui, tr.k, &mut settings.k, 1..=64);
            number(ui, tr.w, &mut settings.w, 1..=256);
            ui.label("t = w + k - 1");
            ui.label(RichText::new(format!("{}", settings.guarantee_t())).strong())
                .on_hover_text("Every shared run of at least t tokens is found; nothing shorter than k is reported.");
            ui.end_row();
            number(ui, tr.min_chars, &mut settings.min_chars, 0..=100_000);
            number(ui, tr.simhash_threshold, &mut settings.simhash_threshold, 0..=32);
            let label = ui.label(tr.coverage);
            let mut percent = settings.near_duplicate_coverage * 100.0;
            if ui.add(egui::DragValue::new(&mut percent).range(0.0..=100.0).speed(0.5)).labelled_by(label.id).changed()
            {
                settings.near_duplicate_coverage = percent / 100.0;
            }
            ui.end_row();
        });
        let n = &mut settings.normalize;
        ui.checkbox(&mut n.nfkc, tr.nfkc);
        ui.checkbox(&mut n.case_fold, tr.case_fold);
        ui.checkbox(&mut n.traditional_to_simplified, tr.t2s);
        ui.checkbox(&mut n.drop_punctuation, tr.drop_punct);
        if ui.button(tr.defaults).clicked() {
            let ingest = settings.ingest.clone();
            *settings = Settings { ingest, ..Settings::default() };
        }
    });
}

fn number<T: egui::emath::Numeric>(ui: &mut egui::Ui, label: &str, value: &mut T, range: std::ops::RangeInclusive<T>) {
    let label = ui.label(label);
    ui.add(egui::DragValue::new(value).range(range).speed(0.2)).labelled_by(label.id);
    ui.end_row();
}

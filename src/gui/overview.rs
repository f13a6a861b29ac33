//! The overview: one row per suspect (per document in all-against-all mode) with its
//! overall similarity (the share of its text found in any other document), a bar and its
//! best source; a row opens to its sources, each with its colour and share, each opening
//! the pair. Rows are drawn only when visible, so thousands stay smooth.

use egui::{Color32, RichText, Sense};

use super::action::Action;
use super::flag_badge::badge;
use super::results_table::source_word;
use super::state::{State, is_flagged};
use crate::Report;
use crate::report::palette::passage_colour;
use crate::report::view::overview;

/// Width of the similarity bar at 100 %.
const BAR: f32 = 90.0;
/// Width of the name column.
const NAME: f32 = 240.0;

/// A left-aligned cell of a fixed width, so the rows line up.
fn cell<R>(ui: &mut egui::Ui, width: f32, add: impl FnOnce(&mut egui::Ui) -> R) -> R {
    let height = ui.spacing().interact_size.y;
    ui.allocate_ui_with_layout(egui::vec2(width, height), egui::Layout::left_to_right(egui::Align::Center), |ui| {
        ui.set_width(width);
        add(ui)
    })
    .inner
}

#[expect(clippy::cast_possible_truncation, reason = "a share in [0, 1] drawn in screen units")]
fn bar(ui: &mut egui::Ui, share: f64, colour: Color32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(BAR, 10.0), Sense::hover());
    ui.painter().rect_filled(rect, 2.0, ui.visuals().faint_bg_color);
    let filled = rect.with_max_x(rect.min.x + BAR * share.clamp(0.0, 1.0) as f32);
    ui.painter().rect_filled(filled, 2.0, colour);
}

/// The checked documents that share no text with any other (in the view), in id order:
/// listed at 0 %, "no shared text found".
pub fn without_shared(report: &Report) -> Vec<usize> {
    let mut docs: Vec<usize> = overview(report).into_iter().filter(|r| r.sources.is_empty()).map(|r| r.doc).collect();
    docs.sort_unstable();
    docs
}

/// Draws the overview of the current view.
pub fn overview_ui(ui: &mut egui::Ui, state: &State, report: &Report, actions: &mut Vec<Action>) {
    let tr = state.persisted.lang.tr();
    let class = state.persisted.lang.class_tr();
    let classmates = report.mode == crate::Mode::Classmates;
    let rows = overview(report);
    if rows.is_empty() {
        ui.add_space(12.0);
        ui.label(RichText::new(tr.no_pairs).italics());
        return;
    }
    let filter = state.table.name_filter.trim().to_lowercase();
    let rows: Vec<_> = rows
        .into_iter()
        .filter(|r| filter.is_empty() || state.name(r.doc).to_lowercase().contains(&filter))
        .filter(|r| !state.table.flagged_only || is_flagged(report, r.doc))
        .collect();
    ui.horizontal(|ui| {
        ui.add_space(24.0);
        cell(ui, NAME, |ui| {
            ui.label(RichText::new(tr.col_document).strong());
        });
        cell(ui, 60.0 + BAR, |ui| {
            ui.label(RichText::new(tr.col_overall).strong()).on_hover_text(tr.tip_overall);
        });
        ui.label(RichText::new(tr.col_best).strong());
    });
    egui::ScrollArea::vertical().id_salt("overview").auto_shrink(false).show(ui, |ui| {
        for row in rows {
            let open = state.table.expanded.contains(&row.doc);
            let selected = state.table.selected_doc == Some(row.doc);
            let name = state.name(row.doc).to_owned();
            let path = report.documents.get(row.doc).map_or(String::new(), |d| d.source.display().to_string());
            let response = ui
                .horizontal(|ui| {
                    let arrow = if open { "−" } else { "+" };
                    let toggle = ui.add(egui::Button::new(arrow).small().frame(false));
                    let label = cell(ui, NAME, |ui| {
                        ui.add(egui::Button::selectable(selected, name.as_str()).truncate()).on_hover_text(&path)
                    });
                    ui.label(RichText::new(format!("{:5.1} %", row.overall * 100.0)).strong().monospace())
                        .on_hover_text(tr.tip_overall);
                    if let Some(d) = report.documents.get(row.doc) {
                        badge(ui, tr.lang, &d.flags);
                    }
                    bar(ui, row.overall, Color32::from_rgb(0xd0, 0x40, 0x40));
                    if let Some(best) = row.sources.first() {
                        ui.label(format!("{} ({:.1} %)", state.name(best.doc), best.share * 100.0));
                        if classmates {
                            ui.label(RichText::new(source_word(tr.lang, report, best.doc)).weak());
                        }
                        ui.label(RichText::new(format!("· {}: {}", tr.col_sources, row.sources.len())).weak());
                    } else {
                        // "No shared text found" is a result, said in words; unless the
                        // references were in another script, where copying is not seen.
                        let other = report.documents.get(row.doc).and_then(|d| {
                            d.warnings.iter().find(|w| matches!(w, crate::model::Notice::OtherLanguages { .. }))
                        });
                        match other {
                            Some(notice) => {
                                let said = state.persisted.lang.report_lang().notice(notice);
                                ui.label(RichText::new(said).italics().color(Color32::from_rgb(0xb0, 0x60, 0x00)));
                            }
                            None => {
                                ui.label(RichText::new(class.no_shared).italics());
                            }
                        }
                    }
                    (toggle.clicked(), label.clicked(), label.double_clicked())
                })
                .inner;
            let (toggled, clicked, double) = response;
            if toggled || double {
                actions.push(Action::ToggleSources(row.doc));
            }
            if clicked {
                actions.push(Action::SelectDocument(row.doc));
            }
            if !open {
                continue;
            }
            for (i, source) in row.sources.iter().enumerate() {
                ui.horizontal(|ui| {
                    ui.add_space(28.0);
                    let [r, g, b] = passage_colour(i);
                    let colour = Color32::from_rgb(r, g, b);
                    let (swatch, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), Sense::hover());
                    ui.painter().rect_filled(swatch, 2.0, colour);
                    let name = state.name(source.doc).to_owned();
                    let path =
                        report.documents.get(source.doc).map_or(String::new(), |d| d.source.display().to_string());
                    let open = cell(ui, NAME - 28.0, |ui| {
                        ui.add(egui::Button::selectable(false, name.as_str()).truncate())
                            .on_hover_text(format!("{path}\n{}", tr.open_hint))
                    });
                    if open.clicked() {
                        actions.push(Action::OpenPair(source.pair));
                    }
                    ui.label(RichText::new(format!("{:5.1} %", source.share * 100.0)).monospace());
                    bar(ui, source.share, colour.gamma_multiply(1.0));
                    if classmates {
                        ui.label(RichText::new(source_word(tr.lang, report, source.doc)).weak());
                    }
                    if ui.small_button("×").on_hover_text(tr.exclude_source).clicked() {
                        actions.push(Action::ExcludeSource(source.doc));
                    }
                });
            }
        }
    });
}

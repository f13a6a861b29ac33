//! The table of pairs: sortable by every column, filtered by name, review mark and flags (the
//! other filters shape the view it reads), with the review mark per pair, and virtualised
//! (only visible rows are laid out), so 10,000 rows stay smooth. It reads the row order
//! cached in the table's state and pushes sorting and selection as actions.

use std::sync::Arc;

use egui::{Align, Color32, RichText, Sense};
use egui_extras::{Column, TableBuilder};

use super::action::Action;
use super::i18n::{Lang, Tr};
use super::state::{SortColumn, State, doc_name};
use crate::report::marks::{Mark, Marks};
use crate::{Mode, Pair, Report};

/// The table itself.
pub fn table_ui(ui: &mut egui::Ui, state: &State, report: &Arc<Report>, actions: &mut Vec<Action>) {
    let tr = state.persisted.lang.tr();
    let class = state.persisted.lang.class_tr();
    let (names, marks, table) = (state.names.as_slice(), &state.marks, &state.table);
    if report.pairs.is_empty() {
        ui.add_space(12.0);
        ui.label(RichText::new(tr.no_pairs).italics());
        return;
    }
    // Clicks go to the row (select, double-click to open), not to text selection.
    ui.style_mut().interaction.selectable_labels = false;
    // The app has brought the cached order up to date before drawing.
    let rows = table.shown();
    let scroll_row =
        table.scroll_to_selected.then(|| table.selected.and_then(|s| rows.iter().position(|&r| r == s))).flatten();
    if table.scroll_to_selected {
        actions.push(Action::ScrolledToSelected(table.selected));
    }
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    // Wider than the window at 1024 px: scroll sideways rather than cut columns off.
    // Narrow (1024 px, the lists shown): the numbers take less room, so the review and
    // near-duplicate columns stay in view; each layout keeps its own resized widths.
    let widths = column_widths(ui.available_width());
    let narrow = widths != WIDE;
    egui::ScrollArea::horizontal().id_salt("pairs-h").show(ui, |ui| {
        let mut builder = TableBuilder::new(ui)
            .id_salt(("pairs", narrow))
            .striped(true)
            .resizable(true)
            .sense(Sense::click())
            .cell_layout(egui::Layout::left_to_right(Align::Center));
        for (i, width) in widths.into_iter().enumerate() {
            builder = builder.column(Column::initial(width).at_least(if i < 2 { 80.0 } else { 40.0 }).clip(true));
        }
        let mut builder = builder.column(Column::remainder().at_least(90.0).clip(true)).auto_shrink(false);
        if let Some(row) = scroll_row {
            builder = builder.scroll_to_row(row, None);
        }
        let all = report.mode == Mode::AllVsAll;
        let classmates = report.mode == Mode::Classmates;
        let side = |a: &'static str, refs: &'static str, class: &'static str| {
            if all {
                a
            } else if classmates {
                class
            } else {
                refs
            }
        };
        let headers = [
            (side(tr.doc_a, tr.col_suspect, class.col_student), SortColumn::Suspect, ""),
            (side(tr.doc_b, tr.col_reference, class.col_source), SortColumn::Reference, ""),
            (side("% A", tr.col_score, tr.col_score), SortColumn::Score, tr.tip_score),
            (side("% B", tr.col_score_b, class.col_share_source), SortColumn::ScoreB, tr.tip_score_b),
            (tr.col_simhash, SortColumn::Simhash, tr.tip_simhash_col),
            (tr.col_passages, SortColumn::Passages, tr.tip_passages),
            (tr.col_longest, SortColumn::Longest, tr.tip_longest),
        ];
        builder
            .header(row_height + 2.0, |mut header| {
                for (name, column, tip) in headers {
                    header.col(|ui| {
                        let active = table.sort == column;
                        let arrow = match (active, table.descending) {
                            (false, _) => "",
                            (true, true) => " ↓",
                            (true, false) => " ↑",
                        };
                        let label = ui.selectable_label(active, RichText::new(format!("{name}{arrow}")).strong());
                        let label = if tip.is_empty() { label } else { label.on_hover_text(tip) };
                        if label.clicked() {
                            actions.push(Action::SortBy(column));
                        }
                    });
                }
                header.col(|ui| {
                    ui.label(RichText::new(tr.col_review).strong());
                });
                header.col(|ui| {
                    ui.label(RichText::new(tr.col_near_duplicate).strong()).on_hover_text(tr.tip_simhash);
                });
            })
            .body(|body| {
                body.rows(row_height, rows.len(), |mut row| {
                    let Some(&index) = rows.get(row.index()) else {
                        return;
                    };
                    let Some(pair) = report.pairs.get(index) else {
                        return;
                    };
                    row.set_selected(table.selected == Some(index));
                    let label = pair_cells(&mut row, tr, report, names, marks, pair);
                    let response = row.response();
                    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
                    if response.clicked() {
                        actions.push(Action::SelectPair(index));
                    }
                    if response.double_clicked() {
                        actions.push(Action::OpenPair(index));
                    }
                });
            });
    });
}

/// The first columns' widths when there is room: the two names, the two shares,
/// SimHash, passages, longest and review (the near-duplicate column takes what is left).
const WIDE: [f32; 8] = [200.0, 200.0, 118.0, 118.0, 74.0, 76.0, 70.0, 90.0];

/// The columns' first widths in a table `available` points wide: [`WIDE`] when it fits,
/// else narrower numbers and names, so every column is in view down to about 700 points.
fn column_widths(available: f32) -> [f32; 8] {
    // Each column's cell also takes the item spacing.
    let needed = WIDE.iter().sum::<f32>() + 90.0 + 9.0 * 8.0;
    if available >= needed {
        return WIDE;
    }
    let numbers = [60.0, 60.0, 52.0, 52.0, 52.0, 86.0];
    let rest = available - numbers.iter().sum::<f32>() - 90.0 - 9.0 * 8.0;
    let name = (rest / 2.0).clamp(80.0, 200.0).floor();
    let [a, b, c, d, e, f] = numbers;
    [name, name, a, b, c, d, e, f]
}

/// The cells of one pair's row; returns the row's name for assistive technology.
fn pair_cells(
    row: &mut egui_extras::TableRow<'_, '_>,
    tr: &Tr,
    report: &Report,
    names: &[String],
    marks: &Marks,
    pair: &Pair,
) -> String {
    let words = crate::report::words::ReportLang::En.words();
    let mark_word = |m: Mark| match m {
        Mark::Confirmed => tr.mark_confirmed,
        Mark::Dismissed => tr.mark_dismissed,
        Mark::DismissedEverywhere => words.mark(m),
    };
    let suspect = doc_name(report, names, pair.a);
    let reference = doc_name(report, names, pair.b);
    let path = |id: usize| report.documents.get(id).map_or(String::new(), |d| d.source.display().to_string());
    row.col(|ui| {
        ui.label(suspect).on_hover_text(path(pair.a));
        if let Some(d) = report.documents.get(pair.a) {
            super::flag_badge::badge(ui, tr.lang, &d.flags);
        }
    });
    let source_kind = (report.mode == Mode::Classmates).then(|| source_word(tr.lang, report, pair.b));
    row.col(|ui| {
        ui.label(reference).on_hover_text(path(pair.b));
        if let Some(kind) = source_kind {
            ui.label(RichText::new(format!("({kind})")).weak());
        }
        if let Some(d) = report.documents.get(pair.b) {
            super::flag_badge::badge(ui, tr.lang, &d.flags);
        }
    });
    row.col(|ui| {
        ui.label(format!("{:.1} %", pair.score * 100.0));
    });
    row.col(|ui| {
        ui.label(format!("{:.1} %", pair.score_b * 100.0));
    });
    row.col(|ui| {
        ui.label(pair.simhash_distance.map_or("–".into(), |d| d.to_string()));
    });
    row.col(|ui| {
        ui.label(pair.passages.len().to_string());
    });
    row.col(|ui| {
        ui.label(pair.longest.to_string());
    });
    row.col(|ui| {
        if let Some(m) = marks.pair(report, pair).and_then(|m| m.mark) {
            ui.label(mark_word(m));
        }
    });
    row.col(|ui| {
        if pair.near_duplicate {
            ui.label(RichText::new(tr.near_duplicate).color(Color32::from_rgb(0xd0, 0x30, 0x30)));
        }
    });
    match source_kind {
        Some(kind) => format!("{suspect} ⇐ {reference} ({kind})"),
        None => format!("{suspect} ⇐ {reference}"),
    }
}

/// What the source `doc` of a pair is, in words: a classmate (another suspect) or a
/// reference.
pub fn source_word(lang: Lang, report: &Report, doc: usize) -> &'static str {
    let words = lang.class_tr();
    match report.documents.get(doc).map(|d| d.role) {
        Some(crate::Role::Suspect) => words.classmate,
        _ => words.reference,
    }
}

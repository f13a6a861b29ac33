//! The table of pairs: sortable by every column, filtered by name and review mark (the
//! other filters shape the view it reads), with the review mark per pair, and virtualised (only visible rows are laid out), so 10,000 rows stay smooth. The sorted,
//! filtered row order is cached and rebuilt only when the sort, filter or report changes.

use std::sync::Arc;

use egui::{Align, Color32, RichText, Sense};
use egui_extras::{Column, TableBuilder};

use super::app::Action;
use super::i18n::Tr;
use crate::report::marks::{Mark, Marks};
use crate::{Mode, Pair, Report};

/// Which pairs the table shows by their review mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MarkFilter {
    #[default]
    All,
    Unmarked,
    Only(Mark),
}

/// A column to sort by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SortColumn {
    Suspect,
    Reference,
    #[default]
    Score,
    ScoreB,
    Simhash,
    Passages,
    Longest,
}

#[derive(Clone, Debug, PartialEq)]
struct RowsKey {
    sort: SortColumn,
    descending: bool,
    filter: String,
    marks: MarkFilter,
    report: usize,
}

/// Sorting, filtering and selection of the table.
#[derive(Clone, Debug)]
pub struct TableState {
    pub sort: SortColumn,
    pub descending: bool,
    pub name_filter: String,
    /// Pairs shown by their review mark.
    pub mark_filter: MarkFilter,
    /// The selected pair (index into the view's `Report::pairs`).
    pub selected: Option<usize>,
    /// The document selected in the overview.
    pub selected_doc: Option<usize>,
    /// Overview rows opened to show their sources.
    pub expanded: std::collections::BTreeSet<usize>,
    /// Scroll the selected row into view on the next frame.
    pub scroll_to_selected: bool,
    rows: Vec<usize>,
    key: Option<RowsKey>,
}

impl Default for TableState {
    fn default() -> Self {
        Self {
            sort: SortColumn::Score,
            descending: true,
            name_filter: String::new(),
            mark_filter: MarkFilter::All,
            selected: None,
            selected_doc: None,
            expanded: std::collections::BTreeSet::new(),
            scroll_to_selected: false,
            rows: Vec::new(),
            key: None,
        }
    }
}

impl TableState {
    /// Forgets the selection and cached rows of the last report (sort and filters stay).
    pub fn reset(&mut self) {
        self.selected = None;
        self.selected_doc = None;
        self.expanded.clear();
        self.rows.clear();
        self.key = None;
    }

    /// The visible pairs, in display order; rebuilt when sort, filter or report changed
    /// (a changed mark or filter makes a new view report).
    pub fn rows(&mut self, report: &Arc<Report>, names: &[String], marks: &Marks) -> &[usize] {
        let key = RowsKey {
            sort: self.sort,
            descending: self.descending,
            filter: self.name_filter.clone(),
            marks: self.mark_filter,
            report: Arc::as_ptr(report) as usize,
        };
        if self.key.as_ref() != Some(&key) {
            self.rows = sorted_rows(report, names, marks, self);
            self.key = Some(key);
        }
        &self.rows
    }

    /// Clicking a header: sort by it, or flip the order when it already sorts.
    pub fn toggle_sort(&mut self, column: SortColumn) {
        if self.sort == column {
            self.descending = !self.descending;
        } else {
            self.sort = column;
            self.descending = !matches!(column, SortColumn::Suspect | SortColumn::Reference);
        }
    }

    /// Moves the selection `delta` rows up or down the visible rows.
    pub fn move_selection(&mut self, delta: isize) {
        if self.rows.is_empty() {
            return;
        }
        let at = self.selected.and_then(|s| self.rows.iter().position(|&r| r == s));
        let next = match at {
            None => 0,
            Some(i) => (i as isize + delta).clamp(0, self.rows.len() as isize - 1) as usize,
        };
        self.selected = self.rows.get(next).copied();
        self.scroll_to_selected = true;
    }
}

/// The display name of document `id`, or its path.
pub fn doc_name<'a>(report: &'a Report, names: &'a [String], id: usize) -> &'a str {
    names.get(id).map(String::as_str).or_else(|| report.documents.get(id).map(|d| d.path.as_str())).unwrap_or("?")
}

fn sorted_rows(report: &Report, names: &[String], marks: &Marks, state: &TableState) -> Vec<usize> {
    let filter = state.name_filter.trim().to_lowercase();
    let doc_name = |_: &Report, id: usize| doc_name(report, names, id);
    let mut rows: Vec<usize> = report
        .pairs
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            let mark = marks.pair(report, p).and_then(|m| m.mark);
            match state.mark_filter {
                MarkFilter::All => true,
                MarkFilter::Unmarked => mark.is_none(),
                MarkFilter::Only(m) => mark == Some(m),
            }
        })
        .filter(|(_, p)| {
            filter.is_empty()
                || doc_name(report, p.a).to_lowercase().contains(&filter)
                || doc_name(report, p.b).to_lowercase().contains(&filter)
        })
        .map(|(i, _)| i)
        .collect();
    let key = |p: &Pair| -> (f64, u64) {
        match state.sort {
            SortColumn::Score => (p.score, 0),
            SortColumn::ScoreB => (p.score_b, 0),
            SortColumn::Simhash => (0.0, u64::from(p.simhash_distance.unwrap_or(u32::MAX))),
            SortColumn::Passages => (0.0, p.passages.len() as u64),
            SortColumn::Longest => (0.0, u64::from(p.longest)),
            SortColumn::Suspect | SortColumn::Reference => (0.0, 0),
        }
    };
    rows.sort_by(|&x, &y| {
        let (px, py) = (&report.pairs[x], &report.pairs[y]);
        let order = match state.sort {
            SortColumn::Suspect => doc_name(report, px.a).cmp(doc_name(report, py.a)),
            SortColumn::Reference => doc_name(report, px.b).cmp(doc_name(report, py.b)),
            _ => {
                let (kx, ky) = (key(px), key(py));
                kx.0.total_cmp(&ky.0).then(kx.1.cmp(&ky.1))
            }
        };
        let order = if state.descending { order.reverse() } else { order };
        order.then(x.cmp(&y))
    });
    rows
}

/// The table itself.
pub fn table_ui(
    ui: &mut egui::Ui,
    tr: &Tr,
    report: &Arc<Report>,
    names: &[String],
    marks: &Marks,
    table: &mut TableState,
    actions: &mut Vec<Action>,
) {
    if report.pairs.is_empty() {
        ui.add_space(12.0);
        ui.label(RichText::new(tr.no_pairs).italics());
        return;
    }
    // Clicks go to the row (select, double-click to open), not to text selection.
    ui.style_mut().interaction.selectable_labels = false;
    let rows: Vec<usize> = table.rows(report, names, marks).to_vec();
    let words = crate::report::words::ReportLang::En.words();
    let mark_word = |m: Mark| match m {
        Mark::Confirmed => tr.mark_confirmed,
        Mark::Dismissed => tr.mark_dismissed,
        Mark::DismissedEverywhere => words.mark(m),
    };
    let scroll_row =
        table.scroll_to_selected.then(|| table.selected.and_then(|s| rows.iter().position(|&r| r == s))).flatten();
    table.scroll_to_selected = false;
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    // Wider than the window at 1024 px: scroll sideways rather than cut columns off.
    egui::ScrollArea::horizontal().id_salt("pairs-h").show(ui, |ui| {
        let mut builder = TableBuilder::new(ui)
            .id_salt("pairs")
            .striped(true)
            .resizable(true)
            .sense(Sense::click())
            .cell_layout(egui::Layout::left_to_right(Align::Center))
            .column(Column::initial(200.0).at_least(80.0).clip(true))
            .column(Column::initial(200.0).at_least(80.0).clip(true))
            .column(Column::initial(118.0).at_least(50.0).clip(true))
            .column(Column::initial(118.0).at_least(50.0).clip(true))
            .column(Column::initial(74.0).at_least(40.0).clip(true))
            .column(Column::initial(76.0).at_least(40.0).clip(true))
            .column(Column::initial(70.0).at_least(40.0).clip(true))
            .column(Column::initial(90.0).at_least(40.0).clip(true))
            .column(Column::remainder().at_least(90.0).clip(true))
            .auto_shrink(false);
        if let Some(row) = scroll_row {
            builder = builder.scroll_to_row(row, None);
        }
        let all = report.mode == Mode::AllVsAll;
        let headers = [
            (if all { tr.doc_a } else { tr.col_suspect }, SortColumn::Suspect, ""),
            (if all { tr.doc_b } else { tr.col_reference }, SortColumn::Reference, ""),
            (if all { "% A" } else { tr.col_score }, SortColumn::Score, tr.tip_score),
            (if all { "% B" } else { tr.col_score_b }, SortColumn::ScoreB, tr.tip_score_b),
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
                            table.toggle_sort(column);
                        }
                    });
                }
                header.col(|ui| {
                    ui.label(RichText::new(tr.col_review).strong());
                });
                header.col(|_| {});
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
                    let suspect = doc_name(report, names, pair.a);
                    let reference = doc_name(report, names, pair.b);
                    let path =
                        |id: usize| report.documents.get(id).map_or(String::new(), |d| d.source.display().to_string());
                    row.col(|ui| {
                        ui.label(suspect).on_hover_text(path(pair.a));
                        if let Some(d) = report.documents.get(pair.a) {
                            super::flag_badge::badge(ui, tr.lang, &d.flags);
                        }
                    });
                    row.col(|ui| {
                        ui.label(reference).on_hover_text(path(pair.b));
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
                    let response = row.response();
                    response.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::Button, true, format!("{suspect} ⇐ {reference}"))
                    });
                    if response.clicked() {
                        table.selected = Some(index);
                    }
                    if response.double_clicked() {
                        actions.push(Action::OpenPair(index));
                    }
                });
            });
    });
}

//! The pairs table's own state: sort, name, mark and flag filters, the selection (of a pair and
//! of an overview row), opened overview rows, and the cached order of the visible rows,
//! rebuilt only when the sort, a filter or the report changes.

use std::sync::Arc;

use crate::report::marks::{Mark, Marks};
use crate::{Pair, Report};

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
    flagged_only: bool,
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
    /// Only pairs with a flagged document (signs that a copy was hidden).
    pub flagged_only: bool,
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
            flagged_only: false,
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
            flagged_only: self.flagged_only,
            report: Arc::as_ptr(report) as usize,
        };
        if self.key.as_ref() != Some(&key) {
            self.rows = sorted_rows(report, names, marks, self);
            self.key = Some(key);
        }
        &self.rows
    }

    /// The visible pairs in display order, as last built by [`TableState::rows`].
    pub fn shown(&self) -> &[usize] {
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

/// True when document `doc` shows signs that a copy was hidden.
pub fn is_flagged(report: &Report, doc: usize) -> bool {
    report.documents.get(doc).is_some_and(|d| !d.flags.is_empty())
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
        .filter(|(_, p)| !state.flagged_only || is_flagged(report, p.a) || is_flagged(report, p.b))
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

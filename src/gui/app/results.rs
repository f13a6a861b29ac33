//! The app's actions on the lists and the results that take more than a line: files
//! dropped, pairs opened and marked, the passages and documents stepped through.

use std::path::PathBuf;

use super::TwinspotApp;
use crate::Mode;
use crate::gui::state::{ListKind, PairView};
use crate::report::marks::Mark;

impl TwinspotApp {
    /// Files dropped on list `target` (or on the window). Two files on an empty window are
    /// compared at once, and their pair opened.
    pub(super) fn dropped(&mut self, target: Option<ListKind>, paths: Vec<PathBuf>) {
        let state = &mut self.state;
        let was_empty = state.inputs.is_empty() && state.report.is_none();
        let two_files = paths.len() == 2 && paths.iter().all(|p| p.is_file());
        if target.is_none() && was_empty && two_files && !state.is_running() {
            let mut paths = paths.into_iter();
            state.inputs.add(ListKind::Suspect, paths.next());
            state.inputs.add(ListKind::Reference, paths.next());
            state.persisted.mode = Mode::SuspectsVsReferences;
            // The two files with each other, not with an archive.
            state.persisted.use_archive = false;
            state.open_first_pair = true;
            self.start_check();
        } else {
            state.inputs.add(target.unwrap_or(ListKind::Suspect), paths);
            state.follow_lists();
        }
    }

    /// Opens pair `i` of the view.
    pub(super) fn open_pair(&mut self, i: usize) {
        let state = &mut self.state;
        if let (Some(report), Some(view)) = (&state.report, &state.view)
            && let Some(&raw) = view.origin.get(i)
        {
            state.table.selected = Some(i);
            state.pair = Some(PairView::new(raw, report, &state.marks));
        }
    }

    /// Applies `change` to the open pair, if any.
    pub(super) fn on_pair(&mut self, change: impl FnOnce(&mut PairView)) {
        if let Some(view) = &mut self.state.pair {
            change(view);
        }
    }

    /// Marks pair `i` of the full report (or clears its mark).
    pub(super) fn mark_pair(&mut self, i: usize, mark: Option<Mark>) {
        let state = &mut self.state;
        if let Some(report) = state.report.clone()
            && let Some(pair) = report.pairs.get(i)
        {
            state.marks.set_pair(&report, pair, mark);
            state.save_marks();
            state.refresh_view();
        }
    }

    /// Marks passage `p` of pair `i` of the full report (or clears its mark).
    pub(super) fn mark_passage(&mut self, i: usize, p: usize, mark: Option<Mark>) {
        let state = &mut self.state;
        if let Some(report) = state.report.clone()
            && let Some(pair) = report.pairs.get(i)
            && let Some(passage) = pair.passages.get(p)
        {
            state.marks.set_passage(&report, pair, passage, mark);
            state.save_marks();
            state.refresh_view();
        }
    }

    /// Keeps `note` for pair `i` of the full report, when it changed.
    pub(super) fn set_note(&mut self, i: usize, note: &str) {
        let state = &mut self.state;
        if let Some(report) = state.report.clone()
            && let Some(pair) = report.pairs.get(i)
            && state.marks.pair(&report, pair).map_or("", |m| m.note.as_str()) != note
        {
            state.marks.set_note(&report, pair, note);
            state.save_marks();
        }
    }

    /// Closes the pair view, back to the table at its row.
    pub(super) fn close_pair(&mut self) {
        let state = &mut self.state;
        state.pair = None;
        state.lists_over_pair = false;
        state.table.scroll_to_selected = true;
    }

    /// Moves to the next (+1) or previous (-1) passage of the open pair; passages are
    /// listed from the full report, dismissed ones included.
    pub(super) fn step_passage(&mut self, delta: isize) {
        let state = &mut self.state;
        if let (Some(view), Some(report)) = (&mut state.pair, &state.report) {
            view.step(report, delta);
        }
    }

    /// Moves the overview's selection by `delta` rows as drawn: by overall similarity,
    /// filtered by name and flags.
    pub(super) fn move_document(&mut self, delta: isize) {
        let state = &mut self.state;
        let Some(view) = &state.view else {
            return;
        };
        let filter = state.table.name_filter.trim().to_lowercase();
        let rows: Vec<usize> = crate::report::view::overview(&view.report)
            .into_iter()
            .map(|r| r.doc)
            .filter(|&d| filter.is_empty() || state.name(d).to_lowercase().contains(&filter))
            .filter(|&d| !state.table.flagged_only || crate::gui::state::is_flagged(&view.report, d))
            .collect();
        let at = state.table.selected_doc.and_then(|d| rows.iter().position(|&r| r == d));
        let next = match at {
            None => 0,
            Some(i) => i.saturating_add_signed(delta).min(rows.len().saturating_sub(1)),
        };
        if let Some(&doc) = rows.get(next) {
            state.table.selected_doc = Some(doc);
            state.table.selected = None;
        }
    }

    /// Finds `query` in both documents of the open pair.
    pub(super) fn find(&mut self, query: String) {
        let state = &mut self.state;
        if let (Some(view), Some(report)) = (&mut state.pair, &state.report)
            && let Some(pair) = report.pairs.get(view.pair)
        {
            let text = |id: usize| report.documents.get(id).map_or("", |d| &*d.text);
            view.find.search(query, text(pair.a), text(pair.b));
        }
    }

    /// Side `side` of the pair view has scrolled to its pending passage `passage`.
    pub(super) fn scrolled_side(&mut self, side: usize, passage: usize) {
        if let Some(pending) = self.state.pair.as_mut().and_then(|v| v.pending_scroll.get_mut(side))
            && *pending == Some(passage)
        {
            *pending = None;
        }
    }
}

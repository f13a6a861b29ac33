//! The open pair as plain data: which pair, the passage in focus, pending scrolls, the
//! side shown left, the note being edited, whether text is selectable, and the review
//! marks of its passages (read again whenever the view is).

use crate::Report;
use crate::report::marks::{Mark, Marks};

/// The open pair.
#[derive(Clone, Debug)]
pub struct PairView {
    /// Index into the full (unfiltered) `Report::pairs`.
    pub pair: usize,
    /// The passage in focus.
    pub current: Option<usize>,
    /// Per side: a passage to scroll into view on the next frame.
    pub pending_scroll: [Option<usize>; 2],
    /// The reference (document B) on the left.
    pub swapped: bool,
    /// The note being edited.
    pub note: String,
    /// The texts can be selected and copied (clicks then select instead of jumping).
    pub select_text: bool,
    /// The review marks of the passages, as the marks were when the view was last made.
    pub marks: Vec<Option<Mark>>,
}

impl PairView {
    /// Opens pair `pair` (of the full report) with its first passage in view.
    pub fn new(pair: usize, report: &Report, marks: &Marks) -> Self {
        let p = report.pairs.get(pair);
        let has = p.is_some_and(|p| !p.passages.is_empty());
        let current = has.then_some(0);
        let note = p.and_then(|p| marks.pair(report, p)).map(|m| m.note.clone()).unwrap_or_default();
        let mut view = Self {
            pair,
            current,
            pending_scroll: [current, current],
            swapped: false,
            note,
            select_text: false,
            marks: Vec::new(),
        };
        view.read_marks(report, marks);
        view
    }

    /// Reads the marks of the pair's passages again (after a mark or a new view).
    pub fn read_marks(&mut self, report: &Report, marks: &Marks) {
        self.marks = report.pairs.get(self.pair).map(|p| marks.passages_of(report, p)).unwrap_or_default();
    }

    /// Moves to the next (`+1`) or previous (`-1`) passage, wrapping around.
    pub fn step(&mut self, report: &Report, delta: isize) {
        let n = report.pairs.get(self.pair).map_or(0, |p| p.passages.len());
        if n == 0 {
            return;
        }
        let next = match self.current {
            None => 0,
            Some(c) => (c as isize + delta).rem_euclid(n as isize) as usize,
        };
        self.focus(next);
    }

    /// Puts passage `i` in focus and scrolls both sides to it.
    pub fn focus(&mut self, i: usize) {
        self.current = Some(i);
        self.pending_scroll = [Some(i), Some(i)];
    }

    /// Puts passage `i`, clicked on side `side`, in focus and brings its twin into view on
    /// the other side.
    pub fn clicked(&mut self, side: usize, i: usize) {
        self.current = Some(i);
        if let Some(other) = self.pending_scroll.get_mut(1 - side.min(1)) {
            *other = Some(i);
        }
    }

    /// Shows the other document on the left.
    pub fn swap(&mut self) {
        self.swapped = !self.swapped;
        self.pending_scroll = [self.current, self.current];
    }
}

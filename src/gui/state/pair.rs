//! The open pair as plain data: which pair, the passage in focus, pending scrolls, the
//! side shown left, the note being edited, whether text is selectable, and the review
//! marks of its passages (read again whenever the view is).

use crate::Report;
use crate::ingest::{FileDates, file_dates};
use crate::model::saturating_u32;
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
    /// Find in the texts (Ctrl+F).
    pub find: Find,
    /// When the pair's two files were written, as their files say (A, then B).
    pub dates: [FileDates; 2],
}

/// The times of a pair's two files, read from their sources (nothing for a pair not in
/// the report).
fn dates_of(report: &Report, pair: Option<&crate::Pair>) -> [FileDates; 2] {
    let of = |d: usize| report.documents.get(d).map(|d| file_dates(&d.source)).unwrap_or_default();
    pair.map(|p| [of(p.a), of(p.b)]).unwrap_or_default()
}

/// Most matches found and drawn in one pair.
const MAX_MATCHES: usize = 1000;

/// What is searched for in the pair's texts, and where it was found.
#[derive(Clone, Debug, Default)]
pub struct Find {
    pub query: String,
    /// The matches as character ranges, the suspect's (`true`) first, each in text order.
    pub hits: Vec<(bool, u32, u32)>,
    /// The match in focus.
    pub at: Option<usize>,
    /// The match in focus waits to be scrolled into view.
    pub pending_scroll: bool,
    /// The find field takes the keyboard on the next frame (Ctrl+F was pressed).
    pub focus: bool,
}

impl Find {
    /// Searches `query` in both texts (ignoring case where that keeps offsets) and puts
    /// the first match in focus.
    pub fn search(&mut self, query: String, a: &str, b: &str) {
        self.hits.clear();
        if !query.is_empty() {
            for (first, text) in [(true, a), (false, b)] {
                let left = MAX_MATCHES.saturating_sub(self.hits.len());
                self.hits.extend(matches(text, &query).into_iter().take(left).map(|(s, e)| (first, s, e)));
            }
        }
        self.query = query;
        self.at = (!self.hits.is_empty()).then_some(0);
        self.pending_scroll = self.at.is_some();
    }

    /// Moves to the next (`+1`) or previous (`-1`) match, wrapping around.
    pub fn step(&mut self, delta: isize) {
        let n = self.hits.len();
        if n == 0 {
            return;
        }
        self.at = Some(self.at.map_or(0, |i| (i as isize + delta).rem_euclid(n as isize) as usize));
        self.pending_scroll = true;
    }
}

/// The character ranges where `query` occurs in `text`: ignoring case when lower-casing
/// keeps every byte offset (plain letters), else exactly.
fn matches(text: &str, query: &str) -> Vec<(u32, u32)> {
    let (lower_text, lower_query) = (text.to_lowercase(), query.to_lowercase());
    let (hay, needle) = if lower_text.len() == text.len() && lower_query.len() == query.len() {
        (lower_text.as_str(), lower_query.as_str())
    } else {
        (text, query)
    };
    let needle_chars = saturating_u32(needle.chars().count());
    let mut out = Vec::new();
    // Byte offsets to character offsets, counted forward once.
    let (mut byte, mut chars) = (0usize, 0u32);
    for (at, _) in hay.match_indices(needle) {
        chars += hay.get(byte..at).map_or(0, |s| saturating_u32(s.chars().count()));
        byte = at;
        out.push((chars, chars + needle_chars));
        if out.len() >= MAX_MATCHES {
            break;
        }
    }
    out
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
            find: Find::default(),
            dates: dates_of(report, p),
        };
        view.read_marks(report, marks);
        view
    }

    /// Whether the view says which side was written first: in a class, between two students.
    pub fn dates_compared(&self, report: &Report) -> bool {
        let student = |d: usize| report.documents.get(d).is_some_and(|d| d.role == crate::Role::Suspect);
        report.mode == crate::Mode::Classmates
            && report.pairs.get(self.pair).is_some_and(|p| student(p.a) && student(p.b))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_counts_characters_ignores_case_and_wraps() {
        let mut find = Find::default();
        find.search("the".into(), "Über the top. THE end.", "nothing here");
        assert_eq!(find.hits, vec![(true, 5, 8), (true, 14, 17)]);
        assert_eq!(find.at, Some(0));
        find.step(-1);
        assert_eq!(find.at, Some(1));
        find.search("软件".into(), "a", "学习软件工程的软件");
        assert_eq!(find.hits, vec![(false, 2, 4), (false, 7, 9)]);
        find.search(String::new(), "a", "b");
        assert!(find.hits.is_empty() && find.at.is_none());
    }
}

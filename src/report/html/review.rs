//! What the report shows of each pair after the reviewer's work: every passage of the
//! check with its mark and whether it counts (dismissed passages are listed, never
//! dropped), the counted scores beside the scores before the dismissals, and whose
//! report a pair belongs to.

use crate::model::Role;
use crate::report::marks::{Mark, Marks};
use crate::report::{Pair, Passage, Report, union_length};

/// Whether a passage counts in the scores, and if not, why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Counted,
    /// Its kind does not count (quoted, common, template).
    NotCounted,
    /// The reviewer dismissed it (here or everywhere).
    Dismissed,
    /// The window's filter left it out (too short, a hidden kind).
    Filtered,
}

/// One passage as the report shows it.
#[derive(Clone, Copy, Debug)]
pub struct ShownPassage<'a> {
    pub passage: &'a Passage,
    pub mark: Option<Mark>,
    pub status: Status,
}

/// One pair as the report shows it: the pair of the check and, when any of it counts,
/// the same pair after the reviewer's view (its scores are the counted ones).
#[derive(Clone, Debug)]
pub struct ShownPair<'a> {
    /// Index into the check's pairs (the report's anchors use it).
    pub index: usize,
    pub pair: &'a Pair,
    pub counted: Option<&'a Pair>,
    pub passages: Vec<ShownPassage<'a>>,
    pub mark: Option<Mark>,
    pub note: &'a str,
}

impl ShownPair<'_> {
    /// The counted share of side `a` (true) or `b`.
    pub fn share(&self, a: bool) -> f64 {
        self.counted.map_or(0.0, |p| if a { p.score } else { p.score_b })
    }

    /// The share before the reviewer's dismissals, when they changed it.
    pub fn share_before(&self, a: bool) -> Option<f64> {
        let before = if a { self.pair.score } else { self.pair.score_b };
        ((before - self.share(a)).abs() > 1e-9 && self.count(Status::Dismissed) > 0).then_some(before)
    }

    /// How many passages have this status.
    pub fn count(&self, status: Status) -> usize {
        self.passages.iter().filter(|p| p.status == status).count()
    }

    /// How many passages the reviewer confirmed.
    pub fn confirmed(&self) -> usize {
        self.passages.iter().filter(|p| p.mark == Some(Mark::Confirmed)).count()
    }
}

/// The pairs a report can show, highest counted share first: each pair of `counted` (the
/// reviewer's view; `origin` maps it to `base`, the check) and each pair of the check
/// whose passages the reviewer all dismissed.
pub fn shown_pairs<'a>(
    base: &'a Report,
    counted: &'a Report,
    origin: &[usize],
    marks: Option<&'a Marks>,
) -> Vec<ShownPair<'a>> {
    let mut view_of: Vec<Option<&'a Pair>> = vec![None; base.pairs.len()];
    for (pair, &o) in counted.pairs.iter().zip(origin) {
        if let Some(slot) = view_of.get_mut(o) {
            *slot = Some(pair);
        }
    }
    let mut out: Vec<ShownPair<'a>> = Vec::new();
    for (index, pair) in base.pairs.iter().enumerate() {
        let marks_of = marks.map_or_else(|| vec![None; pair.passages.len()], |m| m.passages_of(base, pair));
        let view = view_of[index];
        let dismissed = |m: &Option<Mark>| matches!(m, Some(Mark::Dismissed | Mark::DismissedEverywhere));
        let all_dismissed = !pair.passages.is_empty() && marks_of.iter().all(dismissed);
        if view.is_none() && !all_dismissed {
            continue;
        }
        let passages = pair
            .passages
            .iter()
            .zip(marks_of)
            .map(|(passage, mark)| {
                let status = if dismissed(&mark) {
                    Status::Dismissed
                } else if !view.is_some_and(|v| v.passages.contains(passage)) {
                    Status::Filtered
                } else if passage.counts(base.settings.count_quoted) {
                    Status::Counted
                } else {
                    Status::NotCounted
                };
                ShownPassage { passage, mark, status }
            })
            .collect();
        let pair_marks = marks.and_then(|m| m.pair(base, pair));
        out.push(ShownPair {
            index,
            pair,
            counted: view,
            passages,
            mark: pair_marks.and_then(|m| m.mark),
            note: pair_marks.map_or("", |m| m.note.trim()),
        });
    }
    out.sort_by(|x, y| {
        y.share(true).total_cmp(&x.share(true)).then(y.pair.score.total_cmp(&x.pair.score)).then(x.index.cmp(&y.index))
    });
    out
}

/// True when the pair is part of `doc`'s report: `doc` is its first side, or its second
/// where students are compared with each other.
pub fn involves(report: &Report, pair: &Pair, doc: usize) -> bool {
    pair.a == doc || (pair.b == doc && report.second_is_checked(pair))
}

/// The documents whose report a class report lists: the students (suspects).
pub fn students(report: &Report) -> Vec<usize> {
    report.documents.iter().filter(|d| d.role == Role::Suspect).map(|d| d.id).collect()
}

/// The overall similarity of `doc` over the shown pairs: counted (after the reviewer's
/// dismissals) or as the check found it (`before`).
pub fn overall<'p, 'a: 'p>(
    report: &Report,
    pairs: impl Iterator<Item = &'p ShownPair<'a>>,
    doc: usize,
    before: bool,
) -> f64 {
    let Some(entry) = report.documents.get(doc) else {
        return 0.0;
    };
    let mut spans: Vec<(u32, u32)> = Vec::new();
    for shown in pairs.filter(|s| involves(report, s.pair, doc)) {
        let a = shown.pair.a == doc;
        let counting = shown.passages.iter().filter(|p| {
            if before {
                p.status != Status::Filtered && p.passage.counts(report.settings.count_quoted)
            } else {
                p.status == Status::Counted
            }
        });
        spans.extend(
            counting
                .map(|p| if a { (p.passage.a_start, p.passage.a_end) } else { (p.passage.b_start, p.passage.b_end) }),
        );
    }
    let covered = union_length(&mut spans);
    if entry.countable_chars == 0 { 0.0 } else { (covered as f64 / entry.countable_chars as f64).min(1.0) }
}

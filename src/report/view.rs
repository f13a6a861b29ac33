//! The reviewer's view of a finished check, computed without re-running it: dismissed
//! passages, short passages, excluded sources and (optionally) quoted or common text leave
//! the scores; pairs below a minimum share are hidden. The result is an ordinary
//! [`Report`] (with a map back to the original pairs), so every view and export reads it.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::marks::{Mark, Marks};
use super::{Pair, PassageKind, Report, union_length};

/// What the reviewer filters out of the current results.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ViewFilter {
    /// Passages shorter than this (characters, suspect side) leave the scores.
    pub min_chars: u32,
    /// Pairs whose higher share is below this (0‥1) are hidden.
    pub min_share: f64,
    /// Documents (ids) whose pairs are hidden: a source the reviewer excludes.
    pub excluded: BTreeSet<usize>,
    /// Quoted passages are not shown at all.
    pub hide_quoted: bool,
    /// Common passages are not shown at all.
    pub hide_common: bool,
}

/// A filtered report and, per pair of it, the pair of the original report it came from.
#[derive(Clone, Debug)]
pub struct View {
    pub report: Arc<Report>,
    pub origin: Vec<usize>,
}

/// Share of `chars` covered by the copied spans.
fn share(spans: &mut [(u32, u32)], chars: usize) -> f64 {
    let covered = union_length(spans);
    if chars == 0 { 0.0 } else { (covered as f64 / chars as f64).min(1.0) }
}

/// Applies the filter and the marks to `report`. Scores are recomputed from the copied
/// passages that are left; a pair with no passage left stays only as a near duplicate.
pub fn apply(report: &Report, filter: &ViewFilter, marks: &Marks) -> View {
    let mut kept: Vec<(usize, Pair)> = Vec::with_capacity(report.pairs.len());
    for (index, pair) in report.pairs.iter().enumerate() {
        if filter.excluded.contains(&pair.a) || filter.excluded.contains(&pair.b) {
            continue;
        }
        let mut out = pair.clone();
        let mut dismissed = marks
            .passages_of(report, pair)
            .into_iter()
            .map(|m| matches!(m, Some(Mark::Dismissed | Mark::DismissedEverywhere)));
        out.passages.retain(|p| {
            let gone = dismissed.next().unwrap_or(false);
            !(filter.hide_quoted && p.kind == PassageKind::Quoted
                || filter.hide_common && p.kind == PassageKind::Common
                || p.a_len() < filter.min_chars
                || gone)
        });
        if out.passages.len() != pair.passages.len() {
            let copied: Vec<_> = out.passages.iter().filter(|p| p.kind == PassageKind::Copied).collect();
            let chars = |id: usize| report.documents.get(id).map_or(0, |d| d.countable_chars);
            out.score = share(&mut copied.iter().map(|p| (p.a_start, p.a_end)).collect::<Vec<_>>(), chars(pair.a));
            out.score_b = share(&mut copied.iter().map(|p| (p.b_start, p.b_end)).collect::<Vec<_>>(), chars(pair.b));
            out.longest = copied.iter().map(|p| p.a_len()).max().unwrap_or(0);
        }
        if out.passages.is_empty() && !pair.passages.is_empty() && !out.near_duplicate {
            continue;
        }
        if filter.min_share > 0.0 && out.score.max(out.score_b) + 1e-9 < filter.min_share {
            continue;
        }
        kept.push((index, out));
    }
    kept.sort_by(|(i, x), (j, y)| y.score.total_cmp(&x.score).then(x.a.cmp(&y.a)).then(x.b.cmp(&y.b)).then(i.cmp(j)));
    let (origin, pairs): (Vec<usize>, Vec<Pair>) = kept.into_iter().unzip();
    let near_duplicates: Vec<[usize; 2]> =
        report.near_duplicates.iter().copied().filter(|d| !d.iter().any(|id| filter.excluded.contains(id))).collect();
    let groups = report
        .groups
        .iter()
        .map(|g| g.iter().copied().filter(|id| !filter.excluded.contains(id)).collect::<Vec<_>>())
        .filter(|g| g.len() > 1)
        .collect();
    let report = Report {
        settings: report.settings.clone(),
        mode: report.mode,
        documents: report.documents.clone(),
        pairs,
        near_duplicates,
        groups,
        skipped: report.skipped.clone(),
    };
    View { report: Arc::new(report), origin }
}

/// One source of a suspect in the overview: the other document and its share.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    pub doc: usize,
    /// Index into `Report::pairs`.
    pub pair: usize,
    /// Share of the suspect found in this source.
    pub share: f64,
}

/// One row of the overview: a document, its overall index and its sources, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct SuspectRow {
    pub doc: usize,
    pub overall: f64,
    pub sources: Vec<Source>,
}

/// The overview: one row per checked document (per readable suspect; in all-vs-all mode
/// per readable document but templates, both sides counting; in classmates mode both
/// classmates of a pair counting), those with no shared text included at 0 %, highest
/// overall index first.
pub fn overview(report: &Report) -> Vec<SuspectRow> {
    let mut rows: Vec<SuspectRow> = Vec::new();
    let mut by_doc: Vec<Option<usize>> = vec![None; report.documents.len()];
    // "No shared text found" is a result: every checked document has its row.
    for doc in (0..report.documents.len()).filter(|&d| report.is_checked(d)) {
        by_doc[doc] = Some(rows.len());
        rows.push(SuspectRow { doc, overall: 0.0, sources: Vec::new() });
    }
    let mut push = |rows: &mut Vec<SuspectRow>, doc: usize, source: Source| {
        let Some(slot) = by_doc.get_mut(doc) else {
            return;
        };
        let row = *slot.get_or_insert_with(|| {
            rows.push(SuspectRow { doc, overall: 0.0, sources: Vec::new() });
            rows.len() - 1
        });
        rows[row].sources.push(source);
    };
    for (index, pair) in report.pairs.iter().enumerate() {
        push(&mut rows, pair.a, Source { doc: pair.b, pair: index, share: pair.score });
        if report.second_is_checked(pair) {
            push(&mut rows, pair.b, Source { doc: pair.a, pair: index, share: pair.score_b });
        }
    }
    for row in &mut rows {
        row.overall = report.overall(row.doc);
        row.sources.sort_by(|x, y| y.share.total_cmp(&x.share).then(x.doc.cmp(&y.doc)));
    }
    rows.sort_by(|x, y| {
        let best = |r: &SuspectRow| r.sources.first().map_or(0.0, |s| s.share);
        y.overall.total_cmp(&x.overall).then(best(y).total_cmp(&best(x))).then(x.doc.cmp(&y.doc))
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests_support::sample;

    #[test]
    fn dismissed_and_short_passages_leave_the_scores_and_the_original_stays() {
        let report = sample();
        let all = apply(&report, &ViewFilter::default(), &Marks::default());
        assert_eq!(all.report.pairs, report.pairs);
        assert_eq!(all.origin, vec![0, 1]);

        let mut marks = Marks::default();
        let index = report.pairs.iter().position(|p| p.b == 1).unwrap();
        let pair = &report.pairs[index];
        marks.set_passage(&report, pair, &pair.passages[0], Some(Mark::Dismissed));
        let view = apply(&report, &ViewFilter::default(), &marks);
        let first = &view.report.pairs[view.origin.iter().position(|&o| o == index).unwrap()];
        assert_eq!(first.passages.len(), pair.passages.len() - 1);
        assert!(first.score < pair.score);

        let strict = ViewFilter { min_chars: 1000, ..ViewFilter::default() };
        assert!(apply(&report, &strict, &Marks::default()).report.pairs.iter().all(|p| p.passages.is_empty()));

        let no_r = ViewFilter { excluded: [1].into(), ..ViewFilter::default() };
        assert!(apply(&report, &no_r, &Marks::default()).report.pairs.iter().all(|p| p.b != 1));

        let high = ViewFilter { min_share: 0.99, ..ViewFilter::default() };
        let left = apply(&report, &high, &Marks::default()).report.pairs.clone();
        assert_eq!(left.len(), 1);
        assert!(left[0].score_b >= 0.99);
    }

    #[test]
    fn overview_has_one_row_per_suspect_with_its_sources_best_first() {
        let report = sample();
        let rows = overview(&report);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].doc, 0);
        assert_eq!(rows[0].sources.len(), 2);
        assert!(rows[0].sources[0].share >= rows[0].sources[1].share);
        assert!((rows[0].overall - report.overall(0)).abs() < 1e-12);
    }

    /// A student with a second suspect (the reference q.txt made one) in the sample.
    fn with_classmate(mode: crate::Mode) -> Report {
        let mut report = sample();
        report.mode = mode;
        report.documents[2].role = crate::model::Role::Suspect;
        report
    }

    #[test]
    fn a_suspect_with_no_shared_text_has_its_row_at_zero() {
        let mut report = with_classmate(crate::Mode::SuspectsVsReferences);
        report.pairs.retain(|p| p.b != 2);
        let rows = overview(&report);
        let docs: Vec<usize> = rows.iter().map(|r| r.doc).collect();
        assert_eq!(docs, vec![0, 2], "the unreadable file has no row, q.txt has its 0 % row");
        assert_eq!(rows[1].overall, 0.0);
        assert!(rows[1].sources.is_empty());
    }

    #[test]
    fn in_classmates_mode_both_classmates_of_a_pair_have_the_other_as_a_source() {
        let report = with_classmate(crate::Mode::Classmates);
        let rows = overview(&report);
        let q = rows.iter().find(|r| r.doc == 2).expect("the classmate's row");
        assert_eq!(q.sources.len(), 1);
        assert_eq!(q.sources[0].doc, 0);
        assert!(q.overall > 0.99);
        // A reference is never a row of its own.
        assert!(rows.iter().all(|r| r.doc != 1));
        let refs = with_classmate(crate::Mode::SuspectsVsReferences);
        assert_eq!(overview(&refs).iter().find(|r| r.doc == 2).map(|r| r.sources.len()), Some(0));
    }
}

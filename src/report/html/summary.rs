//! The summaries: a student's first page (overall similarity, sources with their shares
//! and roles, the reviewer's verdicts and notes, what was dismissed or confirmed), and the
//! class's table of every student (0 % included, sortable) and its histogram.

use maud::{Markup, html};

use super::review::{ShownPair, Status, involves, overall};
use super::{Ctx, percent};
use crate::report::marks::Mark;

/// One student of the class table.
pub struct ClassRow<'c, 'a> {
    pub doc: usize,
    pub overall: f64,
    /// The student's pairs, highest counted share of the student first.
    pub pairs: Vec<&'c ShownPair<'a>>,
}

/// The student's counted share in a pair.
fn share_of(doc: usize, shown: &ShownPair<'_>) -> f64 {
    shown.share(shown.pair.a == doc)
}

/// The other document of a pair.
fn other(doc: usize, shown: &ShownPair<'_>) -> usize {
    if shown.pair.a == doc { shown.pair.b } else { shown.pair.a }
}

/// A row per student, highest overall similarity first, then by name.
pub fn class_rows<'c, 'a>(ctx: &'c Ctx<'a>, students: &[usize]) -> Vec<ClassRow<'c, 'a>> {
    let mut rows: Vec<ClassRow<'c, 'a>> = students
        .iter()
        .map(|&doc| {
            let mut pairs: Vec<&ShownPair<'a>> = ctx.pairs.iter().filter(|s| involves(ctx.base, s.pair, doc)).collect();
            pairs.sort_by(|x, y| share_of(doc, y).total_cmp(&share_of(doc, x)));
            ClassRow { doc, overall: overall(ctx.base, ctx.pairs.iter(), doc, false), pairs }
        })
        .collect();
    rows.sort_by(|x, y| y.overall.total_cmp(&x.overall).then_with(|| ctx.name(x.doc).cmp(ctx.name(y.doc))));
    rows
}

/// A share with its bar.
fn share_cell(share: f64) -> Markup {
    html! {
        td.n data-v=(format!("{share:.6}")) {
            span.bar style=(format!("width:{:.0}px", (share * 60.0).round())) {}
            (percent(share))
        }
    }
}

/// The reviewer's verdict on a pair, or "not reviewed".
fn verdict(ctx: &Ctx<'_>, shown: &ShownPair<'_>) -> String {
    shown.mark.map_or(ctx.w.not_reviewed, |m| ctx.w.mark(m)).to_owned()
}

/// Every student: name, overall similarity, closest match and its role, passages,
/// verdicts. Sortable in the page.
pub fn class_table(ctx: &Ctx<'_>, rows: &[ClassRow<'_, '_>]) -> Markup {
    let w = ctx.w;
    html! {
        h2 { (w.every_student) }
        p.muted.noprint { (w.sort_hint) " " (w.overall) ": " (w.overall_help) }
        table.wide.sortable {
            thead { tr {
                th.n { "#" } th { (w.student) } th.n { (w.overall) } th { (w.closest) } th { (w.role) }
                th.n { (w.passages) } th { (w.mark) }
            } }
            tbody {
                @for (n, row) in rows.iter().enumerate() {
                    @let best = row.pairs.first();
                    @let passages: usize = row.pairs.iter().map(|s| s.passages.len()).sum();
                    @let marks: Vec<&str> = row.pairs.iter().filter_map(|s| s.mark).map(|m| w.mark(m)).collect();
                    tr {
                        td.n data-v=(n + 1) { (n + 1) }
                        td.tok { a href=(format!("#student-{}", row.doc)) { (ctx.name(row.doc)) }
                            @if ctx.base.documents.get(row.doc).is_some_and(|d| d.error.is_some()) {
                                " " span.err { "(" (w.unreadable) ")" }
                            }
                        }
                        (share_cell(row.overall))
                        @match best {
                            Some(s) => { td.tok { (ctx.name(other(row.doc, s))) " " (percent(share_of(row.doc, s))) } td { (ctx.role_of(other(row.doc, s))) } }
                            None => { td.muted { (ctx.nothing_found(row.doc)) } td {} }
                        }
                        td.n data-v=(passages) { (passages) }
                        td { @if marks.is_empty() { span.muted { "–" } } @else { (marks.join(", ")) } }
                    }
                }
            }
        }
    }
}

/// Students per band of overall similarity: exactly 0, then ten bands of 10 points.
#[expect(clippy::cast_possible_truncation, reason = "a percentage bin from a score in [0, 1]")]
pub fn histogram(ctx: &Ctx<'_>, rows: &[ClassRow<'_, '_>]) -> Markup {
    let mut bins = [0usize; 11];
    for row in rows {
        let bin = if row.overall <= 0.0 { 0 } else { ((row.overall * 100.0 - 1e-9).floor() as usize / 10).min(9) + 1 };
        bins[bin] += 1;
    }
    let most = bins.iter().copied().max().unwrap_or(0).max(1);
    let labels = ["0", "0–10", "10–20", "20–30", "30–40", "40–50", "50–60", "60–70", "70–80", "80–90", "90–100"];
    let (width, height, bar) = (640.0, 170.0, 640.0 / 11.0);
    html! {
        h2 { (ctx.w.histogram) }
        p.muted { (ctx.w.histogram_help) }
        svg.hist viewBox=(format!("0 -14 {width} {}", height + 54.0)) role="img" aria-label=(ctx.w.histogram) {
            @for (i, &count) in bins.iter().enumerate() {
                @let h = count as f64 / most as f64 * height;
                @let x = i as f64 * bar;
                rect.b x=(format!("{:.1}", x + 4.0)) y=(format!("{:.1}", height + 10.0 - h)) width=(format!("{:.1}", bar - 8.0)) height=(format!("{h:.1}")) {}
                text x=(format!("{:.1}", x + bar / 2.0)) y=(format!("{:.1}", height + 6.0 - h)) text-anchor="middle" { (count) }
                text x=(format!("{:.1}", x + bar / 2.0)) y=(format!("{:.1}", height + 24.0)) text-anchor="middle" { (labels[i]) }
            }
            text x=(format!("{:.1}", width / 2.0)) y=(format!("{:.1}", height + 38.0)) text-anchor="middle" { (ctx.w.overall) " (%)" }
        }
    }
}

/// A student's summary: the overall similarity (and before the dismissals), the sources
/// with role, share, passages and verdict, and what the reviewer dismissed or confirmed.
pub fn student_summary(ctx: &Ctx<'_>, doc: usize, pairs: &[&ShownPair<'_>]) -> Markup {
    let w = ctx.w;
    let counted = overall(ctx.base, pairs.iter().copied(), doc, false);
    let before = overall(ctx.base, pairs.iter().copied(), doc, true);
    let mut sorted: Vec<&ShownPair<'_>> = pairs.to_vec();
    sorted.sort_by(|x, y| share_of(doc, y).total_cmp(&share_of(doc, x)));
    html! {
        div.summary {
            p.big { (percent(counted)) " " small { (w.overall) } }
            @if (before - counted).abs() > 1e-9 {
                p { (percent(before)) " " (w.before_review) }
            }
            p.muted { (w.overall_help) }
            @if ctx.anonymize { p.muted { (w.anonymized) } }
            @if sorted.is_empty() {
                p { b { (ctx.nothing_found(doc)) } }
            } @else {
                (sources_table(ctx, doc, &sorted))
                (review_lines(ctx, doc, &sorted))
            }
        }
    }
}

fn sources_table(ctx: &Ctx<'_>, doc: usize, pairs: &[&ShownPair<'_>]) -> Markup {
    let w = ctx.w;
    html! {
        table.wide {
            thead { tr { th { (w.sources) } th { (w.role) } th.n { (w.share) } th.n { (w.passages) } th { (w.verdict) } } }
            tbody {
                @for shown in pairs {
                    tr {
                        td.tok { a href=(format!("#pair-{}", shown.index)) { (ctx.name(other(doc, shown))) } }
                        td { (ctx.role_of(other(doc, shown))) }
                        (share_cell(share_of(doc, shown)))
                        td.n { (shown.passages.len()) }
                        td {
                            (verdict(ctx, shown))
                            @if !shown.note.is_empty() { br; i { "“" (shown.note) "”" } }
                        }
                    }
                }
            }
        }
    }
}

/// "r.txt: 2 passages dismissed by the reviewer: not counted — “note”", per source.
fn review_lines(ctx: &Ctx<'_>, doc: usize, pairs: &[&ShownPair<'_>]) -> Markup {
    let lines: Vec<(String, String)> = pairs
        .iter()
        .flat_map(|s| {
            let name = ctx.name(other(doc, s)).to_owned();
            let everywhere = s.passages.iter().any(|p| p.mark == Some(Mark::DismissedEverywhere));
            let dismissed = ctx.w.dismissed(s.count(Status::Dismissed)).map(|mut t| {
                if everywhere {
                    t = format!("{t} ({})", ctx.w.mark(Mark::DismissedEverywhere));
                }
                (name.clone(), t)
            });
            let confirmed = ctx.w.confirmed(s.confirmed()).map(|t| (name.clone(), t));
            dismissed.into_iter().chain(confirmed)
        })
        .collect();
    html! {
        @if !lines.is_empty() {
            ul.review {
                @for (name, line) in &lines { li { b { (name) } ": " (line) } }
            }
        }
    }
}

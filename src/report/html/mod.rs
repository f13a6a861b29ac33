//! The self-contained HTML report to hand on: one file, no network, inline CSS and a few
//! lines of optional JS, laid out by [`maud`] templates (which escape every text). Its
//! scope is the whole class, one student, or one pair; its language is the reviewer's.
//!
//! - One student (or one pair): page 1 says who (the name the class knows, never a
//!   folder of the teacher's disk), the overall similarity, the sources with their shares
//!   and whether each is a classmate or a source, and the reviewer's verdicts and notes;
//!   then each passage of the student's text once, with a few lines of context and every
//!   source it was found in ([`passages`]); the program, settings and legend in an
//!   appendix at the end.
//! - The whole class: a sortable table of every student (0 % included) and a histogram
//!   first, then one section per student (its summary and its passages); the appendix last.
//!
//! The full texts side by side and every input with its SHA-256 are an optional appendix
//! (`.optional`): on screen it is there; printed only when asked for
//! ([`crate::report::pdf::PrintOptions::appendix`], or the page's own check box).
//!
//! Passages the reviewer dismissed are listed and said not to count, never dropped; the
//! numbers are the counted ones, with the share before the dismissals beside them. An
//! anonymised hand-out names other students "Student A", "Student B", …, and shows of a
//! classmate only the passages shared with the student: never the rest of the text, the
//! file's size, characters or SHA-256.
//!
//! Size: the appendix carries both texts of each pair. The first [`MAX_FULL_PAIRS`]
//! pairs, up to [`MAX_FULL_CHARS`] characters of text in all, are shown in full; every
//! further pair lists its passages as excerpts. The same inputs give the same bytes apart
//! from the date line.

mod appendix;
mod flags;
mod names;
mod pair;
mod passages;
mod regions;
mod review;
mod style;
mod summary;

use maud::{DOCTYPE, Markup, PreEscaped, html};

use self::names::Names;
use self::review::{ShownPair, involves, shown_pairs, students};
use super::marks::Marks;
use super::view::{ViewFilter, apply};
use super::words::{ReportLang, Words};
use super::{Pair, Report};
use crate::model::{Notice, Role};

pub use self::names::letters;

/// At most this many pairs are shown with both full texts.
pub const MAX_FULL_PAIRS: usize = 200;
/// At most this many characters of text (both sides, all pairs) are shown in full.
pub const MAX_FULL_CHARS: usize = 40_000_000;

/// What a report covers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scope {
    /// Every document and pair of the check.
    #[default]
    Run,
    /// One document (a suspect, or any document in all-vs-all mode) and its pairs.
    Suspect(usize),
    /// One pair (index into `Report::pairs`).
    Pair(usize),
}

/// The check a reviewer's view was made from: the report as the check wrote it and, for
/// each pair of the view, its index there. With it a report lists what the view left out.
#[derive(Clone, Copy, Debug)]
pub struct Original<'a> {
    pub report: &'a Report,
    pub origin: &'a [usize],
}

/// How to write a report.
#[derive(Clone, Debug, Default)]
pub struct HtmlOptions<'a> {
    /// What the report covers; a pair's index is one of the report given to [`render`].
    pub scope: Scope,
    pub lang: ReportLang,
    /// The date line's text (see [`now_utc`]); the only part that changes between runs.
    pub date: String,
    /// The reviewer's marks and notes. Without [`HtmlOptions::original`] the report given
    /// is the check itself, and dismissed passages leave its numbers here.
    pub marks: Option<&'a Marks>,
    /// Set when the report given is a reviewer's view (the window's).
    pub original: Option<Original<'a>>,
    /// Other students' names become "Student A", "Student B", … (a hand-out).
    pub anonymize: bool,
}

/// The whole check as one HTML page, in English, dated now.
pub fn to_html(report: &Report) -> String {
    render(report, &HtmlOptions { date: now_utc(), ..HtmlOptions::default() })
}

/// The current date and time in UTC, as the report's date line shows it.
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    format!("{} UTC", crate::model::utc_minute(secs))
}

/// Everything the parts of a report read.
pub(crate) struct Ctx<'a> {
    /// The check as it was written: every document and passage.
    pub base: &'a Report,
    /// Every pair the report may show, highest counted share first.
    pub pairs: Vec<ShownPair<'a>>,
    pub w: &'static Words,
    pub lang: ReportLang,
    pub names: Names,
    pub date: &'a str,
    pub anonymize: bool,
    /// The report's own student (one student's or one pair's report).
    pub keep: Option<usize>,
}

impl Ctx<'_> {
    /// The name of document `id`.
    pub fn name(&self, id: usize) -> &str {
        self.names.get(id)
    }

    /// What to say of document `id` when nothing of it was found elsewhere: "no shared text
    /// found", or, when it was compared with references in another script only, so.
    pub fn nothing_found(&self, id: usize) -> String {
        let other = self
            .base
            .documents
            .get(id)
            .and_then(|d| d.warnings.iter().find(|w| matches!(w, Notice::OtherLanguages { .. })));
        other.map_or_else(|| self.w.no_shared.to_string(), |notice| self.lang.notice(notice))
    }

    /// True when document `id` is a student named by a letter (an anonymised report):
    /// nothing of the file that could tell who it is (size, characters, SHA-256) is shown.
    pub fn lettered(&self, id: usize) -> bool {
        self.anonymize && Some(id) != self.keep && self.is_student(id)
    }

    /// True when document `id` is a classmate in a student's hand-out: of its text only
    /// the passages shared with the student are shown.
    pub fn hidden(&self, id: usize) -> bool {
        self.keep.is_some() && self.lettered(id)
    }

    fn is_student(&self, id: usize) -> bool {
        self.base.documents.get(id).is_some_and(|d| d.role == Role::Suspect)
    }

    /// "classmate", "source" or "template": what document `id` is to a student.
    pub fn role_of(&self, id: usize) -> &'static str {
        match self.base.documents.get(id).map(|d| d.role) {
            Some(Role::Suspect) => self.w.classmate,
            Some(Role::Template) => self.w.role_template,
            _ => self.w.source,
        }
    }
}

/// The report as one HTML page.
pub fn render(report: &Report, options: &HtmlOptions<'_>) -> String {
    if let Some(original) = options.original {
        let scope = match options.scope {
            Scope::Pair(i) => Scope::Pair(original.origin.get(i).copied().unwrap_or(usize::MAX)),
            other => other,
        };
        return render_view(original.report, report, original.origin, scope, options);
    }
    match options.marks {
        Some(marks) => {
            let view = apply(report, &ViewFilter::default(), marks);
            render_view(report, &view.report, &view.origin, options.scope, options)
        }
        None => {
            let origin: Vec<usize> = (0..report.pairs.len()).collect();
            render_view(report, report, &origin, options.scope, options)
        }
    }
}

/// The report of `base` (the check) with the numbers of `counted` (the reviewer's view of
/// it; `origin` maps its pairs to the check's); `scope` in the check's indices.
fn render_view(base: &Report, counted: &Report, origin: &[usize], scope: Scope, options: &HtmlOptions<'_>) -> String {
    let w = options.lang.words();
    let keep = match scope {
        Scope::Run => None,
        Scope::Suspect(doc) => Some(doc),
        Scope::Pair(i) => base.pairs.get(i).map(|p| p.a),
    };
    let pairs = shown_pairs(base, counted, origin, options.marks);
    // The classmates of the report's student, closest first, get the first letters.
    let first: Vec<usize> = match keep {
        Some(doc) => pairs
            .iter()
            .filter(|s| involves(base, s.pair, doc))
            .map(|s| if s.pair.a == doc { s.pair.b } else { s.pair.a })
            .collect(),
        None => Vec::new(),
    };
    let ctx = Ctx {
        base,
        names: Names::new(base, keep, options.anonymize, &first, w),
        pairs,
        w,
        lang: options.lang,
        date: &options.date,
        anonymize: options.anonymize,
        keep,
    };
    let (title, body) = match scope {
        Scope::Run => (w.class_title.to_owned(), class_body(&ctx)),
        Scope::Suspect(doc) => {
            let pairs: Vec<&ShownPair<'_>> = ctx.pairs.iter().filter(|s| involves(base, s.pair, doc)).collect();
            (ctx.name(doc).to_owned(), student_body(&ctx, doc, &pairs))
        }
        Scope::Pair(i) => {
            let pairs: Vec<&ShownPair<'_>> = ctx.pairs.iter().filter(|s| s.index == i).collect();
            let doc = base.pairs.get(i).map_or(usize::MAX, |p| p.a);
            (ctx.name(doc).to_owned(), student_body(&ctx, doc, &pairs))
        }
    };
    page(&ctx, &title, body)
}

/// The page around a body: head, style, the script. The date stands on a line of its own.
fn page(ctx: &Ctx<'_>, title: &str, body: Markup) -> String {
    let w = ctx.w;
    let top = html! {
        (DOCTYPE)
        html lang=(w.html_lang) {
            head {
                meta charset="utf-8";
                // The generator mark keeps a report saved inside a checked folder from
                // being read as a document (`engine::REPORT_GENERATOR_MARK`).
                meta name="generator" content=(super::TOOL);
                title { (title) " · " (w.title) }
                style { (PreEscaped(style::STYLE)) }
            }
        }
    };
    // maud closes the elements it opens: the head is cut before `</html>` so the body
    // follows it, and the date line stays a line of its own.
    let top = top.into_string();
    let head = top.strip_suffix("</html>").unwrap_or(&top);
    let rest = html! {
        (body)
        script { (PreEscaped(style::SCRIPT)) }
    };
    format!(
        "{head}\n<body>\n<h1>{}</h1>\n<p class=\"meta date\">{}: {}</p>\n{}</body></html>\n",
        maud::html! { (title) }.into_string(),
        w.date,
        maud::html! { (ctx.date) }.into_string(),
        rest.into_string()
    )
}

/// One student's report: the summary page, the passages, the appendices.
fn student_body(ctx: &Ctx<'_>, doc: usize, pairs: &[&ShownPair<'_>]) -> Markup {
    let mut docs: Vec<usize> = pairs.iter().flat_map(|s| [s.pair.a, s.pair.b]).chain([doc]).collect();
    docs.sort_unstable();
    docs.dedup();
    docs.retain(|&d| d < ctx.base.documents.len());
    // A hand-out says nothing of a classmate's file: no flags, no notes.
    let told: Vec<usize> = docs.iter().copied().filter(|&d| !ctx.hidden(d)).collect();
    let full = full_pairs(ctx.base, pairs.iter().map(|s| s.pair));
    let sections: Vec<(usize, &ShownPair<'_>)> = pairs.iter().map(|s| (doc, *s)).collect();
    html! {
        p.meta { (ctx.w.title) " · " (super::TOOL) }
        (print_choice(ctx))
        (summary::student_summary(ctx, doc, pairs))
        (flags::flags_box(ctx, &told))
        (flags::problems(ctx, &told))
        (passages::student_passages(ctx, doc, pairs))
        (full_texts(ctx, &sections, full))
        (appendix::appendix(ctx, &docs, false))
    }
}

/// The class's report: every student in a table and a histogram, one section per student
/// (its summary and passages), the pairs of no student, the appendices (each pair's full
/// texts once, under its first student).
fn class_body(ctx: &Ctx<'_>) -> Markup {
    let base = ctx.base;
    let rows = summary::class_rows(ctx, &students(base));
    let home = |s: &ShownPair<'_>| rows.iter().map(|r| r.doc).find(|&d| involves(base, s.pair, d));
    let mut order: Vec<(usize, &ShownPair<'_>)> = Vec::new();
    for row in &rows {
        order.extend(ctx.pairs.iter().filter(|s| home(s) == Some(row.doc)).map(|s| (row.doc, s)));
    }
    let others: Vec<&ShownPair<'_>> = ctx.pairs.iter().filter(|s| home(s).is_none()).collect();
    order.extend(others.iter().map(|s| (s.pair.a, *s)));
    let full = full_pairs(base, order.iter().map(|(_, s)| s.pair));
    let all: Vec<usize> = (0..base.documents.len()).collect();
    html! {
        p.meta { (rows.len()) " " (ctx.w.students_count) " · " (appendix::mode_words(ctx)) " · " (super::TOOL) }
        (print_choice(ctx))
        @if ctx.anonymize { p.muted { (ctx.w.anonymized) } }
        (summary::class_table(ctx, &rows))
        (summary::histogram(ctx, &rows))
        (flags::flags_box(ctx, &all))
        (flags::problems(ctx, &all))
        @for row in &rows {
            section.student {
                h2 id=(format!("student-{}", row.doc)) { (ctx.name(row.doc)) }
                @let pairs: Vec<&ShownPair<'_>> = ctx.pairs.iter().filter(|s| involves(base, s.pair, row.doc)).collect();
                (summary::student_summary(ctx, row.doc, &pairs))
                (passages::student_passages(ctx, row.doc, &pairs))
            }
        }
        @if !others.is_empty() {
            section.student {
                h2 { (ctx.w.other_pairs) }
                @for shown in &others {
                    (passages::student_passages(ctx, shown.pair.a, &[*shown]))
                }
            }
        }
        (full_texts(ctx, &order, full))
        (appendix::appendix(ctx, &all, true))
    }
}

/// The optional appendix: each pair of `sections` (seen from its document) with both
/// texts side by side, the first `full` in full, the others as excerpts.
fn full_texts(ctx: &Ctx<'_>, sections: &[(usize, &ShownPair<'_>)], full: usize) -> Markup {
    html! {
        @if !sections.is_empty() {
            section.optional.fulltexts {
                h2 { (ctx.w.full_texts) }
                p.muted { (ctx.w.full_texts_help) }
                @for (n, (doc, shown)) in sections.iter().enumerate() {
                    (pair::pair_section(ctx, *doc, shown, n < full))
                }
            }
        }
    }
}

/// The page's check box that prints the optional appendix too (not printed itself).
fn print_choice(ctx: &Ctx<'_>) -> Markup {
    html! {
        p.noprint.muted { label { input id="print-all" type="checkbox"; " " (ctx.w.print_appendix) } }
    }
}

/// How many of the first pairs are shown with their full texts.
fn full_pairs<'p>(report: &Report, pairs: impl Iterator<Item = &'p Pair>) -> usize {
    let chars = |id: usize| report.documents.get(id).map_or(0, |d| d.chars);
    let mut total = 0usize;
    let mut count = 0usize;
    for pair in pairs.take(MAX_FULL_PAIRS) {
        total += chars(pair.a) + chars(pair.b);
        if total > MAX_FULL_CHARS && count > 0 {
            break;
        }
        count += 1;
    }
    count
}

/// A share as a percentage with one decimal.
pub(crate) fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

#[cfg(test)]
mod tests;

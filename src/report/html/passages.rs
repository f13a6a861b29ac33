//! The body of a student's report: each passage of the student's text once, in the order
//! of the text, with a few lines of context ([`super::regions`]) and, under it, every
//! source it was found in — name, role, kind, whether it counts, positions, and the
//! source's words where they differ from the student's. A classmate's text is never
//! shown beyond the passage itself.

use maud::{Markup, PreEscaped, html};

use super::Ctx;
use super::pair::escape_into;
use super::regions::{Excerpt, Hit, excerpts};
use super::review::{ShownPair, Status};
use crate::model::{CharAt, CharIndex};
use crate::report::palette::{kind_css, runs};

/// A source's side of a passage is cut to this many characters.
const TWIN_CHARS: usize = 300;

/// The passages of `doc` found in `pairs`, each once.
pub fn student_passages(ctx: &Ctx<'_>, doc: usize, pairs: &[&ShownPair<'_>]) -> Markup {
    let Some(entry) = ctx.base.documents.get(doc) else {
        return html! {};
    };
    let found = excerpts(&entry.text, doc, pairs);
    let index = CharIndex::new(&entry.text);
    if found.is_empty() {
        return html! {};
    }
    let firsts: Vec<usize> = found
        .iter()
        .scan(0usize, |n, e| {
            let first = *n;
            *n += e.hits.len();
            Some(first)
        })
        .collect();
    html! {
        h3.passages { (ctx.w.passages_once) }
        p.muted { (ctx.w.passages_once_help) " " (ctx.w.positions_help) }
        @for (excerpt, &first) in found.iter().zip(&firsts) {
            (excerpt_block(ctx, doc, &index, excerpt, first))
        }
    }
}

/// One excerpt: the student's words with the passages lit and numbered from `first + 1`,
/// then its sources.
fn excerpt_block(ctx: &Ctx<'_>, doc: usize, text: &CharIndex<'_>, excerpt: &Excerpt<'_, '_>, first: usize) -> Markup {
    html! {
        div.hit id=(format!("x{doc}-{}", first + 1)) {
            div.ctx { (PreEscaped(painted(text, excerpt, first))) }
            ul.from {
                @for (i, hit) in excerpt.hits.iter().enumerate() {
                    (source_line(ctx, text, hit, first + i))
                }
            }
        }
    }
}

/// The excerpt's characters, escaped, passages as `<mark>`s (the first listed wins where
/// they overlap), each passage's number where it starts.
fn painted(text: &CharIndex<'_>, excerpt: &Excerpt<'_, '_>, first: usize) -> String {
    let (from, to) = excerpt.range;
    let slice = |s: u32, e: u32| text.slice(CharAt(s), CharAt(e));
    let ranges: Vec<(u32, u32)> = excerpt.hits.iter().map(|h| (h.mine.0 - from, h.mine.1.min(to) - from)).collect();
    let mut labels: Vec<(u32, usize)> = ranges.iter().enumerate().map(|(i, r)| (r.0, i)).collect();
    labels.sort_unstable();
    let mut out = String::new();
    if from > 0 {
        out.push('…');
    }
    for run in runs(to - from, &ranges) {
        let lit = run.passage.map(|i| (i, excerpt.hits[i]));
        if let Some((i, hit)) = lit {
            let dismissed = if hit.passage().status == Status::Dismissed { " class=dis" } else { "" };
            out.push_str(&format!("<mark{dismissed} style=\"{}\">", kind_css(hit.passage().passage.kind, first + i)));
        }
        let mut at = run.start;
        for &(start, label) in labels.iter().filter(|(s, _)| *s >= run.start && *s < run.end) {
            escape_into(&mut out, slice(from + at, from + start));
            out.push_str(&format!("<sup class=lbl>{}</sup>", first + label + 1));
            at = start;
        }
        escape_into(&mut out, slice(from + at, from + run.end));
        if lit.is_some() {
            out.push_str("</mark>");
        }
    }
    if to < text.chars() {
        out.push('…');
    }
    out
}

/// "3 · reference.txt (source) · copied · counts · 120–300 ⇔ 40–220", and the source's
/// words when they differ from the student's.
fn source_line(ctx: &Ctx<'_>, text: &CharIndex<'_>, hit: &Hit<'_, '_>, n: usize) -> Markup {
    let w = ctx.w;
    let p = hit.passage();
    let kind = p.passage.kind;
    let twin_text = ctx.base.documents.get(hit.twin).map_or("", |d| &*d.text);
    let theirs = CharIndex::new(twin_text).slice(CharAt(hit.theirs.0), CharAt(hit.theirs.1));
    let mine = text.slice(CharAt(hit.mine.0), CharAt(hit.mine.1));
    let also: Vec<&str> = p
        .passage
        .alternatives
        .iter()
        .filter_map(|a| a.reference)
        .filter(|&r| r != hit.twin)
        .map(|r| ctx.name(r))
        .collect();
    html! {
        li.dis[p.status == Status::Dismissed] {
            mark style=(kind_css(kind, n)) { (n + 1) } " "
            b.tok { (ctx.name(hit.twin)) } " (" (ctx.role_of(hit.twin)) ")"
            " · " (w.passage_kind(p.passage)) " · " (super::pair::status_words(ctx, p))
            " · " span.pos { (hit.mine.0) "–" (hit.mine.1) " ⇔ " (hit.theirs.0) "–" (hit.theirs.1) }
            @if !also.is_empty() { " · " (w.also_in) " " (also.join(", ")) }
            @if let Some(t) = &p.passage.translated { " · " (w.translated_line(t)) }
            @if let Some(r) = &p.passage.reworded { " · " (w.reworded_line(r)) }
            @if !same_words(mine, theirs) {
                br; span.twin { (cut(theirs)) }
            }
        }
    }
}

/// True when two texts hold the same characters but for spaces and case.
fn same_words(a: &str, b: &str) -> bool {
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect::<String>();
    squeeze(a) == squeeze(b)
}

/// At most [`TWIN_CHARS`] characters of `text`, "…" when cut.
fn cut(text: &str) -> String {
    let mut out: String = text.chars().take(TWIN_CHARS).collect();
    if text.chars().nth(TWIN_CHARS).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_words_are_said_once_and_cut_texts_say_so() {
        assert!(same_words("The cat\nsat.", "the  cat sat."));
        assert!(!same_words("The cat sat.", "The dog sat."));
        assert_eq!(cut("short"), "short");
        assert!(cut(&"x".repeat(TWIN_CHARS + 1)).ends_with("x…"));
    }
}

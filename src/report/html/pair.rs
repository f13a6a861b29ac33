//! One pair in the report: its heading (the student's side first), the shares, the
//! reviewer's verdict, note and what was dismissed or confirmed, the table of every
//! passage saying whether it counts, and both texts side by side with the passages lit in
//! the window's colours ([`crate::report::palette`]) — or, past the size limit, excerpts.

use std::fmt::Write as _;

use maud::{Escaper, Markup, PreEscaped, html};

use super::review::{ShownPair, ShownPassage, Status};
use super::{Ctx, percent};
use crate::model::{CharAt, CharIndex};
use crate::report::DocumentEntry;
use crate::report::marks::Mark;
use crate::report::palette::{WORD_COLOUR, kind_css, runs};

/// Excerpts of pairs beyond the limits are cut to this many characters per side.
const EXCERPT_CHARS: usize = 400;

/// The section of one pair, seen from `doc` (its own side first).
pub fn pair_section(ctx: &Ctx<'_>, doc: usize, shown: &ShownPair<'_>, full: bool) -> Markup {
    let w = ctx.w;
    let pair = shown.pair;
    let mine_a = pair.a == doc || pair.b != doc;
    let (me, them) = if mine_a { (pair.a, pair.b) } else { (pair.b, pair.a) };
    let (Some(a), Some(b)) = (ctx.base.documents.get(pair.a), ctx.base.documents.get(pair.b)) else {
        return html! {};
    };
    let share = |a: bool| {
        let now = percent(shown.share(a));
        match shown.share_before(a) {
            Some(before) => format!("{now} ({} {})", percent(before), w.before_review),
            None => now,
        }
    };
    let dismissed = w.dismissed(shown.count(Status::Dismissed));
    let confirmed = w.confirmed(shown.confirmed());
    html! {
        h3 id=(format!("pair-{}", shown.index)) {
            (ctx.name(me)) " ⇐ " (ctx.name(them)) " (" (ctx.role_of(them)) ")"
            @if pair.near_duplicate { " " span.nd { (w.near_duplicate) } }
        }
        p.meta {
            (w.share) " · " (ctx.name(me)) ": " b { (share(mine_a)) } " · " (ctx.name(them)) ": " (share(!mine_a))
            " · " (w.passages) ": " (pair.passages.len()) " · " (w.longest) ": " (pair.longest)
        }
        p.meta {
            b { (w.verdict) ": " } (shown.mark.map_or(w.not_reviewed, |m| w.mark(m)))
            @if !shown.note.is_empty() { " · " b { (w.review_note) ": " } "“" (shown.note) "”" }
        }
        @if let Some(line) = dismissed { p.meta { (line) } }
        @if let Some(line) = confirmed { p.meta { (line) } }
        (passage_table(ctx, shown, mine_a))
        @if full && ctx.hidden(them) {
            // A hand-out never shows a classmate's text: the student's side alone.
            p.muted { (w.hidden_text) }
            div.sbs { (side(ctx, shown, if mine_a { a } else { b }, mine_a, w.student)) }
        } @else if full {
            div.sbs {
                @if mine_a { (side(ctx, shown, a, true, w.student)) (side(ctx, shown, b, false, ctx.role_of(b.id))) }
                @else { (side(ctx, shown, b, false, w.student)) (side(ctx, shown, a, true, ctx.role_of(a.id))) }
            }
        } @else {
            p.muted { (w.excerpts_only) }
            (excerpts(ctx, shown, a, b, mine_a))
        }
    }
}

/// What a passage's "counts?" cell says.
pub(super) fn status_words(ctx: &Ctx<'_>, p: &ShownPassage<'_>) -> String {
    let w = ctx.w;
    let base = match p.status {
        Status::Counted => w.counted,
        Status::NotCounted => w.not_counted,
        Status::Dismissed => w.dismissed_not_counted,
        Status::Filtered => w.filtered_out,
    };
    match p.mark {
        Some(Mark::Confirmed) => format!("{base} · {}", w.mark(Mark::Confirmed)),
        Some(Mark::DismissedEverywhere) => format!("{base} ({})", w.mark(Mark::DismissedEverywhere)),
        _ => base.to_owned(),
    }
}

fn passage_table(ctx: &Ctx<'_>, shown: &ShownPair<'_>, mine_a: bool) -> Markup {
    let w = ctx.w;
    if shown.passages.is_empty() {
        return html! {};
    }
    html! {
        table {
            thead { tr {
                th.n { "#" } th { (w.kind) } th { (w.counts) } th.n { (w.in_student) } th.n { (w.in_other) } th.n { (w.length) }
            } }
            tbody {
                @for (i, p) in shown.passages.iter().enumerate() {
                    @let q = p.passage;
                    @let (mine, theirs) = if mine_a { ((q.a_start, q.a_end), (q.b_start, q.b_end)) } else { ((q.b_start, q.b_end), (q.a_start, q.a_end)) };
                    tr.dis[p.status == Status::Dismissed] {
                        td.n { mark style=(kind_css(q.kind, i)) { (i + 1) } }
                        td { (w.passage_kind(q)) }
                        td { (status_words(ctx, p)) }
                        td.n { (mine.0) "–" (mine.1) }
                        td.n { (theirs.0) "–" (theirs.1) }
                        td.n { (mine.1 - mine.0) }
                    }
                }
            }
        }
        p.muted { (w.positions_help) }
        (translations(ctx, shown))
    }
}

/// For each translated passage, "3: Translated from English: 7 of 9 sentences align",
/// and what the underlined words are; nothing when the pair has none.
fn translations(ctx: &Ctx<'_>, shown: &ShownPair<'_>) -> Markup {
    let lines: Vec<(usize, String)> = shown
        .passages
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.passage.translated.as_ref().map(|t| (i, ctx.w.translated_line(t))))
        .collect();
    if lines.is_empty() {
        return html! {};
    }
    html! {
        ul.translated {
            @for (i, line) in &lines {
                li { mark style=(kind_css(shown.passages[*i].passage.kind, *i)) { (i + 1) } " " (line) }
            }
        }
        p.muted { (PreEscaped(word_tag())) (ctx.w.word_pairs) (PreEscaped("</u>")) }
    }
}

/// One side of a pair: the whole text, passages as numbered `<mark>`s with the twin's id
/// (dismissed ones drawn grey and struck through), under `role: name`.
fn side(ctx: &Ctx<'_>, shown: &ShownPair<'_>, doc: &DocumentEntry, first: bool, role: &str) -> Markup {
    let (me, twin) = if first { ('a', 'b') } else { ('b', 'a') };
    let index = shown.index;
    let ranges: Vec<(u32, u32)> = shown
        .passages
        .iter()
        .map(|p| if first { (p.passage.a_start, p.passage.a_end) } else { (p.passage.b_start, p.passage.b_end) })
        .collect();
    let text = CharIndex::new(&doc.text);
    let chars = text.chars();
    let words = word_tags(ctx, shown, first, chars);
    let mut flagged: Vec<(u32, u32, &str)> = doc
        .flags
        .iter()
        .flat_map(|f| &f.spans)
        .filter(|s| s[0] < s[1] && s[1] <= chars)
        .map(|s| (s[0], s[1], FLAG_TAG))
        .collect();
    flagged.extend(words.iter().map(|(s, e, tag)| (*s, *e, tag.as_str())));
    flagged.sort_unstable();
    let mut out = String::with_capacity(doc.text.len() + 64 * ranges.len());
    let mut marked = vec![false; ranges.len()];
    for run in runs(chars, &ranges) {
        let Some(i) = run.passage else {
            escape_flagged(&mut out, &text, (run.start, run.end), &flagged);
            continue;
        };
        // The first run of a passage carries its id and number, so the twin can scroll
        // to it and a reader can match it with the passage table.
        let first_run = !std::mem::replace(&mut marked[i], true);
        let p = shown.passages[i];
        out.push_str("<mark");
        if first_run {
            write!(out, " id=\"p{index}{me}{i}\"").ok();
        }
        if p.status == Status::Dismissed {
            out.push_str(" class=dis");
        }
        write!(out, " data-twin=\"p{index}{twin}{i}\" style=\"{}\" title=\"{}\">", kind_css(p.passage.kind, i), i + 1)
            .ok();
        if first_run {
            write!(out, "<sup class=lbl>{}</sup>", i + 1).ok();
        }
        escape_flagged(&mut out, &text, (run.start, run.end), &flagged);
        out.push_str("</mark>");
    }
    html! {
        div.side {
            h4 { (role) ": " (ctx.name(doc.id)) }
            div.text { (PreEscaped(out)) }
        }
    }
}

/// Escapes `s` onto `out` (maud's escaping).
pub(super) fn escape_into(out: &mut String, s: &str) {
    Escaper::new(out).write_str(s).ok();
}

/// The opening tag of a flagged span.
const FLAG_TAG: &str = "<u class=flag>";

/// The opening tag of a dictionary word pair: underlined and written in
/// [`WORD_COLOUR`] (inline, so the style sheet of every report stays as it was).
fn word_tag() -> String {
    let [r, g, b] = WORD_COLOUR;
    format!("<u class=tw style=\"text-decoration:underline 2px #{r:02x}{g:02x}{b:02x};color:#{r:02x}{g:02x}{b:02x}\">")
}

/// The dictionary word pairs of the pair's translated passages on one side (`first`:
/// the suspect's, `chars` long), each with its opening tag: the partner word of the other
/// text shown on hover.
fn word_tags(ctx: &Ctx<'_>, shown: &ShownPair<'_>, first: bool, chars: u32) -> Vec<(u32, u32, String)> {
    let twin = if first { shown.pair.b } else { shown.pair.a };
    let twin_text = ctx.base.documents.get(twin).map_or("", |d| &*d.text);
    let twin_text = CharIndex::new(twin_text);
    let tag = word_tag();
    let spans = shown.passages.iter().filter_map(|p| p.passage.translated.as_ref()).flat_map(|t| &t.words);
    spans
        .map(|w| {
            if first {
                ((w.a_start, w.a_end), (w.b_start, w.b_end))
            } else {
                ((w.b_start, w.b_end), (w.a_start, w.a_end))
            }
        })
        .filter(|&((s, e), _)| s < e && e <= chars)
        .map(|((s, e), (ts, te))| {
            let mut title = String::new();
            escape_into(&mut title, twin_text.slice(CharAt(ts), CharAt(te)));
            (s, e, tag.replacen("<u class=tw", &format!("<u class=tw title=\"{title}\""), 1))
        })
        .collect()
}

/// Characters `[range.0, range.1)` of `text`, escaped, with the `flagged` spans (sorted;
/// each with its opening `<u>` tag) underlined.
fn escape_flagged(out: &mut String, text: &CharIndex<'_>, range: (u32, u32), flagged: &[(u32, u32, &str)]) {
    let slice = |from: u32, to: u32| text.slice(CharAt(from), CharAt(to));
    let (from, to) = range;
    let mut at = from;
    for &(s, e, tag) in flagged.iter().filter(|&&(s, e, _)| s < to && e > from) {
        let (s, e) = (s.max(at), e.min(to));
        if s > at {
            escape_into(out, slice(at, s));
        }
        if e > s {
            out.push_str(tag);
            escape_into(out, slice(s, e));
            out.push_str("</u>");
        }
        at = at.max(e);
    }
    if at < to {
        escape_into(out, slice(at, to));
    }
}

fn excerpts(ctx: &Ctx<'_>, shown: &ShownPair<'_>, a: &DocumentEntry, b: &DocumentEntry, mine_a: bool) -> Markup {
    let (index_a, index_b) = (CharIndex::new(&a.text), CharIndex::new(&b.text));
    let cut = |doc: &DocumentEntry, start: u32, end: u32| {
        let index = if doc.id == a.id { &index_a } else { &index_b };
        let text: String = index.slice(CharAt(start), CharAt(end)).chars().take(EXCERPT_CHARS).collect();
        let more = (end - start) as usize > EXCERPT_CHARS;
        format!("{text}{}", if more { "…" } else { "" })
    };
    let (first, second) = if mine_a { (a, b) } else { (b, a) };
    html! {
        table.wide {
            thead { tr { th.n { "#" } th.tok { (ctx.name(first.id)) } th.tok { (ctx.name(second.id)) } } }
            tbody {
                @for (i, p) in shown.passages.iter().enumerate() {
                    @let q = p.passage;
                    @let (x, y) = (cut(a, q.a_start, q.a_end), cut(b, q.b_start, q.b_end));
                    @let (x, y) = if mine_a { (x, y) } else { (y, x) };
                    tr.dis[p.status == Status::Dismissed] {
                        td.n { (i + 1) }
                        td.excerpt style=(kind_css(q.kind, i)) { (x) }
                        td.excerpt style=(kind_css(q.kind, i)) { (y) }
                    }
                }
            }
        }
    }
}

//! The boxes near the top that a reader must not miss: documents that try to hide a copy
//! (each trick, and where, in a short excerpt) and documents that could not be read or
//! came with a note.

use std::fmt::Write as _;

use maud::{Escaper, Markup, PreEscaped, html};

use super::Ctx;
use crate::model::{CharAt, CharIndex};
use crate::report::words::ReportLang;

/// Characters shown on each side of a flagged span in the flags box.
const FLAG_CONTEXT_CHARS: u32 = 24;

/// Each flagged document of `docs`, what it does, and where (its spans, marked).
pub fn flags_box(ctx: &Ctx<'_>, docs: &[usize]) -> Markup {
    let w = ctx.w;
    let flagged: Vec<_> =
        docs.iter().filter_map(|&id| ctx.base.documents.get(id)).filter(|d| !d.flags.is_empty()).collect();
    if flagged.is_empty() {
        return html! {};
    }
    html! {
        div.flags {
            h2 { "⚠ " (w.flags) }
            p.muted { (w.flags_help) }
            ul {
                @for d in flagged {
                    @let index = CharIndex::new(&d.text);
                    li { b { (ctx.name(d.id)) } ul {
                        @for flag in &d.flags {
                            li {
                                (if ctx.lang == ReportLang::Zh { flag.zh() } else { flag.to_string() })
                                @for span in &flag.spans {
                                    br; span.excerpt { (flag_excerpt(&index, span[0], span[1])) }
                                }
                            }
                        }
                    } }
                }
            }
        }
    }
}

/// A short excerpt around `[start, end)` with the span marked (an empty span, where hidden
/// text was taken out, as a ▮; invisible characters by their code points).
fn flag_excerpt(index: &CharIndex<'_>, start: u32, end: u32) -> Markup {
    let from = start.saturating_sub(FLAG_CONTEXT_CHARS);
    let to = end.saturating_add(FLAG_CONTEXT_CHARS);
    let visible =
        |s: &str| s.chars().map(|c| if c.is_whitespace() || c.is_control() { ' ' } else { c }).collect::<String>();
    let slice = |s: u32, e: u32| index.slice(CharAt(s), CharAt(e));
    let inside = slice(start, end);
    let mut marked = String::new();
    if inside.is_empty() {
        marked.push('▮');
    }
    for c in inside.chars() {
        if c.is_alphanumeric() {
            Escaper::new(&mut marked).write_char(c).ok();
        } else {
            write!(marked, "⟨U+{:04X}⟩", c as u32).ok();
        }
    }
    html! {
        "…" (visible(slice(from, start)))
        mark.flag { (PreEscaped(marked)) }
        (visible(slice(end, to))) "…"
    }
}

/// Documents of `docs` that could not be read or came with notes, each message in the
/// report's language and without a path another name stands for.
pub fn problems(ctx: &Ctx<'_>, docs: &[usize]) -> Markup {
    let with: Vec<_> = docs
        .iter()
        .filter_map(|&id| ctx.base.documents.get(id))
        .filter(|d| d.error.is_some() || !d.warnings.is_empty())
        .collect();
    if with.is_empty() {
        return html! {};
    }
    let w = ctx.w;
    html! {
        h2 { (w.problems) }
        ul {
            @for d in with {
                li {
                    b { (ctx.name(d.id)) }
                    @if let Some(e) = &d.error {
                        // English: the message as the JSON has it; another language: the
                        // message alone, as the name stands before it.
                        @let message = match ctx.lang { ReportLang::En => e.to_string(), _ => ctx.lang.doc_error(e, &d.path) };
                        ": " span.err { (ctx.names.scrub(ctx.base, &message)) }
                    }
                    @for warning in &d.warnings {
                        br; span.muted { (w.note) ": " (ctx.names.scrub(ctx.base, &ctx.lang.notice(warning))) }
                    }
                }
            }
        }
    }
}

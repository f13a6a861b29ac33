//! The appendix at the end of every report, on a page of its own: the program and its
//! version, the date and the way documents were compared, the settings in full, the
//! legend of passage kinds, every input (name, role, size, characters, SHA-256: an
//! optional part, printed when asked for; nothing of a lettered student's file) and the
//! near-duplicate groups.

use maud::{Markup, html};

use super::{Ctx, percent};
use crate::model::{Mode, Role};
use crate::report::DocumentEntry;
use crate::report::palette::kind_css;
use crate::report::words::{KINDS, Words};

/// How the check compared its documents, in words.
pub fn mode_words(ctx: &Ctx<'_>) -> &'static str {
    match ctx.base.mode {
        Mode::SuspectsVsReferences => ctx.w.mode_refs,
        Mode::AllVsAll => ctx.w.mode_all,
        Mode::Classmates => ctx.w.mode_classmates,
    }
}

/// The appendix over the documents `docs`; `groups`: with the near-duplicate groups.
pub fn appendix(ctx: &Ctx<'_>, docs: &[usize], groups: bool) -> Markup {
    let w = ctx.w;
    html! {
        section.appendix {
            h2 { (w.appendix) }
            p.meta { (w.program) ": " (crate::report::TOOL) }
            p.meta { (w.mode) ": " (mode_words(ctx)) }
            @if ctx.anonymize { p.meta { (w.anonymized) } }
            (settings_table(ctx))
            (legend(w))
            div.optional { (inputs(ctx, docs)) }
            @if groups { (near_duplicate_groups(ctx)) }
        }
    }
}

fn settings_table(ctx: &Ctx<'_>) -> Markup {
    let w = ctx.w;
    let s = &ctx.base.settings;
    let n = &s.normalize;
    let on = |b: bool| if b { w.on } else { w.off };
    let rows: [(&str, String); 13] = [
        (w.k, s.k.to_string()),
        (w.w, s.w.to_string()),
        (w.guarantee, s.guarantee_t().to_string()),
        (w.min_chars, s.min_chars.to_string()),
        (w.nfkc, on(n.nfkc).into()),
        (w.case_fold, on(n.case_fold).into()),
        (w.t2s, on(n.traditional_to_simplified).into()),
        (w.drop_punct, on(n.drop_punctuation).into()),
        (w.simhash_threshold, s.simhash_threshold.to_string()),
        (w.coverage, percent(s.near_duplicate_coverage)),
        (w.min_sentence, s.min_sentence_tokens.to_string()),
        (w.max_file, s.ingest.max_file_bytes.to_string()),
        (w.timeout, s.ingest.timeout_secs.to_string()),
    ];
    html! {
        h2 { (w.settings) }
        table {
            @for (label, value) in rows { tr { th { (label) } td.n { (value) } } }
        }
    }
}

fn legend(w: &Words) -> Markup {
    html! {
        h2 { (w.legend) }
        ul.legend {
            @for kind in KINDS {
                @let (label, help) = w.kind(kind);
                li { mark style=(kind_css(kind, 0)) { (label) } " " (help) }
            }
        }
    }
}

fn role(w: &Words, role: Role) -> &'static str {
    match role {
        Role::Suspect => w.role_suspect,
        Role::Reference => w.role_reference,
        Role::Template => w.role_template,
    }
}

/// The file's size in bytes, read from the file system; "–" when it is gone.
fn file_size(doc: &DocumentEntry) -> String {
    std::fs::metadata(&doc.source).map_or_else(|_| "–".into(), |m| m.len().to_string())
}

fn inputs(ctx: &Ctx<'_>, docs: &[usize]) -> Markup {
    let w = ctx.w;
    html! {
        h2 { (w.inputs) }
        table.wide {
            thead { tr {
                th.n { "#" } th { (w.name) } th { (w.role) } th.n { (w.size) } th.n { (w.chars) } th { "SHA-256" }
            } }
            tbody {
                @for d in docs.iter().filter_map(|&id| ctx.base.documents.get(id)) {
                    @let lettered = ctx.lettered(d.id);
                    tr {
                        td.n { (d.id + 1) }
                        td.tok { (ctx.name(d.id)) @if d.error.is_some() { " " span.err { "(" (w.unreadable) ")" } } }
                        td { (role(w, d.role)) }
                        @if lettered {
                            td.n { "–" } td.n { "–" } td.sha { "–" }
                        } @else {
                            td.n { (file_size(d)) }
                            td.n { (d.chars) }
                            td.sha { (d.sha256.as_deref().unwrap_or("–")) }
                        }
                    }
                }
            }
        }
    }
}

fn near_duplicate_groups(ctx: &Ctx<'_>) -> Markup {
    let groups = &ctx.base.groups;
    html! {
        @if !groups.is_empty() {
            h2 { (ctx.w.groups) }
            ol { @for g in groups { li { (g.iter().map(|&id| ctx.name(id)).collect::<Vec<_>>().join(" · ")) } } }
        }
    }
}

//! The self-contained HTML report to hand on: one file, no network, inline CSS and a few
//! lines of optional JS. Its scope is the whole check, one suspect, or one pair; its
//! language is the reviewer's. It states the tool and version, the date, every input
//! (name, size, SHA-256), the settings in full, a legend of passage kinds, per suspect the
//! overall index and sources, and per pair a passage table and both texts side by side in
//! the window's colours ([`super::palette`]). Print-safe on A4 and Letter; the same inputs
//! give the same bytes apart from the date line.
//!
//! Size: each shown pair carries both texts. In a whole-check report the first
//! [`MAX_FULL_PAIRS`] pairs (highest score first), up to [`MAX_FULL_CHARS`] characters of
//! text in all, are shown in full; every further pair lists its passages as excerpts.

use std::fmt::Write as _;

use super::marks::{Marks, passage_key};
use super::palette::{kind_css, runs};
use super::view::{SuspectRow, overview};
use super::words::{KINDS, ReportLang, Words};
use super::{DocumentEntry, Pair, Report, TOOL};
use crate::model::{Mode, Role};

/// At most this many pairs are shown with both full texts.
pub const MAX_FULL_PAIRS: usize = 200;
/// At most this many characters of text (both sides, all pairs) are shown in full.
pub const MAX_FULL_CHARS: usize = 40_000_000;
/// Excerpts of pairs beyond the limits are cut to this many characters per side.
const EXCERPT_CHARS: usize = 400;

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

/// How to write a report.
#[derive(Clone, Debug, Default)]
pub struct HtmlOptions<'a> {
    pub scope: Scope,
    pub lang: ReportLang,
    /// The date line's text (see [`now_utc`]); the only part that changes between runs.
    pub date: String,
    /// The reviewer's marks and notes, shown beside pairs and passages.
    pub marks: Option<&'a Marks>,
}

/// Escapes text for HTML.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_into(&mut out, s);
    out
}

fn escape_into(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
}

const STYLE: &str = "
.flags{border:2px solid #c60;background:#fff6ec;padding:.2em 1em .6em;margin:1em 0}.flags h2{border:0;margin:.4em 0}mark.flag{background:#fc8;outline:1px solid #c60}u.flag{text-decoration:underline wavy #c60}
body{font-family:system-ui,'Noto Sans CJK SC','Microsoft YaHei','PingFang SC',sans-serif;margin:1.5em;color:#222;background:#fff;max-width:1400px}
h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.2em;margin:1.6em 0 .4em;border-top:1px solid #ccc;padding-top:.8em}
h3{font-size:1em;margin:1em 0 .3em}
table{border-collapse:collapse;font-size:.92em;margin:.3em 0}td,th{border:1px solid #ddd;padding:.2em .45em;text-align:left;vertical-align:top;overflow-wrap:anywhere}
table.wide{width:100%;table-layout:fixed}
th{background:#f3f3f3}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.nd{color:#b00;font-weight:bold}.err{color:#b00}.muted{color:#666}
.sha{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.78em;word-break:break-all}
.meta{margin:.2em 0}.scores{margin:.3em 0 .6em}.scores b{margin-right:1.2em;display:inline-block}
.bar{display:inline-block;height:.7em;background:#d04040;vertical-align:middle;margin-right:.4em}
.sbs{display:flex;gap:1em}.side{flex:1 1 0;min-width:0}
.side h3{font-size:.95em;margin:.2em 0;overflow-wrap:anywhere}
.text{white-space:pre-wrap;overflow-wrap:anywhere;border:1px solid #ccc;padding:.6em;max-height:75vh;overflow:auto;line-height:1.6;font-size:.95em}
mark{border-radius:2px;cursor:pointer}mark.flash{outline:2px solid #d00}
sup.lbl{font-size:.7em;font-weight:bold;color:#444;margin-right:1px}
.excerpt{white-space:pre-wrap}
ul.legend{list-style:none;padding:0;margin:.3em 0}ul.legend li{margin:.15em 0}
@page{margin:14mm}
@media print{body{margin:0;font-size:10pt;max-width:none}.text{max-height:none;overflow:visible}
h2,h3{break-after:avoid}tr{break-inside:avoid}a{color:inherit;text-decoration:none}.sbs{gap:.5em}}
";

const SCRIPT: &str = "
document.addEventListener('click',function(e){var m=e.target.closest('mark[data-twin]');if(!m)return;
var t=document.getElementById(m.dataset.twin);if(!t)return;t.scrollIntoView({block:'center'});
t.classList.add('flash');setTimeout(function(){t.classList.remove('flash')},900);});
";

/// The whole check as one HTML page, in English, dated now.
pub fn to_html(report: &Report) -> String {
    render(report, &HtmlOptions { date: now_utc(), ..HtmlOptions::default() })
}

/// The current date and time in UTC, as the report's date line shows it.
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let rem = secs % 86_400;
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", rem / 3600, rem % 3600 / 60)
}

/// What a scope covers: the pairs (indices) and the documents (ids, sorted).
fn covered(report: &Report, scope: Scope) -> (Vec<usize>, Vec<usize>) {
    let pairs: Vec<usize> = match scope {
        Scope::Run => (0..report.pairs.len()).collect(),
        Scope::Suspect(doc) => report
            .pairs
            .iter()
            .enumerate()
            .filter(|(_, p)| p.a == doc || (p.b == doc && report.second_is_checked(p)))
            .map(|(i, _)| i)
            .collect(),
        Scope::Pair(i) => (i < report.pairs.len()).then_some(i).into_iter().collect(),
    };
    let docs: Vec<usize> = match scope {
        Scope::Run => (0..report.documents.len()).collect(),
        Scope::Suspect(doc) => {
            let mut ids: Vec<usize> = pairs.iter().flat_map(|&i| [report.pairs[i].a, report.pairs[i].b]).collect();
            ids.push(doc);
            ids.sort_unstable();
            ids.dedup();
            ids
        }
        Scope::Pair(_) => {
            let mut ids: Vec<usize> = pairs.iter().flat_map(|&i| [report.pairs[i].a, report.pairs[i].b]).collect();
            ids.sort_unstable();
            ids.dedup();
            ids
        }
    };
    (pairs, docs)
}

/// The report as one HTML page.
pub fn render(report: &Report, options: &HtmlOptions<'_>) -> String {
    let words = options.lang.words();
    let (pairs, docs) = covered(report, options.scope);
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\"><meta name=\"generator\" content=\"{}\"><title>{}</title><style>{STYLE}</style></head><body>\n",
        words.html_lang,
        // The generator mark keeps a report saved inside a checked folder from being read
        // as a document (`engine::REPORT_GENERATOR_MARK`).
        super::TOOL,
        escape(words.title)
    );
    heading(&mut out, report, options, words);
    flags_box(&mut out, report, &docs, options.lang);
    settings_table(&mut out, report, words);
    legend(&mut out, words);
    inputs(&mut out, report, &docs, words);
    problems(&mut out, report, &docs, options.lang);
    overview_table(&mut out, report, options.scope, &pairs, words);
    let full = full_pairs(report, &pairs);
    pairs_table(&mut out, report, &pairs, words);
    if options.scope == Scope::Run {
        groups(&mut out, report, words);
    }
    for (n, &index) in pairs.iter().enumerate() {
        pair_section(&mut out, report, index, n < full, options, words);
    }
    out.push_str("<script>");
    out.push_str(SCRIPT);
    out.push_str("</script></body></html>\n");
    out
}

fn heading(out: &mut String, report: &Report, options: &HtmlOptions<'_>, w: &Words) {
    let scope = match options.scope {
        Scope::Run => w.scope_run.to_owned(),
        Scope::Suspect(doc) => format!("{}: {}", w.scope_suspect, name(report, doc)),
        Scope::Pair(i) => match report.pairs.get(i) {
            Some(p) => format!("{}: {} ⇐ {}", w.scope_pair, name(report, p.a), name(report, p.b)),
            None => w.scope_pair.to_owned(),
        },
    };
    let mode = match report.mode {
        Mode::SuspectsVsReferences => w.mode_refs,
        Mode::AllVsAll => w.mode_all,
        Mode::Classmates => w.mode_classmates,
    };
    let _ = writeln!(
        out,
        "<h1>{}</h1>\n<p class=meta><b>{scope}</b></p>\n<p class=meta>{}: {} · {}: {mode}</p>\n<p class=\"meta date\">{}: {}</p>",
        escape(w.title),
        w.made_by,
        escape(TOOL),
        w.mode,
        w.date,
        escape(&options.date)
    );
}

/// How many of the scope's first pairs are shown with their full texts.
fn full_pairs(report: &Report, pairs: &[usize]) -> usize {
    let mut chars = 0usize;
    let mut count = 0usize;
    for &i in pairs.iter().take(MAX_FULL_PAIRS) {
        let pair = &report.pairs[i];
        chars += doc_chars(report, pair.a) + doc_chars(report, pair.b);
        if chars > MAX_FULL_CHARS && count > 0 {
            break;
        }
        count += 1;
    }
    count
}

fn doc_chars(report: &Report, id: usize) -> usize {
    report.documents.get(id).map_or(0, |d| d.chars)
}

fn name(report: &Report, id: usize) -> String {
    report.documents.get(id).map(|d| escape(&d.path)).unwrap_or_else(|| "?".into())
}

fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// Column names of the two sides: suspect / reference, or neutral in all-vs-all mode.
fn sides(report: &Report, w: &Words) -> (&'static str, &'static str) {
    match report.mode {
        Mode::SuspectsVsReferences | Mode::Classmates => (w.suspect, w.reference),
        Mode::AllVsAll => (w.doc_a, w.doc_b),
    }
}

fn settings_table(out: &mut String, report: &Report, w: &Words) {
    let s = &report.settings;
    let n = &s.normalize;
    let on = |b: bool| if b { w.on } else { w.off };
    let _ = write!(out, "<h2>{}</h2><table>", w.settings);
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
    for (label, value) in rows {
        let _ = write!(out, "<tr><th>{}</th><td class=n>{}</td></tr>", escape(label), escape(&value));
    }
    out.push_str("</table>\n");
}

fn legend(out: &mut String, w: &Words) {
    let _ = write!(out, "<h2>{}</h2><ul class=legend>", w.legend);
    for kind in KINDS {
        let (label, help) = w.kind(kind);
        let _ = write!(out, "<li><mark style=\"{}\">{label}</mark> {help}</li>", kind_css(kind, 0));
    }
    out.push_str("</ul>\n");
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

fn inputs(out: &mut String, report: &Report, docs: &[usize], w: &Words) {
    let _ = writeln!(
        out,
        "<h2>{}</h2><table class=wide><colgroup><col style=\"width:4%\"><col style=\"width:30%\"><col style=\"width:10%\">\
<col style=\"width:11%\"><col style=\"width:10%\"><col style=\"width:35%\"></colgroup>\
<tr><th class=n>#</th><th>{}</th><th>{}</th><th class=n>{}</th><th class=n>{}</th><th>SHA-256</th></tr>",
        w.inputs, w.name, w.role, w.size, w.chars
    );
    for &id in docs {
        let Some(d) = report.documents.get(id) else {
            continue;
        };
        let _ = writeln!(
            out,
            "<tr><td class=n>{}</td><td>{}{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=sha>{}</td></tr>",
            id + 1,
            escape(&d.path),
            if d.error.is_some() { format!(" <span class=err>({})</span>", w.unreadable) } else { String::new() },
            role(w, d.role),
            file_size(d),
            d.chars,
            d.sha256.as_deref().map_or_else(|| "–".into(), escape)
        );
    }
    out.push_str("</table>\n");
}

/// Characters shown on each side of a flagged span in the flags box.
const FLAG_CONTEXT_CHARS: u32 = 24;

/// The box near the top: each flagged document, what it does, and where (the first
/// spans, marked in a short excerpt).
fn flags_box(out: &mut String, report: &Report, docs: &[usize], lang: ReportLang) {
    let w = lang.words();
    let flagged: Vec<&DocumentEntry> =
        docs.iter().filter_map(|&id| report.documents.get(id)).filter(|d| !d.flags.is_empty()).collect();
    if flagged.is_empty() {
        return;
    }
    let _ = writeln!(out, "<div class=flags><h2>⚠ {}</h2><p class=muted>{}</p><ul>", w.flags, w.flags_help);
    for d in flagged {
        let _ = write!(out, "<li><b>{}</b><ul>", escape(&d.path));
        for flag in &d.flags {
            let said = if lang == ReportLang::Zh { flag.zh() } else { flag.to_string() };
            let _ = write!(out, "<li>{}", escape(&said));
            for span in &flag.spans {
                out.push_str("<br><span class=excerpt>");
                flag_excerpt(out, &d.text, span[0], span[1]);
                out.push_str("</span>");
            }
            out.push_str("</li>");
        }
        out.push_str("</ul></li>\n");
    }
    out.push_str("</ul></div>\n");
}

/// A short excerpt around `[start, end)` with the span marked (an empty span, where hidden
/// text was taken out, as a ▮).
fn flag_excerpt(out: &mut String, text: &str, start: u32, end: u32) {
    let from = start.saturating_sub(FLAG_CONTEXT_CHARS);
    let to = end.saturating_add(FLAG_CONTEXT_CHARS);
    let visible =
        |s: &str| s.chars().map(|c| if c.is_whitespace() || c.is_control() { ' ' } else { c }).collect::<String>();
    out.push('…');
    escape_into(out, &visible(&text[super::byte_range(text, from, start)]));
    out.push_str("<mark class=flag>");
    let inside = &text[super::byte_range(text, start, end)];
    if inside.is_empty() {
        out.push('▮');
    } else {
        // Invisible characters are shown by their code points.
        for c in inside.chars() {
            if c.is_alphanumeric() {
                escape_into(out, c.encode_utf8(&mut [0; 4]));
            } else {
                let _ = write!(out, "⟨U+{:04X}⟩", c as u32);
            }
        }
    }
    out.push_str("</mark>");
    escape_into(out, &visible(&text[super::byte_range(text, end, to)]));
    out.push('…');
}

fn problems(out: &mut String, report: &Report, docs: &[usize], lang: ReportLang) {
    let w = lang.words();
    let with: Vec<&DocumentEntry> = docs
        .iter()
        .filter_map(|&id| report.documents.get(id))
        .filter(|d| d.error.is_some() || !d.warnings.is_empty())
        .collect();
    if with.is_empty() {
        return;
    }
    let _ = writeln!(out, "<h2>{}</h2><ul>", w.problems);
    for d in with {
        let _ = write!(out, "<li><b>{}</b>", escape(&d.path));
        if let Some(e) = &d.error {
            // English: the message as the JSON has it; another language: the message alone,
            // as the path stands before it.
            let message = match lang {
                ReportLang::En => e.to_string(),
                _ => lang.doc_error(e, &d.path),
            };
            let _ = write!(out, ": <span class=err>{}</span>", escape(&message));
        }
        for warning in &d.warnings {
            let _ = write!(out, "<br><span class=muted>{}: {}</span>", w.note, escape(&lang.notice(warning)));
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ul>\n");
}

fn overview_table(out: &mut String, report: &Report, scope: Scope, pairs: &[usize], w: &Words) {
    let rows: Vec<SuspectRow> = overview(report)
        .into_iter()
        .filter(|r| match scope {
            Scope::Run => true,
            Scope::Suspect(doc) => r.doc == doc,
            Scope::Pair(_) => pairs.first().is_some_and(|&i| report.pairs[i].a == r.doc),
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    let (side_a, _) = sides(report, w);
    let _ = writeln!(
        out,
        "<h2>{}</h2><p class=muted>{}: {}</p><table class=wide><colgroup><col style=\"width:35%\"><col style=\"width:20%\"><col style=\"width:45%\"></colgroup>\
<tr><th>{side_a}</th><th>{}</th><th>{}</th></tr>",
        w.overview, w.overall, w.overall_help, w.overall, w.sources
    );
    for row in rows {
        let sources: Vec<String> = row
            .sources
            .iter()
            .map(|s| format!("<a href=\"#pair-{}\">{}</a> {}", s.pair, name(report, s.doc), percent(s.share)))
            .collect();
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=n><span class=bar style=\"width:{:.0}px\"></span>{}</td><td>{}</td></tr>",
            name(report, row.doc),
            (row.overall * 60.0).round(),
            percent(row.overall),
            sources.join("<br>")
        );
    }
    out.push_str("</table>\n");
}

fn pairs_table(out: &mut String, report: &Report, pairs: &[usize], w: &Words) {
    let _ = write!(out, "<h2>{}</h2>", w.pairs);
    if pairs.is_empty() {
        let _ = writeln!(out, "<p>{}</p>", w.no_pairs);
        return;
    }
    let (side_a, side_b) = sides(report, w);
    let (of_a, of_b) = match report.mode {
        Mode::SuspectsVsReferences | Mode::Classmates => (format!("% {}", w.suspect), format!("% {}", w.reference)),
        Mode::AllVsAll => (w.of_a.to_owned(), w.of_b.to_owned()),
    };
    let _ = writeln!(
        out,
        "<table class=wide><colgroup><col style=\"width:5%\"><col style=\"width:27%\"><col style=\"width:27%\"><col style=\"width:9%\">\
<col style=\"width:9%\"><col style=\"width:8%\"><col style=\"width:7%\"><col style=\"width:8%\"></colgroup>\
<tr><th class=n>#</th><th>{side_a}</th><th>{side_b}</th><th class=n>{of_a}</th><th class=n>{of_b}</th>\
<th class=n>{}</th><th class=n>{}</th><th class=n>{}</th></tr>",
        w.simhash, w.passages, w.longest
    );
    for &i in pairs {
        let p = &report.pairs[i];
        let _ = writeln!(
            out,
            "<tr><td class=n><a href=\"#pair-{i}\">{}</a></td><td>{}</td><td>{}{}</td><td class=n>{}</td><td class=n>{}</td>\
<td class=n>{}</td><td class=n>{}</td><td class=n>{}</td></tr>",
            i + 1,
            name(report, p.a),
            name(report, p.b),
            if p.near_duplicate { format!(" <span class=nd>{}</span>", w.near_duplicate) } else { String::new() },
            percent(p.score),
            percent(p.score_b),
            p.simhash_distance.map_or("–".into(), |d| d.to_string()),
            p.passages.len(),
            p.longest,
        );
    }
    out.push_str("</table>\n");
}

fn groups(out: &mut String, report: &Report, w: &Words) {
    if report.groups.is_empty() {
        return;
    }
    let _ = writeln!(out, "<h2>{}</h2><ol>", w.groups);
    for g in &report.groups {
        let names: Vec<String> = g.iter().map(|&id| name(report, id)).collect();
        let _ = writeln!(out, "<li>{}</li>", names.join(" · "));
    }
    out.push_str("</ol>\n");
}

fn pair_section(out: &mut String, report: &Report, index: usize, full: bool, options: &HtmlOptions<'_>, w: &Words) {
    let Some(pair) = report.pairs.get(index) else {
        return;
    };
    let (side_a, side_b) = sides(report, w);
    let _ = writeln!(
        out,
        "<h2 id=\"pair-{index}\">{}. {} ⇐ {}{}</h2>",
        index + 1,
        name(report, pair.a),
        name(report, pair.b),
        if pair.near_duplicate { format!(" <span class=nd>{}</span>", w.near_duplicate) } else { String::new() }
    );
    let _ = writeln!(
        out,
        "<div class=scores><b>{side_a}: {}</b><b>{side_b}: {}</b><b>{}: {}</b><b>{}: {}</b><b>{}: {}</b></div>",
        percent(pair.score),
        percent(pair.score_b),
        w.simhash,
        pair.simhash_distance.map_or("–".into(), |d| d.to_string()),
        w.passages,
        pair.passages.len(),
        w.longest,
        pair.longest,
    );
    let marks = options.marks.and_then(|m| m.pair(report, pair).map(|pm| (m, pm)));
    if let Some((_, pm)) = marks {
        if let Some(mark) = pm.mark {
            let _ = writeln!(out, "<p><b>{}:</b> {}</p>", w.mark, w.mark(mark));
        }
        if !pm.note.trim().is_empty() {
            let _ = writeln!(out, "<p><b>{}:</b> {}</p>", w.review_note, escape(&pm.note));
        }
    }
    let (Some(a), Some(b)) = (report.documents.get(pair.a), report.documents.get(pair.b)) else {
        return;
    };
    passage_table(out, report, pair, options.marks, w);
    if full {
        out.push_str("<div class=sbs>");
        side(out, index, a, pair, true, side_a);
        side(out, index, b, pair, false, side_b);
        out.push_str("</div>\n");
    } else {
        let _ = writeln!(out, "<p class=muted>{}</p>", w.excerpts_only);
        excerpts(out, a, b, pair, side_a, side_b);
    }
}

fn passage_table(out: &mut String, report: &Report, pair: &Pair, marks: Option<&Marks>, w: &Words) {
    if pair.passages.is_empty() {
        return;
    }
    let (side_a, side_b) = sides(report, w);
    let _ = writeln!(
        out,
        "<table><tr><th class=n>#</th><th>{}</th><th class=n>{side_a}: {}</th><th class=n>{}</th>\
<th class=n>{side_b}: {}</th><th class=n>{}</th>{}</tr>",
        w.kind,
        w.position,
        w.length,
        w.position,
        w.length,
        if marks.is_some() { format!("<th>{}</th>", w.mark) } else { String::new() }
    );
    for (i, p) in pair.passages.iter().enumerate() {
        let mark = marks.map(|m| {
            let key = passage_key(report, pair, p);
            let mark = if m.stop_passages.contains_key(&key) {
                Some(super::marks::Mark::DismissedEverywhere)
            } else {
                m.pair(report, pair).and_then(|pm| pm.passages.get(&key).copied())
            };
            format!("<td>{}</td>", mark.map_or("", |k| w.mark(k)))
        });
        let _ = writeln!(
            out,
            "<tr><td class=n><mark style=\"{}\">{}</mark></td><td>{}</td><td class=n>{}–{}</td><td class=n>{}</td>\
<td class=n>{}–{}</td><td class=n>{}</td>{}</tr>",
            kind_css(p.kind, i),
            i + 1,
            w.kind(p.kind).0,
            p.a_start,
            p.a_end,
            p.a_len(),
            p.b_start,
            p.b_end,
            p.b_len(),
            mark.unwrap_or_default()
        );
    }
    out.push_str("</table>\n");
}

/// One side of a pair: the whole text, passages as numbered `<mark>`s with the twin's id.
fn side(out: &mut String, pair_index: usize, doc: &DocumentEntry, pair: &Pair, first: bool, title: &str) {
    let (me, twin) = if first { ('a', 'b') } else { ('b', 'a') };
    let ranges: Vec<(u32, u32)> =
        pair.passages.iter().map(|p| if first { (p.a_start, p.a_end) } else { (p.b_start, p.b_end) }).collect();
    let _ = write!(out, "<div class=side><h3>{title}: {}</h3><div class=text>", escape(&doc.path));
    let text = &*doc.text;
    let mut starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    starts.push(text.len());
    let chars = (starts.len() - 1) as u32;
    let mut marked = vec![false; ranges.len()];
    let mut flagged: Vec<(u32, u32)> = doc
        .flags
        .iter()
        .flat_map(|f| &f.spans)
        .filter(|s| s[0] < s[1] && s[1] <= chars)
        .map(|s| (s[0], s[1]))
        .collect();
    flagged.sort_unstable();
    let flagged_slice = |out: &mut String, from: u32, to: u32| escape_flagged(out, text, &starts, (from, to), &flagged);
    for run in runs(chars, &ranges) {
        match run.passage {
            None => flagged_slice(out, run.start, run.end),
            Some(i) => {
                // The first run of a passage carries its id and number, so the twin can
                // scroll to it and a reader can match it with the passage table.
                let (id, label) = if marked[i] {
                    (String::new(), String::new())
                } else {
                    marked[i] = true;
                    (format!(" id=\"p{pair_index}{me}{i}\""), format!("<sup class=lbl>{}</sup>", i + 1))
                };
                let kind = pair.passages.get(i).map(|p| p.kind).unwrap_or_default();
                let _ = write!(
                    out,
                    "<mark{id} data-twin=\"p{pair_index}{twin}{i}\" style=\"{}\" title=\"{}\">{label}",
                    kind_css(kind, i),
                    i + 1
                );
                flagged_slice(out, run.start, run.end);
                out.push_str("</mark>");
            }
        }
    }
    out.push_str("</div></div>");
}

/// Characters `[range.0, range.1)` of `text` (`starts`: each character's byte offset and the
/// end), escaped, with the `flagged` spans (sorted) underlined.
fn escape_flagged(out: &mut String, text: &str, starts: &[usize], range: (u32, u32), flagged: &[(u32, u32)]) {
    let slice = |from: u32, to: u32| &text[starts[from as usize]..starts[to as usize]];
    let (from, to) = range;
    let mut at = from;
    for &(s, e) in flagged.iter().filter(|&&(s, e)| s < to && e > from) {
        let (s, e) = (s.max(at), e.min(to));
        if s > at {
            escape_into(out, slice(at, s));
        }
        if e > s {
            out.push_str("<u class=flag>");
            escape_into(out, slice(s, e));
            out.push_str("</u>");
        }
        at = at.max(e);
    }
    if at < to {
        escape_into(out, slice(at, to));
    }
}

fn excerpts(out: &mut String, a: &DocumentEntry, b: &DocumentEntry, pair: &Pair, side_a: &str, side_b: &str) {
    let _ = writeln!(out, "<table class=wide><tr><th style=\"width:5%\">#</th><th>{side_a}</th><th>{side_b}</th></tr>");
    for (i, p) in pair.passages.iter().enumerate() {
        let cut = |doc: &DocumentEntry, start: u32, end: u32| {
            let text: String = doc.text[super::byte_range(&doc.text, start, end)].chars().take(EXCERPT_CHARS).collect();
            let more = (end - start) as usize > EXCERPT_CHARS;
            format!("{}{}", escape(&text), if more { "…" } else { "" })
        };
        let style = kind_css(p.kind, i);
        let _ = writeln!(
            out,
            "<tr><td class=n>{}</td><td class=excerpt style=\"{style}\">{}</td><td class=excerpt style=\"{style}\">{}</td></tr>",
            i + 1,
            cut(a, p.a_start, p.a_end),
            cut(b, p.b_start, p.b_end),
        );
    }
    out.push_str("</table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::marks::Mark;
    use crate::report::tests_support::sample;

    fn options(scope: Scope, lang: ReportLang) -> HtmlOptions<'static> {
        HtmlOptions { scope, lang, date: "DATE".into(), marks: None }
    }

    #[test]
    fn html_is_escaped_self_contained_and_lights_passages_on_both_sides() {
        let report = sample();
        let html = render(&report, &options(Scope::Run, ReportLang::En));
        assert!(html.contains("s&lt;1&gt;.txt"));
        assert!(!html.contains("s<1>"));
        assert!(html.contains("&amp; more"));
        let r = report.pairs.iter().position(|p| p.b == 1).unwrap();
        assert!(html.contains(&format!("id=\"p{r}a0\" data-twin=\"p{r}b0\"")));
        assert!(html.contains(&format!("id=\"p{r}b0\" data-twin=\"p{r}a0\"")));
        assert!(html.contains("<sup class=lbl>1</sup>软件工程是一门学科</mark>"));
        assert!(html.contains("not a PDF: bad.pdf"));
        assert!(html.contains("guarantee t"));
        assert!(!html.contains("http://") && !html.contains("https://"));
    }

    #[test]
    fn a_report_states_tool_date_inputs_settings_legend_and_every_kind() {
        let report = sample();
        let html = render(&report, &options(Scope::Run, ReportLang::En));
        assert!(html.contains(TOOL));
        assert!(html.contains("Date: DATE"));
        assert!(html.contains(&"a".repeat(64)));
        assert!(html.contains("<h2>Settings</h2>"));
        assert!(!html.contains("<details>"));
        for kind in ["copied", "quoted", "common", "template"] {
            assert!(html.contains(&format!(">{kind}</mark>")), "{kind}");
        }
        assert!(html.contains("font-style:italic"));
        assert!(html.contains("Overall similarity"));
    }

    #[test]
    fn scopes_cover_one_suspect_or_one_pair_and_chinese_follows() {
        let report = sample();
        let pair = render(&report, &options(Scope::Pair(1), ReportLang::Zh));
        assert!(pair.contains("lang=\"zh-CN\""));
        assert!(pair.contains("单个文档对"));
        assert!(pair.contains("id=\"pair-1\""));
        assert!(!pair.contains("id=\"pair-0\""));
        assert!(!pair.contains("bad.pdf"));
        let suspect = render(&report, &options(Scope::Suspect(0), ReportLang::En));
        assert!(suspect.contains("id=\"pair-0\"") && suspect.contains("id=\"pair-1\""));
        assert!(suspect.contains("One document: s&lt;1&gt;.txt"));
    }

    #[test]
    fn same_inputs_give_the_same_bytes_apart_from_the_date_line() {
        let report = sample();
        let one = render(&report, &HtmlOptions { date: "2026-01-01 00:00 UTC".into(), ..HtmlOptions::default() });
        let two = render(&report, &HtmlOptions { date: now_utc(), ..HtmlOptions::default() });
        let strip = |s: &str| s.lines().filter(|l| !l.contains("class=\"meta date\"")).collect::<Vec<_>>().join("\n");
        assert_eq!(strip(&one), strip(&two));
        assert_ne!(one, two);
        assert_eq!(now_utc().len(), "2026-01-01 00:00 UTC".len());
    }

    #[test]
    fn marks_and_notes_show_in_the_pair_section() {
        let report = sample();
        let mut marks = Marks::default();
        let pair = &report.pairs[0];
        marks.set_pair(&report, pair, Some(Mark::Confirmed));
        marks.set_note(&report, pair, "talked <to> them");
        let html = render(&report, &HtmlOptions { marks: Some(&marks), ..options(Scope::Pair(0), ReportLang::En) });
        assert!(html.contains("<b>Review:</b> confirmed"));
        assert!(html.contains("talked &lt;to&gt; them"));
    }

    #[test]
    fn flags_get_a_box_at_the_top_and_their_spans_are_marked_in_the_text() {
        use crate::model::{Flag, FlagKind, LookAlikeScript};
        let mut report = sample();
        let plain = render(&report, &options(Scope::Run, ReportLang::En));
        assert!(!plain.contains("class=flags") && !plain.contains("<u class=flag>"));
        let mut flag = Flag::new(FlagKind::LookAlikeLetters, Some(LookAlikeScript::Cyrillic));
        flag.add(3, 5, 2);
        report.documents[0].flags = vec![flag];
        let html = render(&report, &options(Scope::Run, ReportLang::En));
        let top = html.find("class=flags").unwrap_or(usize::MAX);
        assert!(top < html.find("<table").unwrap_or(0), "the box comes before the tables");
        assert!(html.contains("Look-alike letters: 2 Cyrillic letters inside English words"));
        assert!(html.contains("<mark class=flag>软件</mark>"), "the excerpt marks the span");
        assert!(html.contains("<u class=flag>软件</u>"), "the text marks the span");
        let zh = render(&report, &options(Scope::Run, ReportLang::Zh));
        assert!(zh.contains("形近字替换：英文单词中有 2 个西里尔字母"));
    }
}

//! The self-contained HTML report: one file, no network, inline CSS and a few lines of
//! optional JS. On top the settings, the documents that could not be read and a table of
//! every pair; below, per pair, both texts side by side with the shared passages lit in
//! the same colours as the window ([`super::palette`]).
//!
//! Size: a pair's colours are its own, so each shown pair carries both texts. The first
//! [`MAX_FULL_PAIRS`] pairs (highest score first), up to [`MAX_FULL_CHARS`] characters of
//! text in all, are shown in full; every further pair lists its passages as excerpts.

use std::fmt::Write as _;

use super::palette::{css_colour, runs};
use super::{DocumentEntry, Pair, Report};
use crate::engine::Mode;

/// At most this many pairs are shown with both full texts.
pub const MAX_FULL_PAIRS: usize = 200;
/// At most this many characters of text (both sides, all pairs) are shown in full.
pub const MAX_FULL_CHARS: usize = 40_000_000;
/// Excerpts of pairs beyond the limits are cut to this many characters per side.
const EXCERPT_CHARS: usize = 400;

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
body{font-family:system-ui,'Noto Sans CJK SC','Microsoft YaHei','PingFang SC',sans-serif;margin:1.5em;color:#222;background:#fff}
h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.2em;margin:1.6em 0 .4em;border-top:1px solid #ccc;padding-top:.8em}
table{border-collapse:collapse;font-size:.92em}td,th{border:1px solid #ddd;padding:.2em .5em;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}
.nd{color:#b00;font-weight:bold}.err{color:#b00}.muted{color:#666}
.scores{margin:.3em 0 .6em}.scores b{margin-right:1.2em}
.sbs{display:flex;gap:1em}.side{flex:1;min-width:0}
.side h3{font-size:.95em;margin:.2em 0;word-break:break-all}
.text{white-space:pre-wrap;word-wrap:break-word;border:1px solid #ccc;padding:.6em;max-height:75vh;overflow:auto;line-height:1.6;font-size:.95em}
mark{color:#000;cursor:pointer;border-radius:2px}mark.flash{outline:2px solid #d00}
.excerpt{white-space:pre-wrap;font-size:.9em}
@media print{.text{max-height:none;overflow:visible}}
";

const SCRIPT: &str = "
document.addEventListener('click',function(e){var m=e.target.closest('mark[data-twin]');if(!m)return;
var t=document.getElementById(m.dataset.twin);if(!t)return;t.scrollIntoView({block:'center'});
t.classList.add('flash');setTimeout(function(){t.classList.remove('flash')},900);});
";

/// The report as one HTML page.
pub fn to_html(report: &Report) -> String {
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("<!doctype html>\n<html><head><meta charset=\"utf-8\">");
    // The generator mark keeps a report saved inside a checked folder from being read as a
    // document (`engine::REPORT_GENERATOR_MARK`).
    out.push_str(&format!("<meta name=\"generator\" content=\"{}\">", super::TOOL));
    out.push_str("<title>Twinspot report</title><style>");
    out.push_str(STYLE);
    out.push_str("</style></head><body>\n<h1>Twinspot report</h1>\n");
    summary(&mut out, report);
    settings_table(&mut out, report);
    errors(&mut out, report);
    let full = full_pairs(report);
    pairs_table(&mut out, report, full);
    groups(&mut out, report);
    for (index, pair) in report.pairs.iter().enumerate() {
        pair_section(&mut out, report, index, pair, index < full);
    }
    out.push_str("<script>");
    out.push_str(SCRIPT);
    out.push_str("</script></body></html>\n");
    out
}

/// How many of the first pairs are shown with their full texts.
fn full_pairs(report: &Report) -> usize {
    let mut chars = 0usize;
    let mut count = 0usize;
    for pair in report.pairs.iter().take(MAX_FULL_PAIRS) {
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

fn summary(out: &mut String, report: &Report) {
    let unreadable = report.errors().count();
    let mode = match report.mode {
        Mode::SuspectsVsReferences => "suspects against references",
        Mode::AllVsAll => "every document against every other",
    };
    let _ = writeln!(
        out,
        "<p>{} documents ({} could not be read), compared {}: {} pairs share text, {} near duplicates.</p>",
        report.documents.len(),
        unreadable,
        mode,
        report.pairs.len(),
        report.near_duplicates.len()
    );
}

fn settings_table(out: &mut String, report: &Report) {
    let s = &report.settings;
    let n = &s.normalize;
    let on = |b: bool| if b { "on" } else { "off" };
    let _ = writeln!(
        out,
        "<details><summary>Settings</summary><table>\
<tr><th>k (tokens per k-gram)</th><td class=n>{}</td></tr>\
<tr><th>w (winnowing window)</th><td class=n>{}</td></tr>\
<tr><th>guarantee t = w + k − 1 (tokens)</th><td class=n>{}</td></tr>\
<tr><th>minimum passage length (characters)</th><td class=n>{}</td></tr>\
<tr><th>Unicode NFKC</th><td>{}</td></tr><tr><th>case folding</th><td>{}</td></tr>\
<tr><th>traditional → simplified Chinese</th><td>{}</td></tr><tr><th>drop punctuation</th><td>{}</td></tr>\
<tr><th>near duplicates: SimHash distance at most</th><td class=n>{}</td></tr>\
<tr><th>near duplicates: shared coverage at least</th><td class=n>{}</td></tr>\
<tr><th>minimum sentence length (tokens)</th><td class=n>{}</td></tr></table></details>",
        s.k,
        s.w,
        s.guarantee_t(),
        s.min_chars,
        on(n.nfkc),
        on(n.case_fold),
        on(n.traditional_to_simplified),
        on(n.drop_punctuation),
        s.simhash_threshold,
        percent(s.near_duplicate_coverage),
        s.min_sentence_tokens
    );
}

fn errors(out: &mut String, report: &Report) {
    let with_problems: Vec<&DocumentEntry> =
        report.documents.iter().filter(|d| d.error.is_some() || !d.warnings.is_empty()).collect();
    if with_problems.is_empty() {
        return;
    }
    out.push_str("<h2>Documents with problems</h2><ul>\n");
    for d in with_problems {
        let _ = write!(out, "<li><b>{}</b>", escape(&d.path));
        if let Some(e) = &d.error {
            let _ = write!(out, ": <span class=err>{}</span>", escape(e));
        }
        for w in &d.warnings {
            let _ = write!(out, "<br><span class=muted>{}</span>", escape(w));
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ul>\n");
}

fn pairs_table(out: &mut String, report: &Report, full: usize) {
    if report.pairs.is_empty() {
        out.push_str("<p>No pairs share text.</p>\n");
        return;
    }
    out.push_str("<h2>Pairs</h2>");
    if full < report.pairs.len() {
        let _ = write!(
            out,
            "<p class=muted>The first {full} pairs are shown with both texts in full; the other {} list their passages.</p>",
            report.pairs.len() - full
        );
    }
    out.push_str(
        "<table><tr><th>#</th><th>suspect</th><th>reference</th><th>% of suspect</th><th>% of reference</th>\
<th>SimHash distance</th><th>passages</th><th>longest</th><th></th></tr>\n",
    );
    for (i, p) in report.pairs.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><td class=n><a href=\"#pair-{i}\">{}</a></td><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td>\
<td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td>{}</td></tr>",
            i + 1,
            name(report, p.a),
            name(report, p.b),
            percent(p.score),
            percent(p.score_b),
            p.simhash_distance.map_or("–".into(), |d| d.to_string()),
            p.passages.len(),
            p.longest,
            if p.near_duplicate { "<span class=nd>near duplicate</span>" } else { "" }
        );
    }
    out.push_str("</table>\n");
}

fn groups(out: &mut String, report: &Report) {
    if report.groups.is_empty() {
        return;
    }
    out.push_str("<h2>Near-duplicate groups</h2><ol>\n");
    for g in &report.groups {
        let names: Vec<String> = g.iter().map(|&id| name(report, id)).collect();
        let _ = writeln!(out, "<li>{}</li>", names.join(" · "));
    }
    out.push_str("</ol>\n");
}

fn pair_section(out: &mut String, report: &Report, index: usize, pair: &Pair, full: bool) {
    let _ = writeln!(
        out,
        "<h2 id=\"pair-{index}\">{}. {} ⇐ {}{}</h2>",
        index + 1,
        name(report, pair.a),
        name(report, pair.b),
        if pair.near_duplicate { " <span class=nd>near duplicate</span>" } else { "" }
    );
    let _ = writeln!(
        out,
        "<div class=scores><b>{} of the suspect</b><b>{} of the reference</b><b>SimHash distance {}</b>\
<b>{} passages</b><b>longest {} characters</b><b>{} shared sentences</b></div>",
        percent(pair.score),
        percent(pair.score_b),
        pair.simhash_distance.map_or("–".into(), |d| d.to_string()),
        pair.passages.len(),
        pair.longest,
        pair.shared_sentences
    );
    let (Some(a), Some(b)) = (report.documents.get(pair.a), report.documents.get(pair.b)) else {
        return;
    };
    if full {
        out.push_str("<div class=sbs>");
        let a_ranges: Vec<(u32, u32)> = pair.passages.iter().map(|p| (p.a_start, p.a_end)).collect();
        let b_ranges: Vec<(u32, u32)> = pair.passages.iter().map(|p| (p.b_start, p.b_end)).collect();
        side(out, index, a, &a_ranges, 'a', 'b');
        side(out, index, b, &b_ranges, 'b', 'a');
        out.push_str("</div>\n");
    } else {
        excerpts(out, a, b, pair);
    }
}

/// One side of a pair: the whole text, passages as `<mark>` with the twin's id.
fn side(out: &mut String, pair: usize, doc: &DocumentEntry, ranges: &[(u32, u32)], me: char, twin: char) {
    let _ = write!(out, "<div class=side><h3>{}</h3><div class=text>", escape(&doc.path));
    let text = &*doc.text;
    let mut starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    starts.push(text.len());
    let chars = (starts.len() - 1) as u32;
    let mut marked = vec![false; ranges.len()];
    for run in runs(chars, ranges) {
        let slice = &text[starts[run.start as usize]..starts[run.end as usize]];
        match run.passage {
            None => escape_into(out, slice),
            Some(i) => {
                // The first run of a passage carries its id, so the twin can scroll to it.
                let id = if marked[i] {
                    String::new()
                } else {
                    marked[i] = true;
                    format!(" id=\"p{pair}{me}{i}\"")
                };
                let _ = write!(
                    out,
                    "<mark{id} data-twin=\"p{pair}{twin}{i}\" style=\"background:{}\" title=\"passage {}\">",
                    css_colour(i),
                    i + 1
                );
                escape_into(out, slice);
                out.push_str("</mark>");
            }
        }
    }
    out.push_str("</div></div>");
}

fn excerpts(out: &mut String, a: &DocumentEntry, b: &DocumentEntry, pair: &Pair) {
    out.push_str("<table><tr><th>#</th><th>suspect</th><th>reference</th></tr>\n");
    for (i, p) in pair.passages.iter().enumerate() {
        let cut = |doc: &DocumentEntry, start: u32, end: u32| {
            let text: String = doc.text[super::byte_range(&doc.text, start, end)].chars().take(EXCERPT_CHARS).collect();
            let more = (end - start) as usize > EXCERPT_CHARS;
            format!("{}{}", escape(&text), if more { "…" } else { "" })
        };
        let _ = writeln!(
            out,
            "<tr><td class=n>{}</td><td class=excerpt style=\"background:{c}\">{}</td><td class=excerpt style=\"background:{c}\">{}</td></tr>",
            i + 1,
            cut(a, p.a_start, p.a_end),
            cut(b, p.b_start, p.b_end),
            c = css_colour(i)
        );
    }
    out.push_str("</table>\n");
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use super::*;
    use crate::engine::Role;
    use crate::report::Passage;
    use crate::settings::Settings;

    fn doc(id: usize, path: &str, text: &str, error: Option<&str>) -> DocumentEntry {
        DocumentEntry {
            id,
            path: path.into(),
            source: PathBuf::from(path),
            role: if id == 0 { Role::Suspect } else { Role::Reference },
            chars: text.chars().count(),
            countable_chars: text.chars().count(),
            simhash: None,
            sha256: None,
            error: error.map(str::to_string),
            warnings: vec![],
            text: Arc::from(text),
        }
    }

    fn report() -> Report {
        Report {
            settings: Settings::default(),
            mode: Mode::SuspectsVsReferences,
            documents: vec![
                doc(0, "s<1>.txt", "前言。软件工程是一门学科 & more", None),
                doc(1, "r.txt", "软件工程是一门学科", None),
                doc(2, "bad.pdf", "", Some("not a PDF: bad.pdf")),
            ],
            pairs: vec![Pair {
                a: 0,
                b: 1,
                score: 0.5,
                score_b: 1.0,
                simhash_distance: Some(4),
                passages: vec![Passage::copied((3, 12), (0, 9))],
                longest: 9,
                shared_sentences: 1,
                near_duplicate: true,
            }],
            near_duplicates: vec![[0, 1]],
            groups: vec![vec![0, 1]],
            skipped: vec![],
        }
    }

    #[test]
    fn html_is_escaped_self_contained_and_lights_passages_on_both_sides() {
        let html = to_html(&report());
        assert!(html.contains("s&lt;1&gt;.txt"));
        assert!(!html.contains("s<1>"));
        assert!(html.contains("&amp; more"));
        assert!(html.contains("id=\"p0a0\" data-twin=\"p0b0\""));
        assert!(html.contains("id=\"p0b0\" data-twin=\"p0a0\""));
        assert!(html.contains(">软件工程是一门学科</mark>"));
        assert!(html.contains("not a PDF: bad.pdf"));
        assert!(html.contains("guarantee t"));
        assert!(!html.contains("http://") && !html.contains("https://"));
    }
}

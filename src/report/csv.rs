//! The pairs as CSV, one row per pair, for spreadsheets. Shares are percentages with one
//! decimal, as the window shows them; the last column names the tool and its version.

use std::fmt::Write;

use super::Report;
use crate::model::Flag;

/// Quotes a field when it holds a comma, quote or line break. A field a spreadsheet would
/// take for a formula (starting with = + - @, a tab or a carriage return: a file named
/// `=1+2.txt`) gets a leading `'`, as OWASP's guidance on CSV injection says.
fn field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{s}") } else { s.to_string() };
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s }
}

/// A document's flags in one cell: `kind:count` (look-alikes `look_alike_letters/script:count`)
/// separated by spaces; empty for an ordinary document.
pub fn flags_cell(flags: &[Flag]) -> String {
    flags
        .iter()
        .map(|f| match f.script {
            Some(script) => format!("{}/{}:{}", f.kind.name(), script.name(), f.count),
            None => format!("{}:{}", f.kind.name(), f.count),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One header line, then one line per pair in report order, then one line per checked
/// document that shares no text with any other (no reference, 0.0 %): "no shared text
/// found" is a result.
pub fn to_csv(report: &Report) -> String {
    let mut out = String::from(
        "suspect,reference,percent_of_suspect,percent_of_reference,simhash_distance,passages,longest_passage,shared_sentences,near_duplicate,suspect_flags,tool\n",
    );
    for p in &report.pairs {
        let name = |id: usize| report.documents.get(id).map(|d| field(&d.path)).unwrap_or_default();
        writeln!(
            out,
            "{},{},{:.1},{:.1},{},{},{},{},{},{},{}",
            name(p.a),
            name(p.b),
            p.score * 100.0,
            p.score_b * 100.0,
            p.simhash_distance.map(|d| d.to_string()).unwrap_or_default(),
            p.passages.len(),
            p.longest,
            p.shared_sentences,
            p.near_duplicate,
            report.documents.get(p.a).map(|d| field(&flags_cell(&d.flags))).unwrap_or_default(),
            super::TOOL
        )
        .ok();
    }
    // Documents with a row of their own above: a pair's first, and its second when checked too.
    let mut has_row = vec![false; report.documents.len()];
    for p in &report.pairs {
        let sides = [Some(p.a), report.second_is_checked(p).then_some(p.b)];
        for id in sides.into_iter().flatten() {
            if let Some(seen) = has_row.get_mut(id) {
                *seen = true;
            }
        }
    }
    let without = |id: usize| report.is_checked(id) && !has_row.get(id).copied().unwrap_or(true);
    for d in report.documents.iter().filter(|d| without(d.id)) {
        writeln!(out, "{},,0.0,,,0,0,0,false,{},{}", field(&d.path), field(&flags_cell(&d.flags)), super::TOOL).ok();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suspect_with_no_shared_text_has_a_row_at_zero() {
        let mut report = crate::report::tests_support::sample();
        report.documents[2].role = crate::model::Role::Suspect;
        report.pairs.retain(|p| p.b != 2);
        let csv = to_csv(&report);
        let zero: Vec<&str> = csv.lines().filter(|l| l.starts_with("q.txt,")).collect();
        assert_eq!(zero.len(), 1, "{csv}");
        assert!(zero[0].starts_with("q.txt,,0.0,,,0,0,0,false,"), "{csv}");
        assert!(!csv.contains("bad.pdf"), "an unreadable file is no result: {csv}");
    }

    #[test]
    fn fields_with_commas_and_quotes_are_quoted() {
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("plain.txt"), "plain.txt");
    }

    #[test]
    fn flags_fit_in_one_cell() {
        use crate::model::{FlagKind, LookAlikeScript};
        let mut look = Flag::new(FlagKind::LookAlikeLetters, Some(LookAlikeScript::Cyrillic));
        look.add(1, 2, 213);
        let mut hidden = Flag::new(FlagKind::HiddenText, None);
        hidden.add(5, 5, 40);
        assert_eq!(flags_cell(&[look, hidden]), "look_alike_letters/cyrillic:213 hidden_text:40");
        assert_eq!(flags_cell(&[]), "");
    }

    #[test]
    fn cells_a_spreadsheet_would_run_are_neutralised() {
        assert_eq!(field("=1+2*3.txt"), "'=1+2*3.txt");
        assert_eq!(field("@SUM(A1).txt"), "'@SUM(A1).txt");
        assert_eq!(field("-2+3,x.txt"), "\"'-2+3,x.txt\"");
        assert_eq!(field("\tx"), "'\tx");
        assert_eq!(field("a=b.txt"), "a=b.txt");
    }
}

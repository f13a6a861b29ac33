//! Quoted text: a passage that is plainly a quotation — between quotation marks (“…”
//! ‘…’ 「…」 『…』 "…") that open and close within one paragraph, of the length a
//! quotation has, attributed ([`super::attribution`]) — or a bibliography (the text
//! after a heading such as References, Bibliography or 参考文献). Quoting with credit is
//! not plagiarism: such passages are shown in their own style and counted only when the
//! user asks for it.
//!
//! Straight double quotes are also the string delimiters of code and command lines, where
//! an odd one would pair with the next across whole paragraphs: a straight pair opens
//! only where a quotation can open (not after a letter or digit), closes only where one
//! can close, and stays on one line.

use super::attribution::{attributed, blank_line_at};
use crate::fingerprint::simhash::Dictionary;
use crate::model::saturating_u32;

/// Opening and closing marks of a quotation.
const PAIRS: [(char, char); 5] = [('“', '”'), ('‘', '’'), ('「', '」'), ('『', '』'), ('"', '"')];
/// A quotation shorter than this many characters is a term in quotes, not a quotation.
const MIN_QUOTE_CHARS: usize = 20;
/// A quotation longer than this many characters is taken for stray marks.
const MAX_QUOTE_CHARS: usize = 1000;
/// The same for straight double quotes, which code and command lines are full of.
const MAX_STRAIGHT_QUOTE_CHARS: usize = 400;

/// Headings that open a bibliography; the rest of the document is quoted.
const BIBLIOGRAPHY_HEADINGS: &[&str] = &[
    "references",
    "bibliography",
    "works cited",
    "literature cited",
    "further reading",
    "参考文献",
    "参考资料",
    "引用文献",
    "参考书目",
];

/// The quoted character ranges of `text`: attributed quotations and the bibliography,
/// sorted and disjoint. Chinese attributions are looked for in `dictionary`'s words.
pub fn quoted_spans(text: &str, dictionary: &Dictionary) -> Vec<(u32, u32)> {
    let chars: Vec<char> = text.chars().collect();
    let mut spans = quotations(&chars, dictionary);
    if let Some(start) = bibliography_start(&chars) {
        let end = bibliography_end(&chars, start as usize);
        spans.retain(|s| s.1 <= start || s.0 >= end);
        spans.push((start, end));
        spans.sort_unstable();
    }
    spans
}

/// Attributed quotations, in text order.
fn quotations(chars: &[char], dictionary: &Dictionary) -> Vec<(u32, u32)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let Some(end) = closing_mark(chars, i) else {
            i += 1;
            continue;
        };
        let inner = &chars[i + 1..end];
        if inner.len() >= MIN_QUOTE_CHARS && is_phrase(inner) && attributed(chars, i, end, dictionary) {
            spans.push((saturating_u32(i), saturating_u32(end) + 1));
        }
        i = end + 1;
    }
    spans
}

/// Where the quotation opened by the mark at `open`, if it is one, closes: the first
/// matching closing mark in the same paragraph (the same line for straight quotes) and
/// within the longest length a quotation has.
fn closing_mark(chars: &[char], open: usize) -> Option<usize> {
    let &(_, close) = PAIRS.iter().find(|(mark, _)| *mark == chars[open])?;
    let straight = close == chars[open];
    if straight && !straight_opens(chars, open) {
        return None;
    }
    let longest = if straight { MAX_STRAIGHT_QUOTE_CHARS } else { MAX_QUOTE_CHARS };
    let limit = (open + 2 + longest).min(chars.len());
    for at in open + 1..limit {
        let c = chars[at];
        if c == '\n' && (straight || blank_line_at(chars, at)) {
            return None;
        }
        if c == close && (!straight || straight_closes(chars, at)) {
            return Some(at);
        }
    }
    None
}

/// Whether the straight quote at `at` may open a quotation: not after a Latin letter, a digit
/// or a closing bracket, and not before a space.
fn straight_opens(chars: &[char], at: usize) -> bool {
    let before_ok = at == 0 || !(chars[at - 1].is_ascii_alphanumeric() || ")]}\"'`\\".contains(chars[at - 1]));
    let after_ok = chars.get(at + 1).is_some_and(|c| !c.is_whitespace());
    before_ok && after_ok
}

/// Whether the straight quote at `at` may close a quotation: not after a space, and not
/// before a Latin letter or a digit.
fn straight_closes(chars: &[char], at: usize) -> bool {
    let before_ok = at > 0 && !chars[at - 1].is_whitespace();
    let after_ok = chars.get(at + 1).is_none_or(|c| !c.is_ascii_alphanumeric() && *c != '"');
    before_ok && after_ok
}

/// A quotation is a phrase — at least three words, or eight Han characters — not a term
/// or an option name in quotes.
fn is_phrase(inner: &[char]) -> bool {
    let han = inner.iter().filter(|&&c| crate::normalize::is_single_char_token(c)).count();
    let words = inner.split(|c| c.is_whitespace()).filter(|w| w.iter().any(|c| c.is_alphanumeric())).count();
    han >= 8 || words >= 3
}

/// Where the bibliography starts: the first character of a line that is only a
/// bibliography heading (numbered or followed by a colon or not), in the second half of
/// the document.
fn bibliography_start(chars: &[char]) -> Option<u32> {
    let mut line_start = 0;
    for (i, &c) in chars.iter().enumerate().chain(std::iter::once((chars.len(), &'\n'))) {
        if c != '\n' {
            continue;
        }
        let line: String = chars[line_start..i].iter().collect();
        if line_start * 2 >= chars.len() && is_bibliography_heading(&line) {
            return Some(saturating_u32(line_start));
        }
        line_start = i + 1;
    }
    None
}

/// Where the bibliography starting at `start` ends: at the next section heading (an
/// appendix, an index, a Markdown heading, or a short line standing alone after a blank
/// line, with no digit or sentence punctuation, as entries have), or at the end.
fn bibliography_end(chars: &[char], start: usize) -> u32 {
    let mut line_start = start;
    let mut previous_blank = false;
    let mut first = true;
    for (i, &c) in chars.iter().enumerate().skip(start).chain(std::iter::once((chars.len(), &'\n'))) {
        if c != '\n' {
            continue;
        }
        let line: String = chars[line_start..i].iter().collect();
        let blank = line.trim().is_empty();
        if !first && !blank && is_section_heading(&line, previous_blank) {
            return saturating_u32(line_start);
        }
        first = false;
        previous_blank = blank;
        line_start = i + 1;
    }
    saturating_u32(chars.len())
}

/// Whether `line` (after a blank line when `after_blank`) heads a new section.
fn is_section_heading(line: &str, after_blank: bool) -> bool {
    let trimmed = line.trim();
    let lower = trimmed.to_lowercase();
    let marked = trimmed.starts_with('#')
        || ["appendix", "index", "附录", "索引"].iter().any(|h| lower.starts_with(h))
        || (!line.starts_with(char::is_whitespace)
            && trimmed.chars().all(|c| c == '=' || c == '-')
            && trimmed.len() >= 3);
    let bare = after_blank
        && trimmed.chars().count() <= 40
        && !trimmed.starts_with(['[', '(', '-', '*', '•'])
        && !trimmed.chars().any(|c| c.is_ascii_digit() || ".,;:。，；：".contains(c));
    marked || bare
}

fn is_bibliography_heading(line: &str) -> bool {
    let lower = line.trim().to_lowercase();
    let bare = lower
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c.is_whitespace() || c == '#')
        .trim_end_matches([':', '：', '.'])
        .trim();
    BIBLIOGRAPHY_HEADINGS.contains(&bare)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quoted(text: &str) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        quoted_spans(text, &Dictionary::new())
            .iter()
            .map(|&(s, e)| chars[s as usize..e as usize].iter().collect())
            .collect()
    }

    #[test]
    fn attributed_quotations_are_quoted_and_terms_in_quotes_are_not() {
        let text = "鲁迅说：“其实地上本没有路，走的人多了，也便成了路。”这句话很有名。\
                    The option \"--verbose-output-mode\" is long. As Knuth wrote, \"premature optimization is the root of all evil\".";
        assert_eq!(
            quoted(text),
            vec!["“其实地上本没有路，走的人多了，也便成了路。”", "\"premature optimization is the root of all evil\""]
        );
    }

    #[test]
    fn an_unattributed_quotation_is_not_quoted() {
        assert!(quoted("Then the manual goes on: \"the cpuset has exclusive use of its CPUs and memory\".").is_empty());
    }

    #[test]
    fn the_bibliography_ends_at_the_next_section() {
        let body = "The body of the document is here and it goes on.\n".repeat(5);
        let text = format!(
            "{body}\nBibliography\n\n[1] Gettys, Jim. The X Window System. 1990.\n\n\
             Appendix A. Error codes\n\nEvery request may fail with one of these errors.\n"
        );
        let spans = quoted(&text);
        assert_eq!(spans.len(), 1, "{spans:?}");
        assert!(spans[0].starts_with("Bibliography") && spans[0].contains("1990.") && !spans[0].contains("Appendix"));
        let text = format!("{body}References\n\nSmith, J. A book. 2003.\n\nPer-machine\n\nOnly some machines.\n");
        assert!(!quoted(&text)[0].contains("Per-machine"));
    }

    #[test]
    fn signed_and_cited_quotations_are_quoted() {
        let text = "\"Premature optimization is the root of all evil\" — Donald Knuth.\n\
                    “其实地上本没有路，走的人多了，也便成了路。”——鲁迅\n\
                    The report found \"no evidence of harm in the treated group\" (Smith, 2003).";
        assert_eq!(quoted(text).len(), 3, "{:?}", quoted(text));
    }

    #[test]
    fn straight_quotes_in_code_do_not_pair_across_lines() {
        // An odd quote in a command line would pair with the next one lines below, and
        // the option dash after it looked like an attribution dash.
        let text = "$ grep -c \" /etc/passwd\n\
                    The maintainer then checks the output of the command and runs the test suite again\n\
                    before the upload, as the policy manual requires for every package.\n\
                    $ dpkg-buildpackage \"-us -uc\" -- the build starts";
        assert!(quoted(text).is_empty(), "{:?}", quoted(text));
    }

    #[test]
    fn straight_quotes_do_not_pair_across_a_long_line() {
        let middle = "the package is built and installed and tested again ".repeat(10);
        let text = format!("The tool says \"{middle}\" and stops.");
        assert!(quoted(&text).is_empty());
        let short = format!("The tool says \"{}\" and stops.", &middle[..100]);
        assert_eq!(quoted(&short).len(), 1);
    }

    #[test]
    fn option_dashes_are_not_attribution_dashes() {
        let text = "Use \"the process is terminated without any cleanup at all\" --kill to force it.";
        assert!(quoted(text).is_empty(), "{:?}", quoted(text));
    }

    #[test]
    fn attribution_marks_inside_chinese_words_attribute_nothing() {
        // 数据 holds 据, 名称 and 简称 hold 称: none of them says who spoke.
        for text in [
            "“软件包管理系统可以帮助用户安装升级和删除软件包”，这些数据来自软件包数据库。",
            "这个工具的名称是“高级软件包管理工具的命令行前端程序”。",
            "“高级软件包管理工具的命令行前端程序”简称为APT，是常用的工具。",
        ] {
            assert!(quoted(text).is_empty(), "{text}: {:?}", quoted(text));
        }
        assert_eq!(quoted("他在文章中称：“软件包管理系统可以帮助用户安装升级和删除软件包”。").len(), 1);
    }

    #[test]
    fn the_bibliography_is_quoted_to_the_end() {
        let body = "正文的内容在这里。\n".repeat(5);
        let text = format!("{body}参考文献：\n[1] 张三. 软件工程. 2003.\n");
        let spans = quoted(&text);
        assert_eq!(spans.len(), 1);
        assert!(spans[0].starts_with("参考文献"));
        assert!(spans[0].ends_with("2003.\n"));
    }
}

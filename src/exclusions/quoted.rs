//! Quoted text: a quotation marked as such — inside quotation marks (“…” ‘…’ 「…」 『…』
//! "…") with an attribution nearby (a verb of saying, a dash, a citation) — or a
//! bibliography (the text after a heading such as References, Bibliography or 参考文献).
//! Quoting with credit is not plagiarism: such passages are shown in their own style and
//! counted only when the user asks for it.

/// Opening and closing marks of a quotation.
const PAIRS: [(char, char); 5] = [('“', '”'), ('‘', '’'), ('「', '」'), ('『', '』'), ('"', '"')];
/// A quotation shorter than this many characters is a term in quotes, not a quotation.
const MIN_QUOTE_CHARS: usize = 20;
/// A quotation longer than this many characters is taken for a stray mark.
const MAX_QUOTE_CHARS: usize = 3000;
/// An attribution is looked for this many characters before the opening mark and after
/// the closing one.
const ATTRIBUTION_WINDOW: usize = 60;

/// Words that attribute a quotation, matched as whole words, case-insensitively.
const ATTRIBUTION_WORDS: &[&str] = &[
    "said",
    "says",
    "wrote",
    "writes",
    "stated",
    "according",
    "argued",
    "argues",
    "observed",
    "remarked",
    "claimed",
    "quoted",
    "replied",
    "declared",
    "insisted",
    "cited",
];
/// Marks and phrases that attribute a quotation in Chinese text, or by punctuation.
const ATTRIBUTION_MARKS: &[&str] = &[
    "说", "写道", "指出", "认为", "表示", "称", "提到", "曰", "云", "所言", "据", "引用", "引自", "强调", "——", "—",
    "―", "--", "语出", "出自",
];
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
/// sorted and disjoint.
pub fn quoted_spans(text: &str) -> Vec<(u32, u32)> {
    let chars: Vec<char> = text.chars().collect();
    let mut spans = quotations(&chars);
    if let Some(start) = bibliography_start(&chars) {
        spans.retain(|s| s.1 <= start);
        spans.push((start, chars.len() as u32));
    }
    spans
}

/// Attributed quotations, in text order.
fn quotations(chars: &[char]) -> Vec<(u32, u32)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let Some(&(_, close)) = PAIRS.iter().find(|(open, _)| *open == chars[i]) else {
            i += 1;
            continue;
        };
        let limit = (i + 1 + MAX_QUOTE_CHARS).min(chars.len());
        let Some(length) = chars[i + 1..limit].iter().position(|&c| c == close) else {
            i += 1;
            continue;
        };
        let end = i + 1 + length;
        let paragraph_break = chars[i + 1..end].windows(2).any(|w| w[0] == '\n' && w[1] == '\n');
        if length >= MIN_QUOTE_CHARS && is_phrase(&chars[i + 1..end]) && !paragraph_break && attributed(chars, i, end) {
            spans.push((i as u32, end as u32 + 1));
        }
        i = end + 1;
    }
    spans
}

/// A quotation is a phrase — at least three words, or eight Han characters — not a term
/// or an option name in quotes.
fn is_phrase(inner: &[char]) -> bool {
    let han = inner.iter().filter(|&&c| crate::normalize::is_single_char_token(c)).count();
    let words = inner.split(|c| c.is_whitespace()).filter(|w| w.iter().any(|c| c.is_alphanumeric())).count();
    han >= 8 || words >= 3
}

/// Whether an attribution stands within [`ATTRIBUTION_WINDOW`] characters before the
/// opening mark at `open` or after the closing mark at `close`.
fn attributed(chars: &[char], open: usize, close: usize) -> bool {
    let before: String = chars[open.saturating_sub(ATTRIBUTION_WINDOW)..open].iter().collect();
    let after: String =
        chars[(close + 1).min(chars.len())..(close + 1 + ATTRIBUTION_WINDOW).min(chars.len())].iter().collect();
    [before, after].iter().any(|window| {
        let lower = window.to_lowercase();
        ATTRIBUTION_MARKS.iter().any(|m| lower.contains(m))
            || lower.split(|c: char| !c.is_alphanumeric()).any(|w| ATTRIBUTION_WORDS.contains(&w))
            || has_citation(&lower)
    })
}

/// A citation such as "(Smith, 2003)", "[12]" or "（2003）".
fn has_citation(window: &str) -> bool {
    let chars: Vec<char> = window.chars().collect();
    chars.iter().enumerate().any(|(i, &c)| {
        let close = match c {
            '(' => ')',
            '[' => ']',
            '（' => '）',
            '【' => '】',
            _ => return false,
        };
        let inner: String = chars[i + 1..].iter().take_while(|&&x| x != close).take(40).collect();
        let digits = inner.chars().filter(char::is_ascii_digit).count();
        let is_year = inner
            .split(|c: char| !c.is_ascii_digit())
            .any(|run| run.len() == 4 && (run.starts_with("1") || run.starts_with("2")));
        (close == ']' && digits > 0 && digits == inner.chars().filter(|c| !c.is_whitespace() && *c != ',').count())
            || is_year
    })
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
            return Some(line_start as u32);
        }
        line_start = i + 1;
    }
    None
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
        quoted_spans(text).iter().map(|&(s, e)| chars[s as usize..e as usize].iter().collect()).collect()
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
    fn the_bibliography_is_quoted_to_the_end() {
        let body = "正文的内容在这里。\n".repeat(5);
        let text = format!("{body}参考文献：\n[1] 张三. 软件工程. 2003.\n");
        let spans = quoted(&text);
        assert_eq!(spans.len(), 1);
        assert!(spans[0].starts_with("参考文献"));
        assert!(spans[0].ends_with("2003.\n"));
    }
}

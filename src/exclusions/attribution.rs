//! Attribution: what tells a quotation from text that merely stands between quote marks
//! (a term, a command, a string in code). A quotation is attributed when a verb of saying
//! stands near it as a word of its own (Chinese text is segmented before looking: 数据
//! holds 据 and 名称 holds 称, yet neither says who spoke), or when a dash or a citation
//! follows its closing mark ("…" — Knuth, “……”——鲁迅, "…" (Smith, 2003), "…" [12]). The
//! dashes of command options (`--kill`) attribute nothing. Nothing is looked for beyond
//! the quotation's paragraph.

use crate::fingerprint::simhash::Dictionary;

/// An attribution word is looked for this many characters before the opening mark and
/// after the closing one.
const WINDOW: usize = 60;
/// Characters segmented beyond the window, so that the word at its edge is whole.
const CONTEXT: usize = 20;
/// Characters (spaces) allowed between the closing mark and a dash or citation.
const SIGNATURE_GAP: usize = 3;

/// English words that attribute a quotation, matched as whole words, case-insensitively.
const ENGLISH_WORDS: &[&str] = &[
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
    "replied",
    "declared",
    "insisted",
];
/// Chinese words that attribute a quotation, matched as whole words of the segmented
/// text.
const CHINESE_WORDS: &[&str] = &[
    "说", "说道", "写道", "指出", "认为", "称", "声称", "提到", "曰", "所言", "所说", "据", "引用", "引自", "强调",
    "语出", "出自",
];

/// Whether the quotation between the marks at `open` and `close` is attributed.
pub fn attributed(chars: &[char], open: usize, close: usize, dictionary: &Dictionary) -> bool {
    let reach = WINDOW + CONTEXT;
    // Nothing is looked for beyond a blank line.
    let first = open.saturating_sub(reach);
    let start = (first..open).rev().find(|&i| blank_line_at(chars, i)).map_or(first, |i| i + 1);
    let last = (close + 1 + reach).min(chars.len());
    let end = (close + 1..last).find(|&i| blank_line_at(chars, i)).unwrap_or(last);
    let before = &chars[start..open];
    let after = &chars[(close + 1).min(end)..end];
    let before_window = before.len().saturating_sub(WINDOW);
    has_word(before, dictionary, |_, end| end > before_window)
        || has_word(after, dictionary, |start, _| start < WINDOW)
        || signed(after)
}

/// Whether the line break at `i` is followed by a line holding only spaces (a blank
/// line: a paragraph ends there).
pub fn blank_line_at(chars: &[char], i: usize) -> bool {
    chars[i] == '\n' && chars[i + 1..].iter().find(|&&c| c == '\n' || !c.is_whitespace()) == Some(&'\n')
}

/// Whether `text` holds an attribution word whose character range passes `inside`.
fn has_word(text: &[char], dictionary: &Dictionary, inside: impl Fn(usize, usize) -> bool) -> bool {
    let string: String = text.iter().collect();
    let lower = string.to_lowercase();
    let mut start = 0;
    for word in lower.split(|c: char| !c.is_alphanumeric()) {
        let length = word.chars().count();
        if ENGLISH_WORDS.contains(&word) && inside(start, start + length) {
            return true;
        }
        start += length + 1;
    }
    if !CHINESE_WORDS.iter().any(|w| string.contains(w)) {
        return false;
    }
    dictionary.words(&string).into_iter().any(|(word, start, end)| CHINESE_WORDS.contains(&word) && inside(start, end))
}

/// Whether the text right after a closing mark (`after`) names the source: a dash that
/// is not an option's, or a citation.
fn signed(after: &[char]) -> bool {
    let gap = after.iter().take_while(|c| **c == ' ' || **c == '\t' || **c == '\u{3000}').count();
    if gap > SIGNATURE_GAP {
        return false;
    }
    let rest = &after[gap..];
    match rest {
        ['—' | '―', ..] => true,
        ['-', '-', next, ..] => next.is_whitespace(),
        ['(' | '[' | '（' | '【', ..] => is_citation(rest),
        _ => false,
    }
}

/// Whether `text` opens with a citation such as "(Smith, 2003)", "(2003)", "[12]" or
/// "（2003）".
fn is_citation(text: &[char]) -> bool {
    let close = match text.first() {
        Some('(') => ')',
        Some('[') => ']',
        Some('（') => '）',
        Some('【') => '】',
        _ => return false,
    };
    let inner: Vec<char> = text[1..].iter().copied().take_while(|&x| x != close).take(41).collect();
    if inner.len() > 40 || text.get(inner.len() + 1) != Some(&close) {
        return false;
    }
    let inner: String = inner.into_iter().collect();
    let is_year = inner
        .split(|c: char| !c.is_ascii_digit())
        .any(|run| run.len() == 4 && run.parse::<u32>().is_ok_and(|year| (1500..=2099).contains(&year)));
    let numbered = close == ']'
        && !inner.trim().is_empty()
        && inner.chars().all(|c| c.is_ascii_digit() || c == ',' || c == '-' || c.is_whitespace());
    is_year || numbered
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn option_dashes_sign_nothing_and_author_dashes_do() {
        assert!(!signed(&chars(" --kill sends the signal")));
        assert!(signed(&chars(" -- Donald Knuth")));
        assert!(signed(&chars("——鲁迅")));
        assert!(signed(&chars(" (Smith, 2003).")));
        assert!(signed(&chars("[12].")));
        assert!(!signed(&chars(" (default 8080).")));
        assert!(!signed(&chars(" (see below)")));
    }

    #[test]
    fn a_blank_line_ends_a_paragraph() {
        let text = chars("one\n  \ntwo\nthree");
        assert!(blank_line_at(&text, 3));
        assert!(!blank_line_at(&text, 10));
    }
}

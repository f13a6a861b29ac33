//! A document cut into units for the meaning layer: its paragraphs (lines), a long one
//! cut again at sentence ends, each with its code-point range and its language. A unit is
//! what is embedded and aligned across languages.

use crate::normalize::is_sentence_terminator;

/// A paragraph longer than this many characters is cut at sentence ends into units of
/// about this size: the encoder averages over its tokens, so a page-long unit says little
/// about any one of its sentences.
const MAX_UNIT_CHARS: usize = 600;

/// A unit with fewer letters (Han characters count as two) is no unit: a number, a
/// heading of one word, a line of punctuation.
const MIN_UNIT_LETTERS: usize = 12;

/// The languages the meaning layer aligns across.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    Chinese,
    English,
}

impl Language {
    /// Both languages, Chinese first.
    pub const ALL: [Language; 2] = [Language::Chinese, Language::English];

    /// The language's place in [`Language::ALL`].
    pub fn place(self) -> usize {
        match self {
            Language::Chinese => 0,
            Language::English => 1,
        }
    }
}

/// One unit: `[start, end)` in code points of the document's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub start: u32,
    pub end: u32,
    pub language: Language,
}

impl Unit {
    /// The unit's text, out of the document's characters (clamped to them).
    pub fn text(&self, chars: &[char]) -> String {
        let start = usize::try_from(self.start).unwrap_or(usize::MAX).min(chars.len());
        let end = usize::try_from(self.end).unwrap_or(usize::MAX).clamp(start, chars.len());
        chars[start..end].iter().collect()
    }
}

/// The units of `text`, in order. Lines in neither Chinese nor English (another
/// language, code, a table of numbers) are left out: nothing is aligned across them.
pub fn units(text: &str) -> Vec<Unit> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line_start = 0usize;
    for (i, &c) in chars.iter().enumerate() {
        if c == '\n' {
            cut_line(&chars, line_start, i, &mut out);
            line_start = i + 1;
        }
    }
    cut_line(&chars, line_start, chars.len(), &mut out);
    out
}

/// Cuts the line `chars[start..end]` into units of at most about [`MAX_UNIT_CHARS`].
fn cut_line(chars: &[char], start: usize, end: usize, out: &mut Vec<Unit>) {
    let (start, end) = trimmed(chars, start, end);
    let mut piece_start = start;
    let mut last_end_of_sentence = None;
    let mut i = start;
    while i < end {
        let latin_full_stop = chars[i] == '.' && chars.get(i + 1).is_some_and(|c| c.is_whitespace());
        if is_sentence_terminator(chars[i]) || latin_full_stop {
            last_end_of_sentence = Some(i + 1);
        }
        if i + 1 - piece_start > MAX_UNIT_CHARS
            && let Some(cut) = last_end_of_sentence.filter(|&cut| cut > piece_start)
        {
            push_unit(chars, piece_start, cut, out);
            piece_start = cut;
            last_end_of_sentence = None;
        }
        i += 1;
    }
    push_unit(chars, piece_start, end, out);
}

/// Adds `chars[start..end]` as a unit when it is long enough and in a language aligned.
fn push_unit(chars: &[char], start: usize, end: usize, out: &mut Vec<Unit>) {
    let (start, end) = trimmed(chars, start, end);
    if start >= end {
        return;
    }
    let Some(language) = language_of(&chars[start..end]) else { return };
    let (Ok(start), Ok(end)) = (u32::try_from(start), u32::try_from(end)) else { return };
    out.push(Unit { start, end, language });
}

/// `[start, end)` without the white space at both ends.
fn trimmed(chars: &[char], mut start: usize, mut end: usize) -> (usize, usize) {
    while start < end && chars[start].is_whitespace() {
        start += 1;
    }
    while end > start && chars[end - 1].is_whitespace() {
        end -= 1;
    }
    (start, end)
}

/// The language of a piece of text: Chinese when Han characters outweigh Latin letters
/// (a Han character counted as three letters), English when its Latin words read as
/// English (a share of its words are English function words), else none.
pub fn language_of(chars: &[char]) -> Option<Language> {
    let han = chars.iter().filter(|&&c| super::dictionary::is_han(c)).count();
    let latin = chars.iter().filter(|c| c.is_ascii_alphabetic()).count();
    if han * 2 + latin < MIN_UNIT_LETTERS {
        return None;
    }
    if han * 3 > latin {
        return Some(Language::Chinese);
    }
    reads_as_english(chars).then_some(Language::English)
}

/// Whether at least one word in eight (and two at the least) is an English function word.
fn reads_as_english(chars: &[char]) -> bool {
    let mut words = 0usize;
    let mut function_words = 0usize;
    let mut word = String::new();
    for &c in chars.iter().chain(std::iter::once(&' ')) {
        if c.is_ascii_alphabetic() {
            word.push(c.to_ascii_lowercase());
        } else if !word.is_empty() {
            words += 1;
            if FUNCTION_WORDS.contains(&word.as_str()) {
                function_words += 1;
            }
            word.clear();
        }
    }
    function_words >= 2 && function_words * 8 >= words
}

/// The commonest English function words, sorted.
const FUNCTION_WORDS: &[&str] = &[
    "a", "all", "an", "and", "are", "as", "at", "be", "but", "by", "can", "for", "from", "has", "have", "if", "in",
    "is", "it", "its", "not", "of", "on", "or", "that", "the", "this", "to", "was", "which", "will", "with", "you",
];

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "the tests' values are small")]
mod tests {
    use super::*;

    fn texts(text: &str, units: &[Unit]) -> Vec<(String, Language)> {
        let chars: Vec<char> = text.chars().collect();
        units.iter().map(|u| (chars[u.start as usize..u.end as usize].iter().collect(), u.language)).collect()
    }

    #[test]
    fn lines_are_units_with_their_language() {
        let text = "  这是一个关于软件包的段落，讲的是如何安装。\n\nThe package is installed by the system when it is needed.\n12 34 56\n";
        let found = texts(text, &units(text));
        assert_eq!(
            found,
            vec![
                ("这是一个关于软件包的段落，讲的是如何安装。".to_owned(), Language::Chinese),
                ("The package is installed by the system when it is needed.".to_owned(), Language::English),
            ]
        );
    }

    #[test]
    fn a_third_language_and_code_are_no_unit() {
        let text = "Der Paketmanager installiert die Pakete automatisch und zuverlässig.\nfn main() { let x = vec![1, 2, 3]; println!(\"{x:?}\"); }";
        assert!(units(text).is_empty());
    }

    #[test]
    fn a_long_paragraph_is_cut_at_sentence_ends() {
        let sentence = "The archive keeps every document that was added to it, with its text. ";
        let text = sentence.repeat(30);
        let found = units(&text);
        assert!(found.len() > 2);
        for unit in &found {
            assert!(unit.end - unit.start <= (MAX_UNIT_CHARS + sentence.len()) as u32);
        }
        assert_eq!(found[0].start, 0);
        assert_eq!(found.last().map(|u| u.end), Some(text.trim_end().chars().count() as u32));
    }
}

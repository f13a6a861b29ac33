//! Normalization: extracted text → tokens, each keeping the `[start, end)` character
//! offsets of the text it came from.
//!
//! Every switch in [`NormalizeOptions`] can be turned off: Unicode NFKC (full-width →
//! half-width), case folding, traditional → simplified Chinese, dropping punctuation.
//! A token is one Han/Kana/Hangul character or one run of letters/digits.

mod classify;
pub mod flags;
mod fold;
mod folded;
pub(crate) mod lookalike;
mod mixed;

pub use classify::{is_sentence_terminator, is_single_char_token};
pub use fold::to_simplified;
pub use folded::{MAX_FOLDED_LINE_CHARS, folded_text};

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

use crate::hash::{WordHasher, fmix64, hash_char};
use crate::model::saturating_u32;
use folded::Folded;

/// Which normalizations run before tokens are hashed. All on by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct NormalizeOptions {
    /// Unicode NFKC, character by character: full-width forms become half-width, ligatures
    /// and compatibility characters their plain letters.
    pub nfkc: bool,
    /// Lower-case every letter.
    pub case_fold: bool,
    /// Fold traditional Chinese characters to simplified ones.
    pub traditional_to_simplified: bool,
    /// Drop punctuation and symbols. When off, each one is a token of its own.
    pub drop_punctuation: bool,
}

impl Default for NormalizeOptions {
    fn default() -> Self {
        Self { nfkc: true, case_fold: true, traditional_to_simplified: true, drop_punctuation: true }
    }
}

/// One token: the hash of its normalized form and the character range it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// 64-bit hash of the normalized token.
    pub hash: u64,
    /// First character of the token in the extracted text.
    pub start: u32,
    /// One past its last character.
    pub end: u32,
}

/// A document's tokens and where its sentences start.
#[derive(Clone, Debug, Default)]
pub struct Tokenized {
    /// Tokens in text order.
    pub tokens: Vec<Token>,
    /// Index of the first token of every sentence, ascending; the first is 0 when there
    /// are tokens.
    pub sentence_starts: Vec<u32>,
}

/// The normalized characters of all tokens, in order, without separators: what dense
/// alignment compares, so that a word split by a line break or two words run together
/// still match character by character. Built on demand ([`char_stream`]): only documents
/// that share a passage candidate need it, and it costs 8 bytes a character.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CharStream {
    pub chars: Vec<char>,
    /// For each of `chars`, the offset of the character of the text it came from.
    pub offsets: Vec<u32>,
}

/// What a scan of the text hands each character of its stream to, in order: the
/// [`CharStream`] itself, or a consumer of its characters (a reference's character grams).
pub trait StreamSink {
    /// One character of the stream and the offset of the text character it came from.
    fn push(&mut self, offset: u32, c: char);
}

impl StreamSink for CharStream {
    #[inline]
    fn push(&mut self, offset: u32, c: char) {
        self.chars.push(c);
        self.offsets.push(offset);
    }
}

/// Takes no character: a scan for tokens only.
struct NoStream;

impl StreamSink for NoStream {
    #[inline]
    fn push(&mut self, _offset: u32, _c: char) {}
}

/// Calls `emit(char_offset, normalized_char)` for every character of `text` after the
/// look-alike fold ([`mixed`]: invisible characters dropped, blanks as spaces, Cyrillic and
/// Greek look-alikes inside Latin words as the Latin letters they imitate), NFKC, case
/// folding and the Chinese fold. One input character may yield several (NFKC of a
/// ligature) or keep its offset for all of them.
#[inline]
pub fn for_each_normalized_char(text: &str, options: NormalizeOptions, mut emit: impl FnMut(u32, char)) {
    let mut folder = mixed::Folder::default();
    // Where the stretch of ASCII and Chinese characters the fold has not seen starts: the
    // hot loop only emits them, the fold catches up at the next other character.
    let mut unseen = 0usize;
    // Whether nothing waits in the fold, kept apart from it so that it stays in a register.
    let mut idle = true;
    for (offset, (at, c)) in (0u32..).zip(text.char_indices()) {
        if idle {
            if c.is_ascii() {
                emit(offset, if options.case_fold { c.to_ascii_lowercase() } else { c });
                continue;
            }
            if is_han(c) {
                emit(offset, if options.traditional_to_simplified { to_simplified(c) } else { c });
                continue;
            }
            if is_chinese_punctuation(c) {
                folder.catch_up(text.get(unseen..at).unwrap_or_default());
                folder.boundary();
                unseen = at + c.len_utf8();
                normalize_char(offset, c, options, &mut emit);
                continue;
            }
        }
        folder.catch_up(text.get(unseen..at).unwrap_or_default());
        unseen = at + c.len_utf8();
        let class = if c.is_ascii() { ascii_class(c) } else { lookalike::classify(c) };
        folder.push(offset, c, class, &mut |o, c| normalize_char(o, c, options, &mut emit), &mut mixed::Ignore);
        idle = folder.idle();
    }
    folder.finish(&mut |o, c| normalize_char(o, c, options, &mut emit), &mut mixed::Ignore);
}

/// The punctuation of Chinese text: it ends a word and imitates nothing.
#[inline]
fn is_chinese_punctuation(c: char) -> bool {
    matches!(c, '，' | '。' | '、' | '；' | '：' | '？' | '！' | '（' | '）' | '“' | '”' | '《' | '》' | '「' | '」')
}

/// The class of an ASCII character for the look-alike fold.
#[inline]
fn ascii_class(c: char) -> lookalike::Class {
    if c.is_ascii_alphabetic() {
        lookalike::Class::Latin
    } else if c.is_ascii_digit() {
        lookalike::Class::Neutral
    } else {
        lookalike::Class::Boundary
    }
}

/// NFKC, case folding and the Chinese fold of one character (radical-supplement forms,
/// which NFKC leaves alone, first mapped to their ideographs).
#[inline]
fn normalize_char(offset: u32, c: char, options: NormalizeOptions, emit: &mut impl FnMut(u32, char)) {
    let after_case = |offset: u32, c: char, emit: &mut dyn FnMut(u32, char)| {
        if options.case_fold && !c.is_lowercase() && c.is_alphabetic() {
            for lower in c.to_lowercase() {
                emit(offset, lower);
            }
        } else {
            emit(offset, c);
        }
    };
    if c.is_ascii() {
        emit(offset, if options.case_fold { c.to_ascii_lowercase() } else { c });
    } else if is_han(c) {
        emit(offset, if options.traditional_to_simplified { to_simplified(c) } else { c });
    } else if let Some(ideograph) = lookalike::radical_supplement(c) {
        emit(offset, if options.traditional_to_simplified { to_simplified(ideograph) } else { ideograph });
    } else if options.nfkc {
        for n in std::iter::once(c).nfkc() {
            let n = if options.traditional_to_simplified { to_simplified(n) } else { n };
            after_case(offset, n, emit);
        }
    } else {
        let n = if options.traditional_to_simplified { to_simplified(c) } else { c };
        after_case(offset, n, emit);
    }
}

/// The basic block of unified ideographs, the bulk of Chinese text.
#[inline]
fn is_han(c: char) -> bool {
    ('\u{4E00}'..='\u{9FFF}').contains(&c)
}

/// Combining marks continue the word they follow instead of splitting it.
#[inline]
fn is_combining_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// Splits `text` into tokens with character offsets, and records sentence starts.
///
/// ```
/// use twinspot::normalize::{tokenize, NormalizeOptions};
/// let t = tokenize("Ｈｅｌｌｏ, 世界。", NormalizeOptions::default());
/// assert_eq!(t.tokens.len(), 3); // "hello", "世", "界"
/// assert_eq!((t.tokens[0].start, t.tokens[0].end), (0, 5));
/// assert_eq!(t.tokens[0].hash, tokenize("hello", NormalizeOptions::default()).tokens[0].hash);
/// ```
pub fn tokenize(text: &str, options: NormalizeOptions) -> Tokenized {
    scan(text, options, &mut NoStream, true, |_| {})
}

/// The tokens of `text`, as [`tokenize`] finds them, and its folded text, as
/// [`folded_text`] makes it: one normalizing pass for both.
pub fn tokenize_folded(text: &str, options: NormalizeOptions) -> (Tokenized, String) {
    let mut folded = Folded::with_capacity(text.len());
    let tokenized = scan(text, options, &mut NoStream, true, |c| folded.push(c));
    (tokenized, folded.finish())
}

/// The tokens of `text`, as [`tokenize`] finds them, with every character of its stream
/// (those [`char_stream`] keeps) handed to `sink` on the way: one pass for both.
pub fn tokenize_into(text: &str, options: NormalizeOptions, sink: &mut impl StreamSink) -> Tokenized {
    scan(text, options, sink, true, |_| {})
}

/// The normalized character stream of `text`: the characters of exactly the tokens that
/// [`tokenize`] finds, with their offsets.
///
/// ```
/// use twinspot::normalize::{char_stream, NormalizeOptions};
/// let s = char_stream("Ｈｅｌｌｏ, 世界", NormalizeOptions::default());
/// assert_eq!(s.chars.iter().collect::<String>(), "hello世界");
/// assert_eq!(s.offsets, vec![0, 1, 2, 3, 4, 7, 8]);
/// ```
pub fn char_stream(text: &str, options: NormalizeOptions) -> CharStream {
    let mut stream =
        CharStream { chars: Vec::with_capacity(text.len() / 2), offsets: Vec::with_capacity(text.len() / 2) };
    scan(text, options, &mut stream, false, |_| {});
    // Capacity was a guess from the byte length; give back what it over-reserved.
    stream.chars.shrink_to_fit();
    stream.offsets.shrink_to_fit();
    stream
}

/// The one scanner behind [`tokenize`], [`tokenize_into`], [`tokenize_folded`] and
/// [`char_stream`], so that they always agree: the tokens of `text`, every character of
/// its stream handed to `stream`, and every normalized character to `each`.
/// `keep_tokens`: whether the tokens are wanted (their room is reserved).
fn scan(
    text: &str,
    options: NormalizeOptions,
    stream: &mut impl StreamSink,
    keep_tokens: bool,
    mut each: impl FnMut(char),
) -> Tokenized {
    let guess = if keep_tokens { text.len() / 2 } else { 0 };
    let mut out = Tokenized { tokens: Vec::with_capacity(guess), sentence_starts: Vec::new() };
    let mut word = WordHasher::new();
    let mut word_start = 0u32;
    let mut word_end = 0u32;
    let mut in_word = false;
    let mut pending_period = false;
    let mut sentence_open = false;

    let flush = |out: &mut Tokenized, word: &mut WordHasher, in_word: &mut bool, start: u32, end: u32| {
        if *in_word {
            out.tokens.push(Token { hash: word.finish(), start, end });
            *word = WordHasher::new();
            *in_word = false;
        }
    };

    for_each_normalized_char(text, options, |offset, c| {
        each(c);
        if pending_period {
            pending_period = false;
            if c.is_whitespace() {
                sentence_open = false;
            }
        }
        let single = is_single_char_token(c);
        if !single && (c.is_alphanumeric() || (in_word && is_combining_mark(c))) {
            if !in_word {
                if !sentence_open {
                    out.sentence_starts.push(saturating_u32(out.tokens.len()));
                    sentence_open = true;
                }
                in_word = true;
                word_start = offset;
            }
            // A ligature expands into several chars with one offset: the word still ends
            // after that source character.
            word_end = offset + 1;
            word.push(c);
            stream.push(offset, c);
            return;
        }
        flush(&mut out, &mut word, &mut in_word, word_start, word_end);
        if single {
            if !sentence_open {
                out.sentence_starts.push(saturating_u32(out.tokens.len()));
                sentence_open = true;
            }
            out.tokens.push(Token { hash: hash_char(c), start: offset, end: offset + 1 });
            stream.push(offset, c);
            return;
        }
        if c == '.' {
            pending_period = true;
        } else if is_sentence_terminator(c) {
            sentence_open = false;
        }
        if !options.drop_punctuation && !c.is_whitespace() && !c.is_control() {
            if !sentence_open {
                out.sentence_starts.push(saturating_u32(out.tokens.len()));
                sentence_open = true;
            }
            out.tokens.push(Token { hash: fmix64(hash_char(c) ^ 0x7075_6e63), start: offset, end: offset + 1 });
            stream.push(offset, c);
        }
    });
    flush(&mut out, &mut word, &mut in_word, word_start, word_end);
    // Capacity was a guess from the byte length; documents stay in memory for the whole
    // check, so give back what the guess over-reserved.
    out.tokens.shrink_to_fit();
    out.sentence_starts.shrink_to_fit();
    out
}

/// The length in bytes of the longest prefix of `text` whose normalized form has at most
/// about `max_chars` characters (counted generously: NFKC may turn one character into
/// eighteen, case folding into three). The whole text when it is short enough. Every
/// per-document structure of the engine grows with the normalized length, so this bounds
/// a document's memory, whatever its content.
pub fn prefix_within(text: &str, options: NormalizeOptions, max_chars: usize) -> usize {
    // No character grows by more than this much.
    const MAX_GROWTH: usize = 18 * 3;
    if text.len().saturating_mul(MAX_GROWTH) <= max_chars {
        return text.len();
    }
    let mut count = 0usize;
    for (at, c) in text.char_indices() {
        count += if c.is_ascii() || ('\u{4E00}'..='\u{9FFF}').contains(&c) {
            1
        } else {
            let n = if options.nfkc { std::iter::once(c).nfkc().count() } else { 1 };
            if options.case_fold { n * 3 } else { n }
        };
        if count > max_chars {
            return at;
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str, options: NormalizeOptions) -> Vec<(u64, u32, u32)> {
        tokenize(text, options).tokens.iter().map(|t| (t.hash, t.start, t.end)).collect()
    }

    fn spans(text: &str) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        tokenize(text, NormalizeOptions::default())
            .tokens
            .iter()
            .map(|t| chars[t.start as usize..t.end as usize].iter().collect())
            .collect()
    }

    #[test]
    fn tokens_keep_offsets_into_the_original() {
        assert_eq!(spans("Ｄｅｂｉａｎ 软件包，version 12."), vec!["Ｄｅｂｉａｎ", "软", "件", "包", "version", "12"]);
    }

    #[test]
    fn full_width_case_and_traditional_fold_to_the_same_hashes() {
        let a: Vec<u64> = words("ＤＥＢＩＡＮ軟體說明", NormalizeOptions::default()).iter().map(|t| t.0).collect();
        let b: Vec<u64> = words("debian 软体说明", NormalizeOptions::default()).iter().map(|t| t.0).collect();
        assert_eq!(a, b);
    }

    #[test]
    fn each_switch_can_be_turned_off() {
        let off = NormalizeOptions {
            nfkc: false,
            case_fold: false,
            traditional_to_simplified: false,
            drop_punctuation: false,
        };
        let h = |s: &str, o| words(s, o).iter().map(|t| t.0).collect::<Vec<_>>();
        assert_ne!(h("Debian", off), h("debian", off));
        assert_ne!(h("說", off), h("说", off));
        assert_ne!(h("ｄ", off), h("d", off));
        assert_eq!(words("a, b", off).len(), 3);
        assert_eq!(words("a, b", NormalizeOptions::default()).len(), 2);
    }

    #[test]
    fn sentences_split_on_terminators_and_period_before_space() {
        let t = tokenize("第一句。第二句！Third one. Fourth v1.2 ok\nlast", NormalizeOptions::default());
        let starts: Vec<u32> = t.sentence_starts.clone();
        // 第一句 (3) | 第二句 (3) | third one (2) | fourth v1 2 ok (4) | last
        assert_eq!(starts, vec![0, 3, 6, 8, 12]);
    }

    #[test]
    fn folded_text_joins_han_and_separates_words() {
        assert_eq!(folded_text("軟體，Debian  套件!", NormalizeOptions::default()), "软体 debian 套件\n");
    }

    #[test]
    fn stream_holds_the_normalized_characters_with_their_offsets() {
        let s = char_stream("Ｔｅｓ\nting 軟體", NormalizeOptions::default());
        assert_eq!(s.chars.iter().collect::<String>(), "testing软体");
        assert_eq!(s.offsets, vec![0, 1, 2, 4, 5, 6, 7, 9, 10]);
    }

    #[test]
    fn the_stream_holds_the_characters_of_exactly_the_tokens() {
        let text = "Ｔｅｓ\nting 軟體, ﬁne Café! 1.5 ok";
        for options in [NormalizeOptions::default(), NormalizeOptions { drop_punctuation: false, ..Default::default() }]
        {
            let tokens = tokenize(text, options).tokens;
            let stream = char_stream(text, options);
            let from_tokens: usize =
                tokens.iter().map(|t| stream.offsets.iter().filter(|&&o| o >= t.start && o < t.end).count()).sum();
            assert_eq!(from_tokens, stream.chars.len());
            assert!(stream.offsets.iter().all(|&o| tokens.iter().any(|t| o >= t.start && o < t.end)));
        }
    }

    #[test]
    fn long_lines_are_broken_and_prefixes_bound_the_normalized_length() {
        let line = "字".repeat(3 * MAX_FOLDED_LINE_CHARS);
        let folded = folded_text(&line, NormalizeOptions::default());
        assert!(folded.lines().all(|l| l.chars().count() <= MAX_FOLDED_LINE_CHARS));
        assert_eq!(folded.chars().filter(|&c| c == '字').count(), 3 * MAX_FOLDED_LINE_CHARS);
        let options = NormalizeOptions::default();
        assert_eq!(prefix_within("short", options, 1000), 5);
        let expanding = "\u{FDFA}".repeat(1000);
        let cut = prefix_within(&expanding, options, 18 * 3 * 10);
        assert_eq!(expanding[..cut].chars().count(), 10);
        let han = "字".repeat(1000);
        assert_eq!(han[..prefix_within(&han, options, 300)].chars().count(), 300);
    }

    #[test]
    fn look_alikes_and_invisible_characters_fold_away_with_offsets_kept() {
        let h = |s: &str| words(s, NormalizeOptions::default()).iter().map(|t| t.0).collect::<Vec<_>>();
        assert_eq!(
            h("Thе quiсk brоwn fox, 1с2 the сор is а friend"),
            h("The quick brown fox, 1c2 the cop is a friend")
        );
        assert_eq!(h("wo\u{200B}rd so\u{00AD}ft 软\u{200D}件 ⻓期"), h("word soft 软件 长期"));
        assert_eq!(h("Мы используем Python с удовольствием"), h("мы используем python с удовольствием"));
        assert_ne!(h("Мы используем Python с удовольствием"), h("мы используем python c удовольствием"));
        assert_eq!(spans("Thе wo\u{200B}rd"), vec!["Thе", "wo\u{200B}rd"]);
    }

    #[test]
    fn empty_and_punctuation_only_text_has_no_tokens() {
        assert!(tokenize("", NormalizeOptions::default()).tokens.is_empty());
        assert!(tokenize("，。！ ... \n", NormalizeOptions::default()).tokens.is_empty());
    }
}

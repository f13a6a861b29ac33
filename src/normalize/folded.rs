//! The folded text: the normalized text as words separated by single spaces, what SimHash
//! and keywords segment ([`folded_text`]), built character by character ([`Folded`]) so
//! that a scan for tokens can build it on the way ([`super::tokenize_folded`]).

use super::{NormalizeOptions, for_each_normalized_char, is_sentence_terminator, is_single_char_token};

/// A line of folded text is broken after this many characters: a word segmenter's memory
/// grows with the length of a line (jieba builds a graph over all of it), and a document
/// of one 50 MB line must not take gigabytes.
pub const MAX_FOLDED_LINE_CHARS: usize = 4096;

/// The normalized text as words separated by single spaces: what SimHash segments.
/// Han characters are kept together so that a word segmenter can find words in them.
/// Lines are at most [`MAX_FOLDED_LINE_CHARS`] characters long.
pub fn folded_text(text: &str, options: NormalizeOptions) -> String {
    let mut folded = Folded::with_capacity(text.len());
    for_each_normalized_char(text, options, |_, c| folded.push(c));
    folded.finish()
}

/// The folded text being built from the normalized characters of a text, in order.
#[derive(Debug)]
pub struct Folded {
    out: String,
    /// Whether what was last written separates words (or nothing was written yet).
    last_space: bool,
    /// Characters on the current line.
    line: usize,
}

impl Folded {
    /// Room for `bytes` bytes of folded text.
    pub fn with_capacity(bytes: usize) -> Self {
        Self { out: String::with_capacity(bytes), last_space: true, line: 0 }
    }

    /// Takes the next normalized character.
    #[inline]
    pub fn push(&mut self, c: char) {
        if is_single_char_token(c) || c.is_alphanumeric() {
            if self.line >= MAX_FOLDED_LINE_CHARS {
                self.out.push('\n');
                self.line = 0;
            }
            self.out.push(c);
            self.line += 1;
            self.last_space = false;
        } else if c == '\n' || is_sentence_terminator(c) {
            if !self.out.ends_with('\n') {
                self.out.push('\n');
            }
            self.line = 0;
            self.last_space = true;
        } else if !self.last_space {
            self.out.push(' ');
            self.line += 1;
            self.last_space = true;
        }
    }

    /// The folded text.
    pub fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::normalize::{tokenize, tokenize_folded};

    fn every_options() -> Vec<NormalizeOptions> {
        let off = NormalizeOptions {
            nfkc: false,
            case_fold: false,
            traditional_to_simplified: false,
            drop_punctuation: false,
        };
        vec![NormalizeOptions::default(), off]
    }

    /// One pass gives what the two passes give.
    fn assert_one_pass_agrees(text: &str) {
        for options in every_options() {
            let (tokenized, folded) = tokenize_folded(text, options);
            assert_eq!(folded, folded_text(text, options), "{text:?}");
            let apart = tokenize(text, options);
            assert_eq!(tokenized.tokens, apart.tokens, "{text:?}");
            assert_eq!(tokenized.sentence_starts, apart.sentence_starts, "{text:?}");
        }
    }

    #[test]
    fn words_are_spaced_sentences_end_lines_and_long_lines_break() {
        let folded = folded_text("Ｈｅｌｌｏ,  World! 軟體包　管理。x", NormalizeOptions::default());
        assert_eq!(folded, "hello world\n软体包 管理\nx");
        let long = "字".repeat(MAX_FOLDED_LINE_CHARS + 10);
        let folded = folded_text(&long, NormalizeOptions::default());
        assert_eq!(folded.lines().map(|l| l.chars().count()).collect::<Vec<_>>(), vec![MAX_FOLDED_LINE_CHARS, 10]);
    }

    #[test]
    fn one_pass_agrees_on_mixed_text() {
        for text in [
            "",
            "Debian 是一个自由的操作系统，它使用 Linux 内核。\n\n軟體包管理系統可以幫助使用者。",
            "ﬁnance café e\u{301}te Ａｂｃ Thе quiсk\u{200b}brоwn fox. Dr. Smith went home.\r\n",
            "⼈⺠ 한국어 テスト 123,456.78 — «quoted» (brackets) [1] {x}",
            &"长句子没有标点".repeat(1_000),
        ] {
            assert_one_pass_agrees(text);
        }
    }

    proptest! {
        #[test]
        fn one_pass_agrees_on_any_text(text in "\\PC{0,300}") {
            assert_one_pass_agrees(&text);
        }
    }
}

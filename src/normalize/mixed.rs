//! The look-alike fold, one pass over characters: Cyrillic and Greek letters that imitate
//! Latin ones become those Latin letters where a word mixes scripts (a look-alike inside a
//! Latin word), or where a whole word of look-alikes stands between Latin words. Russian,
//! Greek or mathematical text written as such is left alone: a word with a letter that
//! imitates nothing, or a look-alike word between words of another script, is not folded,
//! and neither is a lone Greek or mathematical letter (a formula's α or 𝑥).
//!
//! A word that starts with a look-alike waits in a short buffer until a letter decides it
//! (its own next letter, or the next word's); the characters behind it wait too, so that
//! the output keeps the order of the text. Invisible characters are dropped, blanks become
//! spaces; every other character passes unchanged, with its offset.

use super::lookalike::{Class, Script, is_math_letter};

/// Where the fold tells which look-alikes it folded (the flags); matching ignores it.
pub(crate) trait Observer {
    /// The look-alike `c` at `offset`, written in `script`, was taken for a Latin letter.
    fn look_alike(&mut self, offset: u32, c: char, script: Script);
}

/// An observer that ignores everything.
pub(crate) struct Ignore;

impl Observer for Ignore {
    #[inline]
    fn look_alike(&mut self, _offset: u32, _c: char, _script: Script) {}
}

/// The script of the letters on one side of a waiting stretch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Side {
    #[default]
    Unknown,
    Latin,
    Other,
}

/// A longer stretch than this is decided without waiting for its next letter.
const MAX_PENDING: usize = 256;

/// The fold's state between characters.
#[derive(Default)]
pub(crate) struct Folder {
    /// Characters waiting for a decision, with their classes.
    pending: Vec<(u32, char, Class)>,
    /// Where the current word starts in `pending` (when it started there).
    word_start: usize,
    in_word: bool,
    word_latin: bool,
    word_other: bool,
    /// The script of the last letter that decided something.
    before: Side,
}

impl Folder {
    /// Whether nothing waits: ASCII may then go through [`Folder::ascii`].
    #[inline]
    pub(crate) fn idle(&self) -> bool {
        self.pending.is_empty()
    }

    /// Notes an ASCII character that passes unchanged (only when [`Folder::idle`]).
    #[inline]
    pub(crate) fn ascii(&mut self, c: char) {
        if c.is_ascii_alphabetic() {
            self.in_word = true;
            self.word_latin = true;
            self.before = Side::Latin;
        } else if c.is_ascii_digit() {
            self.in_word = true;
        } else {
            self.end_word();
        }
    }

    /// Notes a letter of another script that passes unchanged (only when idle).
    #[inline]
    pub(crate) fn other(&mut self) {
        self.in_word = true;
        self.word_other = true;
        self.before = Side::Other;
    }

    /// Notes a stretch of ASCII and Chinese characters (4E00–9FFF) that passed unchanged
    /// while nothing waited, as [`Folder::ascii`] and [`Folder::other`] would have (a
    /// Chinese character counting as a word of its own): only the stretch's last word and
    /// last letter matter, read backwards over bytes (any non-ASCII byte is Chinese).
    pub(crate) fn catch_up(&mut self, stretch: &str) {
        let bytes = stretch.as_bytes();
        let Some(&last) = bytes.last() else {
            return;
        };
        if !last.is_ascii() {
            self.before = Side::Other;
            self.in_word = true;
            self.word_latin = false;
            self.word_other = true;
            return;
        }
        if let Some(&letter) = bytes.iter().rev().find(|b| b.is_ascii_alphabetic() || !b.is_ascii()) {
            self.before = if letter.is_ascii() { Side::Latin } else { Side::Other };
        }
        if !last.is_ascii_alphanumeric() {
            self.end_word();
            return;
        }
        let word = bytes.iter().rev().take_while(|b| b.is_ascii_alphanumeric()).count();
        let latin = bytes[bytes.len() - word..].iter().any(u8::is_ascii_alphabetic);
        match bytes.len().checked_sub(word + 1).map(|i| bytes[i]) {
            None if self.in_word => self.word_latin |= latin,
            // Glued to a Chinese character.
            Some(before) if !before.is_ascii() => {
                self.in_word = true;
                self.word_latin = latin;
                self.word_other = true;
            }
            _ => {
                self.in_word = true;
                self.word_latin = latin;
                self.word_other = false;
            }
        }
    }

    /// Notes a character that ends a word and passes unchanged (only when idle).
    #[inline]
    pub(crate) fn boundary(&mut self) {
        self.end_word();
    }

    #[inline]
    fn end_word(&mut self) {
        self.in_word = false;
        self.word_latin = false;
        self.word_other = false;
    }

    /// Takes character `c` at `offset`, of class `class`, and emits what can be emitted.
    pub(crate) fn push(
        &mut self,
        offset: u32,
        c: char,
        class: Class,
        emit: &mut impl FnMut(u32, char),
        observer: &mut impl Observer,
    ) {
        if class == Class::Invisible {
            return;
        }
        if !self.pending.is_empty() {
            match class {
                Class::Latin => self.resolve(Side::Latin, emit, observer),
                Class::Other => self.resolve(Side::Other, emit, observer),
                _ => {
                    self.wait(offset, c, class);
                    if self.pending.len() > MAX_PENDING {
                        self.resolve(Side::Unknown, emit, observer);
                    }
                    return;
                }
            }
        }
        match class {
            Class::Latin => {
                self.in_word = true;
                self.word_latin = true;
                self.before = Side::Latin;
                emit(offset, c);
            }
            Class::Other => {
                self.other();
                emit(offset, c);
            }
            Class::LookAlike(latin, script) if self.word_latin => {
                observer.look_alike(offset, c, script);
                emit(offset, latin);
            }
            Class::Compat if self.word_latin => {
                observer.look_alike(offset, c, Script::Compat);
                emit(offset, c);
            }
            Class::LookAlike(..) | Class::Compat if self.word_other => emit(offset, c),
            Class::LookAlike(..) | Class::Compat => self.wait(offset, c, class),
            Class::Neutral => {
                self.in_word = true;
                emit(offset, c);
            }
            Class::Blank => {
                self.end_word();
                emit(offset, ' ');
            }
            Class::Boundary | Class::Invisible => {
                self.end_word();
                emit(offset, c);
            }
        }
    }

    /// Puts a character in the waiting stretch.
    fn wait(&mut self, offset: u32, c: char, class: Class) {
        match class {
            Class::Boundary | Class::Blank => self.end_word(),
            _ if !self.in_word || self.pending.is_empty() => {
                self.in_word = true;
                self.word_start = self.pending.len();
            }
            _ => {}
        }
        self.pending.push((offset, c, class));
    }

    /// Emits everything still waiting, decided as at the end of the text.
    pub(crate) fn finish(&mut self, emit: &mut impl FnMut(u32, char), observer: &mut impl Observer) {
        self.resolve(Side::Unknown, emit, observer);
    }

    /// Decides and emits the waiting stretch, now that the next letter is of `next`'s script
    /// (`Unknown`: at the end, or when the stretch got too long). A word still open takes
    /// the side of that letter, which belongs to it; whole words of look-alikes are folded
    /// when Latin letters stand on both sides (or before them, at the end).
    fn resolve(&mut self, next: Side, emit: &mut impl FnMut(u32, char), observer: &mut impl Observer) {
        if self.pending.is_empty() {
            return;
        }
        let open_word = (self.in_word && next != Side::Unknown).then_some(self.word_start);
        let pure_fold = self.before == Side::Latin && next != Side::Other;
        let pending = std::mem::take(&mut self.pending);
        let mut start = 0;
        while start < pending.len() {
            let in_word = |class: &Class| !matches!(class, Class::Boundary | Class::Blank);
            if !in_word(&pending[start].2) {
                let (offset, c, class) = pending[start];
                emit(offset, if class == Class::Blank { ' ' } else { c });
                start += 1;
                continue;
            }
            let end = pending[start..].iter().position(|p| !in_word(&p.2)).map_or(pending.len(), |n| start + n);
            let word = &pending[start..end];
            let fold = if open_word == Some(start) { next == Side::Latin } else { pure_fold && foldable_alone(word) };
            for &(offset, c, class) in word {
                match class {
                    Class::LookAlike(latin, script) if fold => {
                        observer.look_alike(offset, c, script);
                        emit(offset, latin);
                    }
                    Class::Compat if fold => {
                        observer.look_alike(offset, c, Script::Compat);
                        emit(offset, c);
                    }
                    _ => emit(offset, c),
                }
            }
            start = end;
        }
        // Hand the buffer back, emptied, to keep its allocation.
        self.pending = pending;
        self.pending.clear();
        self.word_start = 0;
        if open_word.is_none() && next == Side::Unknown {
            self.end_word();
        }
    }
}

/// Whether a word made only of look-alikes (and digits or marks) is folded between Latin
/// words: not a lone Greek letter, not a short run of mathematical letters (a formula).
fn foldable_alone(word: &[(u32, char, Class)]) -> bool {
    let letters: Vec<Class> = word.iter().map(|p| p.2).filter(|c| !matches!(c, Class::Neutral)).collect();
    let math = word.iter().filter(|p| is_math_letter(p.1)).count();
    if math > 0 && letters.len() < 4 {
        return false;
    }
    !matches!(letters.as_slice(), [Class::LookAlike(_, Script::Greek)] | [Class::Compat])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::lookalike::classify;

    /// The folded text and the offsets reported as look-alikes.
    fn fold(text: &str) -> (String, Vec<u32>) {
        struct Seen(Vec<u32>);
        impl Observer for Seen {
            fn look_alike(&mut self, offset: u32, _: char, _: Script) {
                self.0.push(offset);
            }
        }
        let mut out = String::new();
        let mut seen = Seen(Vec::new());
        let mut folder = Folder::default();
        let mut emit = |_, c| out.push(c);
        for (offset, c) in (0u32..).zip(text.chars()) {
            if c.is_ascii() && folder.idle() {
                folder.ascii(c);
                emit(offset, c);
            } else {
                let class = if c.is_ascii_alphabetic() {
                    Class::Latin
                } else if c.is_ascii_digit() {
                    Class::Neutral
                } else if c.is_ascii() {
                    Class::Boundary
                } else {
                    classify(c)
                };
                folder.push(offset, c, class, &mut emit, &mut seen);
            }
        }
        folder.finish(&mut emit, &mut seen);
        (out, seen.0)
    }

    #[test]
    fn look_alikes_inside_latin_words_are_folded() {
        let (text, seen) = fold("Thе quiсk brоwn fox");
        assert_eq!(text, "The quick brown fox");
        assert_eq!(seen, vec![2, 7, 12]);
        assert_eq!(fold("еxample аnd").0, "example and");
    }

    #[test]
    fn whole_look_alike_words_between_latin_words_are_folded() {
        assert_eq!(fold("the сор is а friend").0, "the cop is a friend");
        assert_eq!(fold("a ТЕХ b").0, "a TEX b");
    }

    #[test]
    fn russian_and_greek_text_is_left_alone() {
        for text in ["Мы используем Python с удовольствием", "сор и хор", "Η Ελλάδα είναι χώρα", "где с ним"]
        {
            let (folded, seen) = fold(text);
            assert_eq!(folded, text);
            assert!(seen.is_empty(), "{text}");
        }
        // A lone Greek letter or a short mathematical word in English text: a formula.
        for text in ["the angle α is small", "let 𝑥 be a value and 𝑓 its image", "if ρ is one"] {
            assert!(fold(text).1.is_empty(), "{text}");
        }
    }

    #[test]
    fn invisible_characters_are_dropped_and_blanks_become_spaces() {
        assert_eq!(fold("wo\u{200B}rd\u{00AD}s\u{2800}here").0, "words here");
        assert_eq!(fold("с\u{200B}ор word").0, "сор word");
    }

    #[test]
    fn a_long_waiting_stretch_is_decided_without_losing_characters() {
        let text = format!("word {} end", "а ".repeat(600));
        let (folded, _) = fold(&text);
        assert_eq!(folded.chars().count(), text.chars().count());
        assert!(folded.starts_with("word a a"));
    }
}

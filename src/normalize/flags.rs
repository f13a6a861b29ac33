//! What a document does to hide a copy, found and counted: look-alike letters, invisible
//! characters, odd spaces (found in its text, [`text_flags`]), hidden text and text as
//! images (found by ingest, in the file). Each [`Flag`] says how many and where: the
//! first few spans, in characters of the extracted (visible) text.
//!
//! Ordinary writing raises none: Russian or Greek text, a formula, Chinese with English
//! words and full-width punctuation, emoji sequences, Persian's zero-width non-joiner.

use super::lookalike::{self, Class, Script, is_blank, is_han, is_han_look_alike, is_invisible, is_odd_space};
use super::mixed::{Folder, Observer};
pub use crate::model::{Flag, FlagKind, LookAlikeScript, MAX_SPANS};

/// Below these counts a finding is taken for chance (a stray character pasted from the
/// web), not for a trick.
const MIN_LOOK_ALIKES: u32 = 3;
const MIN_INVISIBLE: u32 = 3;
const MIN_ODD_SPACES: u32 = 3;

/// The flags of a document's text: look-alike letters (as the matching fold takes them),
/// invisible characters and odd spaces inside Latin or Chinese text, Han look-alikes
/// beside Chinese characters. One pass over the characters; empty for ordinary text.
pub fn text_flags(text: &str) -> Vec<Flag> {
    if text.is_ascii() {
        return Vec::new();
    }
    let mut found = Found::default();
    let mut folder = Folder::default();
    let mut skip = |_: u32, _: char| {};
    // Characters whose flag depends on the next visible character.
    let mut waiting: Vec<(u32, char, char)> = Vec::new();
    let mut full_width = FullWidth::default();
    let mut prev = '\0';
    for (offset, c) in (0u32..).zip(text.chars()) {
        // Chinese characters, the bulk of Chinese text, decide what waits and pass.
        if is_han(c) && folder.idle() && full_width.run.is_empty() {
            folder.other();
            for (at, waiting_c, before) in waiting.drain(..) {
                found.decide(at, waiting_c, before, c);
            }
            prev = c;
            continue;
        }
        if c.is_ascii() && folder.idle() {
            folder.ascii(c);
        } else {
            let class = if c.is_ascii() { ascii_class(c) } else { lookalike::classify(c) };
            folder.push(offset, c, class, &mut skip, &mut found);
        }
        full_width.next(offset, c, prev, &mut found.compat);
        if c.is_ascii() && waiting.is_empty() {
            prev = c;
            continue;
        }
        if is_invisible(c) || is_blank(c) || is_odd_space(c) || is_han_look_alike(c) {
            waiting.push((offset, c, prev));
            if !is_invisible(c) {
                prev = c;
            }
            continue;
        }
        for (at, waiting_c, before) in waiting.drain(..) {
            found.decide(at, waiting_c, before, c);
        }
        prev = c;
    }
    folder.finish(&mut skip, &mut found);
    full_width.next(u32::MAX, '\0', prev, &mut found.compat);
    for (at, waiting_c, before) in waiting.drain(..) {
        found.decide(at, waiting_c, before, '\0');
    }
    found.into_flags()
}

fn ascii_class(c: char) -> Class {
    if c.is_ascii_alphabetic() {
        Class::Latin
    } else if c.is_ascii_digit() {
        Class::Neutral
    } else {
        Class::Boundary
    }
}

/// The findings so far, by kind.
struct Found {
    cyrillic: Flag,
    greek: Flag,
    compat: Flag,
    han: Flag,
    invisible: Flag,
    odd_spaces: Flag,
}

impl Default for Found {
    fn default() -> Self {
        let look = |s| Flag::new(FlagKind::LookAlikeLetters, Some(s));
        Self {
            cyrillic: look(LookAlikeScript::Cyrillic),
            greek: look(LookAlikeScript::Greek),
            compat: look(LookAlikeScript::Compat),
            han: look(LookAlikeScript::Han),
            invisible: Flag::new(FlagKind::InvisibleCharacters, None),
            odd_spaces: Flag::new(FlagKind::OddSpaces, None),
        }
    }
}

impl Observer for Found {
    fn look_alike(&mut self, offset: u32, c: char, script: Script) {
        let flag = match script {
            Script::Cyrillic => &mut self.cyrillic,
            Script::Greek => &mut self.greek,
            // Full-width letters are counted apart (see `FullWidth`).
            Script::Compat if is_full_width_letter(c) => return,
            Script::Compat => &mut self.compat,
        };
        flag.add(offset, offset + 1, 1);
    }
}

/// Full-width Latin letters.
fn is_full_width_letter(c: char) -> bool {
    matches!(c as u32, 0xFF21..=0xFF3A | 0xFF41..=0xFF5A)
}

/// A run of full-width letters being read. Chinese writers type whole words in full-width
/// letters (and so does the development set's punctuation-and-width obfuscation): only a
/// letter or two swapped into an ASCII word ("thｅ") is a trick.
#[derive(Default)]
struct FullWidth {
    run: Vec<u32>,
    after_ascii: bool,
}

impl FullWidth {
    /// Longer runs than this are words typed in full width.
    const MAX_RUN: usize = 2;

    /// Takes the character `c` at `offset`, after `prev`; a run that ends is counted in
    /// `flag` when it is short and touches an ASCII letter.
    fn next(&mut self, offset: u32, c: char, prev: char, flag: &mut Flag) {
        if is_full_width_letter(c) {
            if self.run.is_empty() {
                self.after_ascii = prev.is_ascii_alphabetic();
            }
            self.run.push(offset);
            return;
        }
        if self.run.is_empty() {
            return;
        }
        if self.run.len() <= Self::MAX_RUN && (self.after_ascii || c.is_ascii_alphabetic()) {
            for &at in &self.run {
                flag.add(at, at + 1, 1);
            }
        }
        self.run.clear();
    }
}

impl Found {
    /// Counts the character `c` at `at` if what stands `before` and `after` it makes it a
    /// trick rather than ordinary writing.
    fn decide(&mut self, at: u32, c: char, before: char, after: char) {
        if is_han_look_alike(c) {
            let han = |x: char| is_han(x) || is_han_look_alike(x);
            if han(before) || han(after) {
                self.han.add(at, at + 1, 1);
            }
        } else if is_odd_space(c) {
            if is_latin_letter(before) && is_latin_letter(after) {
                self.odd_spaces.add(at, at + 1, 1);
            }
        } else if plain_context(before) && plain_context(after) {
            self.invisible.add(at, at + 1, 1);
        }
    }

    fn into_flags(self) -> Vec<Flag> {
        let keep = |flag: Flag, min: u32| (flag.count >= min).then_some(flag);
        [
            keep(self.cyrillic, MIN_LOOK_ALIKES),
            keep(self.greek, MIN_LOOK_ALIKES),
            keep(self.compat, MIN_LOOK_ALIKES),
            keep(self.han, MIN_LOOK_ALIKES),
            keep(self.invisible, MIN_INVISIBLE),
            keep(self.odd_spaces, MIN_ODD_SPACES),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

fn is_latin_letter(c: char) -> bool {
    matches!(lookalike::classify(c), Class::Latin) || c.is_ascii_alphabetic()
}

/// Text in which an invisible character has no business: ASCII, Latin letters, Chinese
/// characters and their punctuation (not emoji, whose sequences join with ZWJ and
/// variation selectors, nor scripts that need joiners, such as Persian or Devanagari).
fn plain_context(c: char) -> bool {
    (c.is_ascii() && c != '\0')
        || is_han(c)
        || is_latin_letter(c)
        || matches!(lookalike::classify(c), Class::LookAlike(..) | Class::Compat)
        || matches!(c as u32, 0x3000..=0x303F | 0xFF00..=0xFFEF | 0x2010..=0x2027)
        || is_odd_space(c)
        || is_blank(c)
}

/// Orders flags as reports show them and joins flags of the same kind and script (ingest
/// and text may both find some).
pub fn merge(mut flags: Vec<Flag>) -> Vec<Flag> {
    flags.sort_by_key(|f| (f.kind, f.script));
    let mut out: Vec<Flag> = Vec::with_capacity(flags.len());
    for flag in flags {
        match out.last_mut() {
            Some(last) if last.kind == flag.kind && last.script == flag.script => {
                last.count = last.count.saturating_add(flag.count);
                for span in flag.spans {
                    if last.spans.len() < MAX_SPANS {
                        last.spans.push(span);
                    }
                }
            }
            _ => out.push(flag),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(FlagKind, Option<LookAlikeScript>, u32)> {
        text_flags(text).into_iter().map(|f| (f.kind, f.script, f.count)).collect()
    }

    #[test]
    fn ordinary_writing_raises_no_flag() {
        for text in [
            "Plain English text, with “curly quotes” and an em dash — like this.",
            "Мы используем Python с удовольствием, и сор и хор тоже.",
            "Η Ελλάδα είναι χώρα της Ευρώπης. ΑΒΓ",
            "Let 𝑥 and 𝑦 be reals with 𝑓(𝑥) = α𝑥 + β; then ρ ≤ 1.",
            "我们使用 Debian 软件包（版本 12），Ｄｅｂｉａｎ 很好。",
            "Emoji ❤\u{FE0F} and 👩\u{200D}💻 are fine",
            "\u{FEFF}A text that starts with a byte-order mark.",
            "می\u{200C}خواهم",
            "Prix : 10\u{00A0}€ « oui »",
        ] {
            assert!(kinds(text).is_empty(), "{text}: {:?}", kinds(text));
        }
    }

    #[test]
    fn each_trick_is_found_with_its_count_and_place() {
        let flags = text_flags("Thе quiсk brоwn fox jumps");
        assert_eq!(flags.len(), 1);
        assert_eq!(
            (flags[0].kind, flags[0].script, flags[0].count),
            (FlagKind::LookAlikeLetters, Some(LookAlikeScript::Cyrillic), 3)
        );
        assert_eq!(flags[0].spans, vec![[2, 3], [7, 8], [12, 13]]);
        assert_eq!(kinds("wo\u{200B}rd an\u{200B}d mo\u{2060}re"), vec![(FlagKind::InvisibleCharacters, None, 3)]);
        assert_eq!(kinds("one\u{00A0}two\u{2009}three\u{3000}four"), vec![(FlagKind::OddSpaces, None, 3)]);
        assert_eq!(kinds("⼈们⻓期⼤量工作"), vec![(FlagKind::LookAlikeLetters, Some(LookAlikeScript::Han), 3)]);
        assert_eq!(
            kinds("so ｔhe quiｃk 𝐛𝐫𝐨𝐰𝐧 fox"),
            vec![(FlagKind::LookAlikeLetters, Some(LookAlikeScript::Compat), 7)]
        );
        // Whole words typed in full width are ordinary in Chinese writing.
        assert!(kinds("Ian Ｍｕｒｄｏｃｋ 建立 IanＭｕｒｄｏｃｋ the ｅｎｔｒｙ").is_empty());
        assert_eq!(kinds("the ΤΗΕ tοp"), vec![(FlagKind::LookAlikeLetters, Some(LookAlikeScript::Greek), 4)]);
    }

    #[test]
    fn spans_are_few_and_joined() {
        let mut flag = Flag::new(FlagKind::OddSpaces, None);
        for at in [1, 2, 3, 10, 20, 30, 40, 50, 60] {
            flag.add(at, at + 1, 1);
        }
        assert_eq!(flag.count, 9);
        assert_eq!(flag.spans, vec![[1, 4], [10, 11], [20, 21], [30, 31], [40, 41]]);
    }

    #[test]
    fn merged_flags_are_ordered_and_joined() {
        let hidden = |n| Flag { kind: FlagKind::HiddenText, script: None, count: n, spans: vec![[n, n]] };
        let odd = Flag { kind: FlagKind::OddSpaces, script: None, count: 3, spans: vec![] };
        let merged = merge(vec![hidden(4), odd.clone(), hidden(5)]);
        assert_eq!(
            merged,
            vec![odd, Flag { kind: FlagKind::HiddenText, script: None, count: 9, spans: vec![[4, 4], [5, 5]] }]
        );
    }
}

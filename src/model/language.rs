//! The script a document is written in, as far as comparing goes: Chinese, a language in
//! Latin letters, or another script. Twinspot finds copies within one script only, so a
//! suspect whose references are in another one may hold copies it cannot see.

use serde::{Deserialize, Serialize};

/// A document's script, by the letters it holds most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Language {
    /// Chinese characters (a text with English words in it stays Chinese).
    Chinese,
    /// Latin letters: English, French, …
    Latin,
    /// Any other script: Cyrillic, Arabic, Kana, Hangul, …
    Other,
}

/// Fewer letters than this say nothing about a language.
const MIN_LETTERS: usize = 20;

/// A text is Chinese when at least this share of its letters are Chinese characters:
/// Chinese technical writing full of English names stays well above it (a third of its
/// letters at least in the development sets), English writing has none.
const CHINESE_SHARE: f64 = 0.15;

impl Language {
    /// The script of `text`, `None` when it holds too few letters to tell.
    ///
    /// ```
    /// use twinspot::model::Language;
    /// assert_eq!(Language::of("软件包管理系统可以帮助用户安装和删除软件，也能升级整个系统。"), Some(Language::Chinese));
    /// assert_eq!(Language::of("A package manager installs and removes software."), Some(Language::Latin));
    /// assert_eq!(Language::of("1, 2, 3."), None);
    /// ```
    pub fn of(text: &str) -> Option<Self> {
        let (mut han, mut latin, mut other) = (0usize, 0usize, 0usize);
        for c in text.chars() {
            if c.is_ascii_alphabetic() {
                latin += 1;
            } else if c.is_ascii() {
            } else if is_han(c) {
                han += 1;
            } else if is_latin(c) {
                latin += 1;
            } else if c.is_alphabetic() {
                other += 1;
            }
        }
        let letters = han + latin + other;
        if letters < MIN_LETTERS && han < MIN_LETTERS / 2 {
            return None;
        }
        Some(if han as f64 >= CHINESE_SHARE * letters as f64 {
            Self::Chinese
        } else if latin >= other {
            Self::Latin
        } else {
            Self::Other
        })
    }

    /// The name reports write (as in the JSON).
    pub fn name(self) -> &'static str {
        match self {
            Self::Chinese => "chinese",
            Self::Latin => "latin",
            Self::Other => "other",
        }
    }
}

/// A Chinese character: the unified ideographs, their extensions and compatibility forms.
fn is_han(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3134F)
}

/// A Latin letter outside ASCII (accented letters, Latin Extended, full-width Latin).
fn is_latin(c: char) -> bool {
    matches!(c as u32, 0x00C0..=0x024F | 0x1E00..=0x1EFF | 0xFF21..=0xFF3A | 0xFF41..=0xFF5A) && c.is_alphabetic()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_with_english_names_stays_chinese_and_short_texts_say_nothing() {
        let mixed = "使用 apt-get install 安装软件包，用 dpkg --configure 配置它们。";
        assert_eq!(Language::of(mixed), Some(Language::Chinese));
        assert_eq!(Language::of("Ça coûte très cher, écrivit-il à l'éditeur."), Some(Language::Latin));
        assert_eq!(Language::of("Пакетный менеджер устанавливает программы."), Some(Language::Other));
        assert_eq!(Language::of("ok"), None);
        assert_eq!(Language::of("你好"), None);
    }
}

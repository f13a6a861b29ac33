//! The dictionary's evidence that a Chinese text and an English text say the same thing:
//! how many of the Chinese words the dictionary knows have a translation among the English
//! words, and which word pairs those are (shown to the reviewer).

use std::ops::Range;

use rustc_hash::FxHashMap;

use super::dictionary::{ChineseWord, Dictionary, Lemma};
use super::units::Language;

/// The dictionary's evidence for one Chinese text and one English text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overlap {
    /// Chinese words the dictionary knows.
    pub known: u32,
    /// Of those, the ones with a translation among the English words.
    pub matched: u32,
    /// Each matched Chinese word (code points of the Chinese text) with the first English
    /// word (code points of the English text) it was matched to.
    pub pairs: Vec<(Range<u32>, Range<u32>)>,
}

impl Overlap {
    /// The share of the known Chinese words matched, 0 when none is known.
    pub fn share(&self) -> f32 {
        if self.known == 0 { 0.0 } else { self.matched as f32 / self.known as f32 }
    }
}

/// The dictionary's evidence that `chinese` and `english` are translations of each other.
pub fn overlap(dictionary: &Dictionary, chinese: &str, english: &str) -> Overlap {
    let mut first_place: FxHashMap<Lemma, Range<u32>> = FxHashMap::default();
    for word in dictionary.english_words(english) {
        first_place.entry(word.lemma).or_insert(word.start..word.end);
    }
    let mut out = Overlap::default();
    for word in dictionary.chinese_words(chinese) {
        out.known += 1;
        if let Some(place) = word.lemmas.iter().find_map(|lemma| first_place.get(lemma)) {
            out.matched += 1;
            out.pairs.push((word.chars, place.clone()));
        }
    }
    out
}

/// Words counted by [`tie_counts`]: the Chinese side's known words, and of those the
/// matched ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub known: u32,
    pub matched: u32,
}

impl Counts {
    /// The share of the known words matched, 0 when none is known.
    pub fn share(self) -> f32 {
        if self.known == 0 { 0.0 } else { self.matched as f32 / self.known as f32 }
    }
}

/// A unit's words as the tie counts read them: a Chinese text's dictionary words, an
/// English text's distinct lemmas ([`english_lemmas`]). Made once a unit, and read
/// against each candidate.
pub enum Words<'d> {
    Chinese(Vec<ChineseWord<'d>>),
    English(Vec<Lemma>),
}

impl<'d> Words<'d> {
    /// The words of `text`, written in `language`.
    pub fn of(dictionary: &'d Dictionary, text: &str, language: Language) -> Self {
        match language {
            Language::Chinese => Words::Chinese(dictionary.chinese_words(text)),
            Language::English => Words::English(english_lemmas(dictionary, text)),
        }
    }
}

/// The distinct lemmas of the English words of `text` the dictionary knows, sorted.
pub fn english_lemmas(dictionary: &Dictionary, text: &str) -> Vec<Lemma> {
    let mut lemmas: Vec<Lemma> = dictionary.english_words(text).iter().map(|w| w.lemma).collect();
    lemmas.sort_unstable();
    lemmas.dedup();
    lemmas
}

/// The counts of [`overlap`] without the word pairs, twice: over every word, and over the
/// telling ones alone (a Chinese word is telling when one of its lemmas is, and matched
/// as such only through a telling lemma). `chinese` gives each known Chinese word's
/// lemmas; `english` says whether the English side holds a lemma. A word common to much of
/// a collection ("file", "system" in a set of manuals; every frequent word in a text of
/// random words) ties anything to anything; a translation also pairs its rarer words.
pub fn tie_counts<'d>(
    chinese: impl IntoIterator<Item = &'d [Lemma]>,
    english: impl Fn(Lemma) -> bool,
    telling: impl Fn(Lemma) -> bool,
) -> (Counts, Counts) {
    let (mut all, mut rare) = (Counts::default(), Counts::default());
    for lemmas in chinese {
        all.known += 1;
        all.matched += u32::from(lemmas.iter().any(|&l| english(l)));
        if lemmas.iter().any(|&l| telling(l)) {
            rare.known += 1;
            rare.matched += u32::from(lemmas.iter().any(|&l| telling(l) && english(l)));
        }
    }
    (all, rare)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    const ZH: &str = "更新一个已存在的软件包可能有点复杂，因为它可能使用了旧的打包技术。";
    const EN: &str = "Updating an existing package may get complicated since it may be using older techniques.";

    fn dictionary() -> Dictionary {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/meaning/dictionary.txt");
        Dictionary::load(Path::new(path)).unwrap()
    }

    #[test]
    fn a_translation_shares_more_words_than_another_text() {
        let d = dictionary();
        let other = "The weather in the mountains was cold and the children stayed inside all day.";
        let translation = overlap(&d, ZH, EN);
        let unrelated = overlap(&d, ZH, other);
        assert!(translation.share() > 0.3, "{translation:?}");
        assert!(unrelated.share() < translation.share() / 2.0, "{unrelated:?}");
        let (zh_word, en_word) = translation.pairs[0].clone();
        assert!(zh_word.start < zh_word.end && en_word.start < en_word.end);
    }

    #[test]
    fn the_tie_counts_are_the_overlaps_and_drop_the_words_not_telling() {
        let d = dictionary();
        let full = overlap(&d, ZH, EN);
        let (Words::Chinese(zh), Words::English(en)) =
            (Words::of(&d, ZH, Language::Chinese), Words::of(&d, EN, Language::English))
        else {
            panic!("the words of each language");
        };
        let zh: Vec<&[Lemma]> = zh.iter().map(|w| w.lemmas).collect();
        let en = |l: Lemma| en.binary_search(&l).is_ok();
        let (all, every) = tie_counts(zh.iter().copied(), en, |_| true);
        assert_eq!((all.known, all.matched), (full.known, full.matched));
        assert_eq!(all, every);
        let package = d.english("package").unwrap();
        let (_, rare) = tie_counts(zh.iter().copied(), en, |l| l != package);
        // 软件包 has lemmas besides "package": it stays known; words matched through
        // "package" alone are matched no more
        assert!(rare.matched < all.matched && rare.known <= all.known, "{rare:?} of {all:?}");
        let (_, none) = tie_counts(zh.iter().copied(), en, |_| false);
        assert_eq!(none, Counts::default());
        assert_eq!(none.share(), 0.0);
    }
}

//! The dictionary's evidence that a Chinese text and an English text say the same thing:
//! how many of the Chinese words the dictionary knows have a translation among the English
//! words, and which word pairs those are (shown to the reviewer).

use std::ops::Range;

use rustc_hash::FxHashMap;

use super::dictionary::{Dictionary, Lemma};

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

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn a_translation_shares_more_words_than_another_text() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/meaning/dictionary.txt");
        let d = Dictionary::load(Path::new(path)).unwrap();
        let zh = "更新一个已存在的软件包可能有点复杂，因为它可能使用了旧的打包技术。";
        let en = "Updating an existing package may get complicated since it may be using older techniques.";
        let other = "The weather in the mountains was cold and the children stayed inside all day.";
        let translation = overlap(&d, zh, en);
        let unrelated = overlap(&d, zh, other);
        assert!(translation.share() > 0.3, "{translation:?}");
        assert!(unrelated.share() < translation.share() / 2.0, "{unrelated:?}");
        let (zh_word, en_word) = translation.pairs[0].clone();
        assert!(zh_word.start < zh_word.end && en_word.start < en_word.end);
    }
}

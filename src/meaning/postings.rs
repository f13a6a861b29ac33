//! The collection's posting lists, in vectors indexed by number (no hashing): English
//! units listed under each of their lemmas, Chinese units under each of their words (the
//! dictionary's entries). A Chinese word reaches several lemmas, so listing a Chinese unit
//! under its words instead of its lemmas lists it a third as often; a lemma's Chinese
//! units are then the units of the words that reach it, through a map from each lemma to
//! the collection's words. A list held by more units than a bound finds nothing in
//! particular: it is dropped, and its lemmas are marked frequent.

use super::bits::LemmaBits;
use super::dictionary::{Dictionary, Entry, Lemma};
use super::units::Language;

/// The units (by their place in the collection) of each English lemma and Chinese word.
#[derive(Debug, Default)]
pub struct Postings {
    /// An English lemma's units (by lemma number); empty for a lemma never met or dropped.
    english: Vec<Vec<u32>>,
    /// The English lemmas whose lists outgrew the bound.
    english_overfull: LemmaBits,
    /// A Chinese word's units (by entry number); empty for a word never met or dropped.
    chinese: Vec<Vec<u32>>,
    /// The Chinese words whose lists outgrew the bound (by entry number).
    chinese_overfull: LemmaBits,
    /// The Chinese units that hold each lemma through one of their words, counted.
    chinese_counts: Vec<u32>,
    /// Each lemma's words with a list, once [`Postings::finish`] has run: the words of
    /// lemma `l` are `words[starts[l]..starts[l + 1]]`. A lemma frequent among Chinese
    /// units has none.
    starts: Vec<u32>,
    words: Vec<Entry>,
    /// The distinct words of the unit being added (a scratch set, empty between units).
    seen: LemmaBits,
    /// The most units a list may hold.
    bound: usize,
}

/// `list` with `unit` added, or dropped (and `overfull` told) once it holds more than
/// `bound` units; nothing for a key marked overfull already.
fn add_to(lists: &mut Vec<Vec<u32>>, overfull: &mut LemmaBits, key: u32, unit: u32, bound: usize) {
    let Ok(place) = usize::try_from(key) else { return };
    if overfull.contains(key) {
        return;
    }
    if place >= lists.len() {
        lists.resize_with(place + 1, Vec::new);
    }
    let list = &mut lists[place];
    list.push(unit);
    if list.len() > bound {
        *list = Vec::new();
        overfull.insert(key);
    }
}

impl Postings {
    /// Empty lists, each dropped once it would hold more than `bound` units.
    pub fn new(bound: usize) -> Self {
        Postings { bound, ..Self::default() }
    }

    /// Lists the English `unit` under each of its `lemmas` (distinct).
    pub fn add_english(&mut self, unit: u32, lemmas: &[Lemma]) {
        for &lemma in lemmas {
            add_to(&mut self.english, &mut self.english_overfull, lemma, unit, self.bound);
        }
    }

    /// Lists the Chinese `unit` under each of its `words` (once a word however often it
    /// is met), and counts it for each of the `lemmas` (distinct) they reach.
    pub fn add_chinese(&mut self, unit: u32, words: &[Entry], lemmas: &[Lemma]) {
        for &word in words {
            if self.seen.insert(word) {
                add_to(&mut self.chinese, &mut self.chinese_overfull, word, unit, self.bound);
            }
        }
        self.seen.remove_all(words);
        for &lemma in lemmas {
            let Ok(place) = usize::try_from(lemma) else { continue };
            if place >= self.chinese_counts.len() {
                self.chinese_counts.resize(place + 1, 0);
            }
            self.chinese_counts[place] = self.chinese_counts[place].saturating_add(1);
        }
    }

    /// Whether more Chinese units than the bound hold `lemma`.
    fn chinese_frequent(&self, lemma: Lemma) -> bool {
        usize::try_from(lemma)
            .ok()
            .and_then(|place| self.chinese_counts.get(place))
            .is_some_and(|&count| usize::try_from(count).is_ok_and(|count| count > self.bound))
    }

    /// Calls `found` with each unit of `language` that holds `lemma`: none for a lemma
    /// never met or frequent in that language. A Chinese unit may come once for each of
    /// its words that reaches the lemma.
    pub fn each_unit(&self, language: Language, lemma: Lemma, mut found: impl FnMut(u32)) {
        let Ok(place) = usize::try_from(lemma) else { return };
        match language {
            Language::English => self.english.get(place).into_iter().flatten().copied().for_each(found),
            Language::Chinese => {
                let (Some(&start), Some(&end)) = (self.starts.get(place), self.starts.get(place + 1)) else { return };
                let words = self.words.get(start as usize..end as usize).unwrap_or_default();
                for &word in words {
                    let list = usize::try_from(word).ok().and_then(|w| self.chinese.get(w));
                    list.into_iter().flatten().copied().for_each(&mut found);
                }
            }
        }
    }

    /// Ends the adding: the lists trimmed to their size, each lemma's words (through
    /// `dictionary`) mapped. Returns the lemmas frequent in either language.
    pub fn finish(&mut self, dictionary: &Dictionary) -> LemmaBits {
        self.english.iter_mut().for_each(Vec::shrink_to_fit);
        self.chinese.iter_mut().for_each(Vec::shrink_to_fit);
        let listed = || {
            (0u32..)
                .zip(&self.chinese)
                .filter(|(_, list)| !list.is_empty())
                .flat_map(|(word, _)| dictionary.entry(word).iter().map(move |&lemma| (lemma, word)))
                .filter(|&(lemma, _)| !self.chinese_frequent(lemma))
        };
        // counted, then placed: the words of each lemma side by side
        let mut starts = vec![0u32; self.chinese_counts.len() + 1];
        for (lemma, _) in listed() {
            if let Some(start) = usize::try_from(lemma).ok().and_then(|l| starts.get_mut(l + 1)) {
                *start += 1;
            }
        }
        for l in 1..starts.len() {
            starts[l] += starts[l - 1];
        }
        let mut next = starts.clone();
        let mut words = vec![0; starts.last().map_or(0, |&n| n as usize)];
        for (lemma, word) in listed() {
            if let Some(at) = usize::try_from(lemma).ok().and_then(|l| next.get_mut(l)) {
                words[*at as usize] = word;
                *at += 1;
            }
        }
        (self.starts, self.words) = (starts, words);
        // the English lemmas whose lists were dropped, and those too many Chinese units hold
        let mut frequent = self.english_overfull.clone();
        for (lemma, _) in (0u32..).zip(&self.chinese_counts) {
            if self.chinese_frequent(lemma) {
                frequent.insert(lemma);
            }
        }
        frequent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(postings: &Postings, language: Language, lemma: Lemma) -> Vec<u32> {
        let mut found = Vec::new();
        postings.each_unit(language, lemma, |unit| found.push(unit));
        found.sort_unstable();
        found
    }

    #[test]
    fn a_list_outgrowing_its_bound_is_dropped_and_its_lemma_called_frequent() {
        let mut postings = Postings::new(2);
        for unit in [0, 1, 2] {
            postings.add_english(unit, &[7]);
        }
        postings.add_english(3, &[7, 9]);
        postings.add_english(4, &[9]);
        let dictionary = Dictionary::default();
        let frequent = postings.finish(&dictionary);
        assert!(units(&postings, Language::English, 7).is_empty());
        assert_eq!(units(&postings, Language::English, 9), vec![3, 4]);
        assert!(units(&postings, Language::English, 100_000).is_empty());
        assert!(frequent.contains(7) && !frequent.contains(9));
    }

    #[test]
    fn a_lemmas_chinese_units_are_those_of_its_words_and_a_frequent_one_has_none() {
        // words 1 (计算机) and 3 (软件) reach lemma 1, word 4 (安装) lemma 3
        let sample = "# twinspot meaning dictionary 1\nL\tapple\tcomputer\tpackage\tinstall\nZ\t苹果\t0\nZ\t计算机\t1\nZ\t软件包\t2\nZ\t软件\t1\nZ\t安装\t3\n";
        let dictionary = Dictionary::parse(sample, std::path::Path::new("sample")).unwrap();
        let mut postings = Postings::new(2);
        postings.add_chinese(0, &[1, 3], &[1]);
        postings.add_chinese(1, &[3, 3, 4], &[1, 3]);
        postings.add_chinese(2, &[4], &[3]);
        postings.add_chinese(3, &[4], &[3]);
        let frequent = postings.finish(&dictionary);
        // unit 0 comes through both of its words
        assert_eq!(units(&postings, Language::Chinese, 1), vec![0, 0, 1]);
        assert!(units(&postings, Language::Chinese, 3).is_empty());
        assert!(units(&postings, Language::Chinese, 0).is_empty());
        assert!(units(&postings, Language::English, 1).is_empty());
        assert!(frequent.contains(3) && !frequent.contains(1));
    }
}

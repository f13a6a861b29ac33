//! The collection's posting lists: for each (language, lemma), the units of that
//! language that hold the lemma, in a vector indexed by the pair (lemma numbers are
//! dense), so that indexing a reference and looking a word up cost no hashing. A lemma
//! held by more units than a bound finds nothing in particular: its list is dropped, and
//! the lemma is marked frequent.

use super::bits::LemmaBits;
use super::dictionary::Lemma;
use super::units::Language;

/// The units (by their place in the collection) of each (language, lemma).
#[derive(Debug, Default)]
pub struct Postings {
    /// The list of key [`key`]; empty for a key never met or dropped.
    lists: Vec<Vec<u32>>,
    /// The keys whose lists outgrew the bound (by key number).
    overfull: LemmaBits,
    /// The most units a list may hold.
    bound: usize,
}

/// The place of (language, lemma) among the lists; `None` past the lemma numbers a
/// vector can hold.
fn key(language: Language, lemma: Lemma) -> Option<usize> {
    usize::try_from(lemma).ok()?.checked_mul(Language::ALL.len())?.checked_add(language.place())
}

impl Postings {
    /// Empty lists, each dropped once it would hold more than `bound` units.
    pub fn new(bound: usize) -> Self {
        Postings { lists: Vec::new(), overfull: LemmaBits::default(), bound }
    }

    /// Lists `unit` under (language, lemma), unless that lemma is frequent in the
    /// language already or becomes so now (then its list is dropped).
    pub fn add(&mut self, language: Language, lemma: Lemma, unit: u32) {
        let Some(key) = key(language, lemma) else { return };
        let Ok(bit) = Lemma::try_from(key) else { return };
        if self.overfull.contains(bit) {
            return;
        }
        if key >= self.lists.len() {
            self.lists.resize_with(key + 1, Vec::new);
        }
        let list = &mut self.lists[key];
        list.push(unit);
        if list.len() > self.bound {
            *list = Vec::new();
            self.overfull.insert(bit);
        }
    }

    /// The units listed under (language, lemma): none for a lemma never met or frequent.
    pub fn get(&self, language: Language, lemma: Lemma) -> &[u32] {
        key(language, lemma).and_then(|key| self.lists.get(key)).map_or(&[], |list| &list[..])
    }

    /// The lemmas frequent in either language, as a set of lemmas. The lists are trimmed
    /// to their size.
    pub fn finish(&mut self) -> LemmaBits {
        self.lists.iter_mut().for_each(Vec::shrink_to_fit);
        let frequent =
            (0..self.lists.len()).filter(|&key| Lemma::try_from(key).is_ok_and(|bit| self.overfull.contains(bit)));
        let languages = Language::ALL.len();
        LemmaBits::of(frequent.filter_map(|key| Lemma::try_from(key / languages).ok()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_outgrowing_its_bound_is_dropped_and_its_lemma_called_frequent() {
        let mut postings = Postings::new(2);
        for unit in [0, 1, 2] {
            postings.add(Language::English, 7, unit);
        }
        postings.add(Language::Chinese, 7, 5);
        postings.add(Language::Chinese, 9, 1);
        postings.add(Language::Chinese, 9, 4);
        postings.add(Language::English, 7, 3);
        assert!(postings.get(Language::English, 7).is_empty());
        assert_eq!(postings.get(Language::Chinese, 7), &[5]);
        assert_eq!(postings.get(Language::Chinese, 9), &[1, 4]);
        assert!(postings.get(Language::English, 100_000).is_empty());
        let frequent = postings.finish();
        assert!(frequent.contains(7) && !frequent.contains(9));
    }
}

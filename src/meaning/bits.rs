//! Sets of lemmas as bits, one for each lemma number: a unit's words reach hundreds of
//! lemmas, and the candidate search asks of each whether the other side holds it, so a
//! bit test is cheaper than a hash set or a search.

use super::dictionary::Lemma;

/// A set of lemmas. A set used again is emptied through the lemmas put in
/// ([`LemmaBits::remove_all`]), not by clearing every bit.
#[derive(Clone, Debug, Default)]
pub struct LemmaBits(Vec<u64>);

impl LemmaBits {
    /// Puts `lemma` in; whether it was not in before.
    pub fn insert(&mut self, lemma: Lemma) -> bool {
        let Ok(place) = usize::try_from(lemma) else { return false };
        let (word, bit) = (place / 64, 1u64 << (place % 64));
        if word >= self.0.len() {
            self.0.resize(word + 1, 0);
        }
        let new = self.0[word] & bit == 0;
        self.0[word] |= bit;
        new
    }

    /// Whether `lemma` is in.
    pub fn contains(&self, lemma: Lemma) -> bool {
        let Ok(place) = usize::try_from(lemma) else { return false };
        self.0.get(place / 64).is_some_and(|word| word & (1u64 << (place % 64)) != 0)
    }

    /// Empties the set, which holds no lemma but those of `lemmas`.
    pub fn remove_all(&mut self, lemmas: &[Lemma]) {
        for &lemma in lemmas {
            if let Some(word) = usize::try_from(lemma).ok().and_then(|place| self.0.get_mut(place / 64)) {
                *word = 0;
            }
        }
    }

    /// The distinct lemmas of `lemmas`, in the order first met; the set is empty again
    /// after (it must be empty before).
    pub fn distinct(&mut self, lemmas: impl Iterator<Item = Lemma>) -> Vec<Lemma> {
        let out: Vec<Lemma> = lemmas.filter(|&lemma| self.insert(lemma)).collect();
        self.remove_all(&out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lemmas_are_in_until_removed_and_distinct_keeps_the_first_of_each() {
        let mut bits = LemmaBits::default();
        [3, 64, 130].into_iter().for_each(|lemma| _ = bits.insert(lemma));
        assert!(bits.contains(3) && bits.contains(64) && bits.contains(130));
        assert!(!bits.contains(4) && !bits.contains(100_000));
        bits.remove_all(&[3, 64, 130]);
        assert!(!bits.contains(3) && !bits.contains(130));
        assert_eq!(bits.distinct([7, 2, 7, 200, 2].into_iter()), vec![7, 2, 200]);
        assert!(!bits.contains(7) && !bits.contains(200));
    }
}

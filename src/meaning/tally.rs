//! The words a suspect unit shares with each unit of the collection, counted in arrays
//! the size of the collection (units by their place in it) and cleared through the list
//! of units touched: a unit's search costs its posting lists, not a hash map's upkeep.

/// Counts per unit of the collection, each word counted once for a unit however many of
/// its lemmas reach that unit.
pub struct Tally {
    /// Each unit's count, and one more than the last word counted for it (0: none since
    /// the last drain), side by side: a unit's two are read together, and in 16 bits each
    /// (a unit is at most 600 characters, so its words fit; a later word is not counted)
    /// the tally of a large collection stays in the cache.
    counts: Vec<(u16, u16)>,
    touched: Vec<u32>,
}

impl Tally {
    /// A tally for a collection of `units` units.
    pub fn new(units: usize) -> Self {
        Tally { counts: vec![(0, 0); units], touched: Vec::new() }
    }

    /// The units this tally counts.
    pub fn units(&self) -> usize {
        self.counts.len()
    }

    /// Counts word number `word` for `unit`, unless that word was counted for it already.
    pub fn count(&mut self, unit: u32, word: u32) {
        let Ok(place) = usize::try_from(unit) else { return };
        let Some((count, last)) = self.counts.get_mut(place) else { return };
        let Some(mark) = word.checked_add(1).and_then(|mark| u16::try_from(mark).ok()) else { return };
        if *last == mark {
            return;
        }
        if *count == 0 {
            self.touched.push(unit);
        }
        *count = count.saturating_add(1);
        *last = mark;
    }

    /// Each unit counted, with its count (unit, count), in no particular order; the tally
    /// is empty after.
    pub fn drain(&mut self) -> Vec<(u32, u32)> {
        let mut out = Vec::with_capacity(self.touched.len());
        for unit in self.touched.drain(..) {
            let Ok(place) = usize::try_from(unit) else { continue };
            if let Some(counted) = self.counts.get_mut(place) {
                out.push((unit, u32::from(counted.0)));
                *counted = (0, 0);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_counts_once_a_unit_and_the_tally_starts_again_after_a_drain() {
        let mut tally = Tally::new(4);
        // word 0 reaches unit 2 through two lemmas, and unit 3; word 1 reaches unit 2
        for (unit, word) in [(2, 0), (2, 0), (3, 0), (2, 1), (9, 1)] {
            tally.count(unit, word);
        }
        let mut counted = tally.drain();
        counted.sort_unstable();
        assert_eq!(counted, vec![(2, 2), (3, 1)]);
        assert!(tally.drain().is_empty());
        tally.count(2, 0);
        tally.count(3, 70_000);
        assert_eq!(tally.drain(), vec![(2, 1)]);
    }
}

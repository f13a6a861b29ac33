//! The signals an archive keeps postings of, written once for both stores: which they
//! are, a value per signal ([`BySignal`]), how far a frequent hash's documents are counted,
//! and which archives hold character grams for every document. A store adds a signal by
//! giving it a place (a segment kind, a table); the loops over [`STORED`] do the rest.

use crate::exclusions::CommonRule;
use crate::index::Signal;

/// Every signal an archive keeps postings of, in the order its stores list them.
pub(crate) const STORED: [Signal; 3] = [Signal::Kgram, Signal::Sentence, Signal::CharGram];

/// The setting (catalog or server) that names the first document whose character grams
/// the archive keeps: an archive written before they were stored has none for older
/// documents, and an archive without the setting none at all.
pub(super) const CHAR_GRAMS_FROM: &str = "char_grams_from";

/// One value per stored signal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct BySignal<T>([T; 3]);

/// The place of `signal` in [`STORED`].
fn slot(signal: Signal) -> usize {
    match signal {
        Signal::Kgram => 0,
        Signal::Sentence => 1,
        Signal::CharGram => 2,
    }
}

impl<T> BySignal<T> {
    /// Each signal with its value, in the order of [`STORED`].
    pub(crate) fn into_iter(self) -> impl Iterator<Item = (Signal, T)> {
        STORED.into_iter().zip(self.0)
    }

    /// Each signal with its value, to change.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = (Signal, &mut T)> {
        STORED.into_iter().zip(&mut self.0)
    }
}

impl<T> std::ops::Index<Signal> for BySignal<T> {
    type Output = T;
    fn index(&self, signal: Signal) -> &T {
        &self.0[slot(signal)]
    }
}

impl<T> std::ops::IndexMut<Signal> for BySignal<T> {
    fn index_mut(&mut self, signal: Signal) -> &mut T {
        &mut self.0[slot(signal)]
    }
}

/// Up to how many documents a lookup counts those of a hash it cut, in an archive of
/// `documents`: the number that makes a k-gram common; nothing asks it of the others.
pub(super) fn count_up_to(signal: Signal, documents: usize) -> usize {
    match signal {
        Signal::Kgram => CommonRule::for_collection(documents).min_documents,
        Signal::Sentence | Signal::CharGram => 0,
    }
}

/// Whether an archive keeps character grams of every document it holds: `from`, the
/// first document archived with them ([`CHAR_GRAMS_FROM`]; `None` in an archive written
/// before), and `oldest`, its oldest document (`None` when it holds none). A check
/// against an archive that does not searches its short copies among the references it
/// reads for another reason, as before they were stored.
pub(super) fn holds_char_grams(from: Option<u32>, oldest: Option<u32>) -> bool {
    match (from, oldest) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(from), Some(oldest)) => oldest >= from,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_signal_has_its_own_place() {
        let mut by: BySignal<usize> = BySignal::default();
        for (signal, value) in by.iter_mut() {
            *value = slot(signal) + 10;
        }
        by[Signal::CharGram] += 7;
        assert_eq!(
            by.into_iter().collect::<Vec<_>>(),
            [(Signal::Kgram, 10), (Signal::Sentence, 11), (Signal::CharGram, 19)]
        );
    }

    #[test]
    fn an_archive_holds_char_grams_only_when_its_oldest_document_has_them() {
        assert!(!holds_char_grams(None, Some(1)));
        assert!(!holds_char_grams(None, None));
        assert!(holds_char_grams(Some(1), None));
        assert!(holds_char_grams(Some(5), Some(5)));
        assert!(!holds_char_grams(Some(5), Some(4)));
    }
}

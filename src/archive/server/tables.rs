//! The shared archive's tables of postings, one a stored signal: their names, shared by
//! the schema (which creates them) and the rows (which write and read them).

use super::super::signals::STORED;
use crate::index::Signal;

/// The tables of postings: one a stored signal ([`STORED`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Postings {
    Kgrams,
    Sentences,
    /// Character grams (format 10 on).
    CharGrams,
}

impl Postings {
    pub(super) fn table(self) -> &'static str {
        match self {
            Self::Kgrams => "kgrams",
            Self::Sentences => "sentences",
            Self::CharGrams => "chargrams",
        }
    }

    /// The table of `signal`'s postings.
    pub(super) fn of(signal: Signal) -> Self {
        match signal {
            Signal::Kgram => Self::Kgrams,
            Signal::Sentence => Self::Sentences,
            Signal::CharGram => Self::CharGrams,
        }
    }

    /// The tables of postings an archive has: all of them, but for the character grams'
    /// in an archive of a format before 10 (`char_grams` false).
    pub(super) fn kept(char_grams: bool) -> Vec<Self> {
        STORED.into_iter().filter(|&signal| char_grams || signal != Signal::CharGram).map(Self::of).collect()
    }
}

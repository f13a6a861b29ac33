//! Two documents that share passages or are near duplicates, scored.

use super::Passage;

/// Two documents that share passages or are near duplicates.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// Suspect side (the smaller id in all-vs-all mode).
    pub a: usize,
    /// Reference side.
    pub b: usize,
    /// Share of `a`'s countable characters inside passages.
    pub score: f64,
    /// Share of `b`'s countable characters inside passages.
    pub score_b: f64,
    pub simhash_distance: Option<u32>,
    pub passages: Vec<Passage>,
    /// Longest passage, in characters of `a`.
    pub longest: u32,
    /// Sentences of `a` whose normalized hash also occurs in `b`.
    pub shared_sentences: u32,
    pub near_duplicate: bool,
}

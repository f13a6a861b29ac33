//! The result of a check: documents, pairs with their passages (ranges into both texts,
//! never copied text), near duplicates and groups. [`json`], [`csv`] and [`html`] format it.

pub mod csv;
pub mod html;
pub mod json;
pub mod palette;

use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::engine::{Mode, Role};
use crate::settings::Settings;

/// A shared passage: `[a_start, a_end)` in the suspect's text, `[b_start, b_end)` in the
/// reference's, in Unicode code points of the extracted text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Passage {
    pub a_start: u32,
    pub a_end: u32,
    pub b_start: u32,
    pub b_end: u32,
}

impl Passage {
    /// Characters on the suspect side.
    pub fn a_len(&self) -> u32 {
        self.a_end - self.a_start
    }
    /// Characters on the reference side.
    pub fn b_len(&self) -> u32 {
        self.b_end - self.b_start
    }
}

/// One document of a check.
#[derive(Clone, Debug)]
pub struct DocumentEntry {
    /// Index in [`Report::documents`].
    pub id: usize,
    /// The path as given (folder joined with the path inside it).
    pub path: String,
    /// The file that was read.
    pub source: PathBuf,
    pub role: Role,
    /// Characters of extracted text.
    pub chars: usize,
    /// Characters that count in scores (template text excluded).
    pub countable_chars: usize,
    pub simhash: Option<u64>,
    /// Why the file could not be read, shown as "what is wrong: path".
    pub error: Option<String>,
    pub warnings: Vec<String>,
    /// The extracted text; every offset in the report counts its characters.
    pub text: Arc<str>,
}

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

/// Everything a check found.
#[derive(Clone, Debug)]
pub struct Report {
    pub settings: Settings,
    pub mode: Mode,
    pub documents: Vec<DocumentEntry>,
    /// Sorted by score, highest first, then by ids.
    pub pairs: Vec<Pair>,
    /// Near-duplicate pairs `[a, b]`, sorted.
    pub near_duplicates: Vec<[usize; 2]>,
    /// Groups of near duplicates (connected components), each sorted, largest first.
    pub groups: Vec<Vec<usize>>,
}

impl Report {
    /// The documents that could not be read.
    pub fn errors(&self) -> impl Iterator<Item = &DocumentEntry> {
        self.documents.iter().filter(|d| d.error.is_some())
    }
}

/// The `[start, end)` character range as a byte range of `text`, for slicing.
pub fn byte_range(text: &str, start: u32, end: u32) -> std::ops::Range<usize> {
    let mut indices = text.char_indices().map(|(i, _)| i).chain(std::iter::once(text.len()));
    let from = indices.nth(start as usize).unwrap_or(text.len());
    let to = if end > start { indices.nth((end - start - 1) as usize).unwrap_or(text.len()) } else { from };
    from..to
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_range_counts_characters() {
        let text = "ab软件cd";
        assert_eq!(&text[byte_range(text, 2, 4)], "软件");
        assert_eq!(&text[byte_range(text, 0, 6)], text);
        assert_eq!(&text[byte_range(text, 4, 4)], "");
        assert_eq!(&text[byte_range(text, 5, 99)], "d");
    }
}

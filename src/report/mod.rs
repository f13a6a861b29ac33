//! The result of a check: documents, pairs with their passages (ranges into both texts,
//! never copied text), near duplicates and groups. [`json`], [`csv`] and [`html`] format it.

pub mod csv;
pub mod html;
pub mod json;
pub mod marks;
pub mod palette;
#[cfg(test)]
pub(crate) mod tests_support;
pub mod view;
pub mod words;
pub mod write;

use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::engine::{Mode, Role};
use crate::normalize::flags::Flag;
use crate::notice::{DocError, Notice};
use crate::settings::Settings;

/// The name and version of the tool that wrote a report, for the report to state.
pub const TOOL: &str = concat!("twinspot ", env!("CARGO_PKG_VERSION"));

/// What a passage is evidence of. Only [`PassageKind::Copied`] counts in scores; the
/// other kinds are shown in their own style so that a reader sees why they do not count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PassageKind {
    /// Shared text that counts as copied.
    #[default]
    Copied,
    /// Text that many reference documents share (stock phrases, boilerplate).
    Common,
    /// Inside quotation marks with an attribution, or in a bibliography.
    Quoted,
    /// Text of a template document (an assignment sheet) given to everyone.
    Template,
}

/// A shared passage: `[a_start, a_end)` in the suspect's text, `[b_start, b_end)` in the
/// reference's, in Unicode code points of the extracted text.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Passage {
    pub a_start: u32,
    pub a_end: u32,
    pub b_start: u32,
    pub b_end: u32,
    /// What the passage is evidence of; copied unless an exclusion says otherwise.
    #[serde(default)]
    pub kind: PassageKind,
    /// Other places that hold the same suspect text (a reference that repeats itself, or
    /// another reference): the passage is shown once, against its best twin, and these
    /// are listed with it, never counted again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<Alternative>,
}

/// Another twin of a passage's suspect text: in the same reference, or in another one
/// ([`Alternative::reference`]) when a better twin was found elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Alternative {
    pub a_start: u32,
    pub a_end: u32,
    pub b_start: u32,
    pub b_end: u32,
    /// The document holding this twin when it is not the pair's reference (a report
    /// document id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<usize>,
}

impl Passage {
    /// A copied passage over `[a.0, a.1)` of the suspect and `[b.0, b.1)` of the reference.
    pub fn copied(a: (u32, u32), b: (u32, u32)) -> Self {
        Self { a_start: a.0, a_end: a.1, b_start: b.0, b_end: b.1, kind: PassageKind::Copied, alternatives: Vec::new() }
    }
    /// Whether the passage counts in scores: copied text always, quoted text when the
    /// check counts quotations.
    pub fn counts(&self, count_quoted: bool) -> bool {
        match self.kind {
            PassageKind::Copied => true,
            PassageKind::Quoted => count_quoted,
            PassageKind::Common | PassageKind::Template => false,
        }
    }
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
    /// SHA-256 of the file's bytes, lowercase hex; `None` when the file could not be read.
    pub sha256: Option<String>,
    /// Why the file could not be read, shown as "what is wrong: path".
    pub error: Option<DocError>,
    /// Remarks that did not stop the check ("decoded as GBK", "no text found", …).
    pub warnings: Vec<Notice>,
    /// What the document does to hide a copy (look-alike letters, hidden text, …); empty
    /// for ordinary documents.
    pub flags: Vec<Flag>,
    /// The extracted text; every offset in the report counts its characters.
    pub text: Arc<str>,
}

impl DocumentEntry {
    /// The entry of a document not read yet: no text, no SHA-256, no error.
    pub fn unread(id: usize, path: String, source: PathBuf, role: Role) -> Self {
        Self {
            id,
            path,
            source,
            role,
            chars: 0,
            countable_chars: 0,
            simhash: None,
            sha256: None,
            error: None,
            warnings: Vec::new(),
            flags: Vec::new(),
            text: Arc::from(""),
        }
    }
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
    /// Paths passed over while collecting the inputs, and why.
    pub skipped: Vec<crate::engine::Skipped>,
}

impl Report {
    /// The documents that could not be read.
    pub fn errors(&self) -> impl Iterator<Item = &DocumentEntry> {
        self.documents.iter().filter(|d| d.error.is_some())
    }

    /// The overall similarity of document `doc` (the Turnitin-style index): the share of its
    /// countable characters inside a counted passage (see [`Passage::counts`]) from any other document, whatever the
    /// source, each character counted once. In all-vs-all mode both sides of a pair count.
    pub fn overall(&self, doc: usize) -> f64 {
        let Some(entry) = self.documents.get(doc) else {
            return 0.0;
        };
        let mut spans: Vec<(u32, u32)> = Vec::new();
        for pair in &self.pairs {
            let count_quoted = self.settings.count_quoted;
            let copied = pair.passages.iter().filter(|p| p.counts(count_quoted));
            if pair.a == doc {
                spans.extend(copied.map(|p| (p.a_start, p.a_end)));
            } else if pair.b == doc && self.mode == Mode::AllVsAll {
                spans.extend(copied.map(|p| (p.b_start, p.b_end)));
            }
        }
        let covered = union_length(&mut spans);
        if entry.countable_chars == 0 { 0.0 } else { (covered as f64 / entry.countable_chars as f64).min(1.0) }
    }
}

/// Characters covered by the union of half-open `spans` (sorted in place).
pub fn union_length(spans: &mut [(u32, u32)]) -> u64 {
    spans.sort_unstable();
    let mut covered = 0u64;
    let mut reach = 0u32;
    for &(start, end) in spans.iter() {
        let start = start.max(reach);
        if end > start {
            covered += u64::from(end - start);
            reach = end;
        }
    }
    covered
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

    #[test]
    fn union_length_counts_each_character_once() {
        assert_eq!(union_length(&mut [(10, 20), (0, 5), (15, 30), (30, 31)]), 26);
        assert_eq!(union_length(&mut []), 0);
        assert_eq!(union_length(&mut [(5, 5), (3, 4)]), 1);
    }
}

//! A shared passage: ranges into both texts, never copied text, with its kind and the
//! other places that hold the same suspect text.

use serde::{Deserialize, Serialize};

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
    /// Set when the two sides are in different languages and the meaning layer aligned
    /// them: the evidence a reviewer is shown. `None` for text that shares its words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub translated: Option<Box<Translation>>,
    /// Set when the meaning layer carried a copied passage over sentences reworded on
    /// one side (same language, other words): the sentence pairs it took in. `None` for
    /// a passage the word-level passes found whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reworded: Option<Box<Reworded>>,
}

/// Why a copied passage reaches beyond the words it shares: the sentences on both sides,
/// reworded, that the meaning layer found to say the same thing, each as ranges into both
/// texts (code points, as the passage's own).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Reworded {
    pub sentences: Vec<Span>,
}

/// Why a passage whose sides are in two languages was taken for a translation: the
/// aligned paragraphs or sentences, and the word pairs the dictionary matched, each as
/// ranges into both texts (code points, as the passage's own).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Translation {
    /// The language of the reference side, which the suspect side was translated from:
    /// `"en"` or `"zh"`.
    pub from: String,
    /// The suspect's units (paragraphs or sentences) inside the passage.
    pub units: u32,
    /// The aligned units, one pair of ranges each.
    pub aligned: Vec<Span>,
    /// The word pairs the dictionary matched.
    pub words: Vec<Span>,
}

/// A range of the suspect's text and a range of the reference's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Span {
    pub a_start: u32,
    pub a_end: u32,
    pub b_start: u32,
    pub b_end: u32,
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
        Self {
            a_start: a.0,
            a_end: a.1,
            b_start: b.0,
            b_end: b.1,
            kind: PassageKind::Copied,
            alternatives: Vec::new(),
            translated: None,
            reworded: None,
        }
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
    /// The part over suspect characters `[a0, a1)` (inside the passage), its reference
    /// side cut in the same proportion; kind and alternatives kept.
    #[expect(clippy::cast_possible_truncation, reason = "a share of a passage's length, rounded; `as` saturates")]
    pub fn part(&self, (a0, a1): (u32, u32)) -> Passage {
        let scale = |x: u32| -> u32 {
            let share = f64::from(x - self.a_start) / f64::from(self.a_len().max(1));
            self.b_start + (share * f64::from(self.b_len())).round() as u32
        };
        Passage { a_start: a0, a_end: a1, b_start: scale(a0), b_end: scale(a1).max(scale(a0) + 1), ..self.clone() }
    }
    /// The passage's ranges as another twin's, held by `reference` (`None`: the same
    /// reference).
    pub fn as_alternative(&self, reference: Option<usize>) -> Alternative {
        Alternative { a_start: self.a_start, a_end: self.a_end, b_start: self.b_start, b_end: self.b_end, reference }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_length_counts_each_character_once() {
        assert_eq!(union_length(&mut [(10, 20), (0, 5), (15, 30), (30, 31)]), 26);
        assert_eq!(union_length(&mut []), 0);
        assert_eq!(union_length(&mut [(5, 5), (3, 4)]), 1);
    }
}

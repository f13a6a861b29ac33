//! The meaning layer in a check: when suspects and references are written in different
//! languages (Chinese and English), the references are read into a
//! [`Collection`] and each suspect's translated passages join its pairs, scored with the
//! rest. A check in one language never reads its references into a collection.

use std::sync::Arc;

use crate::fingerprint::{FingerprintedDoc, simhash};
use crate::index::StoreError;
use crate::meaning::collection::Collection;
use crate::meaning::translated::Translated;
use crate::meaning::units::{Language, units};
use crate::meaning::{MAX_LAYER_CHARS, Meaning, SharedMeaning, layer_part};
use crate::model::{Notice, Pair, Passage, PassageKind, Span, Translation};

use super::memory_index::Loaded;

/// The languages a document's units are written in.
#[derive(Clone, Copy, Default)]
struct Languages {
    chinese: bool,
    english: bool,
}

impl Languages {
    fn of(text: &str) -> Self {
        let mut found = Self::default();
        for unit in units(text) {
            match unit.language {
                Language::Chinese => found.chinese = true,
                Language::English => found.english = true,
            }
            if found.chinese && found.english {
                break;
            }
        }
        found
    }

    /// Whether a document in these languages may hold a translation of one in `other`.
    fn crosses(self, other: Languages) -> bool {
        (self.chinese && other.english) || (self.english && other.chinese)
    }
}

/// The loaded layer of a check whose suspects and references cross languages; `None`
/// when none do. When they do but the layer cannot be loaded, each suspect that crosses
/// says so, and the check goes on without it.
pub(super) fn layer_for(
    docs: &mut [Loaded],
    is_suspect: &dyn Fn(&Loaded) -> bool,
    is_reference: &dyn Fn(&Loaded) -> bool,
    shared: &SharedMeaning,
) -> Option<Arc<Meaning>> {
    let languages: Vec<Languages> =
        docs.iter().map(|d| Languages::of(layer_part(&d.entry.text[..d.compared]))).collect();
    let mut in_references = Languages::default();
    for (d, l) in docs.iter().zip(&languages) {
        if is_reference(d) {
            in_references.chinese |= l.chinese;
            in_references.english |= l.english;
        }
    }
    let crossing: Vec<usize> =
        (0..docs.len()).filter(|&i| is_suspect(&docs[i]) && languages[i].crosses(in_references)).collect();
    if crossing.is_empty() {
        return None;
    }
    match shared.get() {
        Ok(meaning) => {
            for (i, d) in docs.iter_mut().enumerate() {
                let read = crossing.binary_search(&i).is_ok() || is_reference(d);
                if read && layer_part(&d.entry.text[..d.compared]).len() < d.compared {
                    d.entry.warnings.push(Notice::MeaningCut { max: MAX_LAYER_CHARS });
                }
            }
            Some(meaning)
        }
        Err(reason) => {
            for i in crossing {
                docs[i].entry.warnings.push(Notice::MeaningOff { reason: reason.clone() });
            }
            None
        }
    }
}

/// The references of the check as the layer reads them.
pub(super) fn collection<'m>(
    meaning: &'m Meaning,
    docs: &[Loaded],
    is_reference: &dyn Fn(&Loaded) -> bool,
) -> Collection<'m> {
    let references =
        docs.iter().filter(|d| is_reference(d)).map(|d| (d.entry.id, layer_part(&d.entry.text[..d.compared])));
    Collection::new(&meaning.model, &meaning.dictionary, references)
}

/// Adds the translated passages of suspect `a` to its pairs: to the pair of their
/// reference, or to a new pair (with that reference's SimHash distance) when the words
/// shared none. `wanted` says which references the policy compares `a` with; `reference`
/// reads one back; `score` scores a pair again. Fails when a reference cannot be read.
pub(super) fn add_translated<'r>(
    collection: &Collection<'_>,
    (a, doc): (usize, &FingerprintedDoc),
    pairs: &mut Vec<Pair>,
    wanted: &dyn Fn(usize) -> bool,
    reference: &dyn Fn(usize) -> Result<Option<FingerprintedDoc<'r>>, StoreError>,
    score: &dyn Fn(&mut Pair, &FingerprintedDoc, &FingerprintedDoc),
) -> Result<(), StoreError> {
    for (b, found) in collection.translated(layer_part(doc.compared_text()), |b| b != a && wanted(b)) {
        let Some(reference_doc) = reference(b)? else { continue };
        let place = match pairs.iter().position(|p| p.b == b) {
            Some(place) => place,
            None => {
                pairs.push(new_pair(a, b, doc, &reference_doc));
                pairs.len() - 1
            }
        };
        let pair = &mut pairs[place];
        for translated in found {
            absorb(&mut pair.passages, passage_of(&translated));
        }
        pair.passages.sort_by_key(|p| (p.a_start, p.b_start));
        score(pair, doc, &reference_doc);
    }
    pairs.retain(|p| !p.passages.is_empty() || p.near_duplicate);
    Ok(())
}

/// Adds a translated passage to a pair's passages. Words the two sides share inside a
/// translated paragraph (a command, a path, a name) are part of the translation: a
/// copied word passage that overlaps it on both sides is taken into it (the union of
/// both), so one translated paragraph is one passage.
fn absorb(passages: &mut Vec<Passage>, mut translated: Passage) {
    let overlaps = |p: &Passage, t: &Passage| {
        p.translated.is_none()
            && p.kind == PassageKind::Copied
            && p.a_start < t.a_end
            && t.a_start < p.a_end
            && p.b_start < t.b_end
            && t.b_start < p.b_end
    };
    let (inside, kept): (Vec<Passage>, Vec<Passage>) =
        std::mem::take(passages).into_iter().partition(|p| overlaps(p, &translated));
    for p in inside {
        translated.a_start = translated.a_start.min(p.a_start);
        translated.a_end = translated.a_end.max(p.a_end);
        translated.b_start = translated.b_start.min(p.b_start);
        translated.b_end = translated.b_end.max(p.b_end);
    }
    *passages = kept;
    passages.push(translated);
}

/// A pair of `a` and `b` with no passage yet.
fn new_pair(a: usize, b: usize, doc: &FingerprintedDoc, reference: &FingerprintedDoc) -> Pair {
    let simhash_distance = match (doc.simhash, reference.simhash) {
        (Some(x), Some(y)) => Some(simhash::hamming(x, y)),
        _ => None,
    };
    Pair {
        a,
        b,
        score: 0.0,
        score_b: 0.0,
        simhash_distance,
        passages: Vec::new(),
        longest: 0,
        shared_sentences: 0,
        near_duplicate: false,
    }
}

/// The passage a translated alignment gives, with its evidence.
fn passage_of(found: &Translated) -> Passage {
    let from = match found.language {
        Language::Chinese => "en",
        Language::English => "zh",
    };
    // The dictionary's word pairs are offsets into the passage's two texts, the Chinese one
    // first: make them offsets of the documents, suspect side first.
    let words = found
        .dictionary
        .pairs
        .iter()
        .map(|(zh, en)| {
            let (a, b) = match found.language {
                Language::Chinese => (zh, en),
                Language::English => (en, zh),
            };
            Span {
                a_start: found.a.start + a.start,
                a_end: found.a.start + a.end,
                b_start: found.b.start + b.start,
                b_end: found.b.start + b.end,
            }
        })
        .collect();
    let aligned = found
        .aligned_ranges
        .iter()
        .map(|(a, b)| Span { a_start: a.start, a_end: a.end, b_start: b.start, b_end: b.end })
        .collect();
    Passage {
        a_start: found.a.start,
        a_end: found.a.end,
        b_start: found.b.start,
        b_end: found.b.end,
        kind: PassageKind::Copied,
        alternatives: Vec::new(),
        translated: Some(Box::new(Translation { from: from.to_owned(), units: found.suspect_units, aligned, words })),
        reworded: None,
    }
}

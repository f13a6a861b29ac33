//! Reworded copies in a check: each passage the word-level passes found between a suspect
//! and a reference is carried over the sentences beyond its edges that the meaning layer
//! finds reworded ([`crate::meaning::reworded`]). The layer is loaded when a first pair
//! of sentences passes the cheap test, so a check whose passages end where the copying
//! ends never loads it.

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use crate::fingerprint::FingerprintedDoc;
use crate::meaning::reworded::{Embed, Sides, Taken, Text, bridges, carry};
use crate::meaning::{Embedding, Meaning, SharedMeaning};
use crate::model::{Pair, Passage, PassageKind, Reworded, Span};

/// The meaning layer as the rewording pass of a check uses it: loaded on first need.
pub(crate) struct Rewording {
    shared: SharedMeaning,
    loaded: OnceLock<Option<Arc<Meaning>>>,
}

impl Rewording {
    pub(crate) fn new(shared: &SharedMeaning) -> Self {
        Self { shared: shared.clone(), loaded: OnceLock::new() }
    }

    /// The embeddings of `texts`; none when the layer cannot be loaded (the check then
    /// carries no passage on, as without the layer).
    fn embed(&self, texts: &[String]) -> Vec<Embedding> {
        let loaded = self.loaded.get_or_init(|| self.shared.get().ok());
        match loaded {
            Some(meaning) => {
                let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
                meaning.model.embed(&texts)
            }
            None => Vec::new(),
        }
    }
}

/// The suspect's text that passages hold, kept up to date as they are carried on, and
/// its template text (masked: never a copy).
struct Held(Vec<Range<u32>>);

impl Taken for Held {
    fn taken(&self, range: &Range<u32>) -> bool {
        self.0.iter().any(|r| r.start < range.end && range.start < r.end)
    }
}

/// Carries every copied passage of `pairs` (the suspect `doc`'s, each pair's reference
/// in `references`, in order) over the reworded sentences beyond its edges. Returns, a
/// pair each, whether any of its passages changed.
pub(crate) fn carry_reworded(
    rewording: &Rewording,
    doc: &FingerprintedDoc,
    pairs: &mut [Pair],
    references: &[FingerprintedDoc],
) -> Vec<bool> {
    let suspect: Vec<char> = doc.compared_text().chars().collect();
    let passages = pairs.iter().flat_map(|p| p.passages.iter().map(|q| q.a_start..q.a_end));
    let masked = doc.masked_chars.iter().map(|&(start, end)| start..end);
    let mut held = Held(passages.chain(masked).collect());
    let embed = |texts: &[String]| rewording.embed(texts);
    let mut changed = vec![false; pairs.len()];
    for ((pair, reference), changed) in pairs.iter_mut().zip(references).zip(&mut changed) {
        if !pair.passages.iter().any(carried) {
            continue;
        }
        let other: Vec<char> = reference.compared_text().chars().collect();
        let texts = (Text { chars: &suspect }, Text { chars: &other });
        for passage in pair.passages.iter_mut().filter(|p| carried(p)) {
            let sides = Sides { a: passage.a_start..passage.a_end, b: passage.b_start..passage.b_end };
            let before = sides.a.clone();
            let (sides, pieces) = carry(texts, sides, &held, &embed);
            if pieces.is_empty() {
                continue;
            }
            if let Some(r) = held.0.iter_mut().find(|r| **r == before) {
                *r = sides.a.clone();
            }
            (passage.a_start, passage.a_end, passage.b_start, passage.b_end) =
                (sides.a.start, sides.a.end, sides.b.start, sides.b.end);
            let spans = pieces.into_iter().map(|p| Span {
                a_start: p.a.start,
                a_end: p.a.end,
                b_start: p.b.start,
                b_end: p.b.end,
            });
            passage.reworded = Some(Box::new(Reworded { sentences: spans.collect() }));
            *changed = true;
        }
        *changed |= join_across_gaps(&mut pair.passages, texts, &held, &embed);
    }
    changed
}

/// Joins each two passages of a pair (in the suspect's order) that follow each other on
/// both sides when the text between them says the same on both ([`bridges`]): one copy,
/// reworded in the middle. Returns whether any were joined.
fn join_across_gaps(passages: &mut Vec<Passage>, texts: (Text<'_>, Text<'_>), held: &Held, embed: &Embed<'_>) -> bool {
    let mut joined = false;
    let mut out: Vec<Passage> = Vec::with_capacity(passages.len());
    for next in passages.drain(..) {
        if let Some(last) = out.last_mut()
            && carried(last)
            && carried(&next)
            && next.a_start >= last.a_end
            && next.b_start >= last.b_end
        {
            let gap = (last.a_end..next.a_start, last.b_end..next.b_start);
            if bridges(texts, (&gap.0, &gap.1), held, embed) {
                let mut sentences = last.reworded.take().map(|r| r.sentences).unwrap_or_default();
                sentences.push(Span { a_start: gap.0.start, a_end: gap.0.end, b_start: gap.1.start, b_end: gap.1.end });
                sentences.extend(next.reworded.map(|r| r.sentences).unwrap_or_default());
                (last.a_end, last.b_end) = (next.a_end, next.b_end);
                last.reworded = Some(Box::new(Reworded { sentences }));
                joined = true;
                continue;
            }
        }
        out.push(next);
    }
    *passages = out;
    joined
}

/// Whether a passage is one this pass carries on: text copied in one language.
fn carried(passage: &Passage) -> bool {
    passage.kind == PassageKind::Copied && passage.translated.is_none()
}

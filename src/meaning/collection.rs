//! The references of a check as the meaning layer reads them: their units, an index of
//! the dictionary's lemmas over those units (so that a suspect finds the few references
//! worth embedding without embedding any), and each reference's embeddings, made once,
//! when a suspect first needs them, and shared by every suspect after.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use super::dictionary::{Dictionary, Lemma};
use super::evidence::overlap;
use super::translated::{Side, Translated, align_translated};
use super::units::{Language, Unit, units};
use super::{Embedding, Model};

/// A lemma held by more than this share of the collection's units (and more than
/// [`MIN_FREQUENT`] units) finds nothing in particular: it is not looked up.
const FREQUENT_SHARE: usize = 20;
const MIN_FREQUENT: usize = 50;
/// Reference units a suspect unit takes as candidates, by the number of its words they
/// share.
const CANDIDATE_UNITS: usize = 10;
/// A candidate unit pair ties a reference to the suspect when the dictionary pairs this
/// share of the Chinese side's known words, and at least [`MIN_MATCHED`] of them.
const MIN_SHARE: f32 = 0.3;
const MIN_MATCHED: u32 = 3;
/// Units of the collection embedded once, as the background every suspect unit's usual
/// closeness is measured against.
const BACKGROUND_UNITS: usize = 300;

/// One reference of the collection.
struct Reference {
    id: usize,
    text: Vec<char>,
    units: Vec<Unit>,
    embeddings: OnceLock<Vec<Embedding>>,
}

/// Where a unit is: its reference (place in the collection) and its place there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct UnitAt {
    reference: u32,
    unit: u32,
}

/// The references of a check, with the model and the dictionary that read them.
pub struct Collection<'m> {
    model: &'m Model,
    dictionary: &'m Dictionary,
    references: Vec<Reference>,
    /// (the unit's language, a lemma) → the units that hold it.
    postings: FxHashMap<(Language, Lemma), Vec<UnitAt>>,
    unit_count: usize,
    background: OnceLock<FxHashMap<Language, Vec<Embedding>>>,
}

/// A suspect's translated passages in one reference: the reference's id and the passages.
pub type Found = (usize, Vec<Translated>);

impl<'m> Collection<'m> {
    /// Indexes `references` (document id, text): their units and the lemmas of each unit.
    pub fn new<'t>(
        model: &'m Model,
        dictionary: &'m Dictionary,
        references: impl IntoIterator<Item = (usize, &'t str)>,
    ) -> Self {
        let mut collection = Collection {
            model,
            dictionary,
            references: Vec::new(),
            postings: FxHashMap::default(),
            unit_count: 0,
            background: OnceLock::new(),
        };
        for (id, text) in references {
            collection.add(id, text);
        }
        collection
    }

    /// Adds one reference, when it has units.
    fn add(&mut self, id: usize, text: &str) {
        let units = units(text);
        if units.is_empty() {
            return;
        }
        let Ok(place) = u32::try_from(self.references.len()) else { return };
        let chars: Vec<char> = text.chars().collect();
        for (n, unit) in units.iter().enumerate() {
            let Ok(n) = u32::try_from(n) else { break };
            let at = UnitAt { reference: place, unit: n };
            let mut lemmas = self.lemmas_of(&unit.text(&chars), unit.language);
            lemmas.sort_unstable();
            lemmas.dedup();
            for lemma in lemmas {
                self.postings.entry((unit.language, lemma)).or_default().push(at);
            }
        }
        self.unit_count += units.len();
        self.references.push(Reference { id, text: chars, units, embeddings: OnceLock::new() });
    }

    /// Every lemma a unit's words reach.
    fn lemmas_of(&self, text: &str, language: Language) -> Vec<Lemma> {
        match language {
            Language::Chinese => {
                self.dictionary.chinese_words(text).iter().flat_map(|w| w.lemmas.iter().copied()).collect()
            }
            Language::English => self.dictionary.english_words(text).iter().map(|w| w.lemma).collect(),
        }
    }

    /// Whether the collection holds nothing the layer could align.
    pub fn is_empty(&self) -> bool {
        self.references.is_empty()
    }

    /// The translated passages of the suspect `text` in the references `wanted` accepts
    /// (by document id), each reference with passages once, in collection order.
    pub fn translated(&self, text: &str, wanted: impl Fn(usize) -> bool) -> Vec<Found> {
        let suspect_units = units(text);
        if suspect_units.is_empty() || self.references.is_empty() {
            return Vec::new();
        }
        let chars: Vec<char> = text.chars().collect();
        let candidates: Vec<usize> = self
            .candidates(&chars, &suspect_units)
            .into_iter()
            .filter(|&r| wanted(self.references[r].id))
            .collect();
        if candidates.is_empty() {
            return Vec::new();
        }
        let suspect_embeddings = self.embed(&chars, &suspect_units);
        let suspect = Side { text: &chars, units: &suspect_units, embeddings: &suspect_embeddings };
        let sides: Vec<Side> = candidates.iter().map(|&r| self.side(r)).collect();
        let languages: Vec<Language> = suspect_units.iter().map(|u| u.language).collect();
        let background = self.background_for(&languages);
        let found = align_translated(&suspect, &sides, &background, self.dictionary);
        candidates
            .iter()
            .zip(found)
            .filter(|(_, passages)| !passages.is_empty())
            .map(|(&r, passages)| (self.references[r].id, passages))
            .collect()
    }

    /// The references (places in the collection) that a dictionary-checked unit pair ties
    /// to the suspect, sorted.
    fn candidates(&self, chars: &[char], suspect_units: &[Unit]) -> Vec<usize> {
        let frequent = (self.unit_count / FREQUENT_SHARE).max(MIN_FREQUENT);
        let mut tied: Vec<usize> = Vec::new();
        for unit in suspect_units {
            let text = unit.text(chars);
            let other = match unit.language {
                Language::Chinese => Language::English,
                Language::English => Language::Chinese,
            };
            let counts = self.shared_words(&text, unit.language, other, frequent);
            for at in best_units(counts) {
                let reference = &self.references[at.reference as usize];
                let Some(reference_unit) = reference.units.get(at.unit as usize) else { continue };
                let reference_text = reference_unit.text(&reference.text);
                let evidence = match unit.language {
                    Language::Chinese => overlap(self.dictionary, &text, &reference_text),
                    Language::English => overlap(self.dictionary, &reference_text, &text),
                };
                if evidence.matched >= MIN_MATCHED && evidence.share() >= MIN_SHARE {
                    tied.push(at.reference as usize);
                }
            }
        }
        tied.sort_unstable();
        tied.dedup();
        tied
    }

    /// For each unit of language `other` that shares a word with `text`: how many of
    /// `text`'s words (Chinese) or lemmas (English) it shares.
    fn shared_words(&self, text: &str, language: Language, other: Language, frequent: usize) -> FxHashMap<UnitAt, u32> {
        let mut counts: FxHashMap<UnitAt, u32> = FxHashMap::default();
        let lookup = |lemma: &Lemma| self.postings.get(&(other, *lemma)).filter(|p| p.len() <= frequent);
        match language {
            Language::Chinese => {
                let mut reached: Vec<UnitAt> = Vec::new();
                for word in self.dictionary.chinese_words(text) {
                    reached.clear();
                    reached.extend(word.lemmas.iter().filter_map(lookup).flatten());
                    reached.sort_unstable();
                    reached.dedup();
                    for at in &reached {
                        *counts.entry(*at).or_default() += 1;
                    }
                }
            }
            Language::English => {
                let mut lemmas: Vec<Lemma> = self.dictionary.english_words(text).iter().map(|w| w.lemma).collect();
                lemmas.sort_unstable();
                lemmas.dedup();
                for at in lemmas.iter().filter_map(lookup).flatten() {
                    *counts.entry(*at).or_default() += 1;
                }
            }
        }
        counts
    }

    /// One reference as the alignment reads it, its embeddings made on first use.
    fn side(&self, place: usize) -> Side<'_> {
        let reference = &self.references[place];
        let embeddings = reference.embeddings.get_or_init(|| self.embed(&reference.text, &reference.units));
        Side { text: &reference.text, units: &reference.units, embeddings }
    }

    /// The embeddings of `units` of `chars`.
    fn embed(&self, chars: &[char], units: &[Unit]) -> Vec<Embedding> {
        let texts: Vec<String> = units.iter().map(|u| u.text(chars)).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        self.model.embed(&refs)
    }

    /// The background units in the languages other than those of the suspect's units.
    fn background_for(&self, suspect_languages: &[Language]) -> Vec<Embedding> {
        let all = self.background.get_or_init(|| self.make_background());
        let mut out = Vec::new();
        for (language, embeddings) in all {
            if suspect_languages.iter().any(|l| l != language) {
                out.extend_from_slice(embeddings);
            }
        }
        out
    }

    /// Up to [`BACKGROUND_UNITS`] units of each language, spread evenly over the collection.
    fn make_background(&self) -> FxHashMap<Language, Vec<Embedding>> {
        let mut by_language: FxHashMap<Language, Vec<String>> = FxHashMap::default();
        for language in [Language::Chinese, Language::English] {
            let all: Vec<(&Reference, &Unit)> = self
                .references
                .iter()
                .flat_map(|r| r.units.iter().filter(|u| u.language == language).map(move |u| (r, u)))
                .collect();
            let step = all.len().div_ceil(BACKGROUND_UNITS).max(1);
            let texts = all.iter().step_by(step).map(|(r, u)| u.text(&r.text)).collect();
            by_language.insert(language, texts);
        }
        by_language
            .into_iter()
            .map(|(language, texts)| {
                let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
                (language, self.model.embed(&refs))
            })
            .collect()
    }
}

/// The [`CANDIDATE_UNITS`] units that share the most words, ties by place.
fn best_units(counts: FxHashMap<UnitAt, u32>) -> Vec<UnitAt> {
    let mut ranked: Vec<(u32, UnitAt)> = counts.into_iter().map(|(at, n)| (n, at)).collect();
    ranked.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    ranked.truncate(CANDIDATE_UNITS);
    ranked.into_iter().map(|(_, at)| at).collect()
}

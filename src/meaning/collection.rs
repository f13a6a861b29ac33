//! The references of a check as the meaning layer reads them: their units, an index of
//! the dictionary's lemmas over those units (so that a suspect finds the few references
//! worth embedding without embedding any), and each reference's embeddings, made once,
//! when a suspect first needs them, and shared by every suspect after.

use std::sync::{Mutex, OnceLock, PoisonError};

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::bits::LemmaBits;
use super::dictionary::{Dictionary, Entry, Lemma};
use super::evidence::{Counts, Words, english_lemmas, tie_counts};
use super::kept::{KeptEmbeddings, embed_kept};
use super::postings::Postings;
use super::tally::Tally;
use super::translated::{Side, Translated, align_translated};
use super::units::{Language, Unit, units};
use super::{Embedding, Model, cosine};

/// A lemma held by more than this share of the collection's units (and more than
/// [`MIN_FREQUENT`] units) finds nothing in particular: it is not looked up.
const FREQUENT_SHARE: usize = 20;
const MIN_FREQUENT: usize = 50;
/// Reference units a suspect unit takes as candidates, by the number of its words they
/// share.
const CANDIDATE_UNITS: usize = 10;
/// A candidate unit pair may tie a reference to the suspect when the dictionary pairs
/// this share of the Chinese side's known words, and at least [`MIN_MATCHED`] of them.
const MIN_SHARE: f32 = 0.3;
const MIN_MATCHED: u32 = 3;
/// Of a suspect unit's candidate pairs, the [`TIES_PER_UNIT`] the dictionary pairs best
/// may tie, each when it pairs [`STRONG_SHARE`] of the words; the best one also with
/// [`BEST_SHARE`] when that is at least [`BEST_MATCHED`] words. A unit that shares its
/// topic's words with many units pairs about a third of them with each; a translation
/// pairs half or more, or stands out from the rest by many words.
const TIES_PER_UNIT: usize = 3;
const STRONG_SHARE: f32 = 0.5;
const BEST_SHARE: f32 = 0.35;
const BEST_MATCHED: u32 = 5;
/// A tie must also pair this share of the Chinese side's telling words (those not
/// frequent in the collection), and at least [`MIN_TELLING_MATCHED`] of them: words
/// common to the whole collection tie any unit to any other.
const MIN_TELLING_SHARE: f32 = 0.25;
const MIN_TELLING_MATCHED: u32 = 2;
/// The least cosine of a tied unit pair for its reference to be embedded whole and
/// aligned: two units that share their topic's words but not their meaning stop here.
/// (On the development sets no translated pair's best tie fell between 0.30 and 0.50,
/// while the ties of unrelated pairs above 0.45 were a tenth of those above 0.30.)
const MIN_TIE_COSINE: f32 = 0.45;
/// Units of the collection embedded once, as the background every suspect unit's usual
/// closeness is measured against.
const BACKGROUND_UNITS: usize = 300;

/// References read in parallel at a time when the collection is made.
const READ_BATCH: usize = 32;

/// One reference of the collection.
struct Reference {
    id: usize,
    text: Vec<char>,
    units: Vec<Unit>,
    /// Each unit's words as the tie counts read them, kept from the reading: a unit is a
    /// candidate of many suspect units, and is not segmented again for each.
    words: Vec<UnitWords>,
    embeddings: OnceLock<Vec<Embedding>>,
}

/// A reference unit's words, compact: a Chinese unit's known words (their entries, in
/// order), an English unit's distinct lemmas (sorted).
enum UnitWords {
    Chinese(Box<[Entry]>),
    English(Box<[Lemma]>),
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
    /// (the unit's language, a lemma) → the units that hold it, for the lemmas held by
    /// few enough units of the language ([`FREQUENT_SHARE`], [`MIN_FREQUENT`]).
    /// Units by their place in the collection (the units of its references in order).
    postings: Postings,
    /// Every unit of the collection, by its place.
    units_at: Vec<UnitAt>,
    /// The lemmas held by more units of either language: their units are not listed.
    frequent_lemmas: LemmaBits,
    /// The background units of each language ([`Language::place`]), embedded when a
    /// suspect first needs that language's: a check whose suspects are all Chinese never
    /// embeds the Chinese ones.
    background: [OnceLock<Vec<Embedding>>; 2],
    /// Where the references' embeddings are kept between checks, if anywhere.
    kept: Option<&'m dyn KeptEmbeddings>,
    /// Tallies of the candidate search, kept for the next suspect (each is as large as the
    /// collection: made anew for each, their pages would be cleared again and again).
    tallies: Mutex<Vec<Tally>>,
    /// Reference units embedded alone (tied to a suspect unit) in this check.
    alone: Mutex<FxHashMap<UnitAt, Embedding>>,
}

/// A suspect unit (its place) tied by the dictionary to a unit of a reference.
#[derive(Clone, Copy, Debug)]
struct Tie {
    suspect: usize,
    at: UnitAt,
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
            postings: Postings::default(),
            units_at: Vec::new(),
            frequent_lemmas: LemmaBits::default(),
            background: [OnceLock::new(), OnceLock::new()],
            kept: None,
            tallies: Mutex::default(),
            alone: Mutex::default(),
        };
        // Cut first (the count of units says which lemmas are frequent), then read in
        // parallel (the dictionary's segmentation is most of the work), a batch at a time so
        // that few unit lemma lists wait at once; indexed in order.
        let texts: Vec<(usize, &str, Vec<Unit>)> = references
            .into_iter()
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|(id, text)| (id, text, units(text)))
            .collect();
        let unit_count: usize = texts.iter().map(|(_, _, units)| units.len()).sum();
        collection.postings = Postings::new((unit_count / FREQUENT_SHARE).max(MIN_FREQUENT));
        for batch in texts.chunks(READ_BATCH) {
            let read: Vec<Option<Read>> =
                batch.par_iter().map(|(id, text, units)| read(dictionary, *id, text, units)).collect();
            for reference in read.into_iter().flatten() {
                collection.add(reference);
            }
        }
        collection.frequent_lemmas = collection.postings.finish(dictionary);
        collection
    }

    /// The collection, its references' embeddings taken from `kept` where it holds them
    /// and handed to it where they had to be computed.
    pub fn with_kept(self, kept: Option<&'m dyn KeptEmbeddings>) -> Self {
        Collection { kept, ..self }
    }

    /// Adds one reference, read: its units, listed under their words (Chinese) or lemmas
    /// (English).
    fn add(&mut self, (reference, lemmas): Read) {
        let Ok(place) = u32::try_from(self.references.len()) else { return };
        for (n, lemmas) in lemmas.into_iter().enumerate() {
            let Ok(n) = u32::try_from(n) else { break };
            let Ok(flat) = u32::try_from(self.units_at.len()) else { break };
            self.units_at.push(UnitAt { reference: place, unit: n });
            match reference.words.get(n as usize) {
                Some(UnitWords::Chinese(words)) => self.postings.add_chinese(flat, words, &lemmas),
                Some(UnitWords::English(_)) => self.postings.add_english(flat, &lemmas),
                None => {}
            }
        }
        self.references.push(reference);
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
        let ties: Vec<Tie> = self
            .ties(&chars, &suspect_units)
            .into_iter()
            .filter(|t| wanted(self.references[t.at.reference as usize].id))
            .collect();
        if ties.is_empty() {
            return Vec::new();
        }
        let mut embeddings = vec![None; suspect_units.len()];
        let candidates = self.confirmed(&chars, &suspect_units, &ties, &mut embeddings);
        if candidates.is_empty() {
            return Vec::new();
        }
        let every: Vec<usize> = (0..suspect_units.len()).collect();
        self.fill(&chars, &suspect_units, &every, &mut embeddings);
        let suspect_embeddings: Vec<Embedding> = embeddings.into_iter().flatten().collect();
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

    /// The unit pairs the dictionary ties: each suspect unit with the units of the other
    /// language among its [`CANDIDATE_UNITS`] that share the most words, when the
    /// dictionary pairs enough of the Chinese side's words.
    fn ties(&self, chars: &[char], suspect_units: &[Unit]) -> Vec<Tie> {
        let telling = |lemma: Lemma| !self.frequent_lemmas.contains(lemma);
        let mut ties = Vec::new();
        let mut tally = self.tally();
        let mut english = LemmaBits::default();
        for (n, unit) in suspect_units.iter().enumerate() {
            let text = unit.text(chars);
            let other = match unit.language {
                Language::Chinese => Language::English,
                Language::English => Language::Chinese,
            };
            let words = Words::of(self.dictionary, &text, unit.language);
            self.shared_words(&words, other, &mut tally);
            let counts =
                tally.drain().into_iter().filter_map(|(unit, n)| Some((n, *self.units_at.get(unit as usize)?)));
            // the English side's lemmas as bits: the suspect's for the unit, a candidate's
            // for its count
            let suspect_english: &[Lemma] = match &words {
                Words::English(lemmas) => lemmas,
                Words::Chinese(_) => &[],
            };
            suspect_english.iter().for_each(|&l| _ = english.insert(l));
            let mut paired = Vec::new();
            for at in best_units(counts) {
                let reference = &self.references[at.reference as usize];
                let Some(theirs) = reference.words.get(at.unit as usize) else { continue };
                let (all, rare) = match (&words, theirs) {
                    (Words::Chinese(zh), UnitWords::English(en)) => {
                        en.iter().for_each(|&l| _ = english.insert(l));
                        let counts = tie_counts(zh.iter().map(|w| w.lemmas), |l| english.contains(l), telling);
                        english.remove_all(en);
                        counts
                    }
                    (Words::English(_), UnitWords::Chinese(zh)) => {
                        tie_counts(zh.iter().map(|&e| self.dictionary.entry(e)), |l| english.contains(l), telling)
                    }
                    _ => continue,
                };
                if all.matched >= MIN_MATCHED && all.share() >= MIN_SHARE {
                    paired.push((all, rare, at));
                }
            }
            let telling = |&(_, rare, _): &(Counts, Counts, UnitAt)| {
                rare.matched >= MIN_TELLING_MATCHED && rare.share() >= MIN_TELLING_SHARE
            };
            ties.extend(strongest(paired).filter(telling).map(|(_, _, at)| Tie { suspect: n, at }));
            english.remove_all(suspect_english);
        }
        self.tallies.lock().unwrap_or_else(PoisonError::into_inner).push(tally);
        ties
    }

    /// The references (places in the collection, sorted) of the ties whose two units the
    /// encoder finds at least [`MIN_TIE_COSINE`] apart: only the tied units are embedded
    /// here (the suspect's into `suspect_embeddings`), so a reference that merely shares
    /// its topic's words costs a few units, not all of them.
    fn confirmed(
        &self,
        chars: &[char],
        suspect_units: &[Unit],
        ties: &[Tie],
        suspect_embeddings: &mut [Option<Embedding>],
    ) -> Vec<usize> {
        let mut tied: Vec<usize> = ties.iter().map(|t| t.suspect).collect();
        tied.sort_unstable();
        tied.dedup();
        self.fill(chars, suspect_units, &tied, suspect_embeddings);
        let mut ats: Vec<UnitAt> = ties.iter().map(|t| t.at).collect();
        ats.sort_unstable();
        ats.dedup();
        let reference_embeddings: FxHashMap<UnitAt, Embedding> =
            ats.iter().copied().zip(self.unit_embeddings(&ats)).collect();
        // Remembered for the rest of the check: another suspect ties the same units, and a
        // reference embedded whole later takes them from here.
        self.alone.lock().unwrap_or_else(PoisonError::into_inner).extend(reference_embeddings.iter());
        let mut references: Vec<usize> = ties
            .iter()
            .filter(|t| {
                let (Some(a), Some(b)) = (suspect_embeddings[t.suspect].as_ref(), reference_embeddings.get(&t.at))
                else {
                    return false;
                };
                cosine(a, b) >= MIN_TIE_COSINE
            })
            .map(|t| t.at.reference as usize)
            .collect();
        references.sort_unstable();
        references.dedup();
        references
    }

    /// Embeds the units `wanted` of the suspect that `embeddings` does not hold yet.
    fn fill(&self, chars: &[char], units: &[Unit], wanted: &[usize], embeddings: &mut [Option<Embedding>]) {
        let missing: Vec<usize> = wanted.iter().copied().filter(|&n| embeddings[n].is_none()).collect();
        let texts: Vec<String> = missing.iter().map(|&n| units[n].text(chars)).collect();
        let computed = self.model.embed(&texts.iter().map(String::as_str).collect::<Vec<_>>());
        for (n, e) in missing.into_iter().zip(computed) {
            embeddings[n] = Some(e);
        }
    }

    /// The embeddings of reference units: from the reference's embeddings when they are
    /// made, else from the units embedded alone so far in this check, else computed
    /// (through the kept store).
    fn unit_embeddings(&self, ats: &[UnitAt]) -> Vec<Embedding> {
        let mut found: Vec<Option<Embedding>> = {
            let alone = self.alone.lock().unwrap_or_else(PoisonError::into_inner);
            ats.iter()
                .map(|at| {
                    let reference = &self.references[at.reference as usize];
                    reference
                        .embeddings
                        .get()
                        .and_then(|all| all.get(at.unit as usize).copied())
                        .or_else(|| alone.get(at).copied())
                })
                .collect()
        };
        let missing: Vec<usize> = (0..ats.len()).filter(|&i| found[i].is_none()).collect();
        let texts: Vec<String> = missing
            .iter()
            .map(|&i| {
                let reference = &self.references[ats[i].reference as usize];
                reference.units[ats[i].unit as usize].text(&reference.text)
            })
            .collect();
        let computed = embed_kept(self.model, &texts.iter().map(String::as_str).collect::<Vec<_>>(), self.kept);
        for (&i, e) in missing.iter().zip(computed) {
            found[i] = Some(e);
        }
        found.into_iter().flatten().collect()
    }

    /// A tally of the collection's units, empty: one left by an earlier search, or a new one.
    fn tally(&self) -> Tally {
        let kept = self.tallies.lock().unwrap_or_else(PoisonError::into_inner).pop();
        kept.filter(|t| t.units() == self.units_at.len()).unwrap_or_else(|| Tally::new(self.units_at.len()))
    }

    /// Counts in `tally`, for each unit of language `other` that shares a word with a
    /// unit's `words`, how many of its words (Chinese) or lemmas (English) it shares: a
    /// unit two lemmas of one word reach counts that word once.
    fn shared_words(&self, words: &Words<'_>, other: Language, tally: &mut Tally) {
        match words {
            Words::Chinese(words) => {
                for (n, word) in (0u32..).zip(words) {
                    for &lemma in word.lemmas {
                        self.postings.each_unit(other, lemma, |unit| tally.count(unit, n));
                    }
                }
            }
            Words::English(lemmas) => {
                for (n, &lemma) in (0u32..).zip(lemmas) {
                    self.postings.each_unit(other, lemma, |unit| tally.count(unit, n));
                }
            }
        }
    }

    /// One reference as the alignment reads it, its embeddings made on first use.
    fn side(&self, place: usize) -> Side<'_> {
        let reference = &self.references[place];
        let embeddings = reference.embeddings.get_or_init(|| {
            let Ok(place) = u32::try_from(place) else { return Vec::new() };
            let ats: Vec<UnitAt> = (0..reference.units.len())
                .filter_map(|n| u32::try_from(n).ok())
                .map(|unit| UnitAt { reference: place, unit })
                .collect();
            self.unit_embeddings(&ats)
        });
        Side { text: &reference.text, units: &reference.units, embeddings }
    }

    /// The background units in the languages other than those of the suspect's units.
    fn background_for(&self, suspect_languages: &[Language]) -> Vec<Embedding> {
        let mut out = Vec::new();
        for language in Language::ALL {
            if suspect_languages.iter().any(|&l| l != language) {
                let embeddings = self.background[language.place()].get_or_init(|| self.make_background(language));
                out.extend_from_slice(embeddings);
            }
        }
        out
    }

    /// Up to [`BACKGROUND_UNITS`] units of `language`, spread evenly over the collection.
    fn make_background(&self, language: Language) -> Vec<Embedding> {
        let all: Vec<(&Reference, &Unit)> = self
            .references
            .iter()
            .flat_map(|r| r.units.iter().filter(|u| u.language == language).map(move |u| (r, u)))
            .collect();
        let step = all.len().div_ceil(BACKGROUND_UNITS).max(1);
        let texts: Vec<String> = all.iter().step_by(step).map(|(r, u)| u.text(&r.text)).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        embed_kept(self.model, &refs, self.kept)
    }
}

/// Of one suspect unit's candidate pairs (the dictionary's counts over every word and over
/// the telling ones, the reference unit), those paired strongly enough: of the
/// [`TIES_PER_UNIT`] paired best, those with [`STRONG_SHARE`], and the best one with
/// [`BEST_SHARE`] of at least [`BEST_MATCHED`] words.
fn strongest(mut paired: Vec<(Counts, Counts, UnitAt)>) -> impl Iterator<Item = (Counts, Counts, UnitAt)> {
    paired.sort_unstable_by(|(x, _, a), (y, _, b)| {
        y.share().total_cmp(&x.share()).then(y.matched.cmp(&x.matched)).then(a.cmp(b))
    });
    paired.into_iter().take(TIES_PER_UNIT).enumerate().filter_map(|(rank, pair)| {
        let all = pair.0;
        let best = rank == 0 && all.share() >= BEST_SHARE && all.matched >= BEST_MATCHED;
        (all.share() >= STRONG_SHARE || best).then_some(pair)
    })
}

/// A reference read for the collection: it, and each unit's distinct lemmas.
type Read = (Reference, Vec<Vec<Lemma>>);

/// Reads one reference cut into `units`: them, their words and their lemmas; `None` when
/// it has none.
fn read(dictionary: &Dictionary, id: usize, text: &str, units: &[Unit]) -> Option<Read> {
    if units.is_empty() {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut seen = LemmaBits::default();
    let (words, lemmas) =
        units.iter().map(|unit| read_unit(dictionary, &unit.text(&chars), unit.language, &mut seen)).unzip();
    Some((Reference { id, text: chars, units: units.to_vec(), words, embeddings: OnceLock::new() }, lemmas))
}

/// One unit's words and every lemma they reach, distinct (an English unit's sorted).
fn read_unit(dictionary: &Dictionary, text: &str, language: Language, seen: &mut LemmaBits) -> (UnitWords, Vec<Lemma>) {
    match language {
        Language::Chinese => {
            let words = dictionary.chinese_words(text);
            let lemmas = seen.distinct(words.iter().flat_map(|w| w.lemmas.iter().copied()));
            (UnitWords::Chinese(words.iter().map(|w| w.entry).collect()), lemmas)
        }
        Language::English => {
            let lemmas = english_lemmas(dictionary, text);
            (UnitWords::English(lemmas.clone().into_boxed_slice()), lemmas)
        }
    }
}

/// The [`CANDIDATE_UNITS`] units that share the most words (of units and the words they
/// share), ties by place.
fn best_units(counts: impl Iterator<Item = (u32, UnitAt)>) -> Vec<UnitAt> {
    let mut ranked: Vec<(u32, UnitAt)> = counts.collect();
    let order = |x: &(u32, UnitAt), y: &(u32, UnitAt)| y.0.cmp(&x.0).then(x.1.cmp(&y.1));
    if ranked.len() > CANDIDATE_UNITS {
        ranked.select_nth_unstable_by(CANDIDATE_UNITS, order);
        ranked.truncate(CANDIDATE_UNITS);
    }
    ranked.sort_unstable_by(order);
    ranked.into_iter().map(|(_, at)| at).collect()
}

//! Passages translated between Chinese and English: the units of a suspect and of its
//! candidate references, embedded, are paired by a margin over their neighbours' cosines
//! (a pair stands out only if it is closer than each side is to its usual neighbours),
//! chained in order into passages, and a passage is kept when the encoder and the
//! dictionary together vouch for it.

use std::ops::Range;

use super::dictionary::Dictionary;
use super::evidence::{Overlap, overlap};
use super::units::{Language, Unit};
use super::{Embedding, cosine};
use crate::model::saturating_u32;

/// Neighbours averaged for a unit's usual closeness (the margin's denominator).
const NEIGHBOURS: usize = 4;
/// The least margin of a unit pair that may start or extend a passage.
const MIN_MARGIN: f32 = 1.05;
/// Suspect units a chain may skip between two aligned units.
const MAX_SKIPPED: usize = 2;
/// Reference units a chain may step back (a sentence order changed in translation) or
/// skip forward between two aligned units.
const MAX_BACK: usize = 1;
const MAX_FORWARD: usize = 3;
/// The least size of a passage on both sides, in English-equivalent characters (a Han
/// character counts as [`HAN_WEIGHT`] letters): a shorter one is a stock phrase.
const MIN_PASSAGE: f32 = 80.0;
const HAN_WEIGHT: f32 = 2.5;
/// The largest ratio of the two sides' sizes: a translation is about as long as its
/// original, in English-equivalent characters.
const MAX_SIZE_RATIO: f32 = 2.5;
/// A passage is kept when `DICTIONARY_WEIGHT × dictionary share + margin + COSINE_WEIGHT
/// × cosine` reaches this: the encoder's closeness, how much the pair stands out, and the
/// words the dictionary pairs, each weak alone, together.
const MIN_SCORE: f32 = 4.2;
const DICTIONARY_WEIGHT: f32 = 2.5;
const COSINE_WEIGHT: f32 = 3.0;

/// One document as this pass reads it: its text, its units and one embedding a unit.
#[derive(Clone, Copy)]
pub struct Side<'a> {
    pub text: &'a [char],
    pub units: &'a [Unit],
    pub embeddings: &'a [Embedding],
}

impl Side<'_> {
    fn slice(&self, range: &Range<u32>) -> String {
        Unit { start: range.start, end: range.end, language: Language::English }.text(self.text)
    }
}

/// A translated passage: `a` in the suspect, `b` in the reference (code points), the
/// aligned units (a suspect unit's range, a reference unit's), and the evidence that kept
/// it.
#[derive(Clone, Debug, PartialEq)]
pub struct Translated {
    pub a: Range<u32>,
    pub b: Range<u32>,
    pub aligned_ranges: Vec<(Range<u32>, Range<u32>)>,
    /// The suspect's units inside `a`, aligned or not.
    pub suspect_units: u32,
    pub cosine: f32,
    pub margin: f32,
    pub dictionary: Overlap,
    /// The language of the suspect side.
    pub language: Language,
}

/// One aligned unit pair: suspect unit, reference unit, margin, cosine.
#[derive(Clone, Copy, Debug)]
struct Hit {
    suspect: usize,
    reference: usize,
    margin: f32,
    cosine: f32,
}

/// The translated passages of `suspect` in each of `references` (one list a reference,
/// in order). `background` holds embeddings of other units of the collection, so that a
/// suspect unit's usual closeness is measured against more than its few candidates.
pub fn align_translated(
    suspect: &Side<'_>,
    references: &[Side<'_>],
    background: &[Embedding],
    dictionary: &Dictionary,
) -> Vec<Vec<Translated>> {
    let closeness: Vec<Vec<Vec<f32>>> = references.iter().map(|reference| cosines(suspect, reference)).collect();
    let suspect_usual = suspect_usual(suspect, &closeness, background);
    references
        .iter()
        .zip(&closeness)
        .map(|(reference, cos)| {
            let reference_usual = reference_usual(cos, reference.units.len());
            let hits = best_hits(cos, &suspect_usual, &reference_usual);
            chains(&hits).iter().filter_map(|chain| passage(suspect, reference, chain, dictionary)).collect()
        })
        .collect()
}

/// The cosine of every suspect unit with every reference unit, `NEG_INFINITY` for two
/// units of one language (no translation there).
fn cosines(suspect: &Side<'_>, reference: &Side<'_>) -> Vec<Vec<f32>> {
    suspect
        .units
        .iter()
        .zip(suspect.embeddings)
        .map(|(unit, a)| {
            reference
                .units
                .iter()
                .zip(reference.embeddings)
                .map(|(other, b)| if other.language == unit.language { f32::NEG_INFINITY } else { cosine(a, b) })
                .collect()
        })
        .collect()
}

/// The mean of the `NEIGHBOURS` largest finite values (0 when there are none).
fn mean_of_largest(values: impl Iterator<Item = f32>) -> f32 {
    let mut largest: Vec<f32> = values.filter(|v| v.is_finite()).collect();
    largest.sort_by(|x, y| y.total_cmp(x));
    largest.truncate(NEIGHBOURS);
    if largest.is_empty() { 0.0 } else { largest.iter().sum::<f32>() / largest.len() as f32 }
}

/// Each suspect unit's usual closeness: to its nearest units of all candidate references
/// and of the background.
fn suspect_usual(suspect: &Side<'_>, closeness: &[Vec<Vec<f32>>], background: &[Embedding]) -> Vec<f32> {
    (0..suspect.units.len())
        .map(|i| {
            let candidates = closeness.iter().flat_map(|cos| cos[i].iter().copied());
            let others = background.iter().map(|b| cosine(&suspect.embeddings[i], b));
            mean_of_largest(candidates.chain(others))
        })
        .collect()
}

/// Each reference unit's usual closeness: to its nearest units of the suspect.
fn reference_usual(cos: &[Vec<f32>], units: usize) -> Vec<f32> {
    (0..units).map(|j| mean_of_largest(cos.iter().map(|row| row[j]))).collect()
}

/// For each suspect unit, its reference unit of the largest margin, when that margin is
/// at least [`MIN_MARGIN`]; in suspect order.
fn best_hits(cos: &[Vec<f32>], suspect_usual: &[f32], reference_usual: &[f32]) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, row) in cos.iter().enumerate() {
        let mut best: Option<Hit> = None;
        for (j, &c) in row.iter().enumerate() {
            if !c.is_finite() {
                continue;
            }
            let usual = (suspect_usual[i] + reference_usual[j]) / 2.0;
            if usual <= 0.0 {
                continue;
            }
            let margin = c / usual;
            if best.is_none_or(|b| margin > b.margin) {
                best = Some(Hit { suspect: i, reference: j, margin, cosine: c });
            }
        }
        if let Some(hit) = best.filter(|h| h.margin >= MIN_MARGIN) {
            hits.push(hit);
        }
    }
    hits
}

/// Hits chained in order: the next hit is at most [`MAX_SKIPPED`] suspect units on and
/// between [`MAX_BACK`] reference units back and [`MAX_FORWARD`] on.
fn chains(hits: &[Hit]) -> Vec<Vec<Hit>> {
    let mut out: Vec<Vec<Hit>> = Vec::new();
    for &hit in hits {
        let follows = out.last().and_then(|chain| chain.last()).is_some_and(|last| {
            hit.suspect <= last.suspect + MAX_SKIPPED + 1
                && hit.reference + MAX_BACK >= last.reference
                && hit.reference <= last.reference + MAX_FORWARD + 1
        });
        match out.last_mut() {
            Some(chain) if follows => chain.push(hit),
            _ => out.push(vec![hit]),
        }
    }
    out
}

/// The passage a chain spans, when it is large enough, of two languages, about as long on
/// both sides, and vouched for by the encoder and the dictionary together.
fn passage(suspect: &Side<'_>, reference: &Side<'_>, chain: &[Hit], dictionary: &Dictionary) -> Option<Translated> {
    let (first, last) = (chain.first()?, chain.last()?);
    let a = suspect.units[first.suspect].start..suspect.units[last.suspect].end;
    let b_first = chain.iter().map(|h| h.reference).min()?;
    let b_last = chain.iter().map(|h| h.reference).max()?;
    let b = reference.units[b_first].start..reference.units[b_last].end;
    let (a_text, b_text) = (suspect.slice(&a), reference.slice(&b));
    let (a_size, b_size) = (english_size(&a_text), english_size(&b_text));
    if a_size.min(b_size) < MIN_PASSAGE || a_size.max(b_size) > MAX_SIZE_RATIO * a_size.min(b_size) {
        return None;
    }
    let language = suspect.units[first.suspect].language;
    let evidence = match language {
        Language::Chinese => overlap(dictionary, &a_text, &b_text),
        Language::English => overlap(dictionary, &b_text, &a_text),
    };
    let margin = chain.iter().map(|h| h.margin).fold(f32::MIN, f32::max);
    let cosine = chain.iter().map(|h| h.cosine).fold(f32::MIN, f32::max);
    let score = DICTIONARY_WEIGHT * evidence.share() + margin + COSINE_WEIGHT * cosine;
    let range = |unit: &Unit| unit.start..unit.end;
    let aligned_ranges =
        chain.iter().map(|h| (range(&suspect.units[h.suspect]), range(&reference.units[h.reference]))).collect();
    let inside = suspect.units[first.suspect..=last.suspect].len();
    (score >= MIN_SCORE).then(|| Translated {
        suspect_units: saturating_u32(inside),
        aligned_ranges,
        a,
        b,
        cosine,
        margin,
        dictionary: evidence,
        language,
    })
}

/// A text's size in English-equivalent characters.
fn english_size(text: &str) -> f32 {
    text.chars().map(|c| if super::dictionary::is_han(c) { HAN_WEIGHT } else { 1.0 }).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(suspect: usize, reference: usize) -> Hit {
        Hit { suspect, reference, margin: 1.2, cosine: 0.8 }
    }

    #[test]
    fn hits_in_order_chain_and_a_jump_starts_anew() {
        let hits = [hit(0, 5), hit(1, 6), hit(3, 7), hit(4, 20), hit(9, 21)];
        let found: Vec<Vec<usize>> = chains(&hits).iter().map(|c| c.iter().map(|h| h.suspect).collect()).collect();
        assert_eq!(found, vec![vec![0, 1, 3], vec![4], vec![9]]);
    }

    #[test]
    fn the_usual_closeness_averages_the_largest_finite_values() {
        let values = [0.1, f32::NEG_INFINITY, 0.9, 0.5, 0.7, 0.3];
        let mean = mean_of_largest(values.into_iter());
        assert!((mean - (0.9 + 0.7 + 0.5 + 0.3) / 4.0).abs() < 1e-6);
        assert_eq!(mean_of_largest(std::iter::empty()), 0.0);
    }

    #[test]
    fn units_of_one_language_are_never_paired() {
        let units = [Unit { start: 0, end: 3, language: Language::English }];
        let text: Vec<char> = "abc".chars().collect();
        let e = [[0.5f32; super::super::DIM]];
        let side = Side { text: &text, units: &units, embeddings: &e };
        let cos = cosines(&side, &side);
        assert!(cos[0][0].is_infinite());
        assert!(best_hits(&cos, &[1.0], &[1.0]).is_empty());
    }
}

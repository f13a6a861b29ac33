//! Exclusions: text that two documents share but that is no evidence of copying, decided
//! in one place and recorded on every passage as its kind ([`PassageKind`]).
//!
//! - *template* text (an assignment sheet) is masked out before matching
//!   (`engine::template`): never matched, never counted;
//! - *common* text: k-grams that many references hold ([`common`]), and the passages a
//!   user listed as stop passages ([`Exclusions::stop`]);
//! - *quoted* text: inside quotation marks with an attribution nearby, or in a
//!   bibliography ([`quoted`]).
//!
//! A passage takes the kind of the exclusion that covers at least half of its suspect
//! side; common and template passages never count in a score, quoted ones only when the
//! check counts quotations (`Settings::count_quoted`).

mod attribution;
pub mod common;
pub mod quoted;

use rustc_hash::FxHashSet;

use crate::fingerprint::simhash::Dictionary;
use crate::hash::kgram_hashes;
use crate::index::{Posting, Spread};
use crate::model::{Passage, PassageKind};
use crate::normalize::{NormalizeOptions, Token, tokenize};

pub use common::{COMMON_SHOWN, CommonRule};

/// What a check leaves out of its scores, built once per check.
#[derive(Clone, Debug, Default)]
pub struct Exclusions {
    /// When a k-gram is common.
    pub common: CommonRule,
    /// k-gram hashes of the user's stop passages.
    pub stop: FxHashSet<u64>,
    /// The segmenter Chinese attributions of quotations are looked for with.
    pub dictionary: Dictionary,
}

impl Exclusions {
    /// The exclusions of a check over `references` reference documents, with the user's
    /// `stop_passages` normalized as documents are; Chinese attributions are looked for
    /// with `dictionary`.
    pub fn new(
        references: usize,
        stop_passages: &[String],
        options: NormalizeOptions,
        k: usize,
        dictionary: &Dictionary,
    ) -> Self {
        let stop = stop_passages
            .iter()
            .flat_map(|passage| {
                let tokens = tokenize(passage, options).tokens;
                kgram_hashes(tokens.iter().map(|t| t.hash), k.max(1))
            })
            .collect();
        Self { common: CommonRule::for_collection(references), stop, dictionary: dictionary.clone() }
    }
}

/// What the exclusions say about each k-gram of one suspect.
#[derive(Clone, Debug, Default)]
pub struct SuspectKgrams {
    /// Per token: inside a common k-gram or a stop passage.
    pub flagged: Vec<bool>,
    /// Per k-gram: common, frequent, or wholly inside common text, so matched only
    /// against [`SuspectKgrams::shown`].
    restricted: Vec<bool>,
    /// The references common and frequent k-grams are matched against (sorted): a few of
    /// those holding each.
    shown: Vec<u32>,
}

impl SuspectKgrams {
    /// Whether k-gram `position` is matched only against the shown references.
    pub fn is_restricted(&self, position: usize) -> bool {
        self.restricted.get(position).copied().unwrap_or(false)
    }
    /// Whether `doc` is one of the references common text is shown against.
    pub fn is_shown(&self, doc: u32) -> bool {
        self.shown.binary_search(&doc).is_ok()
    }
}

impl Exclusions {
    /// Judges the suspect's k-grams (`hashes`, one per token position) with `held`, which
    /// gives the index's postings of the k-gram at a position and, when the index holds
    /// only part of the collection, how the whole collection holds it. A k-gram held by
    /// more than `max_postings` postings that is not common is *frequent*: matched, like
    /// common text, against the first documents holding it only, but its text is not
    /// flagged (a copy of it still counts).
    pub fn judge<'i>(
        &self,
        hashes: &[u64],
        k: usize,
        max_postings: usize,
        held: impl Fn(usize) -> (&'i [Posting], Option<&'i Spread>),
    ) -> SuspectKgrams {
        let k = k.max(1);
        let tokens = hashes.len() + k - 1;
        let token_count = if hashes.is_empty() { 0 } else { tokens };
        let mut flagged = vec![false; token_count];
        // Tokens inside common k-grams (not stop passages: those are matched as usual).
        let mut in_common = vec![false; token_count];
        let mut common = vec![false; hashes.len()];
        let mut frequent = vec![false; hashes.len()];
        let mut shown = Vec::new();
        for (position, &hash) in hashes.iter().enumerate() {
            let stop = !self.stop.is_empty() && self.stop.contains(&hash);
            let (list, spread) = held(position);
            let is_common = match spread {
                Some(spread) => self.common.is_common_spread(spread),
                None => self.common.is_common(list),
            };
            if !stop && is_common {
                common[position] = true;
            } else if spread.map_or(list.len(), |s| s.postings) > max_postings {
                frequent[position] = true;
            }
            if common[position] || frequent[position] {
                match spread {
                    Some(spread) => shown.extend_from_slice(spread.first_documents(COMMON_SHOWN)),
                    None => shown.extend(CommonRule::shown(list).iter().map(|p| p.doc)),
                }
            }
            if stop || common[position] {
                flagged[position..position + k].iter_mut().for_each(|f| *f = true);
            }
            if common[position] {
                in_common[position..position + k].iter_mut().for_each(|f| *f = true);
            }
        }
        shown.sort_unstable();
        shown.dedup();
        // A k-gram inside common text that escaped the threshold (the references winnowed
        // it differently) would align the suspect with every reference holding the text.
        let restricted =
            (0..hashes.len()).map(|i| common[i] || frequent[i] || in_common[i..i + k].iter().all(|&f| f)).collect();
        SuspectKgrams { flagged, restricted, shown }
    }
}

/// The excluded character ranges of one suspect, each list sorted and disjoint.
#[derive(Clone, Debug, Default)]
pub struct SuspectExclusions {
    /// Common text and stop passages.
    pub common: Vec<(u32, u32)>,
    /// Quotations and bibliography.
    pub quoted: Vec<(u32, u32)>,
}

impl SuspectExclusions {
    /// Sets the kind of every passage from the exclusions covering at least half of its
    /// suspect side; template passages keep their kind.
    pub fn classify(&self, passages: &mut [Passage]) {
        for p in passages.iter_mut().filter(|p| p.kind != PassageKind::Template) {
            let half = |ranges: &[(u32, u32)]| 2 * overlap((p.a_start, p.a_end), ranges) >= p.a_len();
            if !self.common.is_empty() && half(&self.common) {
                p.kind = PassageKind::Common;
            } else if !self.quoted.is_empty() && half(&self.quoted) {
                p.kind = PassageKind::Quoted;
            }
        }
    }
}

/// Characters of `span` inside the sorted, disjoint `ranges`.
fn overlap(span: (u32, u32), ranges: &[(u32, u32)]) -> u32 {
    let first = ranges.partition_point(|r| r.1 <= span.0);
    ranges[first..].iter().take_while(|r| r.0 < span.1).map(|r| r.1.min(span.1) - r.0.max(span.0)).sum()
}

/// The character ranges spanned by the flagged tokens, tokens of one flagged run joined
/// across the punctuation between them; sorted and disjoint.
pub fn token_ranges(tokens: &[Token], flagged: &[bool]) -> Vec<(u32, u32)> {
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    let mut previous_flagged = false;
    for (token, &f) in tokens.iter().zip(flagged) {
        if f {
            match ranges.last_mut() {
                Some(last) if previous_flagged => last.1 = token.end,
                _ => ranges.push((token.start, token.end)),
            }
        }
        previous_flagged = f;
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passage_mostly_inside_an_exclusion_takes_its_kind() {
        let ex = SuspectExclusions { common: vec![(0, 50)], quoted: vec![(100, 200)] };
        let mut passages = vec![
            Passage::copied((10, 60), (0, 50)),
            Passage::copied((90, 190), (0, 100)),
            Passage::copied((40, 140), (0, 100)),
            Passage::copied((300, 400), (0, 100)),
        ];
        ex.classify(&mut passages);
        let kinds: Vec<PassageKind> = passages.iter().map(|p| p.kind).collect();
        assert_eq!(kinds, vec![PassageKind::Common, PassageKind::Quoted, PassageKind::Copied, PassageKind::Copied]);
    }

    #[test]
    fn frequent_kgrams_are_held_to_their_first_documents_but_not_flagged() {
        // 1,000 references: common from 50 documents. One k-gram is held by 30 documents,
        // 3 positions each (90 postings, over the cap of 50): frequent. One by 60
        // documents: common. One by 4 documents: free.
        let ex = Exclusions::new(1_000, &[], NormalizeOptions::default(), 2, &Dictionary::new());
        let held = |docs: std::ops::Range<u32>, each: u32| -> Vec<Posting> {
            docs.flat_map(|doc| (0..each).map(move |position| Posting { doc, position })).collect()
        };
        let lists = [held(10..40, 3), held(100..160, 1), held(500..504, 1)];
        let judged = ex.judge(&[1, 2, 3], 2, 50, |position| (lists[position].as_slice(), None));
        assert!(judged.is_restricted(0) && judged.is_restricted(1) && !judged.is_restricted(2));
        // Only the common k-gram flags text (tokens 1 and 2).
        assert_eq!(judged.flagged, vec![false, true, true, false]);
        for doc in [10, 11, 100, 101] {
            assert!(judged.is_shown(doc), "{doc}");
        }
        assert!(!judged.is_shown(12) && !judged.is_shown(102) && !judged.is_shown(500));
    }

    #[test]
    fn stop_passages_become_kgrams_and_flagged_tokens_become_ranges() {
        let ex = Exclusions::new(
            10,
            &["软件包管理系统可以帮助用户".to_string()],
            NormalizeOptions::default(),
            5,
            &Dictionary::new(),
        );
        assert_eq!(ex.stop.len(), 9);
        let tokens = tokenize("ab cd, ef gh", NormalizeOptions::default()).tokens;
        assert_eq!(token_ranges(&tokens, &[true, true, false, true]), vec![(0, 5), (10, 12)]);
    }
}

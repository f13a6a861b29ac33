//! Aligns candidate pairs found elsewhere (an SQL engine's join over fingerprints) the way
//! an all-vs-all check compares them: the same [`Matcher`], over an index of just the
//! documents the pairs need, told by [`Spread`]s what only the whole collection knows.
//!
//! The pairs are grouped by their smaller id, the suspect: text found in several of its
//! references is shown against the best of them, so a suspect's pairs are aligned
//! together. Identical files are stated whole, as a check states them.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::assemble::{Report, assemble};
use super::identical::{IdenticalFiles, Identity, Member, whole_text_pair};
use super::matcher::Matcher;
use super::memory_index::{Loaded, MemoryIndex, take_char_grams, take_kgrams};
use super::pipeline::fingerprint_document;
use super::policy::{PairPolicy, Pairing};
use super::{DocumentInput, Mode, Role};
use crate::exclusions::Exclusions;
use crate::fingerprint::FingerprintedDoc;
use crate::fingerprint::simhash::{self, Dictionary};
use crate::fingerprint::winnow;
use crate::hash::kgram_hashes;
use crate::index::{Postings, ReferenceIndex, Signal, Spread, StoreError};
use crate::ingest;
use crate::matching::MatchTuning;
use crate::model::Notice;
use crate::model::{DocumentEntry, Pair};
use crate::settings::Settings;

/// One document of the collection, as it was when fingerprinted.
#[derive(Clone, Debug, Default)]
pub struct CandidateDocument {
    /// How the report names it.
    pub display: String,
    /// Where it is read again.
    pub source: PathBuf,
    /// The SHA-256 of its bytes when fingerprinted: a file that changed since is refused.
    pub sha256: Option<String>,
    pub chars: usize,
    /// Whether it had any token to compare (documents without words are never identical
    /// copies of each other).
    pub has_words: bool,
    pub simhash: Option<u64>,
    /// Why it could not be read when fingerprinted.
    pub error: Option<String>,
}

/// Candidate pairs to align, and what the whole collection says of its hashes.
pub struct CandidateRequest<'a> {
    /// Every document of the collection; a document's id is its position.
    pub documents: &'a [CandidateDocument],
    /// Pairs `(a, b)` of ids, `a < b`: a superset of the pairs a check would compare.
    pub pairs: &'a [(usize, usize)],
    /// How the collection holds the k-gram hashes that are common, repeated or held by
    /// many postings (see [`Spread`]); a hash not listed is held by too few documents to
    /// matter.
    pub kgram_spreads: &'a FxHashMap<u64, Spread>,
    /// The same for sentence hashes held by many postings.
    pub sentence_spreads: &'a FxHashMap<u64, Spread>,
    pub settings: &'a Settings,
    /// Only the suspects whose ordinal is `index` modulo `count` (and the identical pairs
    /// whose ordinal is): slices that together give the whole answer.
    pub slice: (usize, usize),
    /// The characters of the documents one group of suspects may need at once (the
    /// suspects and their candidates, read and fingerprinted together): bounds memory at
    /// about 45 bytes a character, [`DEFAULT_GROUP_CHARS`] by default.
    pub group_chars: usize,
}

/// Characters read at once by default: about 1 GB of fingerprints in memory.
pub const DEFAULT_GROUP_CHARS: usize = 20_000_000;

/// Aligns the pairs of `request`'s slice into a report over every document, ids as given.
/// A document that can no longer be read, or whose bytes changed, gets an error and its
/// pairs are dropped. `tick` is called once per suspect.
///
/// The suspects are aligned group by group ([`groups`]): the documents a group needs are
/// read, indexed and matched, then dropped (but for the text of documents in a pair
/// found, which the report shows), so memory holds one group's documents, not the
/// collection's. The answer does not depend on the grouping: a suspect's pairs are
/// aligned together, and what the part index cannot know comes from the spreads.
pub fn align_candidates(request: &CandidateRequest, tick: &(dyn Fn() + Sync)) -> Result<Report, StoreError> {
    let mut settings = request.settings.clone().sanitized();
    // The Parquet + SQL flow keeps no meaning signal: its pairs share words, and its
    // report says the layer was not used.
    settings.meaning = false;
    let (slice, slices) = (request.slice.0, request.slice.1.max(1));
    let records = request.documents;
    let members: Vec<Member> = records
        .iter()
        .map(|d| Member {
            sha256: d.sha256.as_deref(),
            role: Role::Suspect,
            also_reference: false,
            has_words: d.has_words,
        })
        .collect();
    let identical = IdenticalFiles::find(&members);
    // Every document but later identical copies is a reference, as in a check.
    let references = (0..records.len()).filter(|&i| !identical.is_copy(i)).count();
    let suspects = suspects_of(request.pairs, records.len(), &identical, (slice, slices));

    let mut docs: Vec<Loaded> = records.iter().enumerate().map(|(id, d)| unread(id, d)).collect();
    let mut in_pairs = vec![false; docs.len()];
    let extractor = ingest::Extractor::new(settings.ingest.isolation.as_ref());
    // Built on the first Chinese document, kept for every group, let go at the end.
    let dictionary = Dictionary::new();
    let part = Part {
        request,
        settings: &settings,
        identical: &identical,
        references,
        extractor: &extractor,
        dictionary: &dictionary,
    };
    let mut pairs: Vec<Pair> = Vec::new();
    for group in groups(&suspects, records, request.group_chars) {
        let found = part.align_group(&suspects[group], &mut docs, &in_pairs, tick)?;
        for pair in &found {
            in_pairs[pair.a] = true;
            in_pairs[pair.b] = true;
        }
        pairs.extend(found);
    }
    unload(&mut docs, &[], &in_pairs);
    drop(extractor);
    dictionary.release();
    note_identical(&mut docs, &identical);
    for (n, &(first, later)) in identical.pairs.iter().enumerate() {
        if n % slices == slice {
            let (x, y) = (&docs[first].entry, &docs[later].entry);
            let distance = x.simhash.zip(y.simhash).map(|(p, q)| simhash::hamming(p, q));
            pairs.push(whole_text_pair(first, later, x.chars, distance));
        }
    }
    let documents = docs.into_iter().map(|d| d.entry).collect();
    Ok(assemble(settings, Mode::AllVsAll, documents, pairs, Vec::new()))
}

/// What every group of one request shares.
struct Part<'a> {
    request: &'a CandidateRequest<'a>,
    settings: &'a Settings,
    identical: &'a IdenticalFiles,
    /// References in the whole collection.
    references: usize,
    extractor: &'a ingest::Extractor,
    dictionary: &'a Dictionary,
}

impl Part<'_> {
    /// Reads the documents `group` needs (keeping those already read, dropping the
    /// others'), indexes them and aligns each suspect of the group with its candidates.
    fn align_group(
        &self,
        group: &[(usize, Vec<usize>)],
        docs: &mut [Loaded],
        in_pairs: &[bool],
        tick: &(dyn Fn() + Sync),
    ) -> Result<Vec<Pair>, StoreError> {
        let mut needed: Vec<usize> =
            group.iter().flat_map(|(a, bs)| std::iter::once(*a).chain(bs.iter().copied())).collect();
        needed.sort_unstable();
        needed.dedup();
        unload(docs, &needed, in_pairs);
        let (records, settings) = (self.request.documents, self.settings);
        let to_read: Vec<usize> =
            needed.iter().copied().filter(|&id| docs[id].prints.is_none() && docs[id].entry.error.is_none()).collect();
        let loaded: Vec<(usize, Result<Loaded, String>)> = to_read
            .par_iter()
            .map(|&id| (id, load(id, &records[id], settings, (self.extractor, self.dictionary))))
            .collect();
        for (id, result) in loaded {
            match result {
                Ok(doc) => docs[id] = doc,
                Err(error) => docs[id].entry.error = Some(error.into()),
            }
        }
        // Documents kept from the previous group gave their k-grams to its index: winnowed
        // again from their tokens (far cheaper than reading them again).
        let (k, w) = (settings.k.max(1), settings.w.max(1));
        docs.par_iter_mut().filter_map(|d| d.prints.as_mut()).filter(|p| p.kgrams.is_empty()).for_each(|p| {
            p.kgrams = winnow(&kgram_hashes(p.tokenized.tokens.iter().map(|t| t.hash), k), w);
        });
        let candidates: FxHashMap<usize, &[usize]> = group.iter().map(|(a, bs)| (*a, bs.as_slice())).collect();
        let policy = PairPolicy {
            pairing: Pairing::CandidateList { candidates: &candidates },
            identical: self.identical,
            also_reference: vec![false; docs.len()],
        };
        let is_reference = |d: &Loaded| policy.is_reference(d);
        // The k-grams move into the index: a document read for this group keeps none after it.
        let kgrams = take_kgrams(docs, &is_reference);
        // The character grams of the short-copy search, as `compare --all` takes them.
        let char_grams = take_char_grams(docs, &is_reference, settings.short_copies.then_some(settings.normalize));
        let docs: &[Loaded] = docs;
        let index = PartIndex {
            part: MemoryIndex::build(docs, (kgrams, char_grams), settings.simhash_threshold, &is_reference),
            references: self.references,
            kgram_spreads: self.request.kgram_spreads,
            sentence_spreads: self.request.sentence_spreads,
        };
        let tuning = MatchTuning::default();
        let exclusions =
            Exclusions::new(self.references, &settings.stop_passages, settings.normalize, settings.k, self.dictionary);
        let matcher = Matcher {
            index: &index,
            settings,
            tuning: &tuning,
            exclusions: &exclusions,
            policy: &policy,
            clock: None,
            meaning: None,
            reworded: None,
        };
        let per_suspect: Vec<Vec<Pair>> = group
            .par_iter()
            .map(|(a, _)| {
                let pairs = match docs[*a].fingerprinted() {
                    Some(doc) => matcher.pairs_of(*a, &doc)?,
                    None => Vec::new(),
                };
                tick();
                Ok(pairs)
            })
            .collect::<Result<_, StoreError>>()?;
        Ok(per_suspect.into_iter().flatten().collect())
    }
}

/// Drops what was read of every document not in `keep` (sorted): its fingerprints, and
/// its text unless `in_pairs` says a pair found holds it (the report shows that text).
fn unload(docs: &mut [Loaded], keep: &[usize], in_pairs: &[bool]) {
    for (id, d) in docs.iter_mut().enumerate() {
        if d.prints.is_none() || keep.binary_search(&id).is_ok() {
            continue;
        }
        d.prints = None;
        d.keywords = None;
        d.masked_chars = Vec::new();
        if !in_pairs[id] {
            d.entry.text = Arc::from("");
            d.compared = 0;
        }
    }
}

/// The suspects in groups (ranges, in order) whose documents — the suspects and their
/// candidates — hold at most `budget` characters together, or a single suspect when its
/// own exceed it.
fn groups(suspects: &[(usize, Vec<usize>)], records: &[CandidateDocument], budget: usize) -> Vec<Range<usize>> {
    let mut groups = Vec::new();
    // The group a document was last counted in (+1: 0 is none).
    let mut counted = vec![0usize; records.len()];
    let (mut start, mut chars) = (0, 0usize);
    for (n, (a, bs)) in suspects.iter().enumerate() {
        // `a` and its candidates (all greater, without repeats): distinct documents.
        let ids = || std::iter::once(*a).chain(bs.iter().copied());
        let mut group = groups.len() + 1;
        let mut new: usize = ids().filter(|&id| counted[id] != group).map(|id| records[id].chars.max(1)).sum();
        if n > start && chars + new > budget {
            groups.push(start..n);
            (start, chars) = (n, 0);
            group += 1;
            new = ids().map(|id| records[id].chars.max(1)).sum();
        }
        chars += new;
        ids().for_each(|id| counted[id] = group);
    }
    if start < suspects.len() {
        groups.push(start..suspects.len());
    }
    groups
}

/// The suspects of one slice with their candidates (sorted), pairs with an identical copy
/// or between identical files left out: those are stated whole.
fn suspects_of(
    pairs: &[(usize, usize)],
    documents: usize,
    identical: &IdenticalFiles,
    (slice, slices): (usize, usize),
) -> Vec<(usize, Vec<usize>)> {
    let mut by_suspect: Vec<(usize, Vec<usize>)> = Vec::new();
    let kept = pairs.iter().filter(|&&(a, b)| {
        a < b && b < documents && !identical.is_copy(a) && !identical.is_copy(b) && !identical.same(a, b)
    });
    let mut sorted: Vec<(usize, usize)> = kept.copied().collect();
    sorted.sort_unstable();
    sorted.dedup();
    for (a, b) in sorted {
        match by_suspect.last_mut() {
            Some((last, bs)) if *last == a => bs.push(b),
            _ => by_suspect.push((a, vec![b])),
        }
    }
    by_suspect.into_iter().enumerate().filter(|(n, _)| n % slices == slice).map(|(_, group)| group).collect()
}

/// A document as fingerprinted, not read again (yet).
fn unread(id: usize, d: &CandidateDocument) -> Loaded {
    let mut entry = DocumentEntry::unread(id, d.display.clone(), d.source.clone(), Role::Suspect);
    entry.chars = d.chars;
    entry.countable_chars = d.chars;
    entry.simhash = d.simhash;
    entry.sha256 = d.sha256.clone();
    entry.error = d.error.clone().map(Into::into);
    Loaded { entry, also_reference: false, compared: 0, prints: None, masked_chars: Vec::new(), keywords: None }
}

/// Reads `d` again and fingerprints it as a check does; refuses a file whose bytes changed.
fn load(
    id: usize,
    d: &CandidateDocument,
    settings: &Settings,
    readers: (&ingest::Extractor, &Dictionary),
) -> Result<Loaded, String> {
    if let Some(error) = &d.error {
        return Err(error.clone());
    }
    let input = DocumentInput {
        path: d.source.clone(),
        display: d.display.clone(),
        role: Role::Suspect,
        also_reference: false,
        member: None,
    };
    let read = fingerprint_document(&input, settings, readers)?;
    if read.entry.sha256 != d.sha256 {
        return Err(format!("changed since it was fingerprinted (SHA-256 differs): {}", d.source.display()));
    }
    let mut entry = read.entry;
    entry.id = id;
    // The recorded SimHash: the one the candidate pairs were found with.
    entry.simhash = d.simhash;
    Ok(Loaded {
        entry,
        also_reference: false,
        compared: read.compared,
        prints: Some(read.prints),
        masked_chars: Vec::new(),
        keywords: read.keywords,
    })
}

/// Tells each later identical copy which document it is compared through, as a check does.
fn note_identical(docs: &mut [Loaded], identical: &IdenticalFiles) {
    for &(first, later) in &identical.pairs {
        let first_path = docs[first].entry.path.clone();
        let through = matches!(identical.identity[later], Identity::CopyOf(_));
        let note = Notice::IdenticalTo { path: first_path, through };
        docs[later].entry.warnings.push(note);
    }
}

/// The in-memory index over the documents of some candidate pairs, answering for the
/// whole collection where its own postings cannot: the number of references, and the
/// spreads of hashes held by many documents or postings.
struct PartIndex<'a> {
    part: MemoryIndex<'a>,
    references: usize,
    kgram_spreads: &'a FxHashMap<u64, Spread>,
    sentence_spreads: &'a FxHashMap<u64, Spread>,
}

impl ReferenceIndex for PartIndex<'_> {
    fn holds(&self, signal: Signal) -> bool {
        self.part.holds(signal)
    }

    fn postings(&self, signal: Signal, hashes: &[u64]) -> Result<Postings<'_>, StoreError> {
        self.part.postings(signal, hashes)
    }

    fn spreads(&self, signal: Signal, hashes: &[u64]) -> Vec<Option<Spread>> {
        let spreads = match signal {
            Signal::Kgram => self.kgram_spreads,
            Signal::Sentence => self.sentence_spreads,
            Signal::CharGram => return vec![None; hashes.len()],
        };
        hashes.iter().map(|h| spreads.get(h).copied()).collect()
    }

    fn simhash_neighbours(
        &self,
        simhash: u64,
        after: Option<u32>,
        limit: usize,
    ) -> Result<Vec<(u32, u32)>, StoreError> {
        self.part.simhash_neighbours(simhash, after, limit)
    }

    fn reference(&self, doc: u32) -> Result<Option<FingerprintedDoc<'_>>, StoreError> {
        self.part.reference(doc)
    }

    fn reference_count(&self) -> usize {
        self.references
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suspects_keep_their_candidates_and_slices_split_by_suspect() {
        let members: Vec<Member> = ["x", "y", "x", "z"]
            .iter()
            .map(|s| Member { sha256: Some(s), role: Role::Suspect, also_reference: false, has_words: true })
            .collect();
        let identical = IdenticalFiles::find(&members);
        let pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (3, 9)];
        assert_eq!(suspects_of(&pairs, 4, &identical, (0, 1)), vec![(0, vec![1, 3]), (1, vec![3])]);
        assert_eq!(suspects_of(&pairs, 4, &identical, (1, 2)), vec![(1, vec![3])]);
    }

    #[test]
    fn groups_of_suspects_need_at_most_the_budget_of_characters() {
        let records: Vec<CandidateDocument> =
            (0..6).map(|_| CandidateDocument { chars: 100, ..Default::default() }).collect();
        let suspects = vec![(0, vec![1, 2]), (1, vec![2]), (3, vec![4, 5]), (4, vec![5])];
        assert_eq!(groups(&suspects, &records, 300), vec![0..2, 2..4], "documents shared in a group count once");
        assert_eq!(groups(&suspects, &records, 100), vec![0..1, 1..2, 2..3, 3..4], "one suspect over the budget");
        assert_eq!(groups(&suspects, &records, 10_000), vec![0..4]);
    }
}

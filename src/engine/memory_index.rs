//! The references of one check, indexed in memory: the in-memory side of the
//! [`ReferenceIndex`] seam (the archive is the other). Reference ids are positions in the
//! check's document list.

use std::borrow::Cow;

use rayon::prelude::*;

use crate::fingerprint::FingerprintedDoc;
use crate::fingerprint::char_grams::grams_of_text;
use crate::fingerprint::keywords::KeywordPrint;
use crate::fingerprint::{DocumentFingerprints, Fingerprint};
use crate::index::{InvertedIndex, Posting, Postings, ReferenceIndex, Signal, SimhashIndex, StoreError};
use crate::matching::char_seeds;
use crate::model::{DocumentEntry, saturating_u32};
use crate::normalize::NormalizeOptions;

/// One document after reading: its entry for the report and its fingerprints.
pub(super) struct Loaded {
    pub entry: DocumentEntry,
    /// A suspect that is also a reference (the same file was given in both parts).
    pub also_reference: bool,
    /// Bytes of `entry.text` that are compared (all of it but for giant documents).
    pub compared: usize,
    pub prints: Option<DocumentFingerprints>,
    pub masked_chars: Vec<(u32, u32)>,
    /// The keyword fingerprint, taken with the SimHash.
    pub keywords: Option<KeywordPrint>,
}

impl Loaded {
    /// The document as matching reads it, suspect or reference, lending what it holds;
    /// `None` when it was not read.
    pub fn fingerprinted(&self) -> Option<FingerprintedDoc<'_>> {
        Some(FingerprintedDoc {
            prints: Cow::Borrowed(self.prints.as_ref()?),
            text: self.entry.text.clone(),
            compared: self.compared,
            masked_chars: Cow::Borrowed(&self.masked_chars),
            countable_chars: self.entry.countable_chars,
            simhash: self.entry.simhash,
            keywords: self.keywords.as_ref().map(Cow::Borrowed),
        })
    }
}

/// Is this document a reference of the check?
pub(super) type IsReference<'a> = &'a (dyn Fn(&Loaded) -> bool + Sync);

/// The k-gram, sentence and SimHash indexes over the references of one check.
pub(super) struct MemoryIndex<'a> {
    docs: &'a [Loaded],
    kgrams: InvertedIndex,
    sentences: InvertedIndex,
    simhashes: SimhashIndex,
    /// The references' character grams (see [`crate::fingerprint::char_grams`]).
    char_grams: InvertedIndex,
    is_reference: IsReference<'a>,
    references: usize,
}

/// Moves the references' winnowed k-grams out of `docs` into an index and drops everyone
/// else's: matching looks up every k-gram of a suspect, rolled again from its tokens, so
/// no document needs its own list any more.
pub(super) fn take_kgrams(docs: &mut [Loaded], is_reference: IsReference) -> InvertedIndex {
    let kgrams: Vec<(u64, Posting)> = docs
        .par_iter_mut()
        .enumerate()
        .flat_map_iter(|(id, d)| {
            let keep = is_reference(d);
            let kgrams = d.prints.as_mut().map(|p| std::mem::take(&mut p.kgrams)).unwrap_or_default();
            let doc = saturating_u32(id);
            kgrams.into_iter().filter(move |_| keep).map(move |f| (f.hash, Posting { doc, position: f.position }))
        })
        .collect();
    InvertedIndex::build(kgrams)
}

/// Moves the references' character grams (see [`char_seeds`]) out of `docs` into an
/// index, taking them from the text of a reference read without them, and drops everyone
/// else's. `normalize`: the run's normalization, `None` when it searches no short copies.
pub(super) fn take_char_grams(
    docs: &mut [Loaded],
    is_reference: IsReference,
    normalize: Option<NormalizeOptions>,
) -> InvertedIndex {
    let grams: Vec<(u32, Vec<Fingerprint>)> = docs
        .par_iter_mut()
        .enumerate()
        .filter_map(|(id, d)| {
            let taken = d.prints.as_mut().and_then(|p| p.char_grams.take());
            let normalize = normalize.filter(|_| is_reference(d))?;
            let grams = taken.unwrap_or_else(|| grams_of_text(&d.entry.text[..d.compared], normalize));
            Some((saturating_u32(id), grams))
        })
        .collect();
    char_seeds::gram_index(grams)
}

impl<'a> MemoryIndex<'a> {
    /// Indexes the references among `docs`, whose k-grams [`take_kgrams`] already moved
    /// into `kgrams` and character grams [`take_char_grams`] into `char_grams`.
    pub fn build(
        docs: &'a [Loaded],
        (kgrams, char_grams): (InvertedIndex, InvertedIndex),
        simhash_threshold: u32,
        is_reference: IsReference<'a>,
    ) -> Self {
        let sentences: Vec<(u64, Posting)> = docs
            .par_iter()
            .enumerate()
            .filter(|(_, d)| is_reference(d))
            .filter_map(|(id, d)| Some((saturating_u32(id), d.prints.as_ref()?)))
            .flat_map_iter(|(doc, p)| p.sentences.iter().map(move |s| (s.hash, Posting { doc, position: s.start })))
            .collect();
        let mut simhashes = SimhashIndex::new(simhash_threshold);
        for (id, d) in docs.iter().enumerate().filter(|(_, d)| is_reference(d)) {
            if let Some(h) = d.entry.simhash {
                simhashes.insert(saturating_u32(id), h);
            }
        }
        let references = docs.iter().filter(|d| is_reference(d)).count();
        Self {
            docs,
            kgrams,
            sentences: InvertedIndex::build(sentences),
            simhashes,
            char_grams,
            is_reference,
            references,
        }
    }
}

impl ReferenceIndex for MemoryIndex<'_> {
    fn holds(&self, signal: Signal) -> bool {
        signal != Signal::CharGram || !self.char_grams.is_empty()
    }

    fn postings(&self, signal: Signal, hashes: &[u64]) -> Result<Postings<'_>, StoreError> {
        let index = match signal {
            Signal::Kgram => &self.kgrams,
            Signal::Sentence => &self.sentences,
            Signal::CharGram => &self.char_grams,
        };
        Ok(hashes.iter().map(|&h| Cow::Borrowed(index.get(h))).collect())
    }

    fn simhash_neighbours(
        &self,
        simhash: u64,
        after: Option<u32>,
        limit: usize,
    ) -> Result<Vec<(u32, u32)>, StoreError> {
        Ok(self.simhashes.query_after(simhash, after, limit))
    }

    fn reference(&self, doc: u32) -> Result<Option<FingerprintedDoc<'_>>, StoreError> {
        Ok(self.docs.get(doc as usize).filter(|d| (self.is_reference)(d)).and_then(Loaded::fingerprinted))
    }

    fn reference_count(&self) -> usize {
        self.references
    }
}

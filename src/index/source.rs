//! The one seam between matching and wherever the references live: the index one check
//! builds in memory, or a persistent archive. Matching asks for postings, sentence hashes,
//! SimHash neighbours and a reference's text and tokens through [`ReferenceIndex`] and
//! never sees how they are stored.

use std::borrow::Cow;

use super::{Posting, Spread};
use crate::fingerprint::{FingerprintedDoc, GlancedKeys};
use crate::model::DocumentEntry;

/// What a check can know of a reference without reading its text: enough to pass over
/// one that shares only chance k-grams with a suspect (see
/// [`crate::matching::may_open_box`]).
#[derive(Clone, Debug)]
pub struct Glance<'a> {
    /// The keys of its compared tokens: all of them, or the windows asked for.
    pub token_keys: GlancedKeys<'a>,
    /// Its SimHash, when it has one.
    pub simhash: Option<u64>,
}

/// A kind of hashed signal an index keeps postings of: what a lookup asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signal {
    /// Word k-grams (winnowed in the references).
    Kgram,
    /// Whole normalized sentences.
    Sentence,
    /// Character grams of short edited copies ([`crate::fingerprint::char_grams`]), each
    /// position a stream index.
    CharGram,
}

/// An index could not be read (a damaged segment, a lost server): the check cannot give a
/// sound answer. It carries the store's own error, which the store's owner takes back
/// typed ([`StoreError::into_inner`]); the index's users only pass it on.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct StoreError(Box<dyn std::error::Error + Send + Sync + 'static>);

impl StoreError {
    /// Wraps a store's own error.
    pub fn new(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self(Box::new(error))
    }

    /// The store's own error, to be taken back as its type with `downcast`.
    pub fn into_inner(self) -> Box<dyn std::error::Error + Send + Sync + 'static> {
        self.0
    }
}

/// The postings of each hash asked for, in the order asked.
pub type Postings<'a> = Vec<Cow<'a, [Posting]>>;

/// Where the references of a check are looked up. Implemented by the in-memory index of
/// one check and by the archive; shared by the threads that match suspects. Every read
/// may fail (a store on disk or across a network): the first failure ends the check,
/// said once by whoever opened the store.
pub trait ReferenceIndex: Sync {
    /// Whether this index keeps postings of `signal`: k-grams and sentences always, what
    /// else by this default none.
    fn holds(&self, signal: Signal) -> bool {
        matches!(signal, Signal::Kgram | Signal::Sentence)
    }

    /// The postings of each `signal` hash of `hashes`, in the same order (an empty list
    /// for a hash no reference holds, and for every hash of a signal the index does not
    /// hold), each sorted by document then position.
    fn postings(&self, signal: Signal, hashes: &[u64]) -> Result<Postings<'_>, StoreError>;

    /// How the whole collection holds each `signal` hash of `hashes`, where this index
    /// holds only part of it (the documents of some candidate pairs) and its postings
    /// would say less: `None` where they tell it all. An index over every reference keeps
    /// this default. Asked after [`Self::postings`] of the same hashes: an index that
    /// sends a frequent hash's first postings only (an archive) tells here what it cut.
    fn spreads(&self, _signal: Signal, hashes: &[u64]) -> Vec<Option<Spread>> {
        vec![None; hashes.len()]
    }

    /// References whose SimHash is within the check's near-duplicate distance of
    /// `simhash`, with that distance, sorted by id: only ids after `after` when given, and
    /// at most about `limit` looked at per pigeonhole bucket.
    fn simhash_neighbours(
        &self,
        simhash: u64,
        after: Option<u32>,
        limit: usize,
    ) -> Result<Vec<(u32, u32)>, StoreError>;

    /// Calls `each` with a glance at every reference of `docs` (ascending) that this
    /// index keeps one for, where reading a reference whole costs more than looking; the
    /// others are read. `windows(doc)` gives the windows of its tokens the glance reads
    /// (first token, end; sorted and apart: [`crate::matching::glance_windows`]): an index
    /// that sends keys over a network sends those only, one that has them at hand may
    /// give them all. An index that keeps none (the check's own) keeps this default.
    fn glances(
        &self,
        _docs: &[u32],
        _windows: &dyn Fn(u32) -> Vec<(u32, u32)>,
        _each: &mut dyn FnMut(u32, &Glance<'_>),
    ) -> Result<(), StoreError> {
        Ok(())
    }

    /// The reference `doc`, or `None` when this index holds no such reference.
    fn reference(&self, doc: u32) -> Result<Option<FingerprintedDoc<'_>>, StoreError>;

    /// Number of references: what makes a k-gram common grows with it.
    fn reference_count(&self) -> usize;
}

/// References kept beyond one check (the archive): looked up like any index, and only
/// those that share something with a suspect enter the report.
pub trait StoredReferences: ReferenceIndex {
    /// This store as a plain index.
    fn as_index(&self) -> &dyn ReferenceIndex;

    /// The report entry of stored reference `doc`, numbered `id` in the report. A
    /// reference that cannot be read gets its `error`.
    fn entry(&self, doc: u32, id: usize) -> DocumentEntry;

    /// The first stored reference whose file has this SHA-256, if any: a suspect with the
    /// same bytes is stated as a whole-text copy, not aligned.
    fn same_bytes(&self, sha256: &str) -> Result<Option<u32>, StoreError>;

    /// How many stored references hold more than `max` characters: a check compares
    /// their first part only, so what was copied from the rest is not found.
    fn cut_references(&self, max: usize) -> Result<usize, StoreError>;
}

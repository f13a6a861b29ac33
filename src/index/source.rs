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

/// Where the references of a check are looked up. Implemented by the in-memory index of
/// one check and by the archive; shared by the threads that match suspects.
pub trait ReferenceIndex: Sync {
    /// The postings of each k-gram hash of `hashes`, in the same order (an empty list for
    /// a hash no reference holds), each sorted by document then position.
    fn kgram_postings(&self, hashes: &[u64]) -> Vec<Cow<'_, [Posting]>>;

    /// The postings of each sentence hash of `hashes`, as [`Self::kgram_postings`].
    fn sentence_postings(&self, hashes: &[u64]) -> Vec<Cow<'_, [Posting]>>;

    /// Whether this index holds character grams (this default: no).
    fn holds_char_grams(&self) -> bool {
        false
    }

    /// The postings of each character gram hash of `hashes`
    /// ([`crate::fingerprint::char_grams`]), as [`Self::kgram_postings`], each position a
    /// stream index; an empty list for every hash where the index keeps no such grams
    /// (this default).
    fn char_gram_postings(&self, hashes: &[u64]) -> Vec<Cow<'_, [Posting]>> {
        vec![Cow::Borrowed(&[][..]); hashes.len()]
    }

    /// How the whole collection holds each k-gram hash of `hashes`, where this index holds
    /// only part of it (the documents of some candidate pairs) and its postings would
    /// say less: `None` where they tell it all. An index over every reference keeps this
    /// default. Asked after [`Self::kgram_postings`] of the same hashes: an index that
    /// sends a frequent hash's first postings only (a shared archive) tells here what it
    /// cut.
    fn kgram_spreads(&self, hashes: &[u64]) -> Vec<Option<Spread>> {
        vec![None; hashes.len()]
    }

    /// How the whole collection holds each sentence hash of `hashes`, as
    /// [`Self::kgram_spreads`].
    fn sentence_spreads(&self, hashes: &[u64]) -> Vec<Option<Spread>> {
        vec![None; hashes.len()]
    }

    /// References whose SimHash is within the check's near-duplicate distance of
    /// `simhash`, with that distance, sorted by id: only ids after `after` when given, and
    /// at most about `limit` looked at per pigeonhole bucket.
    fn simhash_neighbours(&self, simhash: u64, after: Option<u32>, limit: usize) -> Vec<(u32, u32)>;

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
    ) {
    }

    /// The reference `doc`, or `None` when there is no such reference.
    fn reference(&self, doc: u32) -> Option<FingerprintedDoc<'_>>;

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
    fn same_bytes(&self, sha256: &str) -> Option<u32>;
}

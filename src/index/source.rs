//! The one seam between matching and wherever the references live: an index built in
//! memory for one check, or a persistent archive. Matching asks for postings, sentence
//! hashes, SimHash neighbours and a reference's text and tokens through [`ReferenceIndex`]
//! and never sees how they are stored.

use std::borrow::Cow;
use std::sync::Arc;

use super::Posting;
use crate::fingerprint::DocumentFingerprints;

/// One reference as matching needs it. Its id is the `doc` of its postings.
#[derive(Clone, Debug)]
pub struct ReferenceDoc<'a> {
    /// Tokens (with character offsets) and sentence hashes of its text.
    pub prints: Cow<'a, DocumentFingerprints>,
    /// Its extracted text.
    pub text: Arc<str>,
    /// Character ranges masked out as template text, ascending.
    pub masked_chars: Cow<'a, [(u32, u32)]>,
    /// Characters that count in scores (all but masked ones).
    pub countable_chars: usize,
    /// Its SimHash, when it has one.
    pub simhash: Option<u64>,
}

/// Where the references of a check are looked up. Implemented by the in-memory index of
/// one run and by the archive; shared by the threads that match suspects.
pub trait ReferenceIndex: Sync {
    /// Calls `found(i, posting)` for every posting of the k-gram hash `hashes[i]`, skipping
    /// a hash held by more than `max_postings` positions (too common to say anything).
    /// Postings of one hash come sorted by document then position.
    fn kgram_postings(&self, hashes: &[u64], max_postings: usize, found: &mut dyn FnMut(usize, Posting));

    /// Calls `found(i, posting)` for every posting of the sentence hash `hashes[i]`, sorted
    /// by document then position for one hash.
    fn sentence_postings(&self, hashes: &[u64], found: &mut dyn FnMut(usize, Posting));

    /// Every reference whose SimHash is within the near-duplicate distance of `simhash`.
    fn simhash_neighbours(&self, simhash: u64) -> Vec<u32>;

    /// The reference `doc`, or `None` when there is no such reference (any more).
    fn reference(&self, doc: u32) -> Option<ReferenceDoc<'_>>;

    /// Number of references: the cap on common k-grams grows with it.
    fn reference_count(&self) -> usize;
}

//! The inverted index over the references' fingerprints (hash → postings of document and
//! token position), the pigeonhole index over SimHash values in [`simhash_index`], and
//! the [`ReferenceIndex`] seam through which matching reads references ([`source`]).

pub mod simhash_index;
pub mod source;

pub use simhash_index::SimhashIndex;
pub use source::{Glance, Postings, ReferenceIndex, Signal, StoreError, StoredReferences};

use crate::model::{saturating_u32, usize_from};
use rayon::slice::ParallelSliceMut;

/// One occurrence of a fingerprint: which document, at which token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Posting {
    pub doc: u32,
    pub position: u32,
}

/// How a whole collection holds one hash, for an index that holds only part of the
/// collection (the documents of some candidate pairs): what its own postings cannot tell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spread {
    /// Documents holding it.
    pub documents: usize,
    /// Its postings, at most [`MAX_POSITIONS_PER_DOCUMENT`] of one document.
    pub postings: usize,
    /// The lowest ids of the documents holding it, the first `documents` of them.
    pub first: [u32; Spread::FIRST],
}

impl Spread {
    /// How many of the lowest document ids a spread keeps.
    pub const FIRST: usize = 2;

    /// The lowest ids of the documents holding the hash, at most `n` of them.
    pub fn first_documents(&self, n: usize) -> &[u32] {
        &self.first[..self.documents.min(n).min(Self::FIRST)]
    }

    /// How a collection holds a hash of which `list` are the first postings (sorted by
    /// document), `documents` the documents counted.
    pub fn of(list: &[Posting], documents: usize) -> Self {
        let mut first = [0; Self::FIRST];
        let mut docs = list.iter().map(|p| p.doc).collect::<Vec<_>>();
        docs.dedup();
        for (slot, doc) in first.iter_mut().zip(docs) {
            *slot = doc;
        }
        Self { documents, postings: list.len(), first }
    }
}

/// Documents among postings sorted by document.
pub fn distinct_documents(list: &[Posting]) -> usize {
    list.iter().enumerate().filter(|&(i, p)| i == 0 || list[i - 1].doc != p.doc).count()
}

/// hash → every (document, position) holding it. Built once, read by many threads.
///
/// Laid out as sorted arrays rather than a hash map: the distinct hashes ascending, where
/// each one's postings start, and a table that maps the top bits of a hash (up to
/// `MAX_BUCKET_BITS`) to the first distinct hash with those bits. Fingerprint hashes
/// are uniformly mixed, so a lookup reads one or two entries. Half the memory of a hash
/// map, and it is built by one (parallel) sort.
#[derive(Debug, Default)]
pub struct InvertedIndex {
    /// Distinct hashes, ascending.
    keys: Vec<u64>,
    /// `starts[i]..starts[i + 1]` are the postings of `keys[i]`; one more entry than keys.
    starts: Vec<u32>,
    /// `buckets[t]..buckets[t + 1]` are the keys whose top bits are `t`.
    buckets: Vec<u32>,
    postings: Vec<Posting>,
}

/// One document keeps at most this many positions of one hash: a text that repeats the
/// same phrase a million times would otherwise fill the index (and every lookup of that
/// phrase) with a million postings. Its first occurrences stand for the rest.
pub const MAX_POSITIONS_PER_DOCUMENT: usize = 8;

/// Top bits of a hash that pick its bucket: about one distinct hash a bucket at a
/// million fingerprints, less for smaller indexes.
const MAX_BUCKET_BITS: u32 = 22;

impl InvertedIndex {
    /// Builds the index from `(hash, posting)` entries in any order, keeping at most
    /// [`MAX_POSITIONS_PER_DOCUMENT`] positions of one hash in one document (the first).
    pub fn build(mut entries: Vec<(u64, Posting)>) -> Self {
        entries.par_sort_unstable();
        entries.dedup();
        keep_first_positions(&mut entries);
        let mut keys = Vec::new();
        let mut starts = Vec::new();
        for (i, entry) in entries.iter().enumerate() {
            if keys.last() != Some(&entry.0) {
                keys.push(entry.0);
                starts.push(saturating_u32(i));
            }
        }
        starts.push(saturating_u32(entries.len()));
        let bits = bucket_bits(keys.len());
        let mut buckets = Vec::with_capacity((1 << bits) + 1);
        let mut next = 0usize;
        for bucket in 0..(1u64 << bits) {
            while next < keys.len() && top_bits(keys[next], bits) < bucket {
                next += 1;
            }
            buckets.push(saturating_u32(next));
        }
        buckets.push(saturating_u32(keys.len()));
        let postings = entries.into_iter().map(|e| e.1).collect();
        Self { keys, starts, buckets, postings }
    }

    /// Every posting of `hash`, sorted by document then position.
    pub fn get(&self, hash: u64) -> &[Posting] {
        let bits = self.buckets.len().saturating_sub(1).trailing_zeros();
        let bucket = usize_from(top_bits(hash, bits));
        let (Some(&lo), Some(&hi)) = (self.buckets.get(bucket), self.buckets.get(bucket + 1)) else {
            return &[];
        };
        let Some(offset) = self.keys[lo as usize..hi as usize].iter().position(|&k| k == hash) else {
            return &[];
        };
        let i = lo as usize + offset;
        &self.postings[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Number of distinct hashes.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when nothing was indexed.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Number of postings.
    pub fn posting_count(&self) -> usize {
        self.postings.len()
    }
}

/// Keeps, of sorted and distinct `(hash, posting)` entries, at most
/// [`MAX_POSITIONS_PER_DOCUMENT`] positions of one hash in one document (the first):
/// every index of postings, in memory or on disk, holds the same ones.
pub fn keep_first_positions(entries: &mut Vec<(u64, Posting)>) {
    let mut run = 0usize;
    let mut previous: Option<(u64, u32)> = None;
    entries.retain(|(hash, posting)| {
        let key = (*hash, posting.doc);
        run = if previous == Some(key) { run + 1 } else { 1 };
        previous = Some(key);
        run <= MAX_POSITIONS_PER_DOCUMENT
    });
}

/// Bucket bits for `keys` distinct hashes: a power of two at least the key count, capped.
fn bucket_bits(keys: usize) -> u32 {
    (keys.max(1).next_power_of_two().trailing_zeros()).min(MAX_BUCKET_BITS)
}

fn top_bits(hash: u64, bits: u32) -> u64 {
    if bits == 0 { 0 } else { hash >> (64 - bits) }
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "the tests' values are small")]
mod tests {
    use super::*;

    #[test]
    fn lookups_return_sorted_postings() {
        let p = |doc, position| Posting { doc, position };
        let index = InvertedIndex::build(vec![(7, p(2, 5)), (3, p(0, 1)), (7, p(0, 9)), (7, p(2, 5))]);
        assert_eq!(index.get(7), &[p(0, 9), p(2, 5)]);
        assert_eq!(index.get(3), &[p(0, 1)]);
        assert!(index.get(4).is_empty());
        assert_eq!((index.len(), index.posting_count()), (2, 3));
    }

    #[test]
    fn one_document_keeps_its_first_positions_of_a_repeated_hash() {
        let entries = (0..100u32).map(|i| (5, Posting { doc: 1, position: 99 - i })).collect();
        let index = InvertedIndex::build(entries);
        let kept: Vec<u32> = index.get(5).iter().map(|p| p.position).collect();
        assert_eq!(kept, (0..MAX_POSITIONS_PER_DOCUMENT as u32).collect::<Vec<_>>());
    }

    #[test]
    fn lookups_agree_with_a_hash_map_for_every_hash_and_absent_ones() {
        let mut next = crate::hash::xorshift(0x9e37_79b9_7f4a_7c15u64);
        for size in [0usize, 1, 2, 7, 1000, 20_000] {
            let mut entries = Vec::new();
            let mut expected: std::collections::HashMap<u64, Vec<Posting>> = Default::default();
            for doc in 0..size as u32 {
                // Some hashes shared, some with the top bits of others, some at the extremes.
                let hash = match doc % 5 {
                    0 => doc as u64 % 97,
                    1 => u64::MAX - (doc as u64 % 3),
                    _ => next(),
                };
                let posting = Posting { doc, position: doc * 3 };
                entries.push((hash, posting));
                expected.entry(hash).or_default().push(posting);
            }
            let index = InvertedIndex::build(entries);
            assert_eq!(index.len(), expected.len());
            for (hash, postings) in &expected {
                assert_eq!(index.get(*hash), postings.as_slice(), "size {size} hash {hash:x}");
            }
            for _ in 0..1000 {
                let absent = next();
                if !expected.contains_key(&absent) {
                    assert!(index.get(absent).is_empty());
                }
            }
        }
    }
}

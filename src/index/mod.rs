//! The inverted index over the references' fingerprints (hash → postings of document and
//! token position), and the pigeonhole index over SimHash values in [`simhash_index`].

pub mod simhash_index;

pub use simhash_index::SimhashIndex;

use rayon::slice::ParallelSliceMut;
use rustc_hash::FxHashMap;

/// One occurrence of a fingerprint: which document, at which token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Posting {
    pub doc: u32,
    pub position: u32,
}

/// hash → every (document, position) holding it. Built once, read by many threads.
#[derive(Debug, Default)]
pub struct InvertedIndex {
    ranges: FxHashMap<u64, (u32, u32)>,
    postings: Vec<Posting>,
}

impl InvertedIndex {
    /// Builds the index from `(hash, posting)` entries in any order.
    pub fn build(mut entries: Vec<(u64, Posting)>) -> Self {
        entries.par_sort_unstable();
        entries.dedup();
        let mut ranges = FxHashMap::with_capacity_and_hasher(entries.len() / 2 + 1, Default::default());
        let mut postings = Vec::with_capacity(entries.len());
        let mut start = 0usize;
        while start < entries.len() {
            let hash = entries[start].0;
            let end = start + entries[start..].iter().take_while(|e| e.0 == hash).count();
            ranges.insert(hash, (postings.len() as u32, (end - start) as u32));
            postings.extend(entries[start..end].iter().map(|e| e.1));
            start = end;
        }
        Self { ranges, postings }
    }

    /// Every posting of `hash`, sorted by document then position.
    pub fn get(&self, hash: u64) -> &[Posting] {
        match self.ranges.get(&hash) {
            Some(&(start, len)) => &self.postings[start as usize..(start + len) as usize],
            None => &[],
        }
    }

    /// Number of distinct hashes.
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// True when nothing was indexed.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Number of postings.
    pub fn posting_count(&self) -> usize {
        self.postings.len()
    }
}

#[cfg(test)]
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
}

//! Common text: a k-gram that many reference documents hold (a stock phrase, a licence,
//! a man page's NAME line) says nothing about who copied from whom. The threshold grows
//! with the collection — one reference in [`COMMON_ONE_IN`] — and never drops below
//! [`COMMON_FLOOR`] documents, so that a small collection has no common text by chance.

use crate::index::{Posting, Spread};

/// A k-gram held by one reference in this many (rounded up) is common: 5 % of them. An
/// integer, so that the SQL join's test (`documents * 20 >= n`) is exact on every engine.
pub const COMMON_ONE_IN: usize = 20;
/// No k-gram held by fewer references than this is common.
pub const COMMON_FLOOR: usize = 5;
/// A common k-gram is matched against this many of the references holding it (the
/// lowest ids): enough to show the text, with its other places as alternatives, without
/// aligning the suspect with every reference that holds a stock phrase.
pub const COMMON_SHOWN: usize = 2;
const _: () = assert!(COMMON_SHOWN <= Spread::FIRST, "a spread keeps the documents common text is shown against");

/// When a k-gram is common in a collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommonRule {
    /// A k-gram held by at least this many reference documents is common.
    pub min_documents: usize,
}

impl Default for CommonRule {
    fn default() -> Self {
        Self { min_documents: COMMON_FLOOR }
    }
}

impl CommonRule {
    /// The rule for a collection of `references` documents.
    pub fn for_collection(references: usize) -> Self {
        Self { min_documents: references.div_ceil(COMMON_ONE_IN).max(COMMON_FLOOR) }
    }

    /// Whether the k-gram whose postings (sorted by document) are `postings` is common.
    pub fn is_common(&self, postings: &[Posting]) -> bool {
        postings.len() >= self.min_documents && distinct_documents(postings, self.min_documents) >= self.min_documents
    }

    /// Whether a k-gram held across the collection as `spread` says is common.
    pub fn is_common_spread(&self, spread: &Spread) -> bool {
        spread.documents >= self.min_documents
    }

    /// The postings of a common k-gram that are matched: those of its first
    /// [`COMMON_SHOWN`] documents.
    pub fn shown(postings: &[Posting]) -> &[Posting] {
        let mut docs = 0;
        let mut previous = None;
        for (i, p) in postings.iter().enumerate() {
            if previous != Some(p.doc) {
                docs += 1;
                if docs > COMMON_SHOWN {
                    return &postings[..i];
                }
                previous = Some(p.doc);
            }
        }
        postings
    }
}

/// Distinct documents among `postings` (sorted by document), counted up to `enough`.
fn distinct_documents(postings: &[Posting], enough: usize) -> usize {
    let mut count = 0;
    let mut previous = None;
    for p in postings {
        if previous != Some(p.doc) {
            count += 1;
            if count >= enough {
                return count;
            }
            previous = Some(p.doc);
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn postings(docs: &[u32]) -> Vec<Posting> {
        docs.iter().map(|&doc| Posting { doc, position: 7 }).collect()
    }

    #[test]
    fn threshold_follows_the_collection_with_a_floor() {
        assert_eq!(CommonRule::for_collection(2).min_documents, COMMON_FLOOR);
        assert_eq!(CommonRule::for_collection(1000).min_documents, 50);
    }

    #[test]
    fn common_counts_documents_not_postings() {
        let rule = CommonRule { min_documents: 3 };
        assert!(!rule.is_common(&postings(&[4, 4, 4, 4, 9])));
        assert!(rule.is_common(&postings(&[1, 4, 4, 9])));
        assert_eq!(CommonRule::shown(&postings(&[1, 1, 4, 9, 9])).len(), 3);
    }
}

//! Identical files: documents whose bytes are the same (same SHA-256) are compared once.
//! A later copy in the same part (a second identical submission, a reference stored twice)
//! is not matched again: it gets the rows of the first, and the identical pair is reported
//! directly as one whole-text passage, without aligning anything. Documents without words
//! take no part: two empty scans are not copies of each other.

use rustc_hash::FxHashMap;

use super::Role;
use crate::model::{Pair, Passage, saturating_u32};

/// What a document is, seen from the files identical to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Identity {
    /// No earlier document has the same bytes (or it has no words).
    First,
    /// An earlier document of the same part has the same bytes: this one is not matched.
    CopyOf(usize),
}

/// One document as the grouping sees it.
pub(crate) struct Member<'a> {
    pub sha256: Option<&'a str>,
    pub role: Role,
    /// Also a reference (given in both parts, or all-vs-all).
    pub also_reference: bool,
    pub has_words: bool,
}

/// Identical files among `members`, in id order.
pub(crate) struct IdenticalFiles {
    pub identity: Vec<Identity>,
    /// The same number for documents with the same bytes (and words); `None` otherwise.
    group: Vec<Option<u32>>,
    /// Every pair of different documents with the same bytes that the report states once:
    /// `(earlier, later)` ids.
    pub pairs: Vec<(usize, usize)>,
}

impl IdenticalFiles {
    pub(crate) fn find(members: &[Member]) -> Self {
        let mut identity = vec![Identity::First; members.len()];
        let mut group = vec![None; members.len()];
        let mut pairs = Vec::new();
        let mut by_hash: FxHashMap<&str, (u32, Vec<usize>)> = FxHashMap::default();
        for (id, m) in members.iter().enumerate() {
            let Some(hash) = m.sha256.filter(|_| m.has_words && m.role != Role::Template) else {
                continue;
            };
            let next = saturating_u32(by_hash.len());
            let (number, earlier) = by_hash.entry(hash).or_insert_with(|| (next, Vec::new()));
            group[id] = Some(*number);
            let part = |x: &Member| (x.role, x.also_reference);
            if let Some(&first) = earlier.iter().find(|&&e| part(&members[e]) == part(m)) {
                identity[id] = Identity::CopyOf(first);
                pairs.push((first, id));
            } else if let Some(&first) = earlier.first() {
                // Identical across parts (a suspect that is also stored as a reference):
                // both stay in their parts; the pair is stated once and not aligned.
                pairs.push((first, id));
            }
            earlier.push(id);
        }
        Self { identity, group, pairs }
    }

    /// True when `a` and `b` have the same bytes, so that aligning them would only find
    /// the whole text again.
    pub(crate) fn same(&self, a: usize, b: usize) -> bool {
        match (self.group.get(a), self.group.get(b)) {
            (Some(Some(x)), Some(Some(y))) => x == y,
            _ => false,
        }
    }

    /// True for a later copy, which takes no part in matching.
    pub(crate) fn is_copy(&self, id: usize) -> bool {
        matches!(self.identity.get(id), Some(Identity::CopyOf(_)))
    }
}

/// The pair of two identical documents: the whole text on both sides, copied in full.
/// `a` is the suspect side.
pub(crate) fn whole_text_pair(a: usize, b: usize, chars: usize, simhash_distance: Option<u32>) -> Pair {
    let end = saturating_u32(chars);
    Pair {
        a,
        b,
        score: 1.0,
        score_b: 1.0,
        simhash_distance,
        passages: vec![Passage::copied((0, end), (0, end))],
        longest: end,
        shared_sentences: 0,
        near_duplicate: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(sha: &str, role: Role) -> Member<'_> {
        Member { sha256: Some(sha), role, also_reference: false, has_words: true }
    }

    #[test]
    fn later_copies_in_the_same_part_are_copies_and_cross_part_twins_stay() {
        let members = [
            member("x", Role::Suspect),
            member("x", Role::Suspect),
            member("x", Role::Reference),
            member("y", Role::Reference),
            member("y", Role::Reference),
        ];
        let found = IdenticalFiles::find(&members);
        assert_eq!(
            found.identity,
            vec![Identity::First, Identity::CopyOf(0), Identity::First, Identity::First, Identity::CopyOf(3)]
        );
        assert_eq!(found.pairs, vec![(0, 1), (0, 2), (3, 4)]);
        assert!(found.same(2, 0) && found.same(1, 2) && !found.same(0, 3));
    }

    #[test]
    fn documents_without_words_are_never_identical_copies() {
        let mut members = [member("e", Role::Suspect), member("e", Role::Suspect)];
        for m in &mut members {
            m.has_words = false;
        }
        let found = IdenticalFiles::find(&members);
        assert!(found.pairs.is_empty());
        assert_eq!(found.identity, vec![Identity::First; 2]);
    }
}

//! Near-duplicate groups of the archive, kept as a parent forest flattened to depth one:
//! every document points at its group's representative (the earliest document, the
//! smallest id), so joining two groups is one update inside the adding transaction.
//!
//! Documents are near duplicates when a check would call them so
//! ([`crate::score::near_duplicate_rule`]): SimHash, coverage or keywords. SimHash
//! neighbours are found through the pigeonhole columns while a batch is committed; the
//! other two signals need the pair aligned, which the check does: a new document whose
//! sketch (its smallest k-gram hashes) is held by another document, or whose nshash key
//! another shares, is checked against the archive once its add is committed
//! (`verbs/regroup.rs`), and joins the groups of the near duplicates that check reports. How a store keeps them is
//! its own (`folder/grouping.rs`, `server/add.rs`).

use std::borrow::Cow;
use std::path::PathBuf;

use rustc_hash::FxHashMap;

use super::records::NearRow;
use crate::engine::MAX_POSTINGS;
use crate::fingerprint::simhash::hamming;
use crate::index::Posting;
use crate::score::{PairScores, near_duplicate_rule};

/// Hashes in a new document's sketch: its smallest distinct k-gram hashes.
pub(super) const SKETCH: usize = 32;

/// A new document whose sketch shares this many hashes with another document is checked
/// for near duplicates. Passages covering a quarter of it (what the keyword signal needs
/// at the least) hold about a quarter of its k-grams, 8 of 32 expected: fewer than 3
/// happens about twice in a hundred such pairs, and almost never at half.
pub(super) const SKETCH_HITS: usize = 3;

/// A document added by this add, kept for its check after the add is committed.
#[derive(Clone, Debug)]
pub(super) struct Fresh {
    pub id: u32,
    /// The file it was read from (its resolved path).
    pub file: PathBuf,
    pub sketch: Vec<u64>,
    /// Another document shares its nshash key without being a SimHash neighbour: to be
    /// checked whatever its sketch says.
    pub nshash_neighbour: bool,
}

/// The smallest `SKETCH` distinct values of `hashes`, in a vector of their own: an add
/// keeps one for every document it adds, and a truncated vector of all of them would keep
/// their room (12 KB a document, 1.2 GB for an add of 100,000).
pub(super) fn sketch(hashes: impl Iterator<Item = u64>) -> Vec<u64> {
    let mut all: Vec<u64> = hashes.collect();
    all.sort_unstable();
    all.dedup();
    all[..all.len().min(SKETCH)].to_vec()
}

/// One near-duplicate group: its representative and every member (ascending ids).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub representative: u32,
    pub members: Vec<u32>,
}

/// Whether documents with SimHashes `a` and `b` are near duplicates by SimHash alone, as
/// the check's rule says before anything is aligned. A SimHash of 0 means the text had no
/// weighted words: it says nothing.
pub(super) fn near_by_simhash_alone(a: u64, b: u64, threshold: u32) -> bool {
    if a == 0 || b == 0 {
        return false;
    }
    let unaligned = PairScores { score: 0.0, score_b: 0.0, longest: 0 };
    near_duplicate_rule(&unaligned, Some(hamming(a, b)), || 0.0, threshold, 1.0)
}

/// Of the documents near a new one (`rows`: sharing a SimHash band or its nshash key), its
/// near duplicates by SimHash as (distance, id, group), nearest first; and whether another
/// shares its nshash key without being one (the check decides: see the module).
pub(super) fn near_by_simhash(
    rows: Vec<NearRow>,
    simhash: u64,
    nshash: Option<u64>,
    threshold: u32,
) -> (Vec<(u32, u32, u32)>, bool) {
    let mut near: Vec<(u32, u32, u32)> = Vec::new();
    let mut nshash_neighbour = false;
    for other in rows {
        if let Some(h) = other.simhash
            && near_by_simhash_alone(simhash, h, threshold)
        {
            near.push((hamming(simhash, h), other.id, other.group));
        } else if nshash.is_some() && other.nshash == nshash {
            nshash_neighbour = true;
        }
    }
    near.sort_unstable();
    (near, nshash_neighbour)
}

/// The one rule of joining groups, for a folder archive and a shared one alike:
/// `join(earliest, other)` for every other distinct group; the earliest, or `None` when
/// there are none (nothing to join, which is no error).
pub(super) fn join_into_earliest<E>(
    mut groups: Vec<u32>,
    mut join: impl FnMut(u32, u32) -> Result<(), E>,
) -> Result<Option<u32>, E> {
    groups.sort_unstable();
    groups.dedup();
    let Some(&target) = groups.first() else { return Ok(None) };
    for &other in &groups[1..] {
        join(target, other)?;
    }
    Ok(Some(target))
}

/// The groups of (group, member) pairs sorted by group then member: largest first, then
/// by representative.
pub(super) fn from_members(members: Vec<(u32, u32)>) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for (group, id) in members {
        match groups.last_mut() {
            Some(g) if g.representative == group => g.members.push(id),
            _ => groups.push(Group { representative: group, members: vec![id] }),
        }
    }
    groups.sort_by(|x, y| y.members.len().cmp(&x.members.len()).then(x.representative.cmp(&y.representative)));
    groups
}

/// What the groups' rule (`verbs/regroup.rs`) says of one new document, from the postings of
/// its sketch: the documents it shares [`SKETCH_HITS`] of them with, when there are any or
/// it shares an nshash key.
pub(super) fn sharing<'p>(doc: &Fresh, sketch_postings: impl Iterator<Item = Cow<'p, [Posting]>>) -> Option<Vec<u32>> {
    let mut counts: FxHashMap<u32, usize> = FxHashMap::default();
    for postings in sketch_postings {
        if postings.len() > MAX_POSTINGS {
            continue;
        }
        let mut docs: Vec<u32> = postings.iter().map(|p| p.doc).filter(|&d| d != doc.id).collect();
        docs.dedup();
        for d in docs {
            *counts.entry(d).or_default() += 1;
        }
    }
    let others: Vec<u32> = counts.into_iter().filter(|&(_, n)| n >= SKETCH_HITS).map(|(d, _)| d).collect();
    (doc.nshash_neighbour || !others.is_empty()).then_some(others)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sketch_keeps_the_smallest_distinct_hashes_and_no_more_room() {
        let hashes = (0..5_000u64).rev().chain(0..100);
        let kept = sketch(hashes);
        assert_eq!(kept, (0..SKETCH as u64).collect::<Vec<_>>());
        assert!(kept.capacity() < 2 * SKETCH, "room for {} hashes", kept.capacity());
        assert_eq!(sketch([7, 3, 7].into_iter()), vec![3, 7]);
    }

    #[test]
    fn groups_are_joined_into_the_earliest_and_none_is_nothing_to_join() {
        let mut joined = Vec::new();
        let mut join = |into, from| {
            joined.push((into, from));
            Ok::<_, ()>(())
        };
        assert_eq!(join_into_earliest(Vec::new(), &mut join), Ok(None));
        let earliest = join_into_earliest(vec![9, 3, 9, 5], &mut join);
        assert_eq!(earliest, Ok(Some(3)));
        assert_eq!(joined, [(3, 5), (3, 9)]);
    }
}

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
//! (`regroup.rs`), and joins the groups of the near duplicates that check reports.

use std::borrow::Cow;
use std::path::PathBuf;

use rusqlite::Connection;
use rustc_hash::FxHashMap;

use super::folder::near::{NearFinder, near_by_simhash_alone};
use super::folder::rows::{self, NearRow};
use crate::engine::MAX_POSTINGS;
use crate::fingerprint::simhash::hamming;
use crate::index::Posting;

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

/// Puts the freshly inserted document `id` into a group by SimHash: with `cluster`, the
/// group of its nearest near duplicate (single-pass clustering); otherwise every group it
/// is near is joined into the earliest one. A document near nothing starts its own group.
/// True when another document shares its nshash key without being its near duplicate by
/// SimHash: the check decides (see the module).
pub(super) fn assign_group(
    conn: &Connection,
    finder: &mut NearFinder,
    id: u32,
    (simhash, nshash): (u64, Option<u64>),
    (threshold, cluster): (u32, bool),
) -> Result<bool, rusqlite::Error> {
    let rows = finder.near_rows(conn, id, simhash, nshash, threshold)?;
    let (near, nshash_neighbour) = near_by_simhash(rows, simhash, nshash, threshold);
    let group = if near.is_empty() {
        id
    } else if cluster {
        near[0].2
    } else {
        join_all(conn, near.iter().map(|n| n.2).collect())?.unwrap_or(id)
    };
    rows::set_group(conn, id, group)?;
    Ok(nshash_neighbour)
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

/// Joins `groups` into the earliest of them; returns it, or `None` when there are none
/// (nothing to join: a document removed meanwhile has no group), by the rule both
/// archives follow ([`join_into_earliest`]).
pub(super) fn join_all(conn: &Connection, groups: Vec<u32>) -> Result<Option<u32>, rusqlite::Error> {
    join_into_earliest(groups, |target, other| rows::join_groups(conn, target, other))
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

/// Every group of more than one document, largest first, then by representative.
pub(super) fn list(conn: &Connection) -> Result<Vec<Group>, rusqlite::Error> {
    Ok(from_members(rows::group_members(conn)?))
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

/// What the groups' rule (`regroup.rs`) says of one new document, from the postings of
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
    fn joining_no_groups_joins_nothing_and_is_no_error() {
        let conn = Connection::open_in_memory().unwrap();
        assert_eq!(join_all(&conn, Vec::new()).unwrap(), None);
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

//! Near-duplicate groups of the archive, kept as a parent forest flattened to depth one:
//! every document points at its group's representative (the earliest document, the
//! smallest id), so joining two groups is one update inside the adding transaction.
//! Near duplicates are found through the SimHash pigeonhole columns and the nshash key.

use rusqlite::Connection;

use super::codec::bands;
use super::rows;
use crate::fingerprint::simhash::hamming;

/// One near-duplicate group: its representative and every member (ascending ids).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub representative: u32,
    pub members: Vec<u32>,
}

/// Puts the freshly inserted document `id` into a group: with `cluster`, the group of its
/// nearest near duplicate (single-pass clustering); otherwise every group it is near is
/// joined into the earliest one. A document near nothing starts its own group.
pub(super) fn assign_group(
    conn: &Connection,
    id: u32,
    simhash: u64,
    nshash: Option<u64>,
    threshold: u32,
    cluster: bool,
) -> Result<(), rusqlite::Error> {
    // (distance, id, group); a shared nshash counts as distance 0.
    let mut near: Vec<(u32, u32, u32)> = Vec::new();
    for other in rows::near_rows(conn, id, bands(simhash), nshash)? {
        // A SimHash of 0 means the text had no weighted words: it says nothing.
        let distance = match other.simhash {
            Some(h) if simhash != 0 && h != 0 => hamming(simhash, h),
            _ => u32::MAX,
        };
        if distance <= threshold {
            near.push((distance, other.id, other.group));
        } else if nshash.is_some() && other.nshash == nshash {
            near.push((0, other.id, other.group));
        }
    }
    near.sort_unstable();
    let group = if near.is_empty() {
        id
    } else if cluster {
        near[0].2
    } else {
        let mut groups: Vec<u32> = near.iter().map(|n| n.2).collect();
        groups.sort_unstable();
        groups.dedup();
        let target = groups[0];
        for &other in &groups[1..] {
            rows::join_groups(conn, target, other)?;
        }
        target
    };
    rows::set_group(conn, id, group)
}

/// Every group of more than one document, largest first, then by representative.
pub(super) fn list(conn: &Connection) -> Result<Vec<Group>, rusqlite::Error> {
    let mut groups: Vec<Group> = Vec::new();
    for (group, id) in rows::group_members(conn)? {
        match groups.last_mut() {
            Some(g) if g.representative == group => g.members.push(id),
            _ => groups.push(Group { representative: group, members: vec![id] }),
        }
    }
    groups.sort_by(|x, y| y.members.len().cmp(&x.members.len()).then(x.representative.cmp(&y.representative)));
    Ok(groups)
}

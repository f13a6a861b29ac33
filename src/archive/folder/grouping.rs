//! A folder archive's groups in its catalog: a new document's group by SimHash while its
//! batch commits, joining groups by the one rule ([`join_into_earliest`]), and the list of
//! groups.

use rusqlite::Connection;

use super::near::NearFinder;
use super::rows;
use crate::archive::groups::{Group, from_members, join_into_earliest, near_by_simhash};

/// Puts the freshly inserted document `id` into a group by SimHash: with `cluster`, the
/// group of its nearest near duplicate (single-pass clustering); otherwise every group it
/// is near is joined into the earliest one. A document near nothing starts its own group.
/// True when another document shares its nshash key without being its near duplicate by
/// SimHash: the check decides (see the module).
pub(in crate::archive) fn assign_group(
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

/// Joins `groups` into the earliest of them; returns it, or `None` when there are none
/// (nothing to join: a document removed meanwhile has no group), by the rule both
/// archives follow ([`join_into_earliest`]).
pub(in crate::archive) fn join_all(conn: &Connection, groups: Vec<u32>) -> Result<Option<u32>, rusqlite::Error> {
    join_into_earliest(groups, |target, other| rows::join_groups(conn, target, other))
}

/// Every group of more than one document, largest first, then by representative.
pub(in crate::archive) fn list(conn: &Connection) -> Result<Vec<Group>, rusqlite::Error> {
    Ok(from_members(rows::group_members(conn)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joining_no_groups_joins_nothing_and_is_no_error() {
        let conn = Connection::open_in_memory().unwrap();
        assert_eq!(join_all(&conn, Vec::new()).unwrap(), None);
    }
}

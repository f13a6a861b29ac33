//! Near-duplicate groups of the archive, kept as a parent forest flattened to depth one:
//! every document points at its group's representative (the earliest document, the
//! smallest id), so joining two groups is one update inside the adding transaction.
//! Near duplicates are found through the SimHash pigeonhole columns and the nshash key.

use rusqlite::{Connection, params};

use super::reader::bands;
use crate::fingerprint::simhash::hamming;

/// One near-duplicate group: its representative and every member (ascending ids).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub representative: i64,
    pub members: Vec<i64>,
}

/// Puts the freshly inserted document `id` into a group: with `cluster`, the group of its
/// nearest near duplicate (single-pass clustering); otherwise every group it is near is
/// joined into the earliest one. A document near nothing starts its own group.
pub(super) fn assign_group(
    conn: &Connection,
    id: i64,
    simhash: u64,
    nshash: Option<i64>,
    threshold: u32,
    cluster: bool,
) -> Result<(), rusqlite::Error> {
    let b = bands(simhash);
    // One range of a covering index per band (and the nshash key), never the table rows.
    let mut stmt = conn.prepare_cached(
        "SELECT id, simhash, group_id, nshash FROM documents WHERE b0 = ?2 AND id != ?1
         UNION SELECT id, simhash, group_id, nshash FROM documents WHERE b1 = ?3 AND id != ?1
         UNION SELECT id, simhash, group_id, nshash FROM documents WHERE b2 = ?4 AND id != ?1
         UNION SELECT id, simhash, group_id, nshash FROM documents WHERE b3 = ?5 AND id != ?1
         UNION SELECT id, simhash, group_id, nshash FROM documents WHERE ?6 IS NOT NULL AND nshash = ?6 AND id != ?1",
    )?;
    type Row = (i64, Option<i64>, i64, Option<i64>);
    let rows: Vec<Row> = stmt
        .query_map(params![id, b[0], b[1], b[2], b[3], nshash], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    // (distance, id, group); a shared nshash counts as distance 0.
    let mut near: Vec<(u32, i64, i64)> = Vec::new();
    for (other, other_hash, group, other_key) in rows {
        // A SimHash of 0 means the text had no weighted words: it says nothing.
        let distance = match other_hash {
            Some(h) if simhash != 0 && h != 0 => hamming(simhash, h as u64),
            _ => u32::MAX,
        };
        if distance <= threshold {
            near.push((distance, other, group));
        } else if nshash.is_some() && other_key == nshash {
            near.push((0, other, group));
        }
    }
    near.sort_unstable();
    let group = if near.is_empty() {
        id
    } else if cluster {
        near[0].2
    } else {
        let mut groups: Vec<i64> = near.iter().map(|n| n.2).collect();
        groups.sort_unstable();
        groups.dedup();
        let target = groups[0];
        for &other in &groups[1..] {
            conn.prepare_cached("UPDATE documents SET group_id = ?1 WHERE group_id = ?2")?
                .execute(params![target, other])?;
        }
        target
    };
    conn.prepare_cached("UPDATE documents SET group_id = ?1 WHERE id = ?2")?.execute(params![group, id])?;
    Ok(())
}

/// After documents were deleted: every group whose representative is gone gets its
/// earliest remaining member as representative.
pub(super) fn repair_representatives(conn: &Connection) -> Result<(), rusqlite::Error> {
    conn.execute(
        "UPDATE documents SET group_id = (SELECT min(d.id) FROM documents d WHERE d.group_id = documents.group_id)
         WHERE group_id NOT IN (SELECT id FROM documents)",
        [],
    )?;
    Ok(())
}

/// Every group of more than one document, largest first, then by representative.
pub(super) fn list(conn: &Connection) -> Result<Vec<Group>, rusqlite::Error> {
    let mut stmt = conn.prepare(
        "SELECT group_id, id FROM documents WHERE group_id IN
           (SELECT group_id FROM documents GROUP BY group_id HAVING count(*) > 1)
         ORDER BY group_id, id",
    )?;
    let rows: Vec<(i64, i64)> = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_, _>>()?;
    let mut groups: Vec<Group> = Vec::new();
    for (group, id) in rows {
        match groups.last_mut() {
            Some(g) if g.representative == group => g.members.push(id),
            _ => groups.push(Group { representative: group, members: vec![id] }),
        }
    }
    groups.sort_by(|x, y| y.members.len().cmp(&x.members.len()).then(x.representative.cmp(&y.representative)));
    Ok(groups)
}

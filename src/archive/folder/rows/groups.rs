//! The catalog's rows of groups: the documents near a new one, a document's group, joins,
//! the members of every group, and the paths of documents by id.

use std::sync::LazyLock;

use rusqlite::{Connection, OptionalExtension, Row, params, params_from_iter};

use super::check_reads::probed_halves;
use super::{hash_at, id_at};
use crate::archive::codec::{half_probes, halves};
use crate::archive::records::NearRow;
use crate::archive::records::stored_hash;

/// [`near_rows`]'s statement, written once (params: the probes, then the document's id
/// `?67` and nshash key `?68`).
static NEAR_ROWS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT id, simhash, group_id, nshash FROM documents WHERE ({}) AND id != ?67
         UNION SELECT id, simhash, group_id, nshash FROM documents WHERE ?68 IS NOT NULL AND nshash = ?68 AND id != ?67",
        probed_halves()
    )
});

/// The documents other than `id` that may lie within 3 bits of `simhash` (sharing a probed
/// half, [`half_probes`]) or that share the nshash key with it: index seeks on covering
/// indexes, never the table rows.
pub(in crate::archive) fn near_rows(
    conn: &Connection,
    id: u32,
    simhash: u64,
    nshash: Option<u64>,
) -> Result<Vec<NearRow>, rusqlite::Error> {
    let mut stmt = conn.prepare_cached(&NEAR_ROWS)?;
    let probes = half_probes(simhash);
    let keys = probes.as_flattened().iter().map(|&k| rusqlite::types::Value::Integer(k));
    let rest = [rusqlite::types::Value::Integer(i64::from(id)), nshash.map(stored_hash).into()];
    stmt.query_map(params_from_iter(keys.chain(rest)), |r| {
        Ok(NearRow { id: id_at(r, 0)?, simhash: hash_at(r, 1)?, group: id_at(r, 2)?, nshash: hash_at(r, 3)? })
    })?
    .collect()
}

/// Gives `each` the id, SimHash and nshash key of every document: one pass over the
/// smallest index that holds them, never the table rows.
pub(in crate::archive) fn for_each_near_key(
    conn: &Connection,
    mut each: impl FnMut(u32, Option<u64>, Option<u64>),
) -> Result<(), rusqlite::Error> {
    let mut stmt = conn.prepare("SELECT id, simhash, nshash FROM documents")?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        each(id_at(r, 0)?, hash_at(r, 1)?, hash_at(r, 2)?);
    }
    Ok(())
}

/// The group of document `id`, if it is archived.
pub(in crate::archive) fn group_of(conn: &Connection, id: u32) -> Result<Option<u32>, rusqlite::Error> {
    conn.prepare_cached("SELECT group_id FROM documents WHERE id = ?1")?.query_row([id], |r| id_at(r, 0)).optional()
}

/// The group of document `id`, if it is archived, whose keys are `simhash` and `nshash`:
/// read through the index of its SimHash's first half (or of its nshash key), which holds
/// the group, not from the table. An add seeks and writes that index for every document
/// it inserts, so its pages are read far more often than the table's: at 1.7 million
/// documents, a row read at random from the table often waited on the disk.
pub(in crate::archive) fn group_by_keys(
    conn: &Connection,
    id: u32,
    (simhash, nshash): (Option<u64>, Option<u64>),
) -> Result<Option<u32>, rusqlite::Error> {
    let read = |r: &Row<'_>| id_at(r, 0);
    match (simhash, nshash) {
        (Some(h), _) => conn
            .prepare_cached(
                "SELECT group_id FROM documents INDEXED BY documents_h0 WHERE h0 = ?1 AND simhash = ?2 AND id = ?3",
            )?
            .query_row(params![halves(h)[0], stored_hash(h), id], read)
            .optional(),
        (None, Some(key)) => conn
            .prepare_cached(
                "SELECT group_id FROM documents INDEXED BY documents_nshash
                 WHERE nshash = ?1 AND simhash IS NULL AND id = ?2",
            )?
            .query_row(params![stored_hash(key), id], read)
            .optional(),
        (None, None) => group_of(conn, id),
    }
}

/// The documents archived as `path` (as added) with these bytes.
pub(in crate::archive) fn ids_by_path_and_sha256(
    conn: &Connection,
    path: &str,
    sha256: &str,
) -> Result<Vec<u32>, rusqlite::Error> {
    let mut stmt = conn.prepare_cached("SELECT id FROM documents WHERE path = ?1 AND sha256 = ?2")?;
    stmt.query_map([path, sha256], |r| id_at(r, 0))?.collect()
}

/// Moves every member of group `from` into group `into`.
pub(in crate::archive) fn join_groups(conn: &Connection, into: u32, from: u32) -> Result<(), rusqlite::Error> {
    conn.prepare_cached("UPDATE documents SET group_id = ?1 WHERE group_id = ?2")?.execute(params![into, from])?;
    Ok(())
}

/// Puts document `id` into group `group`.
pub(in crate::archive) fn set_group(conn: &Connection, id: u32, group: u32) -> Result<(), rusqlite::Error> {
    conn.prepare_cached("UPDATE documents SET group_id = ?1 WHERE id = ?2")?.execute(params![group, id])?;
    Ok(())
}

/// After document `removed` was deleted: the group it represented (if any) gets its
/// earliest remaining member as representative. Through the index on `group_id`, so a
/// daily add that replaces a thousand documents does not scan the catalog a thousand
/// times (it once did: 27 s for 1,000 changed files of 100,000, most of it reading the
/// catalog's pages again).
pub(super) fn repair_group(conn: &Connection, removed: u32) -> Result<(), rusqlite::Error> {
    conn.prepare_cached(
        "UPDATE documents SET group_id = (SELECT min(d.id) FROM documents d WHERE d.group_id = ?1)
         WHERE group_id = ?1",
    )?
    .execute([removed])?;
    Ok(())
}

/// (group, member) of every group of more than one document, by group then member.
pub(in crate::archive) fn group_members(conn: &Connection) -> Result<Vec<(u32, u32)>, rusqlite::Error> {
    let mut stmt = conn.prepare(
        "SELECT group_id, id FROM documents WHERE group_id IN
           (SELECT group_id FROM documents GROUP BY group_id HAVING count(*) > 1)
         ORDER BY group_id, id",
    )?;
    stmt.query_map([], |r| Ok((id_at(r, 0)?, id_at(r, 1)?)))?.collect()
}

/// The paths (as added) of those of `ids` that are archived, by id: one lookup by id
/// each, in id order, rather than a read of every row.
pub(in crate::archive) fn paths_of(conn: &Connection, ids: &[u32]) -> Result<Vec<(u32, String)>, rusqlite::Error> {
    let mut sorted = ids.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut stmt = conn.prepare_cached("SELECT path FROM documents WHERE id = ?1")?;
    let mut out = Vec::with_capacity(sorted.len());
    for id in sorted {
        if let Some(path) = stmt.query_row([id], |r| r.get::<_, String>(0)).optional()? {
            out.push((id, path));
        }
    }
    Ok(out)
}

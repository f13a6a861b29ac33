//! The catalog's rows a check reads: its snapshot, the SimHashes near a suspect's, a
//! reference's stored text and keys, what a report shows of it.

use std::sync::LazyLock;

use rusqlite::{Connection, OptionalExtension, Row, params_from_iter};

use super::GlanceFn;
use super::{hash_at, id_at};
use crate::archive::codec::half_probes;
use crate::archive::records::{EntryRow, StoredRow};

/// Begins the read transaction of a check (one snapshot for all its queries).
pub(in crate::archive) fn begin_read(conn: &Connection) -> Result<(), rusqlite::Error> {
    if conn.is_autocommit() { conn.execute_batch("BEGIN") } else { Ok(()) }
}

/// Ends the read transaction begun by [`begin_read`]: nothing was written in it, so
/// ending it cannot lose anything; should `COMMIT` fail, `ROLLBACK` ends it, and failing
/// that SQLite ends it when the connection closes.
pub(in crate::archive) fn end_read(conn: &Connection) {
    if !conn.is_autocommit() && conn.execute_batch("COMMIT").is_err() {
        conn.execute_batch("ROLLBACK").ok();
    }
}

/// `WHERE` for the documents with a SimHash half among the probes of a SimHash (params
/// `?1`–`?66`, [`half_probes`]): an index seek a probe, on `documents_h0` / `documents_h1`.
pub(super) fn probed_halves() -> String {
    let list = |from: usize| (from..from + 33).map(|i| format!("?{i}")).collect::<Vec<_>>().join(", ");
    format!("h0 IN ({}) OR h1 IN ({})", list(1), list(34))
}

/// [`simhash_rows`]'s statement, written once.
static SIMHASH_ROWS: LazyLock<String> =
    LazyLock::new(|| format!("SELECT id, simhash FROM documents WHERE {}", probed_halves()));

/// (id, SimHash) of the documents that may lie within 3 bits of `near` (those sharing a
/// probed half, [`half_probes`]), or with `None` of every document with a SimHash.
pub(in crate::archive) fn simhash_rows(
    conn: &Connection,
    near: Option<u64>,
) -> Result<Vec<(u32, u64)>, rusqlite::Error> {
    let read = |r: &Row<'_>| Ok((id_at(r, 0)?, hash_at(r, 1)?.unwrap_or(0)));
    match near {
        Some(simhash) => conn
            .prepare_cached(&SIMHASH_ROWS)?
            .query_map(params_from_iter(half_probes(simhash).as_flattened()), read)?
            .collect(),
        None => conn
            .prepare_cached("SELECT id, simhash FROM documents WHERE simhash IS NOT NULL")?
            .query_map([], read)?
            .collect(),
    }
}

/// The stored text, SimHash and keywords of document `doc`.
pub(in crate::archive) fn stored(conn: &Connection, doc: u32) -> Result<Option<StoredRow>, rusqlite::Error> {
    conn.prepare_cached(
        "SELECT t.text, d.simhash, d.keywords FROM documents d JOIN texts t ON t.id = d.id WHERE d.id = ?1",
    )?
    .query_row([doc], |r| Ok(StoredRow { text: r.get(0)?, simhash: hash_at(r, 1)?, keywords: r.get(2)? }))
    .optional()
}

/// Calls `each` with (id, token keys, SimHash) of every document of `ids` (a JSON array)
/// that has keys, until it returns false.
pub(in crate::archive) fn glances(
    conn: &Connection,
    ids: &str,
    each: &mut GlanceFn<'_>,
) -> Result<(), rusqlite::Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT k.id, k.keys, k.width, d.simhash FROM json_each(?1) j
         JOIN token_keys k ON k.id = j.value JOIN documents d ON d.id = k.id",
    )?;
    let mut rows = stmt.query([ids])?;
    while let Some(row) = rows.next()? {
        let keys = row.get_ref(1)?.as_blob()?;
        if !each(id_at(row, 0)?, (keys, row.get(2)?), hash_at(row, 3)?) {
            break;
        }
    }
    Ok(())
}

/// What a report shows of document `doc`.
pub(in crate::archive) fn entry(conn: &Connection, doc: u32) -> Result<Option<EntryRow>, rusqlite::Error> {
    conn.query_row(
        "SELECT d.path, d.sha256, t.text, d.chars, d.simhash FROM documents d JOIN texts t ON t.id = d.id WHERE d.id = ?1",
        [doc],
        |r| Ok(EntryRow { path: r.get(0)?, sha256: r.get(1)?, text: r.get(2)?, chars: r.get(3)?, simhash: hash_at(r, 4)? }),
    )
    .optional()
}

//! The catalog's rows: every statement that reads or writes documents, texts, token keys,
//! groups, segments and removed ids is here, and nowhere else (the schema, its upgrades
//! and the settings are [`super::catalog`]'s). Adding, reading, merging and looking after
//! an archive go through these functions and never through each other.
//!
//! Document ids are SQLite row ids (`i64`); postings hold them as `u32`. Every id read
//! here for postings goes through [`doc_id`], a checked conversion whose failure is a
//! typed error ([`rusqlite::Error::IntegralValueOutOfRange`], told by
//! [`crate::archive::ArchiveError::sql`]): an id beyond `u32` never lands on another document.

use rusqlite::{Connection, OptionalExtension, Row, params};
use rustc_hash::FxHashSet;

use crate::archive::codec::halves;
use crate::archive::records::{DocumentInfo, FileStamp, NewDocument, Stats, stored_hash};

mod check_reads;
mod groups;

pub(in crate::archive) use check_reads::{begin_read, end_read, entry, glances, simhash_rows, stored};
use groups::repair_group;
pub(in crate::archive) use groups::{
    for_each_near_key, group_by_keys, group_members, group_of, ids_by_path_and_sha256, join_groups, near_rows,
    paths_of, set_group,
};

/// An archived document's id as postings hold it, or a typed error past `u32::MAX`.
pub(in crate::archive) fn doc_id(id: i64) -> Result<u32, rusqlite::Error> {
    u32::try_from(id).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(0, id))
}

/// A column holding a document id, converted with [`doc_id`].
fn id_at(row: &Row<'_>, column: usize) -> Result<u32, rusqlite::Error> {
    doc_id(row.get(column)?)
}

/// An unsigned count or size column (stored as SQLite's signed integer).
fn unsigned_at(row: &Row<'_>, column: usize) -> Result<u64, rusqlite::Error> {
    let value: i64 = row.get(column)?;
    u64::try_from(value).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(column, value))
}

/// A 64-bit hash column (SimHash, nshash): stored as the signed integer of its bits.
fn hash_at(row: &Row<'_>, column: usize) -> Result<Option<u64>, rusqlite::Error> {
    Ok(row.get::<_, Option<i64>>(column)?.map(|h| u64::from_ne_bytes(h.to_ne_bytes())))
}

/// An archived version of a file, as an add's snapshot reads it.
pub(in crate::archive) struct VersionRow {
    pub id: u32,
    /// The path the file resolved to; `None` for documents archived before it was kept.
    pub source: Option<String>,
    pub path: String,
    pub sha256: String,
    pub stamp: Option<FileStamp>,
}

/// A listed segment file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::archive) struct SegmentRow {
    pub id: i64,
    pub kind: i64,
    pub file: String,
    pub postings: i64,
}

/// A document's stored text and token keys, as `verify` reads them.
pub(in crate::archive) struct TextRow {
    pub id: u32,
    /// The text as stored; `None` when its row is missing.
    pub text: Option<Vec<u8>>,
    pub chars: i64,
    /// `None` for documents archived before format 3.
    pub keys: Option<Vec<u8>>,
    /// Bytes a key.
    pub key_width: Option<i64>,
}

/// Called with (id, token keys and their width in bytes, SimHash) of each document
/// glanced at; false stops.
pub(in crate::archive) type GlanceFn<'a> = dyn FnMut(u32, (&[u8], i64), Option<u64>) -> bool + 'a;

// ---- documents ----

/// Inserts `doc` (documents, texts, token keys) in group 0; returns its id.
pub(in crate::archive) fn insert_document(conn: &Connection, doc: &NewDocument<'_>) -> Result<u32, rusqlite::Error> {
    let half = |i: usize| doc.simhash.map(|h| halves(h)[i]);
    // With a stamp, the size seen with it (the stamp is compared as a whole).
    let size = match doc.stamp {
        Some(stamp) => stamp.size,
        None => i64::try_from(doc.size).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(2, i64::MAX))?,
    };
    let chars = i64::try_from(doc.chars).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(5, i64::MAX))?;
    let compared = i64::try_from(doc.compared).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(15, i64::MAX))?;
    conn.prepare_cached(
        "INSERT INTO documents(path, sha256, size, added_at, published, chars, simhash, h0, h1, nshash, keywords, group_id, source, mtime_ns, ctime_ns, compared)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 0, ?12, ?13, ?14, ?15)",
    )?
    .execute(params![
        doc.path,
        doc.sha256,
        size,
        doc.added_at,
        doc.published,
        chars,
        doc.simhash.map(stored_hash),
        half(0),
        half(1),
        doc.nshash.map(stored_hash),
        doc.keywords,
        doc.source,
        doc.stamp.map(|s| s.mtime_ns),
        doc.stamp.map(|s| s.ctime_ns),
        compared
    ])?;
    let id = conn.last_insert_rowid();
    conn.prepare_cached("INSERT INTO texts(id, text) VALUES (?1, ?2)")?.execute(params![id, doc.text])?;
    // One byte a key (a shared archive keeps the two of the row).
    let keys = doc.keys.narrowed();
    conn.prepare_cached("INSERT INTO token_keys(id, keys, width) VALUES (?1, ?2, ?3)")?.execute(params![
        id,
        keys.as_bytes(),
        keys.width() as i64
    ])?;
    doc_id(id)
}

/// (id, SHA-256) of the archived versions of a file: by the path it resolves to, or for
/// documents archived without one, by the path as added.
pub(in crate::archive) fn versions_of(
    conn: &Connection,
    source: &str,
    path: &str,
) -> Result<Vec<(u32, String)>, rusqlite::Error> {
    let mut stmt =
        conn.prepare_cached("SELECT id, sha256 FROM documents WHERE source = ?1 OR (source IS NULL AND path = ?2)")?;
    stmt.query_map([source, path], |r| Ok((id_at(r, 0)?, r.get(1)?)))?.collect()
}

/// Records that the file resolving to `source` still holds document `id`'s bytes, as
/// seen with `stamp` (none: it had not settled, and the next add hashes it again).
pub(in crate::archive) fn record_stamp(
    conn: &Connection,
    id: u32,
    source: &str,
    stamp: Option<FileStamp>,
) -> Result<(), rusqlite::Error> {
    conn.prepare_cached(
        "UPDATE documents SET source = ?2, size = coalesce(?3, size), mtime_ns = ?4, ctime_ns = ?5 WHERE id = ?1",
    )?
    .execute(params![id, source, stamp.map(|s| s.size), stamp.map(|s| s.mtime_ns), stamp.map(|s| s.ctime_ns)])?;
    Ok(())
}

/// Calls `each` with every archived version of a file.
pub(in crate::archive) fn for_each_version(
    conn: &Connection,
    each: &mut dyn FnMut(VersionRow),
) -> Result<(), rusqlite::Error> {
    let mut stmt = conn.prepare("SELECT id, source, path, sha256, size, mtime_ns, ctime_ns FROM documents")?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        each(version_row(row)?);
    }
    Ok(())
}

/// The archived versions of a file, with their stamps: by the path it resolves to, or
/// for documents archived without one, by the path as added (as [`versions_of`]).
pub(in crate::archive) fn versions_with_stamps(
    conn: &Connection,
    source: &str,
    path: &str,
) -> Result<Vec<VersionRow>, rusqlite::Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, source, path, sha256, size, mtime_ns, ctime_ns FROM documents \
         WHERE source = ?1 OR (source IS NULL AND path = ?2)",
    )?;
    stmt.query_map([source, path], version_row)?.collect()
}

/// A row of `id, source, path, sha256, size, mtime_ns, ctime_ns`.
fn version_row(row: &rusqlite::Row) -> Result<VersionRow, rusqlite::Error> {
    let stamp = match (row.get::<_, Option<i64>>(5)?, row.get::<_, Option<i64>>(6)?) {
        (Some(mtime_ns), Some(ctime_ns)) => Some(FileStamp { size: row.get(4)?, mtime_ns, ctime_ns }),
        _ => None,
    };
    Ok(VersionRow { id: id_at(row, 0)?, source: row.get(1)?, path: row.get(2)?, sha256: row.get(3)?, stamp })
}

/// (id, resolved path) of every document archived with one.
pub(in crate::archive) fn sources(conn: &Connection) -> Result<Vec<(u32, String)>, rusqlite::Error> {
    let mut stmt = conn.prepare("SELECT id, source FROM documents WHERE source IS NOT NULL ORDER BY id")?;
    stmt.query_map([], |r| Ok((id_at(r, 0)?, r.get(1)?)))?.collect()
}

/// How many archived documents hold more than `max` characters.
pub(in crate::archive) fn longer_than(conn: &Connection, max: usize) -> Result<usize, rusqlite::Error> {
    let max = i64::try_from(max).unwrap_or(i64::MAX);
    let count: i64 = conn.query_row("SELECT count(*) FROM documents WHERE chars > ?1", [max], |r| r.get(0))?;
    usize::try_from(count).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(0, count))
}

/// The first archived document with these bytes (by SHA-256), if any.
pub(in crate::archive) fn first_with_sha256(conn: &Connection, sha256: &str) -> Result<Option<u32>, rusqlite::Error> {
    conn.prepare_cached("SELECT id FROM documents WHERE sha256 = ?1 ORDER BY id LIMIT 1")?
        .query_row([sha256], |r| id_at(r, 0))
        .optional()
}

/// Whether document `id` is archived.
pub(in crate::archive) fn has_document(conn: &Connection, id: u32) -> Result<bool, rusqlite::Error> {
    conn.query_row("SELECT count(*) FROM documents WHERE id = ?1", [id], |r| r.get::<_, i64>(0)).map(|n| n > 0)
}

/// The documents archived from the file `real`, and those archived under `given` (the
/// path as added) before the file a path resolved to was recorded.
pub(in crate::archive) fn ids_by_path(conn: &Connection, given: &str, real: &str) -> Result<Vec<u32>, rusqlite::Error> {
    let mut stmt = conn.prepare("SELECT id FROM documents WHERE source = ?2 OR (source IS NULL AND path = ?1)")?;
    stmt.query_map([given, real], |r| id_at(r, 0))?.collect()
}

/// The documents archived under the path `given` as added from a file recorded (its
/// resolved path), with that file.
pub(in crate::archive) fn sources_added_as(
    conn: &Connection,
    given: &str,
) -> Result<Vec<(u32, String)>, rusqlite::Error> {
    let mut stmt =
        conn.prepare("SELECT id, source FROM documents WHERE path = ?1 AND source IS NOT NULL ORDER BY id")?;
    stmt.query_map([given], |r| Ok((id_at(r, 0)?, r.get(1)?)))?.collect()
}

/// The documents dated before `day` (publication date, else the day added), by id.
pub(in crate::archive) fn ids_dated_before(conn: &Connection, day: &str) -> Result<Vec<u32>, rusqlite::Error> {
    let mut stmt = conn.prepare(
        "SELECT id FROM documents
         WHERE coalesce(published, date(added_at, 'unixepoch')) < ?1 ORDER BY id",
    )?;
    stmt.query_map([day], |r| id_at(r, 0))?.collect()
}

/// Deletes document `id` inside a write transaction: its row goes, its postings stay in
/// their segments until a merge, skipped by readers through the `removed` list; groups
/// get a representative again.
pub(in crate::archive) fn remove_document(conn: &Connection, id: u32) -> Result<(), rusqlite::Error> {
    delete_rows(conn, id)?;
    repair_group(conn, id)
}

/// The rows of document `id` (its catalog row, text and token keys) deleted and the id
/// listed as removed, its group left to repair.
fn delete_rows(conn: &Connection, id: u32) -> Result<(), rusqlite::Error> {
    conn.execute("INSERT OR IGNORE INTO removed(id) VALUES (?1)", [id])?;
    conn.execute("DELETE FROM documents WHERE id = ?1", [id])?;
    conn.execute("DELETE FROM texts WHERE id = ?1", [id])?;
    conn.execute("DELETE FROM token_keys WHERE id = ?1", [id])?;
    Ok(())
}

/// Every document, by id (a catalog no writer of this build has opened records no
/// compared characters).
pub(in crate::archive) fn documents(conn: &Connection) -> Result<Vec<DocumentInfo>, rusqlite::Error> {
    let compared = if has_column(conn, "compared")? { "compared" } else { "NULL" };
    let mut stmt = conn.prepare(&format!(
        "SELECT id, path, sha256, size, added_at, published, chars, simhash, nshash, group_id, source, {compared}
         FROM documents ORDER BY id"
    ))?;
    stmt.query_map([], |r| {
        Ok(DocumentInfo {
            id: id_at(r, 0)?,
            path: r.get(1)?,
            source: r.get(10)?,
            sha256: r.get(2)?,
            size: unsigned_at(r, 3)?,
            added_at: r.get(4)?,
            published: r.get(5)?,
            chars: unsigned_at(r, 6)?,
            compared: r.get::<_, Option<i64>>(11)?.and_then(|n| u64::try_from(n).ok()),
            simhash: hash_at(r, 7)?,
            nshash: hash_at(r, 8)?,
            group: id_at(r, 9)?,
        })
    })?
    .collect()
}

/// Whether the documents table has `column` (one a writer adds to an older catalog).
pub(in crate::archive) fn has_column(conn: &Connection, column: &str) -> Result<bool, rusqlite::Error> {
    conn.query_row("SELECT count(*) FROM pragma_table_info('documents') WHERE name = ?1", [column], |r| {
        r.get::<_, i64>(0)
    })
    .map(|n| n > 0)
}

/// The catalog's counts for `stats`; the bytes on disk are the folder's to add.
pub(in crate::archive) fn counts(conn: &Connection) -> Result<Stats, rusqlite::Error> {
    let one = |q: &str| conn.query_row(q, [], |r| unsigned_at(r, 0));
    Ok(Stats {
        documents: u64::try_from(document_count(conn)?).unwrap_or(u64::MAX),
        chars: character_count(conn)?,
        groups: one("SELECT count(*) FROM (SELECT group_id FROM documents GROUP BY group_id HAVING count(*) > 1)")?,
        kgram_segments: one("SELECT count(*) FROM segments WHERE kind = 0")?,
        sentence_segments: one("SELECT count(*) FROM segments WHERE kind = 1")?,
        postings: one("SELECT coalesce(sum(postings), 0) FROM segments")?,
        bytes: 0,
    })
}

/// A number the catalog keeps in its `counts` table: its row, and the two triggers that
/// keep it in step with `documents`.
struct Kept {
    name: &'static str,
    triggers: [&'static str; 2],
    /// What it counts, as `verify` says it.
    noun: &'static str,
    /// It counted from the rows themselves.
    real: fn(&Connection) -> Result<u64, rusqlite::Error>,
}

/// The number of archived documents.
const DOCUMENTS: Kept = Kept {
    name: "documents",
    triggers: ["documents_counted_in", "documents_counted_out"],
    noun: "documents",
    real: |conn| counted_documents(conn).map(|n| n as u64),
};
/// The characters of all archived documents.
const CHARACTERS: Kept = Kept {
    name: "chars",
    triggers: ["documents_chars_in", "documents_chars_out"],
    noun: "characters",
    real: summed_characters,
};

impl Kept {
    /// Whether the catalog keeps it (the row and both triggers are there).
    fn is_kept(&self, conn: &Connection) -> Result<bool, rusqlite::Error> {
        Ok(self.value(conn)?.is_some())
    }

    /// Its value as kept; `None` when the catalog does not keep it: the `counts` table,
    /// its row there (one at most: `name` is the table's key) or a trigger is missing.
    fn value(&self, conn: &Connection) -> Result<Option<u64>, rusqlite::Error> {
        let parts: i64 = conn.query_row(
            "SELECT count(*) FROM sqlite_master WHERE (type = 'table' AND name = 'counts') \
             OR (type = 'trigger' AND name IN (?1, ?2))",
            params![self.triggers[0], self.triggers[1]],
            |r| r.get(0),
        )?;
        if parts != 3 {
            return Ok(None);
        }
        conn.query_row("SELECT n FROM counts WHERE name = ?1", [self.name], |r| unsigned_at(r, 0)).optional()
    }
}

/// Each number the catalog keeps, with what it counts and what it should be: (noun, as
/// kept, as counted from the rows). For `verify`.
pub(in crate::archive) fn kept_against_real(
    conn: &Connection,
) -> Result<Vec<(&'static str, u64, u64)>, rusqlite::Error> {
    let mut out = Vec::new();
    for kept in [DOCUMENTS, CHARACTERS] {
        if let Some(value) = kept.value(conn)? {
            out.push((kept.noun, value, (kept.real)(conn)?));
        }
    }
    Ok(out)
}

/// The number of archived documents: as the catalog keeps it, or counted in a catalog
/// that keeps none yet (one no writer of this build has opened).
pub(in crate::archive) fn document_count(conn: &Connection) -> Result<usize, rusqlite::Error> {
    match DOCUMENTS.value(conn)? {
        Some(n) => usize::try_from(n).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(0, i64::MAX)),
        None => counted_documents(conn),
    }
}

/// The number of archived documents, counted.
pub(in crate::archive) fn counted_documents(conn: &Connection) -> Result<usize, rusqlite::Error> {
    conn.query_row("SELECT count(*) FROM documents", [], |r| count_at(r, 0))
}

/// Whether the catalog keeps its number of documents.
pub(in crate::archive) fn keeps_document_count(conn: &Connection) -> Result<bool, rusqlite::Error> {
    DOCUMENTS.is_kept(conn)
}

/// The characters of all archived documents: as the catalog keeps them, or summed in a
/// catalog that keeps none yet.
pub(in crate::archive) fn character_count(conn: &Connection) -> Result<u64, rusqlite::Error> {
    match CHARACTERS.value(conn)? {
        Some(n) => Ok(n),
        None => summed_characters(conn),
    }
}

/// The characters of all archived documents, summed over every row.
pub(in crate::archive) fn summed_characters(conn: &Connection) -> Result<u64, rusqlite::Error> {
    conn.query_row("SELECT coalesce(sum(chars), 0) FROM documents", [], |r| unsigned_at(r, 0))
}

/// Whether the catalog keeps the characters of its documents.
pub(in crate::archive) fn keeps_character_count(conn: &Connection) -> Result<bool, rusqlite::Error> {
    CHARACTERS.is_kept(conn)
}

/// A count column as a `usize`.
fn count_at(row: &Row<'_>, column: usize) -> Result<usize, rusqlite::Error> {
    let value: i64 = row.get(column)?;
    usize::try_from(value).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(column, value))
}

/// The largest id the catalog ever gave (removed documents included).
pub(in crate::archive) fn last_id(conn: &Connection) -> Result<u32, rusqlite::Error> {
    conn.query_row(
        "SELECT max(coalesce((SELECT max(seq) FROM sqlite_sequence WHERE name = 'documents'), 0),
                    coalesce((SELECT max(id) FROM documents), 0))",
        [],
        |r| id_at(r, 0),
    )
}

/// Calls `each` with the stored text and token keys of every document, by id.
pub(in crate::archive) fn for_each_text(
    conn: &Connection,
    each: &mut dyn FnMut(TextRow),
) -> Result<(), rusqlite::Error> {
    let mut stmt = conn.prepare(
        "SELECT d.id, t.text, d.chars, k.keys, k.width FROM documents d LEFT JOIN texts t ON t.id = d.id
         LEFT JOIN token_keys k ON k.id = d.id ORDER BY d.id",
    )?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let (keys, key_width) = (row.get(3)?, row.get(4)?);
        each(TextRow { id: id_at(row, 0)?, text: row.get(1)?, chars: row.get(2)?, keys, key_width });
    }
    Ok(())
}

/// SQLite's integrity check of the catalog: "ok" when sound.
pub(in crate::archive) fn integrity(conn: &Connection) -> Result<String, rusqlite::Error> {
    conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))
}

// ---- segments and removed ids ----

/// Every listed segment, oldest first.
pub(in crate::archive) fn segments(conn: &Connection) -> Result<Vec<SegmentRow>, rusqlite::Error> {
    let mut stmt = conn.prepare("SELECT id, kind, file, postings FROM segments ORDER BY id")?;
    stmt.query_map([], |r| Ok(SegmentRow { id: r.get(0)?, kind: r.get(1)?, file: r.get(2)?, postings: r.get(3)? }))?
        .collect()
}

/// Lists a segment file of `kind` holding `postings`.
pub(in crate::archive) fn insert_segment(
    conn: &Connection,
    kind: i64,
    file: &str,
    postings: u64,
) -> Result<(), rusqlite::Error> {
    let postings = i64::try_from(postings).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(2, i64::MAX))?;
    conn.execute("INSERT INTO segments(kind, file, postings) VALUES (?1, ?2, ?3)", params![kind, file, postings])?;
    Ok(())
}

/// Unlists segment `id`.
pub(in crate::archive) fn delete_segment(conn: &Connection, id: i64) -> Result<(), rusqlite::Error> {
    conn.execute("DELETE FROM segments WHERE id = ?1", [id])?;
    Ok(())
}

/// The ids of removed documents (their postings are skipped, and dropped by merges).
pub(in crate::archive) fn removed_ids(conn: &Connection) -> Result<FxHashSet<u32>, rusqlite::Error> {
    let mut stmt = conn.prepare("SELECT id FROM removed")?;
    stmt.query_map([], |r| id_at(r, 0))?.collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::error::ArchiveError;

    #[test]
    fn ids_beyond_u32_are_a_typed_error_never_another_document() {
        assert_eq!(doc_id(7).ok(), Some(7));
        assert_eq!(doc_id(i64::from(u32::MAX)).ok(), Some(u32::MAX));
        for bad in [i64::from(u32::MAX) + 1, i64::from(u32::MAX) + 8, -1] {
            let error = doc_id(bad).unwrap_err();
            assert!(matches!(
                ArchiveError::sql(std::path::Path::new("arc"), error),
                ArchiveError::IdOutOfRange(v) if v == bad
            ));
        }
    }
}

//! The catalog's rows: every statement that reads or writes documents, texts, token keys,
//! groups, segments and removed ids is here, and nowhere else (the schema, its upgrades
//! and the settings are [`super::catalog`]'s). Adding, reading, merging and looking after
//! an archive go through these functions and never through each other.
//!
//! Document ids are SQLite row ids (`i64`); postings hold them as `u32`. Every id read
//! here for postings goes through [`doc_id`], a checked conversion whose failure is a
//! typed error ([`rusqlite::Error::IntegralValueOutOfRange`], told by
//! [`crate::archive::ArchiveError::sql`]): an id beyond `u32` never lands on another document.

use std::sync::LazyLock;

use rusqlite::{Connection, OptionalExtension, Row, params, params_from_iter};
use rustc_hash::FxHashSet;

use crate::archive::codec::{half_probes, halves};
use crate::fingerprint::TokenKeys;

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

/// A 64-bit hash as stored.
pub(in crate::archive) fn stored_hash(h: u64) -> i64 {
    i64::from_ne_bytes(h.to_ne_bytes())
}

/// One archived document, as `archive list` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentInfo {
    pub id: u32,
    pub path: String,
    /// The file it was archived from (the path as added resolved where the add ran):
    /// what tells two documents added under one relative path apart. `None` for a
    /// document archived before it was recorded.
    pub source: Option<String>,
    pub sha256: String,
    pub size: u64,
    pub added_at: i64,
    pub published: Option<String>,
    pub chars: u64,
    /// Of its characters, those a check compares, as recorded when it was added: fewer
    /// than `chars` for a document cut ([`Self::cut`]). `None` for a document archived
    /// before it was recorded.
    pub compared: Option<u64>,
    pub simhash: Option<u64>,
    pub nshash: Option<u64>,
    pub group: u32,
}

impl DocumentInfo {
    /// The characters compared of a document a check compares by its first part only.
    pub fn cut(&self) -> Option<u64> {
        self.compared.filter(|&compared| compared < self.chars)
    }
}

/// What is recorded of a file as seen before it was read (see `unchanged.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::archive) struct FileStamp {
    pub size: i64,
    pub mtime_ns: i64,
    /// The status-change time (Unix), which no tool can set back: a file rewritten with
    /// its old size and modification time restored still differs here. 0 elsewhere.
    pub ctime_ns: i64,
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

/// A document to insert (its group is set after, by [`set_group`]).
pub(in crate::archive) struct NewDocument<'a> {
    pub path: &'a str,
    pub source: &'a str,
    pub sha256: &'a str,
    pub size: u64,
    pub added_at: i64,
    pub published: Option<&'a str>,
    pub chars: usize,
    /// Of them, those a check compares (all but for a document it cuts).
    pub compared: usize,
    pub simhash: Option<u64>,
    pub bands: Option<[i64; 4]>,
    pub nshash: Option<u64>,
    pub keywords: Option<String>,
    /// The text, compressed as stored.
    pub text: &'a [u8],
    /// Its token keys, two bytes each: a store keeps them in its own width.
    pub keys: &'a TokenKeys<'static>,
    /// The file's stamp as seen before it was read, when it had settled.
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

/// A document near a new one, as grouping reads it.
pub(in crate::archive) struct NearRow {
    pub id: u32,
    pub simhash: Option<u64>,
    pub group: u32,
    pub nshash: Option<u64>,
}

/// What a check shows of an archived reference.
pub(in crate::archive) struct EntryRow {
    pub path: String,
    pub sha256: String,
    pub text: Vec<u8>,
    pub chars: i64,
    pub simhash: Option<u64>,
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

/// What a check reads of an archived reference: its stored text, SimHash and keywords.
pub(in crate::archive) struct StoredRow {
    pub text: Vec<u8>,
    pub simhash: Option<u64>,
    pub keywords: Option<String>,
}

/// Called with (id, token keys and their width in bytes, SimHash) of each document
/// glanced at; false stops.
pub(in crate::archive) type GlanceFn<'a> = dyn FnMut(u32, (&[u8], i64), Option<u64>) -> bool + 'a;

/// Sizes of an archive.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub documents: u64,
    pub chars: u64,
    pub groups: u64,
    pub kgram_segments: u64,
    pub sentence_segments: u64,
    pub postings: u64,
    /// Bytes on disk: catalog (with its WAL) and segments.
    pub bytes: u64,
}

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

// ---- what a check reads ----

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
fn probed_halves() -> String {
    let list = |from: usize| (from..from + 33).map(|i| format!("?{i}")).collect::<Vec<_>>().join(", ");
    format!("h0 IN ({}) OR h1 IN ({})", list(1), list(34))
}

/// [`simhash_rows`]'s statement, written once.
static SIMHASH_ROWS: LazyLock<String> =
    LazyLock::new(|| format!("SELECT id, simhash FROM documents WHERE {}", probed_halves()));

/// [`near_rows`]'s statement, written once (params: the probes, then the document's id
/// `?67` and nshash key `?68`).
static NEAR_ROWS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT id, simhash, group_id, nshash FROM documents WHERE ({}) AND id != ?67
         UNION SELECT id, simhash, group_id, nshash FROM documents WHERE ?68 IS NOT NULL AND nshash = ?68 AND id != ?67",
        probed_halves()
    )
});

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

// ---- groups ----

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
fn repair_group(conn: &Connection, removed: u32) -> Result<(), rusqlite::Error> {
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
    use crate::archive::ArchiveError;

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

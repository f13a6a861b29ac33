//! The archive's catalog: one SQLite database (WAL: one writer, any number of readers,
//! also across processes) holding documents, groups, settings and the list of segments.

use std::path::Path;

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use super::error::ArchiveError;

/// File name of the catalog inside the archive folder.
pub const CATALOG: &str = "catalog.sqlite";

const SCHEMA: &str = "
CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE documents(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    added_at INTEGER NOT NULL,
    published TEXT,
    chars INTEGER NOT NULL,
    simhash INTEGER,
    b0 INTEGER, b1 INTEGER, b2 INTEGER, b3 INTEGER,
    nshash INTEGER,
    keywords TEXT,
    group_id INTEGER NOT NULL
);
CREATE INDEX documents_path ON documents(path);
CREATE INDEX documents_sha256 ON documents(sha256);
CREATE INDEX documents_b0 ON documents(b0, simhash, group_id, nshash);
CREATE INDEX documents_b1 ON documents(b1, simhash, group_id, nshash);
CREATE INDEX documents_b2 ON documents(b2, simhash, group_id, nshash);
CREATE INDEX documents_b3 ON documents(b3, simhash, group_id, nshash);
CREATE INDEX documents_nshash ON documents(nshash, simhash, group_id);
CREATE INDEX documents_group ON documents(group_id);
CREATE TABLE texts(id INTEGER PRIMARY KEY, text BLOB NOT NULL);
CREATE TABLE token_keys(id INTEGER PRIMARY KEY, keys BLOB NOT NULL);
CREATE TABLE segments(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind INTEGER NOT NULL,
    file TEXT NOT NULL UNIQUE,
    postings INTEGER NOT NULL
);
CREATE TABLE removed(id INTEGER PRIMARY KEY);
";

/// Opens the catalog of the archive at `dir`; `write` opens it for changes.
pub fn open(dir: &Path, write: bool) -> Result<Connection, ArchiveError> {
    let path = dir.join(CATALOG);
    let flags = if write {
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE
    } else {
        OpenFlags::SQLITE_OPEN_READ_ONLY
    } | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let sql = |e| ArchiveError::sql(dir, e);
    let conn = Connection::open_with_flags(&path, flags).map_err(sql)?;
    conn.busy_timeout(std::time::Duration::from_secs(30)).map_err(sql)?;
    if write {
        conn.pragma_update(None, "journal_mode", "WAL").map_err(sql)?;
        conn.pragma_update(None, "synchronous", "FULL").map_err(sql)?;
    }
    Ok(conn)
}

/// Creates the tables of a new archive with `settings` (key, value).
pub fn create(conn: &mut Connection, dir: &Path, settings: &[(&str, String)]) -> Result<(), ArchiveError> {
    let sql = |e| ArchiveError::sql(dir, e);
    let tx = conn.transaction().map_err(sql)?;
    tx.execute_batch(SCHEMA).map_err(sql)?;
    for (key, value) in settings {
        tx.execute("INSERT INTO settings(key, value) VALUES (?1, ?2)", params![key, value]).map_err(sql)?;
    }
    tx.commit().map_err(sql)
}

/// Upgrades a catalog of an older format to the current one, step by step, in one
/// transaction: a failure leaves the catalog as it was.
///
/// - Format 1 held the texts inline in `documents`. Format 2 moves them to a table of
///   their own, so that reading a document's SimHash, group or path no longer walks the
///   pages of its text, and the pigeonhole indexes cover what grouping an add reads of its
///   candidates (thousands per band in a large archive).
/// - Format 3 adds `token_keys` (see [`crate::fingerprint::TokenKeys`]). Documents
///   archived before have none and are read whole when they are candidates, as before.
/// - Format 4 writes segments whose Bloom filter keeps the probes of a hash in one block
///   (see [`super::segment`]); nothing in the catalog changes.
pub fn upgrade(conn: &mut Connection, dir: &Path) -> Result<(), ArchiveError> {
    let sql = |e| ArchiveError::sql(dir, e);
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(sql)?;
    // Read inside the transaction: another writer may have upgraded it meanwhile.
    let format = setting(&tx, dir, "format")?;
    if format.as_deref() == Some("1") {
        tx.execute_batch(
            "CREATE TABLE texts(id INTEGER PRIMARY KEY, text BLOB NOT NULL);
             INSERT INTO texts(id, text) SELECT id, text FROM documents;
             ALTER TABLE documents DROP COLUMN text;
             DROP INDEX documents_b0; DROP INDEX documents_b1; DROP INDEX documents_b2;
             DROP INDEX documents_b3; DROP INDEX documents_nshash;
             CREATE INDEX documents_b0 ON documents(b0, simhash, group_id, nshash);
             CREATE INDEX documents_b1 ON documents(b1, simhash, group_id, nshash);
             CREATE INDEX documents_b2 ON documents(b2, simhash, group_id, nshash);
             CREATE INDEX documents_b3 ON documents(b3, simhash, group_id, nshash);
             CREATE INDEX documents_nshash ON documents(nshash, simhash, group_id);
             UPDATE settings SET value = '2' WHERE key = 'format';",
        )
        .map_err(sql)?;
    }
    if matches!(format.as_deref(), Some("1" | "2")) {
        tx.execute_batch(
            "CREATE TABLE token_keys(id INTEGER PRIMARY KEY, keys BLOB NOT NULL);
             UPDATE settings SET value = '3' WHERE key = 'format';",
        )
        .map_err(sql)?;
    }
    // Format 4 writes segments whose filter keeps a hash's probes in one block; the
    // segments already there keep theirs and are read as they are.
    if matches!(format.as_deref(), Some("1" | "2" | "3")) {
        tx.execute_batch("UPDATE settings SET value = '4' WHERE key = 'format';").map_err(sql)?;
    }
    tx.commit().map_err(sql)
}

/// The setting `key`, if the catalog has it.
pub fn setting(conn: &Connection, dir: &Path, key: &str) -> Result<Option<String>, ArchiveError> {
    let has_table: bool = conn
        .query_row("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'settings'", [], |r| {
            r.get::<_, i64>(0)
        })
        .map(|n| n > 0)
        .map_err(|e| ArchiveError::sql(dir, e))?;
    if !has_table {
        return Err(ArchiveError::Corrupt(format!("{}: a database without a twinspot catalog", dir.display())));
    }
    conn.query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| r.get(0))
        .optional()
        .map_err(|e| ArchiveError::sql(dir, e))
}

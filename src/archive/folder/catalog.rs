//! The archive's catalog: one SQLite database (WAL: one writer, any number of readers,
//! also across processes) holding documents, groups, settings and the list of segments.

use std::path::Path;

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use super::rows::has_column;
use crate::archive::error::ArchiveError;
use crate::archive::signals::CHAR_GRAMS_FROM;

pub use super::names::{CATALOG, CATALOG_NEW};

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
    h0 INTEGER, h1 INTEGER,
    nshash INTEGER,
    keywords TEXT,
    group_id INTEGER NOT NULL,
    source TEXT,
    mtime_ns INTEGER,
    ctime_ns INTEGER,
    compared INTEGER
);
CREATE INDEX documents_path ON documents(path);
CREATE INDEX documents_sha256 ON documents(sha256);
CREATE INDEX documents_h0 ON documents(h0, simhash, group_id, nshash);
CREATE INDEX documents_h1 ON documents(h1, simhash, group_id, nshash);
CREATE INDEX documents_nshash ON documents(nshash, simhash, group_id);
CREATE INDEX documents_group ON documents(group_id);
CREATE INDEX documents_source ON documents(source);
CREATE TABLE texts(id INTEGER PRIMARY KEY, text BLOB NOT NULL);
CREATE TABLE token_keys(id INTEGER PRIMARY KEY, keys BLOB NOT NULL, width INTEGER NOT NULL DEFAULT 2);
CREATE TABLE segments(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind INTEGER NOT NULL,
    file TEXT NOT NULL UNIQUE,
    postings INTEGER NOT NULL
);
CREATE TABLE removed(id INTEGER PRIMARY KEY);
";

/// The number of documents, kept beside them by triggers: a `count(*)` reads an index of
/// the whole catalog, 80 ms at a million documents, and every check needs the number (the
/// common-text threshold). A writer adds the table and triggers to an older catalog
/// ([`prepare_for_writing`]); until then readers count ([`super::rows::document_count`]).
const DOCUMENT_COUNT: &str = "
CREATE TABLE IF NOT EXISTS counts(name TEXT PRIMARY KEY, n INTEGER NOT NULL);
DELETE FROM counts WHERE name = 'documents';
INSERT INTO counts(name, n) SELECT 'documents', count(*) FROM documents;
CREATE TRIGGER IF NOT EXISTS documents_counted_in AFTER INSERT ON documents
    BEGIN UPDATE counts SET n = n + 1 WHERE name = 'documents'; END;
CREATE TRIGGER IF NOT EXISTS documents_counted_out AFTER DELETE ON documents
    BEGIN UPDATE counts SET n = n - 1 WHERE name = 'documents'; END;
";

/// The characters of all archived documents, kept beside their number (`rows::counts`):
/// summing the `chars` column reads every row of the documents table, 11 s at 1.5 million
/// documents on a cold page cache, for `archive stats` and the window's archive panel.
const CHARACTER_COUNT: &str = "
CREATE TABLE IF NOT EXISTS counts(name TEXT PRIMARY KEY, n INTEGER NOT NULL);
DELETE FROM counts WHERE name = 'chars';
INSERT INTO counts(name, n) SELECT 'chars', coalesce(sum(chars), 0) FROM documents;
CREATE TRIGGER IF NOT EXISTS documents_chars_in AFTER INSERT ON documents
    BEGIN UPDATE counts SET n = n + NEW.chars WHERE name = 'chars'; END;
CREATE TRIGGER IF NOT EXISTS documents_chars_out AFTER DELETE ON documents
    BEGIN UPDATE counts SET n = n - OLD.chars WHERE name = 'chars'; END;
";

/// How long a connection waits for another's lock on the catalog before it gives up.
const BUSY_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// Opens the catalog of the archive at `dir`; `write` opens it for changes. Nothing is
/// written here: a writer switches to WAL with [`prepare_for_writing`] once the catalog is
/// known to be a twinspot catalog ([`check_ours`]).
pub fn open(dir: &Path, write: bool) -> Result<Connection, ArchiveError> {
    if !write {
        return open_read(dir);
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let sql = |e| ArchiveError::sql(dir, e);
    let conn = Connection::open_with_flags(dir.join(CATALOG), flags).map_err(sql)?;
    conn.busy_timeout(BUSY_WAIT).map_err(sql)?;
    plans_kept(&conn).map_err(sql)?;
    Ok(conn)
}

/// Keeps each statement's plan whatever values are bound to it (SQLite's query planner
/// stability guarantee). Without it, a statement whose plan SQLite thinks a bound value
/// might change (a term its index does not use, a query ordered by id) is marked to be
/// prepared again when its values are cleared, and rusqlite clears them whenever a cached
/// statement goes back to its cache: such statements were prepared anew at every call
/// (the SHA-256 lookup of each file an add reads, 12.5 µs a call against 2.7 µs at 1.58
/// million documents; the stored text of each document the groups' rule checks; the
/// group repair of each replaced document). The catalog keeps no statistics (no
/// `ANALYZE`), so no plan here depends on a value.
fn plans_kept(conn: &Connection) -> Result<(), rusqlite::Error> {
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true).map(|_| ())
}

/// Opens the catalog for reading only. A WAL catalog in a folder this user may not write
/// (a read-only share, another user's archive, a disc) cannot be opened the usual way when
/// its `-shm` file is absent, since SQLite would have to create it: it is then opened
/// as immutable, which reads the database file alone (a catalog nobody can write here
/// does not change under the reader).
fn open_read(dir: &Path) -> Result<Connection, ArchiveError> {
    let path = dir.join(CATALOG);
    let sql = |e| ArchiveError::sql(dir, e);
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let usual = Connection::open_with_flags(&path, flags).and_then(|conn| {
        conn.busy_timeout(BUSY_WAIT)?;
        plans_kept(&conn)?;
        conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get::<_, i64>(0))?;
        Ok(conn)
    });
    let error = match usual {
        Ok(conn) => return Ok(conn),
        Err(error) => error,
    };
    let unwritable = matches!(
        error.sqlite_error_code(),
        Some(rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::ReadOnly | rusqlite::ErrorCode::PermissionDenied)
    );
    if !unwritable || std::fs::File::open(&path).is_err() {
        return Err(sql(error));
    }
    let conn = Connection::open_with_flags(immutable_uri(&path), flags | OpenFlags::SQLITE_OPEN_URI).map_err(sql)?;
    plans_kept(&conn).map_err(sql)?;
    conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get::<_, i64>(0)).map_err(sql)?;
    Ok(conn)
}

/// The `file:` URI of `path` opened as immutable, every byte that is not plainly safe
/// percent-encoded.
fn immutable_uri(path: &Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut name = absolute.to_string_lossy().replace('\\', "/");
    if !name.starts_with('/') {
        name.insert(0, '/');
    }
    let mut uri = String::from("file://");
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~:".contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri + "?immutable=1"
}

/// Pages of the write-ahead log (4 KiB each: 256 MiB) past which a writer's commit moves
/// it into the catalog. SQLite's default, 1,000 pages, is less than one batch of an add
/// writes (a thousand documents' texts and index entries), so every commit of an add
/// also copied its pages into the catalog, and the pages every batch touches (the ends of
/// the tables and indexes keyed by id or path, the upper pages of the others) were
/// written into it again and again. With this many, an add of a few thousand documents
/// moves its log once, as it ends ([`empty_write_ahead_log`]): an add of 5,000 at 100,000
/// documents wrote 1.23 GB before, 0.61 GB after. Readers find a page in the log through
/// its index, however long.
const CHECKPOINT_PAGES: i64 = 65_536;

/// Makes a writer's connection durable and lets readers work beside it (WAL).
pub fn prepare_for_writing(conn: &Connection, dir: &Path) -> Result<(), ArchiveError> {
    let sql = |e| ArchiveError::sql(dir, e);
    conn.pragma_update(None, "journal_mode", "WAL").map_err(sql)?;
    conn.pragma_update(None, "synchronous", "FULL").map_err(sql)?;
    // The log is moved into the catalog when it holds [`CHECKPOINT_PAGES`], not SQLite's
    // 1,000: see there.
    conn.pragma_update(None, "wal_autocheckpoint", CHECKPOINT_PAGES).map_err(sql)?;
    // Written by this build: the path each document's file resolves to (catalogs made
    // before have none and are matched by the path as added).
    if !has_column(conn, "source").map_err(sql)? {
        conn.execute_batch(
            "ALTER TABLE documents ADD COLUMN source TEXT;
             CREATE INDEX IF NOT EXISTS documents_source ON documents(source);",
        )
        .map_err(sql)?;
    }
    // The file's times as seen before it was read (see `unchanged.rs`): documents archived
    // without them are hashed once by the next add, which records them.
    if !has_column(conn, "mtime_ns").map_err(sql)? {
        conn.execute_batch(
            "ALTER TABLE documents ADD COLUMN mtime_ns INTEGER;
             ALTER TABLE documents ADD COLUMN ctime_ns INTEGER;",
        )
        .map_err(sql)?;
    }
    // The characters a check compares of each document (fewer than `chars` for one it
    // cuts), for `list`: documents archived without them are not known to be cut there
    // (a check still says so, from the text). A column, not a format: older builds read
    // and write such a catalog as before, and leave it empty.
    if !has_column(conn, "compared").map_err(sql)? {
        conn.execute_batch("ALTER TABLE documents ADD COLUMN compared INTEGER;").map_err(sql)?;
    }
    if !super::rows::keeps_document_count(conn).map_err(sql)? {
        conn.execute_batch(&format!("BEGIN IMMEDIATE; {DOCUMENT_COUNT} COMMIT;")).map_err(sql)?;
    }
    // Once, by the first writer of this build: the sum reads the whole table.
    if !super::rows::keeps_character_count(conn).map_err(sql)? {
        conn.execute_batch(&format!("BEGIN IMMEDIATE; {CHARACTER_COUNT} COMMIT;")).map_err(sql)?;
    }
    Ok(())
}

/// Copies what the write-ahead log holds into the catalog, as far as readers allow,
/// beside a writer that goes on committing (SQLite's passive checkpoint): it never waits
/// and never empties the log ([`super::backfill`]). It reports nothing: failing or cut
/// short, it leaves the log valid and whole, and [`empty_write_ahead_log`] moves the rest.
pub fn backfill_write_ahead_log(conn: &Connection) {
    if conn.busy_timeout(std::time::Duration::ZERO).is_ok() {
        let _left = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get::<_, i64>(0));
    }
}

/// Moves a writer's changes from the write-ahead log into the catalog and empties the log,
/// when no reader is inside a transaction; called as an add ends and as a writer lets the
/// archive go. SQLite does this itself when the last connection closes, but a writer that
/// closes while a check has the catalog open leaves the log behind, and a read-only
/// connection cannot empty it: every later opening then replays the whole log (a 65 MB
/// log cost 28 ms an opening, cold far more), and a reader that may only open the catalog
/// as immutable does not see it at all. Never waits: a reader in a transaction leaves the
/// log as it is, for the next writer. It reports nothing, and nothing need be done when it
/// fails: a log left behind is valid and loses nothing, every opening replays it, and the
/// next writer empties it. The connection waits for locks as before once it is done.
pub fn empty_write_ahead_log(conn: &Connection) {
    if conn.busy_timeout(std::time::Duration::ZERO).is_ok() {
        // Busy (a reader), or failed: the log stays for the next writer (see above).
        let _left = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get::<_, i64>(0));
    }
    // Failing, it leaves the connection not waiting: its next use that meets a lock says
    // the catalog is busy instead of waiting for it.
    let _waits = conn.busy_timeout(BUSY_WAIT);
}

/// Refuses a database that is not a twinspot catalog: it must have the tables of one and
/// a format version. Read before anything is written to it.
pub fn check_ours(conn: &Connection, dir: &Path) -> Result<(), ArchiveError> {
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('settings', 'documents', 'segments')",
            [],
            |r| r.get(0),
        )
        .map_err(|e| ArchiveError::sql(dir, e))?;
    let foreign = || {
        ArchiveError::Corrupt(format!(
            "{}: a database without a twinspot catalog (no format version); it was left as it is",
            dir.join(CATALOG).display()
        ))
    };
    if tables < 3 {
        return Err(foreign());
    }
    setting(conn, dir, "format")?.filter(|v| v.parse::<u32>().is_ok()).map(|_| ()).ok_or_else(foreign)
}

/// Creates the catalog of a new archive in `dir` with `settings` (key, value): written
/// whole under [`CATALOG_NEW`], then renamed to [`CATALOG`]. Called holding the writer lock.
pub fn create_new(dir: &Path, settings: &[(&str, String)]) -> Result<(), ArchiveError> {
    let sql = |e| ArchiveError::sql(dir, e);
    let fresh = dir.join(CATALOG_NEW);
    for stale in [fresh.clone(), dir.join(format!("{CATALOG_NEW}-journal"))] {
        match std::fs::remove_file(&stale) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(ArchiveError::io(&stale, e)),
            _ => {}
        }
    }
    let mut conn = Connection::open(&fresh).map_err(sql)?;
    conn.pragma_update(None, "synchronous", "FULL").map_err(sql)?;
    create(&mut conn, dir, settings)?;
    conn.close().map_err(|(_, e)| sql(e))?;
    std::fs::rename(&fresh, dir.join(CATALOG)).map_err(|e| ArchiveError::io(&dir.join(CATALOG), e))
}

/// Creates the tables of a new archive with `settings` (key, value).
fn create(conn: &mut Connection, dir: &Path, settings: &[(&str, String)]) -> Result<(), ArchiveError> {
    let sql = |e| ArchiveError::sql(dir, e);
    let tx = conn.transaction().map_err(sql)?;
    tx.execute_batch(SCHEMA).map_err(sql)?;
    tx.execute_batch(DOCUMENT_COUNT).map_err(sql)?;
    tx.execute_batch(CHARACTER_COUNT).map_err(sql)?;
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
///   (see [`super::segments::segment`]); nothing in the catalog changes. Format 5 picks that block
///   by the hash's top bits. Format 6 packs the entries and keeps token keys of one byte:
///   `token_keys` gains the width of each document's keys.
pub fn upgrade(conn: &mut Connection, dir: &Path) -> Result<(), ArchiveError> {
    let sql = |e| ArchiveError::sql(dir, e);
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(sql)?;
    // Read inside the transaction: another writer may have upgraded it meanwhile.
    let format = setting(&tx, dir, "format")?;
    // Format N is brought to N + 1 by the step after it, then on to the newest.
    if let Some(from) = UPGRADES.iter().position(|(format_from, _)| Some(*format_from) == format.as_deref()) {
        for (format_from, step) in &UPGRADES[from..] {
            step(&tx).map_err(sql)?;
            let next = format_from.parse::<u32>().map_or(0, |n| n + 1);
            tx.execute("UPDATE settings SET value = ?1 WHERE key = 'format'", params![next.to_string()])
                .map_err(sql)?;
        }
    }
    tx.commit().map_err(sql)
}

/// One step of [`upgrade`]: what a catalog of one format needs to be of the next.
type Upgrade = fn(&rusqlite::Transaction<'_>) -> rusqlite::Result<()>;

/// Each format an archive may be of, with the step that brings it to the next.
const UPGRADES: [(&str, Upgrade); 9] = [
    ("1", texts_apart),
    ("2", token_keys_table),
    // Format 4 writes segments whose filter keeps a hash's probes in one block; the
    // segments already there keep theirs and are read as they are.
    ("3", nothing_changes),
    // Format 5 writes segments whose filter picks a hash's block by its top bits (a merge
    // then fills the filter in order); the segments already there are read as they are.
    ("4", nothing_changes),
    ("5", token_key_widths),
    // Format 7 writes segments that keep the top 48 bits of a hash (`TWSEG05`, 8 bytes an
    // entry at 100,000 documents); the segments already there are read as they are and
    // cut when they are next merged.
    ("6", nothing_changes),
    ("7", simhash_halves),
    // Format 9 writes large segments with a finer sparse index (up to 20 bits instead of
    // 16: buckets of about 512 entries); the segments already there are read as they are
    // and get one when they are next merged.
    ("8", nothing_changes),
    ("9", char_grams_from_now),
];

/// A step where nothing in the catalog changes: the number keeps builds that cannot read
/// the new segments from taking them for damaged ones.
fn nothing_changes(_: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    Ok(())
}

/// Format 2 keeps the texts in a table of their own, and indexes the SimHash bands with
/// what a near-duplicate lookup reads.
fn texts_apart(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
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
         CREATE INDEX documents_nshash ON documents(nshash, simhash, group_id);",
    )
}

/// Format 3 keeps each document's token keys.
fn token_keys_table(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch("CREATE TABLE token_keys(id INTEGER PRIMARY KEY, keys BLOB NOT NULL);")
}

/// Format 6 writes segments whose entries are packed (`TWSEG04`, 10 bytes an entry
/// instead of 16 at 100,000 documents) and token keys of one byte; the segments and keys
/// already there are read as they are (the keys' width is kept with them), the segments
/// packed when they are next merged.
fn token_key_widths(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    let has_width: bool = tx
        .query_row("SELECT count(*) FROM pragma_table_info('token_keys') WHERE name = 'width'", [], |r| {
            r.get::<_, i64>(0)
        })
        .map(|n| n > 0)?;
    if !has_width {
        tx.execute_batch("ALTER TABLE token_keys ADD COLUMN width INTEGER NOT NULL DEFAULT 2;")?;
    }
    Ok(())
}

/// Format 8 finds near SimHashes by their two 32-bit halves, probed within one bit
/// (`codec::half_probes`), instead of by four 16-bit bands: a band was shared by thousands
/// of documents on one topic. The halves are the SimHash's own bits, so they are taken
/// from the stored SimHash here.
fn simhash_halves(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    if has_column(tx, "b0")? {
        tx.execute_batch(
            "DROP INDEX IF EXISTS documents_b0; DROP INDEX IF EXISTS documents_b1;
             DROP INDEX IF EXISTS documents_b2; DROP INDEX IF EXISTS documents_b3;
             ALTER TABLE documents DROP COLUMN b0; ALTER TABLE documents DROP COLUMN b1;
             ALTER TABLE documents DROP COLUMN b2; ALTER TABLE documents DROP COLUMN b3;",
        )?;
    }
    if !has_column(tx, "h0")? {
        tx.execute_batch(
            "ALTER TABLE documents ADD COLUMN h0 INTEGER; ALTER TABLE documents ADD COLUMN h1 INTEGER;
             UPDATE documents SET h0 = (simhash >> 32) & 4294967295, h1 = simhash & 4294967295
                 WHERE simhash IS NOT NULL;
             CREATE INDEX documents_h0 ON documents(h0, simhash, group_id, nshash);
             CREATE INDEX documents_h1 ON documents(h1, simhash, group_id, nshash);",
        )?;
    }
    Ok(())
}

/// Format 10 keeps the character grams of every document added from now on, in segments
/// of their own; the documents archived before have none (until `compact` takes theirs
/// from the stored texts), which the setting tells a check. A catalog that already says
/// which documents have their grams keeps its word.
fn char_grams_from_now(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    let next = super::rows::last_id(tx)?.saturating_add(1);
    tx.execute(
        "INSERT OR IGNORE INTO settings(key, value) VALUES (?1, ?2)",
        params![CHAR_GRAMS_FROM, next.to_string()],
    )?;
    Ok(())
}

/// The first document archived with its character grams ([`CHAR_GRAMS_FROM`]; `None` in
/// an archive of a format before 10) and the oldest document held (`None` when none is):
/// whether a check may look every document's grams up ([`crate::archive::signals::holds_char_grams`]).
pub fn char_gram_bounds(conn: &Connection) -> Result<(Option<u32>, Option<u32>), rusqlite::Error> {
    let from: Option<String> =
        conn.query_row("SELECT value FROM settings WHERE key = ?1", [CHAR_GRAMS_FROM], |r| r.get(0)).optional()?;
    let oldest: Option<i64> = conn.query_row("SELECT min(id) FROM documents", [], |r| r.get(0))?;
    Ok((from.and_then(|v| v.parse().ok()), oldest.and_then(|id| u32::try_from(id).ok())))
}

/// The ids of the documents before `from`, ascending: those archived without their
/// character grams.
pub fn documents_before(conn: &Connection, from: u32) -> Result<Vec<u32>, rusqlite::Error> {
    let mut stmt = conn.prepare("SELECT id FROM documents WHERE id < ?1 ORDER BY id")?;
    stmt.query_map([from], |r| r.get::<_, u32>(0))?.collect()
}

/// Records that every document archived holds its character grams now (after `compact`
/// took those of the documents archived before format 10).
pub fn all_char_grams_kept(conn: &Connection) -> Result<(), rusqlite::Error> {
    conn.execute("INSERT OR REPLACE INTO settings(key, value) VALUES (?1, '1')", [CHAR_GRAMS_FROM]).map(|_| ())
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

#[cfg(test)]
mod tests {
    use crate::archive::folder::Archive;
    use crate::archive::{AddOptions, WhenBusy};
    use crate::engine::{CancelFlag, DocumentInput, NoProgress};
    use crate::model::Role;
    use crate::settings::Settings;

    /// (times prepared again, times run, SQL) of every statement `conn` holds.
    fn statements(conn: &rusqlite::Connection) -> Vec<(i32, i32, String)> {
        use rusqlite::ffi;
        let mut out = Vec::new();
        // SAFETY: the connection's handle is valid while `conn` is borrowed, and so is each
        // statement SQLite hands back for it; nothing is prepared or finalized meanwhile.
        unsafe {
            let db = conn.handle();
            let mut stmt = ffi::sqlite3_next_stmt(db, std::ptr::null_mut());
            while !stmt.is_null() {
                let again = ffi::sqlite3_stmt_status(stmt, ffi::SQLITE_STMTSTATUS_REPREPARE, 0);
                let runs = ffi::sqlite3_stmt_status(stmt, ffi::SQLITE_STMTSTATUS_RUN, 0);
                let sql = std::ffi::CStr::from_ptr(ffi::sqlite3_sql(stmt)).to_string_lossy().into_owned();
                out.push((again, runs, sql));
                stmt = ffi::sqlite3_next_stmt(db, stmt);
            }
        }
        out
    }

    /// Text `n` of `round`: words shared with its neighbours, so that the groups' rule
    /// reads stored texts, and a word changed each round, so that files are replaced.
    fn text(n: usize, round: usize) -> String {
        let words: String = (0..80).map(|w| format!("word{} ", (n / 3 * 7919 + w * 104_729) % 5003)).collect();
        format!("{words} change{round}x{n}.\n")
    }

    #[test]
    fn statements_an_add_runs_again_and_again_are_prepared_once() {
        let dir = tempfile::tempdir().unwrap();
        let docs = tempfile::tempdir().unwrap();
        let archive = Archive::open_for_changes(dir.path(), &Settings::default(), true, WhenBusy::Refuse).unwrap();
        for round in 0..2 {
            let inputs: Vec<DocumentInput> = (0..24)
                .map(|n| {
                    let path = docs.path().join(format!("{n}.txt"));
                    // Every other file changes in the second round: its old version goes.
                    std::fs::write(&path, text(n, if n % 2 == 0 { round } else { 0 })).unwrap();
                    DocumentInput::new(path, Role::Reference)
                })
                .collect();
            archive.add(&inputs, &AddOptions::default(), &NoProgress, &CancelFlag::new()).unwrap();
        }
        let seen = statements(&archive.lock());
        // The lookups each file and each group needs ran many times over.
        for key in ["sha256 = ?1", "JOIN texts", "SELECT min(d.id)"] {
            assert!(seen.iter().any(|(_, runs, sql)| sql.contains(key) && *runs > 5), "{key}: {seen:?}");
        }
        let again: Vec<_> = seen.iter().filter(|(again, _, _)| *again > 0).collect();
        assert!(again.is_empty(), "prepared again: {again:?}");
    }
}

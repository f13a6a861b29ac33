//! One reference set's cache file: a SQLite table of files (real path, size, modification
//! time, status-change time where the system has one, SHA-256, format, warnings,
//! compressed text). Several runs may use it at once (WAL;
//! each run writes its rows in one short transaction at its end). A cache made by another
//! build or with other reading limits is emptied, a damaged one is made anew; a cache that
//! cannot be used costs the run nothing but the time of reading every file.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use rusqlite::{Connection, ErrorCode, OptionalExtension, TransactionBehavior, params};

use super::embeddings::{self, KeptRows};
use super::location::cache_file;
use crate::engine::{ReadCache, display_path};
use crate::ingest::{Extracted, Format, IngestLimits};
use crate::meaning::Embedding;
use crate::meaning::kept::{KeptEmbeddings, Key};

/// Layout of the cache file; another value empties the cache.
const FORMAT: u32 = 2;
/// A file modified this recently is not cached: a change within the same clock tick
/// would keep its size and time, and go unseen.
pub(crate) const SETTLED: Duration = Duration::from_secs(2);
/// How long a run waits for another run's write to end.
const BUSY: Duration = Duration::from_secs(20);
/// zstd level of cached texts.
const TEXT_LEVEL: i32 = 3;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(
    path TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    ctime_ns INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    format TEXT NOT NULL,
    warnings TEXT NOT NULL,
    text BLOB NOT NULL
);
";

/// Why the cache could not be used or kept up to date.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: {source}")]
    Sql { path: PathBuf, source: rusqlite::Error },
}

impl CacheError {
    fn damaged(&self) -> bool {
        matches!(self, Self::Sql { source: rusqlite::Error::SqliteFailure(e, _), .. }
            if matches!(e.code, ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt))
    }
}

/// How the references of a run were had.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheSummary {
    /// Taken from the cache, not read.
    pub from_cache: usize,
    /// Read from their files (new, changed, or not cacheable).
    pub read: usize,
}

/// A file as seen before it was read.
#[derive(Clone, Debug)]
struct Seen {
    key: String,
    size: i64,
    mtime_ns: i64,
    /// The status-change time (Unix), which no tool can set back: a file rewritten with
    /// its old size and modification time restored still differs here. 0 elsewhere.
    ctime_ns: i64,
    /// Modified long enough ago to be cached.
    settled: bool,
}

/// A file read in this run, to be written at its end.
struct Row {
    seen: Seen,
    sha256: String,
    format: String,
    warnings: String,
    text: Vec<u8>,
}

/// The cache of one reference set, open for one run.
pub struct ReferenceCache {
    file: PathBuf,
    conn: Mutex<Connection>,
    /// Every reference the run asked for, by key: what the cache keeps at the end.
    asked: Mutex<HashSet<String>>,
    /// References to be read, as seen before reading.
    misses: Mutex<HashMap<PathBuf, Seen>>,
    pending: Mutex<Vec<Row>>,
    /// The embeddings the run used and computed.
    kept: KeptRows,
    hits: AtomicUsize,
    reads: AtomicUsize,
    problems: Mutex<Vec<String>>,
}

impl std::fmt::Debug for ReferenceCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReferenceCache").field("file", &self.file).finish()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl ReferenceCache {
    /// Opens (or creates) in `dir` the cache of the reference set given as `roots`, for
    /// files read with `limits`. A damaged cache file is replaced by an empty one (and
    /// [`ReferenceCache::problems`] says so).
    pub fn open(dir: &Path, roots: &[PathBuf], limits: &IngestLimits) -> Result<Self, CacheError> {
        std::fs::create_dir_all(dir).map_err(|source| CacheError::Io { path: dir.to_path_buf(), source })?;
        let file = cache_file(dir, roots);
        let identity = identity(limits);
        let (conn, problem) = match open_file(&file, &identity) {
            Ok(conn) => (conn, None),
            Err(error) if error.damaged() => {
                for suffix in ["", "-wal", "-shm"] {
                    let mut path = file.clone().into_os_string();
                    path.push(suffix);
                    let path = PathBuf::from(path);
                    if path.exists() {
                        std::fs::remove_file(&path).map_err(|source| CacheError::Io { path, source })?;
                    }
                }
                let conn = open_file(&file, &identity)?;
                (conn, Some(format!("the reference cache was damaged ({error}) and is built anew")))
            }
            Err(error) => return Err(error),
        };
        Ok(Self {
            file,
            conn: Mutex::new(conn),
            asked: Mutex::default(),
            misses: Mutex::default(),
            pending: Mutex::default(),
            kept: KeptRows::default(),
            hits: AtomicUsize::new(0),
            reads: AtomicUsize::new(0),
            problems: Mutex::new(problem.into_iter().collect()),
        })
    }

    /// The cache file.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// What went wrong with the cache during the run (each once): the run read those files
    /// instead, so its results are not affected.
    pub fn problems(&self) -> Vec<String> {
        lock(&self.problems).clone()
    }

    /// References taken from the cache and read, so far.
    pub fn summary(&self) -> CacheSummary {
        CacheSummary { from_cache: self.hits.load(Ordering::Relaxed), read: self.reads.load(Ordering::Relaxed) }
    }

    /// Brings the cache up to date after a finished run, in one transaction: the files read
    /// replace their old rows, and files the run did not ask for (gone from the reference
    /// folders) leave it. Not called after a cancelled run.
    pub fn finish(&self) -> Result<CacheSummary, CacheError> {
        let pending = std::mem::take(&mut *lock(&self.pending));
        let asked = std::mem::take(&mut *lock(&self.asked));
        let mut conn = lock(&self.conn);
        let sql = |source| CacheError::Sql { path: self.file.clone(), source };
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(sql)?;
        for row in &pending {
            tx.execute(
                "INSERT OR REPLACE INTO files(path, size, mtime_ns, ctime_ns, sha256, format, warnings, text)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    row.seen.key,
                    row.seen.size,
                    row.seen.mtime_ns,
                    row.seen.ctime_ns,
                    row.sha256,
                    row.format,
                    row.warnings,
                    row.text
                ],
            )
            .map_err(sql)?;
        }
        if !asked.is_empty() {
            let kept: Vec<String> = {
                let mut stmt = tx.prepare("SELECT path FROM files").map_err(sql)?;
                stmt.query_map([], |r| r.get(0)).map_err(sql)?.collect::<Result<_, _>>().map_err(sql)?
            };
            for gone in kept.iter().filter(|p| !asked.contains(*p)) {
                tx.execute("DELETE FROM files WHERE path = ?1", [gone]).map_err(sql)?;
            }
        }
        self.kept.write(&tx).map_err(sql)?;
        tx.commit().map_err(sql)?;
        Ok(self.summary())
    }

    fn note(&self, problem: String) {
        let mut problems = lock(&self.problems);
        if !problems.contains(&problem) {
            problems.push(problem);
        }
    }

    /// The cached extraction of `seen`, if its size and time still match.
    fn lookup(&self, seen: &Seen) -> Result<Option<Extracted>, String> {
        type Found = (i64, i64, i64, String, String, String, Vec<u8>);
        let found: Option<Found> = lock(&self.conn)
            .prepare_cached(
                "SELECT size, mtime_ns, ctime_ns, sha256, format, warnings, text FROM files WHERE path = ?1",
            )
            .and_then(|mut s| {
                s.query_row([&seen.key], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?))
                })
                .optional()
            })
            .map_err(|e| format!("{}: {e}", self.file.display()))?;
        let Some((size, mtime_ns, ctime_ns, sha256, format, warnings, text)) = found else {
            return Ok(None);
        };
        if (size, mtime_ns, ctime_ns) != (seen.size, seen.mtime_ns, seen.ctime_ns) {
            return Ok(None);
        }
        let damaged = |what: &str| format!("{}: a damaged entry ({what}) was read again", self.file.display());
        let format: Format = serde_json::from_str(&format).map_err(|_| damaged("format"))?;
        let warnings: Vec<crate::model::Notice> = serde_json::from_str(&warnings).map_err(|_| damaged("warnings"))?;
        let raw = zstd::stream::decode_all(text.as_slice()).map_err(|_| damaged("text"))?;
        let text = String::from_utf8(raw).map_err(|_| damaged("text"))?;
        Ok(Some(Extracted { text, format, warnings, sha256 }))
    }
}

impl ReadCache for ReferenceCache {
    fn get(&self, path: &Path) -> Option<Extracted> {
        let seen = std::fs::canonicalize(path).and_then(|real| Ok((real.clone(), std::fs::metadata(&real)?)));
        // A named pipe or a device in a file's place is never a cached file.
        let Some((real, meta)) = seen.ok().filter(|(_, meta)| meta.is_file()) else {
            // Reading will say what is wrong with it.
            self.reads.fetch_add(1, Ordering::Relaxed);
            return None;
        };
        let modified = meta.modified().ok();
        let seen = Seen {
            key: display_path(&real),
            size: meta.len() as i64,
            mtime_ns: modified.map(nanos_since_epoch).unwrap_or(i64::MIN),
            ctime_ns: status_changed_ns(&meta),
            settled: modified.is_some_and(|m| SystemTime::now().duration_since(m).is_ok_and(|age| age >= SETTLED)),
        };
        lock(&self.asked).insert(seen.key.clone());
        match self.lookup(&seen) {
            Ok(Some(extracted)) if seen.settled => {
                self.hits.fetch_add(1, Ordering::Relaxed);
                return Some(extracted);
            }
            Ok(_) => {}
            Err(problem) => self.note(problem),
        }
        self.reads.fetch_add(1, Ordering::Relaxed);
        lock(&self.misses).insert(path.to_path_buf(), seen);
        None
    }

    fn put(&self, path: &Path, extracted: &Extracted) {
        let Some(seen) = lock(&self.misses).remove(path) else {
            return;
        };
        if !seen.settled {
            return;
        }
        let (Ok(format), Ok(warnings)) =
            (serde_json::to_string(&extracted.format), serde_json::to_string(&extracted.warnings))
        else {
            return;
        };
        match zstd::bulk::compress(extracted.text.as_bytes(), TEXT_LEVEL) {
            Ok(text) => {
                lock(&self.pending).push(Row { seen, sha256: extracted.sha256.clone(), format, warnings, text })
            }
            Err(e) => self.note(format!("a text could not be compressed for the cache: {e}")),
        }
    }

    fn embeddings(&self) -> Option<&dyn KeptEmbeddings> {
        Some(self)
    }
}

impl KeptEmbeddings for ReferenceCache {
    fn kept(&self, keys: &[Key]) -> Vec<Option<Embedding>> {
        let found = self.kept.lookup(&lock(&self.conn), keys);
        found.unwrap_or_else(|e| {
            self.note(format!("{}: kept embeddings could not be read ({e}); they were computed", self.file.display()));
            vec![None; keys.len()]
        })
    }

    fn keep(&self, computed: &[(Key, Embedding)]) {
        self.kept.computed(computed);
    }
}

/// What a cached text depends on besides the file: this build and the reading limits.
fn identity(limits: &IngestLimits) -> String {
    let limits = serde_json::to_string(limits).unwrap_or_default();
    format!("format {FORMAT}; {}; {limits}", crate::model::TOOL)
}

/// When the file's status last changed, in nanoseconds since the epoch (0 where the
/// system has no such time).
#[cfg(unix)]
pub(crate) fn status_changed_ns(meta: &std::fs::Metadata) -> i64 {
    use std::os::unix::fs::MetadataExt;
    meta.ctime().saturating_mul(1_000_000_000).saturating_add(meta.ctime_nsec())
}

#[cfg(not(unix))]
pub(crate) fn status_changed_ns(_meta: &std::fs::Metadata) -> i64 {
    0
}

/// `t` in nanoseconds since the epoch, negative before it, saturating.
pub(crate) fn nanos_since_epoch(t: SystemTime) -> i64 {
    match t.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_nanos()).unwrap_or(i64::MAX),
        Err(before) => i64::try_from(before.duration().as_nanos()).map(|n| -n).unwrap_or(i64::MIN),
    }
}

/// Puts the cache file in WAL mode, once for good. Runs started together may all find a
/// new file: switching needs the file to themselves, and SQLite answers "database is
/// locked" at once (without waiting as [`BUSY`] tells it) to all but one; the others
/// wait their turn here, and find the switch made.
fn use_write_ahead_log(conn: &Connection) -> Result<(), rusqlite::Error> {
    let start = std::time::Instant::now();
    loop {
        let mode: String = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
        if mode.eq_ignore_ascii_case("wal") {
            return Ok(());
        }
        match conn.pragma_update(None, "journal_mode", "WAL") {
            Err(e) if e.sqlite_error_code() == Some(ErrorCode::DatabaseBusy) && start.elapsed() < BUSY => {
                std::thread::sleep(Duration::from_millis(10));
            }
            other => return other,
        }
    }
}

/// Opens the cache file, creating its tables; the files of a cache of another identity
/// (another layout, build or reading limits) are dropped with their table.
fn open_file(file: &Path, identity: &str) -> Result<Connection, CacheError> {
    let sql = |source| CacheError::Sql { path: file.to_path_buf(), source };
    let mut conn = Connection::open(file).map_err(sql)?;
    conn.busy_timeout(BUSY).map_err(sql)?;
    use_write_ahead_log(&conn).map_err(sql)?;
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(sql)?;
    tx.execute_batch(SCHEMA).map_err(sql)?;
    // Embeddings depend on the model and the text alone: kept whatever the identity.
    tx.execute_batch(embeddings::SCHEMA).map_err(sql)?;
    let stored: Option<String> =
        tx.query_row("SELECT value FROM meta WHERE key = 'identity'", [], |r| r.get(0)).optional().map_err(sql)?;
    if stored.as_deref() != Some(identity) {
        tx.execute_batch("DROP TABLE files;").map_err(sql)?;
        tx.execute_batch(SCHEMA).map_err(sql)?;
        tx.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('identity', ?1)", [identity]).map_err(sql)?;
    }
    tx.commit().map_err(sql)?;
    Ok(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aged(path: &Path, secs_ago: u64) {
        let when = SystemTime::now() - Duration::from_secs(secs_ago);
        std::fs::File::options().write(true).open(path).unwrap().set_modified(when).unwrap();
    }

    #[test]
    fn unchanged_files_come_back_changed_and_fresh_ones_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let refs = dir.path().join("refs");
        std::fs::create_dir(&refs).unwrap();
        let (a, b) = (refs.join("a.txt"), refs.join("b.txt"));
        std::fs::write(&a, "alpha text").unwrap();
        std::fs::write(&b, "beta text").unwrap();
        aged(&a, 60);
        let limits = IngestLimits::default();
        let cache_dir = dir.path().join("cache");
        let run = || {
            let cache = ReferenceCache::open(&cache_dir, std::slice::from_ref(&refs), &limits).unwrap();
            for path in [&a, &b] {
                if cache.get(path).is_none() {
                    cache.put(path, &crate::ingest::extract(path, &limits).unwrap());
                }
            }
            cache.finish().unwrap()
        };
        assert_eq!(run(), CacheSummary { from_cache: 0, read: 2 });
        // b was modified just now: not cached yet.
        assert_eq!(run(), CacheSummary { from_cache: 1, read: 1 });
        aged(&b, 60);
        assert_eq!(run(), CacheSummary { from_cache: 1, read: 1 });
        assert_eq!(run(), CacheSummary { from_cache: 2, read: 0 });
        let cache = ReferenceCache::open(&cache_dir, std::slice::from_ref(&refs), &limits).unwrap();
        assert_eq!(cache.get(&a).map(|e| e.text), Some("alpha text".to_string()));
    }

    #[test]
    fn kept_embeddings_come_back_in_the_next_run_and_unknown_keys_find_none() {
        let dir = tempfile::tempdir().unwrap();
        let refs = dir.path().join("refs");
        std::fs::create_dir(&refs).unwrap();
        let limits = IngestLimits::default();
        let (k1, k2, unknown) = ([1u8; 32], [2u8; 32], [3u8; 32]);
        let mut e1 = [0.0f32; crate::meaning::DIM];
        e1[0] = 1.0;
        e1[511] = -0.25;
        let e2 = [0.5f32; crate::meaning::DIM];
        let cache = ReferenceCache::open(dir.path(), std::slice::from_ref(&refs), &limits).unwrap();
        assert_eq!(cache.kept(&[k1]), vec![None]);
        cache.keep(&[(k1, e1), (k2, e2)]);
        cache.finish().unwrap();
        let again = ReferenceCache::open(dir.path(), std::slice::from_ref(&refs), &limits).unwrap();
        assert_eq!(again.kept(&[k2, unknown, k1]), vec![Some(e2), None, Some(e1)]);
        again.finish().unwrap();
        assert!(again.problems().is_empty(), "{:?}", again.problems());
    }

    #[test]
    fn a_cache_of_another_layout_is_dropped_and_made_anew() {
        let dir = tempfile::tempdir().unwrap();
        let refs = dir.path().join("refs");
        std::fs::create_dir(&refs).unwrap();
        let file = cache_file(dir.path(), std::slice::from_ref(&refs));
        let old = Connection::open(&file).unwrap();
        old.execute_batch(
            "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
             INSERT INTO meta VALUES ('identity', 'format 1');
             CREATE TABLE files(path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, text BLOB);
             INSERT INTO files VALUES ('x', 1, 1, x'00');",
        )
        .unwrap();
        drop(old);
        let limits = IngestLimits::default();
        let doc = refs.join("a.txt");
        std::fs::write(&doc, "alpha text").unwrap();
        aged(&doc, 60);
        let cache = ReferenceCache::open(dir.path(), std::slice::from_ref(&refs), &limits).unwrap();
        assert!(cache.get(&doc).is_none());
        cache.put(&doc, &crate::ingest::extract(&doc, &limits).unwrap());
        assert_eq!(cache.finish().unwrap(), CacheSummary { from_cache: 0, read: 1 });
        assert!(cache.problems().is_empty(), "{:?}", cache.problems());
        let cache = ReferenceCache::open(dir.path(), std::slice::from_ref(&refs), &limits).unwrap();
        assert!(cache.get(&doc).is_some());
    }
}

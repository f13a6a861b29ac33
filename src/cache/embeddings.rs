//! The reference cache's kept embeddings: the meaning layer's embeddings of reference
//! units, by key (the SHA-256 of the model and the unit's text), each with the day it was
//! last used. A run reads them as it goes and writes, at its end, what it computed and the
//! day of what it used; an embedding no run used for [`UNUSED_DAYS`] days leaves.

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use crate::meaning::Embedding;
use crate::meaning::kept::{Key, from_bytes, to_bytes};

/// The table (made beside the files' in every cache file).
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS embeddings(
    key BLOB PRIMARY KEY,
    vector BLOB NOT NULL,
    used INTEGER NOT NULL
);
";

/// Days an embedding stays kept when no run uses it.
const UNUSED_DAYS: i64 = 30;

/// What a run did with the kept embeddings, written at its end.
#[derive(Default)]
pub(super) struct KeptRows {
    used: Mutex<HashSet<Key>>,
    computed: Mutex<Vec<(Key, Embedding)>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Today, as days since the epoch (0 on a clock set before it).
fn today() -> i64 {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    i64::try_from(secs / 86_400).unwrap_or(i64::MAX)
}

impl KeptRows {
    /// The kept embedding of each key (`None` where none is, or its bytes are not one);
    /// the ones found are marked used.
    pub(super) fn lookup(&self, conn: &Connection, keys: &[Key]) -> Result<Vec<Option<Embedding>>, rusqlite::Error> {
        let mut stmt = conn.prepare_cached("SELECT vector FROM embeddings WHERE key = ?1")?;
        let mut found = Vec::with_capacity(keys.len());
        let mut used = Vec::new();
        for key in keys {
            let bytes: Option<Vec<u8>> = stmt.query_row([key.as_slice()], |r| r.get(0)).optional()?;
            let embedding = bytes.as_deref().and_then(from_bytes);
            if embedding.is_some() {
                used.push(*key);
            }
            found.push(embedding);
        }
        lock(&self.used).extend(used);
        Ok(found)
    }

    /// Embeddings the run computed, to be written at its end.
    pub(super) fn computed(&self, computed: &[(Key, Embedding)]) {
        lock(&self.computed).extend_from_slice(computed);
    }

    /// Writes what the run computed, marks what it used, and lets go of what no run used
    /// for [`UNUSED_DAYS`] days.
    pub(super) fn write(&self, tx: &Transaction<'_>) -> Result<(), rusqlite::Error> {
        let computed = std::mem::take(&mut *lock(&self.computed));
        let used = std::mem::take(&mut *lock(&self.used));
        if computed.is_empty() && used.is_empty() {
            return Ok(());
        }
        let day = today();
        let mut insert =
            tx.prepare_cached("INSERT OR REPLACE INTO embeddings(key, vector, used) VALUES (?1, ?2, ?3)")?;
        for (key, embedding) in &computed {
            insert.execute(params![key.as_slice(), to_bytes(embedding), day])?;
        }
        let mut touch = tx.prepare_cached("UPDATE embeddings SET used = ?2 WHERE key = ?1 AND used < ?2")?;
        for key in &used {
            touch.execute(params![key.as_slice(), day])?;
        }
        tx.execute("DELETE FROM embeddings WHERE used < ?1", [day - UNUSED_DAYS])?;
        Ok(())
    }
}

//! Looking after an archive: list, stats, remove, expire, groups and verify.

use std::path::PathBuf;

use rusqlite::Connection;

use super::groups::{self, Group, repair_representatives};
use super::segment::Segment;
use super::{Archive, ArchiveError};
use crate::engine::compared_prefix;
use crate::fingerprint::TokenKeys;
use crate::normalize::tokenize;

/// One archived document, as `archive list` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentInfo {
    pub id: i64,
    pub path: String,
    pub sha256: String,
    pub size: u64,
    pub added_at: i64,
    pub published: Option<String>,
    pub chars: u64,
    pub simhash: Option<u64>,
    pub nshash: Option<u64>,
    pub group: i64,
}

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

/// What `verify` found; empty `problems` means the archive is sound.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    pub documents: u64,
    pub segments: u64,
    /// Segment files no batch committed (left by an interrupted add; the next add
    /// removes them). Not a problem.
    pub leftovers: Vec<String>,
    pub problems: Vec<String>,
}

/// What a remove did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RemoveSummary {
    /// Documents removed.
    pub removed: usize,
    /// The keys that matched no document (`id N` for an id, else the path as given).
    pub not_found: Vec<String>,
}

/// Deletes document `id` inside a write transaction: its row goes, its postings stay in
/// their segments until a merge, skipped by readers through the `removed` list.
pub(super) fn remove_in(conn: &Connection, id: i64) -> Result<(), rusqlite::Error> {
    delete_rows(conn, id)?;
    repair_representatives(conn)
}

/// The rows of document `id` (its catalog row, text and token keys) deleted and the id
/// listed as removed, groups left to repair by the caller.
fn delete_rows(conn: &Connection, id: i64) -> Result<(), rusqlite::Error> {
    conn.execute("INSERT OR IGNORE INTO removed(id) VALUES (?1)", [id])?;
    conn.execute("DELETE FROM documents WHERE id = ?1", [id])?;
    conn.execute("DELETE FROM texts WHERE id = ?1", [id])?;
    conn.execute("DELETE FROM token_keys WHERE id = ?1", [id])?;
    Ok(())
}

impl Archive {
    /// Every document, by id.
    pub fn list(&self) -> Result<Vec<DocumentInfo>, ArchiveError> {
        let conn = self.lock();
        let mut stmt = conn
            .prepare(
                "SELECT id, path, sha256, size, added_at, published, chars, simhash, nshash, group_id
                 FROM documents ORDER BY id",
            )
            .map_err(|e| self.sql(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(DocumentInfo {
                    id: r.get(0)?,
                    path: r.get(1)?,
                    sha256: r.get(2)?,
                    size: r.get::<_, i64>(3)? as u64,
                    added_at: r.get(4)?,
                    published: r.get(5)?,
                    chars: r.get::<_, i64>(6)? as u64,
                    simhash: r.get::<_, Option<i64>>(7)?.map(|h| h as u64),
                    nshash: r.get::<_, Option<i64>>(8)?.map(|h| h as u64),
                    group: r.get(9)?,
                })
            })
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))
    }

    /// Sizes of the archive.
    pub fn stats(&self) -> Result<Stats, ArchiveError> {
        let conn = self.lock();
        let one = |q: &str| conn.query_row(q, [], |r| r.get::<_, i64>(0)).map(|v| v as u64).map_err(|e| self.sql(e));
        let mut stats = Stats {
            documents: one("SELECT count(*) FROM documents")?,
            chars: one("SELECT coalesce(sum(chars), 0) FROM documents")?,
            groups: one("SELECT count(*) FROM (SELECT group_id FROM documents GROUP BY group_id HAVING count(*) > 1)")?,
            kgram_segments: one("SELECT count(*) FROM segments WHERE kind = 0")?,
            sentence_segments: one("SELECT count(*) FROM segments WHERE kind = 1")?,
            postings: one("SELECT coalesce(sum(postings), 0) FROM segments")?,
            bytes: 0,
        };
        drop(conn);
        for entry in std::fs::read_dir(&self.dir).map_err(|e| ArchiveError::io(&self.dir, e))? {
            let entry = entry.map_err(|e| ArchiveError::io(&self.dir, e))?;
            stats.bytes += entry.metadata().map(|m| m.len()).unwrap_or(0);
        }
        Ok(stats)
    }

    /// Near-duplicate groups of more than one document.
    pub fn groups(&self) -> Result<Vec<Group>, ArchiveError> {
        groups::list(&self.lock()).map_err(|e| self.sql(e))
    }

    /// Removes the documents with these `ids` and those archived from these `paths` (the
    /// file a path resolves to, or the path as added): an id and a path are never taken
    /// one for the other. Says what went and which keys matched nothing.
    pub fn remove(&self, ids: &[i64], paths: &[PathBuf]) -> Result<RemoveSummary, ArchiveError> {
        self.require_writable()?;
        let mut conn = self.lock();
        let dir = self.dir.clone();
        let sql = |e| ArchiveError::sql(&dir, e);
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(sql)?;
        let mut summary = RemoveSummary::default();
        let mut gone = std::collections::BTreeSet::new();
        for &id in ids {
            let found: bool = tx
                .query_row("SELECT count(*) FROM documents WHERE id = ?1", [id], |r| r.get::<_, i64>(0))
                .map_err(sql)?
                > 0;
            if found {
                gone.insert(id);
            } else {
                summary.not_found.push(format!("id {id}"));
            }
        }
        for path in paths {
            let given = path.to_string_lossy().into_owned();
            let real =
                std::fs::canonicalize(path).or_else(|_| std::path::absolute(path)).unwrap_or_else(|_| path.clone());
            let mut stmt = tx.prepare("SELECT id FROM documents WHERE path = ?1 OR source = ?2").map_err(sql)?;
            let found: Vec<i64> = stmt
                .query_map([given.as_str(), &*real.to_string_lossy()], |r| r.get(0))
                .map_err(sql)?
                .collect::<Result<_, _>>()
                .map_err(sql)?;
            if found.is_empty() {
                summary.not_found.push(given);
            }
            gone.extend(found);
        }
        for &id in &gone {
            remove_in(&tx, id).map_err(sql)?;
        }
        tx.commit().map_err(sql)?;
        summary.removed = gone.len();
        Ok(summary)
    }

    /// Drops every document older than `before` (YYYY-MM-DD): its publication date when
    /// it has one, else the day it was added. Groups keep a representative.
    pub fn expire(&self, before: &str) -> Result<usize, ArchiveError> {
        self.require_writable()?;
        super::date::parse_date(before)?;
        let mut conn = self.lock();
        let dir = self.dir.clone();
        let sql = |e| ArchiveError::sql(&dir, e);
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(sql)?;
        let ids: Vec<i64> = {
            let mut stmt = tx
                .prepare(
                    "SELECT id FROM documents
                     WHERE coalesce(published, date(added_at, 'unixepoch')) < ?1 ORDER BY id",
                )
                .map_err(sql)?;
            stmt.query_map([before], |r| r.get(0)).map_err(sql)?.collect::<Result<_, _>>().map_err(sql)?
        };
        for &id in &ids {
            delete_rows(&tx, id).map_err(sql)?;
        }
        repair_representatives(&tx).map_err(sql)?;
        tx.commit().map_err(sql)?;
        Ok(ids.len())
    }

    /// The token keys of an archived text, as an add stores them.
    fn token_keys_of(&self, text: &str) -> TokenKeys<'static> {
        let compared = compared_prefix(text, &self.settings);
        TokenKeys::of(&tokenize(&text[..compared], self.settings.normalize).tokens)
    }

    /// Checks the catalog (SQLite's integrity check), every listed segment (present,
    /// well formed, checksum) and every stored text (decompresses to its character count,
    /// and to the token keys stored beside it).
    pub fn verify(&self) -> Result<VerifyReport, ArchiveError> {
        let mut report = VerifyReport::default();
        let conn = self.lock();
        let sql = |e| ArchiveError::sql(&self.dir, e);
        let integrity: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).map_err(sql)?;
        if integrity != "ok" {
            report.problems.push(format!("{}: {integrity}", super::catalog::CATALOG));
        }
        let mut stmt = conn.prepare("SELECT file, postings FROM segments ORDER BY id").map_err(sql)?;
        let segments: Vec<(String, i64)> =
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).map_err(sql)?.collect::<Result<_, _>>().map_err(sql)?;
        for (file, postings) in &segments {
            match Segment::open(&self.dir.join(file)) {
                Ok(seg) if !seg.verify() => report.problems.push(format!("segment {file}: checksum does not match")),
                Ok(seg) if seg.len() as i64 != *postings => {
                    report.problems.push(format!("segment {file}: {} postings, the catalog says {postings}", seg.len()))
                }
                Ok(_) => {}
                Err(e) => report.problems.push(e.to_string()),
            }
        }
        report.segments = segments.len() as u64;
        let listed: std::collections::HashSet<&str> = segments.iter().map(|s| s.0.as_str()).collect();
        for entry in std::fs::read_dir(&self.dir).map_err(|e| ArchiveError::io(&self.dir, e))?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if super::segment::is_segment_file(&name) && !listed.contains(name.as_str()) {
                report.leftovers.push(name);
            }
        }
        report.leftovers.sort();
        let mut stmt = conn
            .prepare(
                "SELECT d.id, t.text, d.chars, k.keys FROM documents d LEFT JOIN texts t ON t.id = d.id
                 LEFT JOIN token_keys k ON k.id = d.id ORDER BY d.id",
            )
            .map_err(sql)?;
        let mut rows = stmt.query([]).map_err(sql)?;
        while let Some(row) = rows.next().map_err(sql)? {
            let id: i64 = row.get(0).map_err(sql)?;
            let text: Option<Vec<u8>> = row.get(1).map_err(sql)?;
            let chars: i64 = row.get(2).map_err(sql)?;
            let Some(text) = text else {
                report.problems.push(format!("document {id}: its text is missing"));
                report.documents += 1;
                continue;
            };
            let keys: Option<Vec<u8>> = row.get(3).map_err(sql)?;
            match super::add::decompress(&text) {
                Ok(t) if t.chars().count() as i64 == chars => {
                    // Documents archived before format 3 have no keys: they are read whole.
                    if let Some(keys) = keys
                        && TokenKeys::from_bytes(&keys) != Some(self.token_keys_of(&t))
                    {
                        report.problems.push(format!("document {id}: its token keys do not match its text"));
                    }
                }
                Ok(_) => report.problems.push(format!("document {id}: text length differs from the catalog")),
                Err(e) => report.problems.push(format!("document {id}: text does not decompress: {e}")),
            }
            report.documents += 1;
        }
        Ok(report)
    }
}

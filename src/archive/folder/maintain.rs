//! Looking after an archive: list, stats, remove, expire, groups and verify.

use std::collections::BTreeSet;
use std::path::PathBuf;

use super::Archive;
use super::rows::{self, Stats};
use super::segments::sequential::Segment;
use crate::archive::ArchiveError;
use crate::archive::groups::{self, Group};
use crate::archive::verify_text::{StoredText, text_problem};

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
    /// Of the paths that matched nothing, those under which documents of other files
    /// are archived (the same relative path, added from another folder): kept.
    pub elsewhere: Vec<ArchivedElsewhere>,
}

/// Documents archived under a path as given to a remove, from files other than the one
/// that path resolves to here: not removed, named so that one can be removed by its id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchivedElsewhere {
    /// The path as given.
    pub given: String,
    /// The file it resolves to from where the command runs.
    pub here: String,
    /// The documents archived under that path, each with the file it was archived from.
    pub documents: Vec<(u32, String)>,
}

/// A key of a remove: an id (the first column of `list`), or a path as given and the
/// file it resolves to from where the command runs (which alone names a document: two
/// classes' `sub/e1.txt`, each added from its own folder, are two files).
pub(in crate::archive) enum RemoveKey<'a> {
    Id(u32),
    Path { given: &'a str, real: &'a str },
}

/// Documents with the file each was archived from.
pub(in crate::archive) type Sources = Vec<(u32, String)>;

/// What the keys of a remove name, whichever store was asked.
pub(in crate::archive) struct Named {
    /// The documents to remove.
    pub gone: BTreeSet<u32>,
    /// The summary of the remove, but for `removed`.
    pub summary: RemoveSummary,
}

/// The documents the keys of a remove name, and the keys that named none (`id N` for an
/// id, else the path as given): `find` answers each key with the archived documents it
/// names, whichever store it asks, and `added_as` a path that named none with the
/// documents archived under it as added (and the file each came from). An id and a path
/// are never taken one for the other.
pub(in crate::archive) fn named_documents<E>(
    ids: &[u32],
    paths: &[PathBuf],
    find: &mut dyn FnMut(RemoveKey<'_>) -> Result<Vec<u32>, E>,
    added_as: &mut dyn FnMut(&str) -> Result<Sources, E>,
) -> Result<Named, E> {
    let mut gone = BTreeSet::new();
    let mut summary = RemoveSummary::default();
    for &id in ids {
        let found = find(RemoveKey::Id(id))?;
        if found.is_empty() {
            summary.not_found.push(format!("id {id}"));
        }
        gone.extend(found);
    }
    for path in paths {
        let given = path.to_string_lossy().into_owned();
        let here = resolved(path).to_string_lossy().into_owned();
        let found = find(RemoveKey::Path { given: &given, real: &here })?;
        if found.is_empty() {
            let documents = added_as(&given)?;
            if !documents.is_empty() {
                summary.elsewhere.push(ArchivedElsewhere { given: given.clone(), here, documents });
            }
            summary.not_found.push(given);
        }
        gone.extend(found);
    }
    Ok(Named { gone, summary })
}

/// The file `path` resolves to from where the command runs, as an add records it: its
/// links resolved; for a file gone, its folder's links resolved and its name kept.
pub(in crate::archive) fn resolved(path: &std::path::Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (absolute.parent().map(std::fs::canonicalize), absolute.file_name()) {
        (Some(Ok(folder)), Some(name)) => folder.join(name),
        _ => absolute,
    }
}

/// Whether no file is left at `path`: nothing there, or a folder. A file that cannot be
/// looked at (a folder above it not readable, a share gone away) is not gone.
pub(in crate::archive) fn is_gone(path: &std::path::Path) -> bool {
    match std::fs::symlink_metadata(path) {
        Ok(meta) => meta.is_dir(),
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    }
}

/// The archived documents a damaged segment holds postings of (as far as its entries
/// can still be read), said after its problem: their matches may be missed. A damaged
/// entry may name another document of the segment's range (entries are packed in as few
/// bits as that range needs), never one beyond it.
fn concerned_documents(segment: &Segment, archived: &[rows::DocumentInfo]) -> String {
    const SHOWN: usize = 10;
    // As far as they can be read: a read error ends them.
    let held: std::collections::BTreeSet<u32> =
        segment.entries().into_iter().flatten().map_while(Result::ok).map(|(_, p)| p.doc).collect();
    let named: Vec<String> =
        archived.iter().filter(|d| held.contains(&d.id)).map(|d| format!("{} ({})", d.id, d.path)).collect();
    match named.len() {
        0 => String::new(),
        n if n <= SHOWN => format!("; matches with documents {} may be missed", named.join(", ")),
        n => format!("; matches with documents {} and {} more may be missed", named[..SHOWN].join(", "), n - SHOWN),
    }
}

impl Archive {
    /// Every document, by id.
    pub fn list(&self) -> Result<Vec<rows::DocumentInfo>, ArchiveError> {
        rows::documents(&self.lock()).map_err(|e| self.sql(e))
    }

    /// The paths (as added) of those of `ids` that are archived, by id.
    pub fn paths_of(&self, ids: &[u32]) -> Result<Vec<(u32, String)>, ArchiveError> {
        rows::paths_of(&self.lock(), ids).map_err(|e| self.sql(e))
    }

    /// Sizes of the archive.
    pub fn stats(&self) -> Result<Stats, ArchiveError> {
        let mut stats = rows::counts(&self.lock()).map_err(|e| self.sql(e))?;
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

    /// Removes the documents with these `ids` and those archived from the files these
    /// `paths` resolve to from here (a document archived before the resolved path was
    /// recorded, by its path as added): an id and a path are never taken one for the
    /// other. Says what went and which keys matched nothing.
    pub fn remove(&self, ids: &[u32], paths: &[PathBuf]) -> Result<RemoveSummary, ArchiveError> {
        self.require_writable()?;
        let mut conn = self.lock();
        let dir = self.dir.clone();
        let sql = |e| ArchiveError::sql(&dir, e);
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(sql)?;
        let named = named_documents(
            ids,
            paths,
            &mut |key| match key {
                RemoveKey::Id(id) => Ok(if rows::has_document(&tx, id)? { vec![id] } else { Vec::new() }),
                RemoveKey::Path { given, real } => rows::ids_by_path(&tx, given, real),
            },
            &mut |given| rows::sources_added_as(&tx, given),
        )
        .map_err(sql)?;
        for &id in &named.gone {
            rows::remove_document(&tx, id).map_err(sql)?;
        }
        tx.commit().map_err(sql)?;
        Ok(RemoveSummary { removed: named.gone.len(), ..named.summary })
    }

    /// Removes the archived documents whose file lay under one of `folders` and is gone
    /// (`add --sync`): the path it resolved to when it was archived no longer names a
    /// file. Documents of files elsewhere, and of files still there but not added this
    /// time (unreadable, passed over), are kept. How many went.
    pub fn drop_gone(&self, folders: &[PathBuf]) -> Result<usize, ArchiveError> {
        self.require_writable()?;
        let roots: Vec<PathBuf> = folders.iter().filter_map(|f| std::fs::canonicalize(f).ok()).collect();
        if roots.is_empty() {
            return Ok(0);
        }
        let mut conn = self.lock();
        let dir = self.dir.clone();
        let sql = |e| ArchiveError::sql(&dir, e);
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(sql)?;
        let mut gone = Vec::new();
        for (id, source) in rows::sources(&tx).map_err(sql)? {
            let file = std::path::Path::new(&source);
            if roots.iter().any(|root| file.starts_with(root)) && is_gone(file) {
                gone.push(id);
            }
        }
        for &id in &gone {
            rows::remove_document(&tx, id).map_err(sql)?;
        }
        tx.commit().map_err(sql)?;
        Ok(gone.len())
    }

    /// Drops every document older than `before` (YYYY-MM-DD): its publication date when
    /// it has one, else the day it was added. Groups keep a representative.
    pub fn expire(&self, before: &str) -> Result<usize, ArchiveError> {
        self.require_writable()?;
        crate::archive::date::parse_date(before)?;
        let mut conn = self.lock();
        let dir = self.dir.clone();
        let sql = |e| ArchiveError::sql(&dir, e);
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(sql)?;
        let ids = rows::ids_dated_before(&tx, before).map_err(sql)?;
        for &id in &ids {
            rows::remove_document(&tx, id).map_err(sql)?;
        }
        tx.commit().map_err(sql)?;
        Ok(ids.len())
    }

    /// Checks the catalog (SQLite's integrity check), every listed segment (present,
    /// well formed, checksum) and every stored text (decompresses to its character count,
    /// and to the token keys stored beside it).
    pub fn verify(&self) -> Result<VerifyReport, ArchiveError> {
        let mut report = VerifyReport::default();
        let conn = self.lock();
        let sql = |e| ArchiveError::sql(&self.dir, e);
        let integrity = rows::integrity(&conn).map_err(sql)?;
        if integrity != "ok" {
            report.problems.push(format!("{}: {integrity}", super::catalog::CATALOG));
        }
        // The numbers the catalog keeps of its documents, against a count of them.
        for (noun, kept, real) in rows::kept_against_real(&conn).map_err(sql)? {
            if kept != real {
                report
                    .problems
                    .push(format!("{}: it says it holds {kept} {noun}, and holds {real}", super::catalog::CATALOG));
            }
        }
        let segments = rows::segments(&conn).map_err(sql)?;
        for listed in &segments {
            let (file, postings) = (&listed.file, listed.postings);
            // A segment that cannot be read is a problem of its own, like one that does not
            // match its checksum: the other segments are still verified.
            match Segment::open(&self.dir.join(file)).and_then(|seg| Ok((seg.verify()?, seg))) {
                Ok((false, seg)) => {
                    let concerned = concerned_documents(&seg, &rows::documents(&conn).map_err(sql)?);
                    report.problems.push(format!("segment {file}: checksum does not match{concerned}"));
                }
                Ok((true, seg)) if i64::try_from(seg.len()).ok() != Some(postings) => {
                    report.problems.push(format!("segment {file}: {} postings, the catalog says {postings}", seg.len()))
                }
                Ok(_) => {}
                Err(e) => report.problems.push(e.to_string()),
            }
        }
        report.segments = segments.len() as u64;
        let listed: std::collections::HashSet<&str> = segments.iter().map(|s| s.file.as_str()).collect();
        for entry in std::fs::read_dir(&self.dir).map_err(|e| ArchiveError::io(&self.dir, e))?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if super::segments::segment::is_segment_file(&name) && !listed.contains(name.as_str()) {
                report.leftovers.push(name);
            }
        }
        report.leftovers.sort();
        rows::for_each_text(&conn, &mut |rows::TextRow { id, text, chars, keys, key_width }| {
            report.documents += 1;
            let Some(text) = text else {
                report.problems.push(format!("document {id}: its text is missing"));
                return;
            };
            let width = key_width.and_then(|w| usize::try_from(w).ok()).unwrap_or(2);
            let chars = u64::try_from(chars).unwrap_or(u64::MAX);
            let stored = StoredText { id, text: &text, chars, keys: keys.as_deref().map(|keys| (keys, width)) };
            report.problems.extend(text_problem(&stored, &self.settings));
        })
        .map_err(sql)?;
        Ok(report)
    }
}

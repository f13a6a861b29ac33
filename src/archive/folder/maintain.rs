//! Looking after a folder archive: list, stats, groups, and what verify checks of the
//! folder's own keeping; remove, expire, verify and an add's sync are the verbs both
//! stores share ([`crate::archive::verbs`]).

use std::path::PathBuf;

use crate::archive::verbs;
use crate::archive::verbs::remove::RemoveSummary;

use super::Archive;
use super::grouping;
use super::rows;
use super::segments::sequential::Segment;
use crate::archive::error::ArchiveError;
use crate::archive::groups::Group;
use crate::archive::outcomes::{EachText, VerifyReport};
use crate::archive::records::{DocumentInfo, Stats};
use crate::archive::verify_text::StoredText;

/// The archived documents a damaged segment holds postings of (as far as its entries
/// can still be read), said after its problem: their matches may be missed. A damaged
/// entry may name another document of the segment's range (entries are packed in as few
/// bits as that range needs), never one beyond it.
fn concerned_documents(segment: &Segment, archived: &[DocumentInfo]) -> String {
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
    pub fn list(&self) -> Result<Vec<DocumentInfo>, ArchiveError> {
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
        grouping::list(&self.lock()).map_err(|e| self.sql(e))
    }

    /// Removes documents by id and by path ([`verbs::remove::remove`]).
    pub fn remove(&self, ids: &[u32], paths: &[PathBuf]) -> Result<RemoveSummary, ArchiveError> {
        verbs::remove::remove(self, ids, paths)
    }

    /// Removes the archived documents whose file is gone from one of `folders`
    /// ([`verbs::sync::drop_gone`]).
    pub fn drop_gone(&self, folders: &[PathBuf]) -> Result<usize, ArchiveError> {
        verbs::sync::drop_gone(self, folders)
    }

    /// Drops every document older than `before` ([`verbs::expire::expire`]).
    pub fn expire(&self, before: &str) -> Result<usize, ArchiveError> {
        verbs::expire::expire(self, before)
    }

    /// Checks the catalog (SQLite's integrity check), every listed segment (present,
    /// well formed, checksum) and every stored text (decompresses to its character count,
    /// and to the token keys stored beside it) and group ([`verbs::verify::verify`]).
    pub fn verify(&self) -> Result<VerifyReport, ArchiveError> {
        verbs::verify::verify(self)
    }

    /// What `verify` checks of the folder's own keeping: the catalog's integrity and the
    /// numbers it keeps, every listed segment, and segment files no batch committed.
    pub(super) fn check_keeping(&self, report: &mut VerifyReport) -> Result<(), ArchiveError> {
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
        Ok(())
    }

    /// Calls `each` with every document's stored text, by id.
    pub(super) fn each_stored_text(&self, each: &mut EachText<'_>) -> Result<(), ArchiveError> {
        let conn = self.lock();
        rows::for_each_text(&conn, &mut |rows::TextRow { id, text, chars, keys, key_width }| {
            let width = key_width.and_then(|w| usize::try_from(w).ok()).unwrap_or(2);
            let chars = u64::try_from(chars).unwrap_or(u64::MAX);
            let stored = text.as_deref().map(|text| StoredText {
                id,
                text,
                chars,
                keys: keys.as_deref().map(|keys| (keys, width)),
            });
            each(id, stored);
        })
        .map_err(|e| self.sql(e))
    }
}

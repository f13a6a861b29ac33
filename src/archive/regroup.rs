//! Groups by the check's rule once an add is committed: each new document that may have
//! a near duplicate other than by SimHash (its sketch held by another document, or its
//! nshash key shared) is checked against the archive as `archive check` checks a suspect,
//! and joins the groups of the near duplicates that check reports. SimHash neighbours were
//! grouped while the add committed (`groups.rs`); both follow
//! [`crate::score::near_duplicate_rule`].

use std::borrow::Cow;

use rustc_hash::FxHashMap;

use super::check::check_against;
use super::groups::{Fresh, SKETCH_HITS, join_all};
use super::reader::ArchiveIndex;
use super::rows;
use super::{Archive, ArchiveError};
use crate::engine::MAX_POSTINGS;
use crate::engine::{CancelFlag, CheckRequest, DocumentInput, NoProgress, Role};
use crate::index::{Posting, ReferenceIndex};

impl Archive {
    /// Checks the new documents of `fresh` that may have near duplicates the SimHash did
    /// not show, and joins their groups (with `cluster`, a document already in a group
    /// of more than itself keeps it). How many were checked.
    pub(super) fn regroup(&self, fresh: &[Fresh], cluster: bool, cancel: &CancelFlag) -> Result<usize, ArchiveError> {
        if fresh.is_empty() {
            return Ok(0);
        }
        let suspects = self.worth_checking(fresh)?;
        for doc in &suspects {
            if cancel.is_cancelled() {
                break;
            }
            let near = self.near_duplicates_by_check(doc)?;
            if near.is_empty() {
                continue;
            }
            let mut conn = self.lock();
            let dir = self.dir.clone();
            let sql = |e| ArchiveError::sql(&dir, e);
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(sql)?;
            let mut groups = Vec::new();
            for id in std::iter::once(doc.id).chain(near) {
                groups.extend(rows::group_of(&tx, id).map_err(sql)?);
            }
            let own = rows::group_of(&tx, doc.id).map_err(sql)?;
            if !(cluster && own.is_some_and(|g| g != doc.id)) {
                join_all(&tx, groups).map_err(sql)?;
            }
            tx.commit().map_err(sql)?;
        }
        Ok(suspects.len())
    }

    /// The documents of `fresh` whose sketch shares [`SKETCH_HITS`] hashes with another
    /// document not already in its group (hashes held by more than [`MAX_POSTINGS`]
    /// postings say nothing, as in a check), or that share an nshash key.
    fn worth_checking<'f>(&self, fresh: &'f [Fresh]) -> Result<Vec<&'f Fresh>, ArchiveError> {
        let mut sharing: Vec<(&Fresh, Vec<u32>)> = Vec::new();
        {
            let index = ArchiveIndex::open(self)?;
            for (doc, others) in fresh.iter().zip(sharing_sketches(&index, fresh)) {
                if let Some(others) = others {
                    sharing.push((doc, others));
                }
            }
        }
        let conn = self.lock();
        let mut out = Vec::new();
        for (doc, others) in sharing {
            let own = rows::group_of(&conn, doc.id).map_err(|e| self.sql(e))?;
            let mut apart = doc.nshash_neighbour;
            for other in others {
                apart |= rows::group_of(&conn, other).map_err(|e| self.sql(e))? != own;
            }
            if apart {
                out.push(doc);
            }
        }
        Ok(out)
    }

    /// The archived documents the check of `doc`'s file calls its near duplicates.
    fn near_duplicates_by_check(&self, doc: &Fresh) -> Result<Vec<u32>, ArchiveError> {
        let request = check_of(doc, &self.settings);
        let report = check_against(self, &request, &NoProgress, &CancelFlag::new())?;
        let conn = self.lock();
        let mut near = Vec::new();
        for (path, sha256) in near_duplicates_in(&report) {
            let ids = rows::ids_by_path_and_sha256(&conn, path, sha256).map_err(|e| self.sql(e))?;
            near.extend(ids.into_iter().filter(|&id| id != doc.id));
        }
        Ok(near)
    }
}

/// Documents whose sketches are looked up together: one round trip to a server for them
/// all rather than one each.
const SKETCHES_AT_ONCE: usize = 256;

/// For each of `docs`, the documents whose sketch it shares [`SKETCH_HITS`] hashes with
/// (hashes held by more than [`MAX_POSTINGS`] postings say nothing, as in a check), when
/// there are any or it shares an nshash key: it is worth checking for near duplicates.
pub(super) fn sharing_sketches(index: &dyn ReferenceIndex, docs: &[Fresh]) -> Vec<Option<Vec<u32>>> {
    let mut out = Vec::with_capacity(docs.len());
    for chunk in docs.chunks(SKETCHES_AT_ONCE) {
        let hashes: Vec<u64> = chunk.iter().flat_map(|doc| doc.sketch.iter().copied()).collect();
        let mut found = index.kgram_postings(&hashes).into_iter();
        for doc in chunk {
            out.push(sharing(doc, found.by_ref().take(doc.sketch.len())));
        }
    }
    out
}

/// What [`sharing_sketches`] says of one document, from the postings of its sketch.
fn sharing<'p>(doc: &Fresh, sketch_postings: impl Iterator<Item = Cow<'p, [Posting]>>) -> Option<Vec<u32>> {
    let mut counts: FxHashMap<u32, usize> = FxHashMap::default();
    for postings in sketch_postings {
        if postings.len() > MAX_POSTINGS {
            continue;
        }
        let mut docs: Vec<u32> = postings.iter().map(|p| p.doc).filter(|&d| d != doc.id).collect();
        docs.dedup();
        for d in docs {
            *counts.entry(d).or_default() += 1;
        }
    }
    let others: Vec<u32> = counts.into_iter().filter(|&(_, n)| n >= SKETCH_HITS).map(|(d, _)| d).collect();
    (doc.nshash_neighbour || !others.is_empty()).then_some(others)
}

/// The request that checks `doc`'s file against an archive with `settings`.
pub(super) fn check_of(doc: &Fresh, settings: &crate::settings::Settings) -> CheckRequest {
    CheckRequest {
        documents: vec![DocumentInput::new(doc.file.clone(), Role::Suspect)],
        settings: settings.clone(),
        keep_dictionary: true,
        ..CheckRequest::default()
    }
}

/// (path, SHA-256) of each archived document the check of one suspect (document 0) calls
/// its near duplicate.
pub(super) fn near_duplicates_in(report: &crate::engine::Report) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    for &[a, b] in &report.near_duplicates {
        let other = if a == 0 { b } else { a };
        let Some(entry) = report.documents.get(other).filter(|_| a == 0 || b == 0) else { continue };
        let Some(sha256) = entry.sha256.as_deref() else { continue };
        out.push((entry.path.as_str(), sha256));
    }
    out
}

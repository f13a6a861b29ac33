//! Groups by the check's rule once an add is committed: each new document that may have
//! a near duplicate other than by SimHash (its sketch held by another document, or its
//! nshash key shared) is checked against the archive as `archive check` checks a suspect,
//! and joins the groups of the near duplicates that check reports. SimHash neighbours were
//! grouped while the add committed (`groups.rs`); both follow
//! [`crate::score::near_duplicate_rule`].

use rayon::prelude::*;

use super::beside_commit::Before;
use super::check::check_against;
use super::index::ArchiveIndex;
use super::{Archive, rows};
use crate::archive::ArchiveError;
use crate::archive::groups::{Fresh, join_all, sharing};
use crate::engine::{CancelFlag, CheckRequest, DocumentInput, NoProgress, Role};
use crate::fingerprint::simhash::Dictionary;
use crate::index::{ReferenceIndex, Signal, StoreError};

impl Archive {
    /// Checks the new documents of `fresh` that may have near duplicates the SimHash did
    /// not show, and joins their groups (with `cluster`, a document already in a group
    /// of more than itself keeps it). How many were checked. What the add found of their
    /// sketches beside its last commit (`before`) spares the lookups of the segments
    /// listed before it; the checks segment Chinese text with the add's `dictionary`,
    /// built once for the add and its checks.
    pub(in crate::archive) fn regroup(
        &self,
        fresh: &[Fresh],
        (cluster, dictionary): (bool, &Dictionary),
        before: Option<&Before>,
        cancel: &CancelFlag,
    ) -> Result<usize, ArchiveError> {
        if fresh.is_empty() {
            return Ok(0);
        }
        let suspects = self.worth_checking(fresh, before)?;
        // Checked a chunk at a time, in one check each: its suspects are read and matched
        // on every core, against one opening of the archive. Groups are joined after, in
        // the documents' order, as one at a time would join them.
        for chunk in suspects.chunks(CHECKED_AT_ONCE) {
            if cancel.is_cancelled() {
                break;
            }
            for (doc, near) in chunk.iter().zip(self.near_duplicates_by_check(chunk, dictionary)?) {
                if !near.is_empty() {
                    self.join_near(doc, near, cluster)?;
                }
            }
        }
        Ok(suspects.len())
    }

    /// Joins the groups of `doc` and of its `near` duplicates (with `cluster`, a document
    /// already in a group of more than itself keeps it), in one transaction.
    fn join_near(&self, doc: &Fresh, near: Vec<u32>, cluster: bool) -> Result<(), ArchiveError> {
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
        tx.commit().map_err(sql)
    }

    /// The documents of `fresh` whose sketch shares [`crate::archive::groups::SKETCH_HITS`] hashes
    /// with another document not already in its group (hashes held by more than
    /// [`crate::engine::MAX_POSTINGS`] postings say nothing, as in a check), or that share
    /// an nshash key.
    fn worth_checking<'f>(&self, fresh: &'f [Fresh], before: Option<&Before>) -> Result<Vec<&'f Fresh>, ArchiveError> {
        let mut sharing: Vec<(&Fresh, Vec<u32>)> = Vec::new();
        for (doc, others) in fresh.iter().zip(self.sharing_of(fresh, before)?) {
            if let Some(others) = others {
                sharing.push((doc, others));
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

    /// What [`sharing`] says of each of `fresh`: from what was found `before` the last
    /// commit and the segments it wrote when that is the whole answer, else from every
    /// segment.
    fn sharing_of(&self, fresh: &[Fresh], before: Option<&Before>) -> Result<Vec<Option<Vec<u32>>>, ArchiveError> {
        if let Some(before) = before
            && let Some(sharing) = before.sharing((&self.dir, &self.lock()), fresh)?
        {
            return Ok(sharing);
        }
        let index = ArchiveIndex::open(self)?;
        sharing_sketches(&index, fresh)
    }

    /// For each of `docs`, the archived documents that the check of its file calls its
    /// near duplicates.
    fn near_duplicates_by_check(
        &self,
        docs: &[&Fresh],
        dictionary: &Dictionary,
    ) -> Result<Vec<Vec<u32>>, ArchiveError> {
        let request = check_of(docs, &self.settings, dictionary);
        let report = check_against(self, &request, &NoProgress, &CancelFlag::new())?;
        let conn = self.lock();
        let mut all = Vec::with_capacity(docs.len());
        for (i, doc) in docs.iter().enumerate() {
            let mut near = Vec::new();
            for (path, sha256) in near_duplicates_in(&report, i) {
                let ids = rows::ids_by_path_and_sha256(&conn, path, sha256).map_err(|e| self.sql(e))?;
                near.extend(ids.into_iter().filter(|&id| id != doc.id));
            }
            all.push(near);
        }
        Ok(all)
    }
}

/// New documents checked for near duplicates in one check: enough to keep both cores
/// busy and to open the archive once for many, few enough that the check's cap on the
/// pairs it keeps ([`crate::engine`]'s 100,000) is never near.
pub(in crate::archive) const CHECKED_AT_ONCE: usize = 64;

/// Documents whose sketches are looked up together: one round trip to a server for them
/// all rather than one each, and in a folder archive, sketches crowded enough that most
/// share the reads of their neighbours (`spans.rs`): 256 documents at a time left 6
/// sketch hashes a bucket of the largest segment at a million documents, 4,096 leave
/// about a hundred. Their postings, a few dozen MB, are held until the chunk is done.
const SKETCHES_AT_ONCE: usize = 4096;

/// For each of `docs`, what [`sharing`] says of it: the documents whose sketch it shares
/// [`crate::archive::groups::SKETCH_HITS`] hashes with (hashes held by more than
/// [`crate::engine::MAX_POSTINGS`] postings say nothing, as in a check), when there are
/// any or it shares an nshash key: it is worth checking for near duplicates.
/// The chunks are looked up on every core (an add of 30,000 documents spent 4.4 s here on
/// one). Fails when the archive cannot be read.
pub(in crate::archive) fn sharing_sketches(
    index: &dyn ReferenceIndex,
    docs: &[Fresh],
) -> Result<Vec<Option<Vec<u32>>>, ArchiveError> {
    let per_chunk: Vec<Vec<Option<Vec<u32>>>> = docs
        .par_chunks(SKETCHES_AT_ONCE)
        .map(|chunk| {
            let hashes: Vec<u64> = chunk.iter().flat_map(|doc| doc.sketch.iter().copied()).collect();
            let mut found = index.postings(Signal::Kgram, &hashes)?.into_iter();
            Ok(chunk.iter().map(|doc| sharing(doc, found.by_ref().take(doc.sketch.len()))).collect())
        })
        .collect::<Result<_, StoreError>>()
        .map_err(ArchiveError::from_store)?;
    Ok(per_chunk.concat())
}

/// The request that checks the files of `docs` against an archive with `settings`, as
/// suspects 0, 1, … in that order, their Chinese text segmented with `dictionary` (the
/// add's: built once for the add and its checks).
pub(in crate::archive) fn check_of(
    docs: &[&Fresh],
    settings: &crate::settings::Settings,
    dictionary: &Dictionary,
) -> CheckRequest {
    CheckRequest {
        documents: docs.iter().map(|doc| DocumentInput::new(doc.file.clone(), Role::Suspect)).collect(),
        settings: settings.clone(),
        dictionary: dictionary.clone(),
        keep_dictionary: true,
        ..CheckRequest::default()
    }
}

/// (path, SHA-256) of each archived document the check of suspects calls a near
/// duplicate of suspect `suspect`.
pub(in crate::archive) fn near_duplicates_in(report: &crate::engine::Report, suspect: usize) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    for &[a, b] in &report.near_duplicates {
        let other = match (a == suspect, b == suspect) {
            (true, false) => b,
            (false, true) => a,
            _ => continue,
        };
        let Some(entry) = report.documents.get(other).filter(|e| e.role == Role::Reference) else { continue };
        let Some(sha256) = entry.sha256.as_deref() else { continue };
        out.push((entry.path.as_str(), sha256));
    }
    out
}

//! Groups by the check's rule once an add is committed, written once for both stores:
//! each new document that may have a near duplicate other than by SimHash (its sketch
//! shared with a document outside its group, or its nshash key shared) is checked against
//! the archive as `archive check` checks a suspect, and joins the groups of the near
//! duplicates that check reports. SimHash neighbours were grouped while the add committed
//! (`groups.rs`); both follow [`crate::score::near_duplicate_rule`].

use rayon::prelude::*;

use super::super::groups::{Fresh, join_into_earliest, sharing};
use super::super::outcomes::Sharing;
use super::super::store::{ArchiveStore, Rows};
use super::check::check;
use crate::archive::error::ArchiveError;
use crate::engine::{CancelFlag, CheckRequest, DocumentInput, NoProgress, Report, Role};
use crate::fingerprint::simhash::Dictionary;
use crate::index::{ReferenceIndex, Signal, StoreError};
use crate::settings::Settings;

/// New documents checked for near duplicates in one check: enough to keep both cores
/// busy and to open the archive once for many, few enough that the check's cap on the
/// pairs it keeps ([`crate::engine`]'s 100,000) is never near.
const CHECKED_AT_ONCE: usize = 64;

/// Documents whose sketches are looked up together: one round trip to a server for them
/// all rather than one each, and in a folder archive, sketches crowded enough that most
/// share the reads of their neighbours (`batched_lookup.rs`): 256 documents at a time left
/// 6 sketch hashes a bucket of the largest segment at a million documents, 4,096 leave
/// about a hundred. Their postings, a few dozen MB, are held until the chunk is done.
const SKETCHES_AT_ONCE: usize = 4096;

/// Checks the new documents of `fresh` that may have near duplicates the SimHash did not
/// show, and joins their groups (with `cluster`, a document already in a group of more
/// than itself keeps it). How many were checked. The checks segment Chinese text with the
/// add's `dictionary`, built once for the add and its checks.
pub(in crate::archive) fn regroup<S: ArchiveStore>(
    store: &S,
    (fresh, known): (&[Fresh], Option<Sharing>),
    (cluster, dictionary): (bool, &Dictionary),
    cancel: &CancelFlag,
) -> Result<usize, ArchiveError> {
    if fresh.is_empty() {
        return Ok(0);
    }
    let sharing = match known {
        Some(sharing) => sharing,
        None => sharing_sketches(&store.snapshot()?, fresh)?,
    };
    let suspects = worth_checking(store, fresh, sharing)?;
    // Checked a chunk at a time, in one check each: its suspects are read and matched
    // on every core, against one opening of the archive. Groups are joined after, in
    // the documents' order, as one at a time would join them.
    for chunk in suspects.chunks(CHECKED_AT_ONCE) {
        if cancel.is_cancelled() {
            break;
        }
        let report = check(store, &check_of(chunk, store.settings(), dictionary), &NoProgress, &CancelFlag::new())?;
        for (i, doc) in chunk.iter().enumerate() {
            let near = near_duplicates_in(&report, i);
            if !near.is_empty() {
                store.write(|rows| join_near(rows, doc.id, &near, cluster))?;
            }
        }
    }
    Ok(suspects.len())
}

/// The documents of `fresh` whose sketch shares enough hashes with a document outside its
/// group (`sharing`), or that share an nshash key: those a check may join to another group.
fn worth_checking<'f, S: ArchiveStore>(
    store: &S,
    fresh: &'f [Fresh],
    sharing: Sharing,
) -> Result<Vec<&'f Fresh>, ArchiveError> {
    store.read(|rows| {
        let mut worth = Vec::new();
        for (doc, others) in fresh.iter().zip(sharing) {
            let Some(others) = others else { continue };
            if doc.nshash_neighbour || rows.any_outside_group_of(doc.id, &others)? {
                worth.push(doc);
            }
        }
        Ok(worth)
    })
}

/// Joins the groups of document `id` and of its `near` duplicates, (path, SHA-256) as the
/// check reported them (with `cluster`, a document already in a group of more than itself
/// keeps it).
fn join_near(rows: &mut dyn Rows, id: u32, near: &[(&str, &str)], cluster: bool) -> Result<(), ArchiveError> {
    let mut groups = Vec::new();
    for &(path, sha256) in near {
        for other in rows.ids_by_path_and_sha256(path, sha256)? {
            if other != id {
                groups.extend(rows.group_of(other)?);
            }
        }
    }
    if groups.is_empty() {
        return Ok(());
    }
    let own = rows.group_of(id)?;
    groups.extend(own);
    if !(cluster && own.is_some_and(|g| g != id)) {
        join_into_earliest(groups, |target, other| rows.join_groups(target, other))?;
    }
    Ok(())
}

/// For each of `docs`, what [`sharing`] says of it: the documents whose sketch it shares
/// [`crate::archive::groups::SKETCH_HITS`] hashes with (hashes held by more than
/// [`crate::engine::MAX_POSTINGS`] postings say nothing, as in a check), when there are
/// any or it shares an nshash key: it is worth checking for near duplicates.
/// The chunks are looked up on every core (an add of 30,000 documents spent 4.4 s here on
/// one). Fails when the archive cannot be read.
pub(in crate::archive) fn sharing_sketches(
    index: &dyn ReferenceIndex,
    docs: &[Fresh],
) -> Result<Sharing, ArchiveError> {
    let per_chunk: Vec<Sharing> = docs
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
/// suspects 0, 1, … in that order, their Chinese text segmented with `dictionary`.
fn check_of(docs: &[&Fresh], settings: &Settings, dictionary: &Dictionary) -> CheckRequest {
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
fn near_duplicates_in(report: &Report, suspect: usize) -> Vec<(&str, &str)> {
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

//! `archive verify`, written once: what the store itself keeps (a folder's catalog and
//! segments) is checked by the store, then, the same in both, every stored text (it
//! decompresses, to its character count and to its token keys) and every document's group
//! (its representative is an archived document).

use std::collections::HashSet;

use super::super::outcomes::VerifyReport;
use super::super::store::ArchiveStore;
use super::super::verify_text::text_problem;
use crate::archive::error::ArchiveError;

/// Checks everything `store` holds.
pub(in crate::archive) fn verify<S: ArchiveStore>(store: &S) -> Result<VerifyReport, ArchiveError> {
    let mut report = VerifyReport::default();
    store.verify_own(&mut report)?;
    let settings = store.settings();
    let mut problems = Vec::new();
    let mut documents = 0;
    store.for_each_text(&mut |id, stored| {
        documents += 1;
        match stored {
            Some(stored) => problems.extend(text_problem(&stored, settings)),
            None => problems.push(format!("document {id}: its text is missing")),
        }
    })?;
    report.documents = documents;
    report.problems.extend(problems);
    report.problems.extend(groups_without_representative(store)?);
    Ok(report)
}

/// A problem for each document whose group's representative is no archived document.
fn groups_without_representative<S: ArchiveStore>(store: &S) -> Result<Vec<String>, ArchiveError> {
    let documents = store.list()?;
    let ids: HashSet<u32> = documents.iter().map(|d| d.id).collect();
    Ok(documents
        .iter()
        .filter(|doc| !ids.contains(&doc.group))
        .map(|doc| format!("document {}: its group {} has no such document", doc.id, doc.group))
        .collect())
}

//! Removing documents by id and by path, in one transaction, saying what went and which
//! keys named nothing.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::super::store::{ArchiveStore, Rows, Sources};
use crate::archive::error::ArchiveError;

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
    pub documents: Sources,
}

/// Removes the documents with these `ids` and those archived from the files these `paths`
/// resolve to from here (two classes' `sub/e1.txt`, each added from its own folder, are
/// two files): an id and a path are never taken one for the other. Says what went and
/// which keys matched nothing.
pub(in crate::archive) fn remove<S: ArchiveStore>(
    store: &S,
    ids: &[u32],
    paths: &[PathBuf],
) -> Result<RemoveSummary, ArchiveError> {
    store.require_write("remove from")?;
    store.write(|rows| {
        let (gone, summary) = named_documents(rows, ids, paths)?;
        for &id in &gone {
            rows.remove_document(id)?;
        }
        Ok(RemoveSummary { removed: gone.len(), ..summary })
    })
}

/// The documents the keys of a remove name, and the summary of the remove but for
/// `removed`: the keys that named none (`id N` for an id, else the path as given), and
/// for a path that named none, the documents archived under it as added.
fn named_documents(
    rows: &mut dyn Rows,
    ids: &[u32],
    paths: &[PathBuf],
) -> Result<(BTreeSet<u32>, RemoveSummary), ArchiveError> {
    let mut gone = BTreeSet::new();
    let mut summary = RemoveSummary::default();
    for &id in ids {
        if rows.has_document(id)? {
            gone.insert(id);
        } else {
            summary.not_found.push(format!("id {id}"));
        }
    }
    for path in paths {
        let given = path.to_string_lossy().into_owned();
        let here = resolved(path).to_string_lossy().into_owned();
        let found = rows.ids_by_path(&given, &here)?;
        if found.is_empty() {
            let documents = rows.sources_added_as(&given)?;
            if !documents.is_empty() {
                summary.elsewhere.push(ArchivedElsewhere { given: given.clone(), here, documents });
            }
            summary.not_found.push(given);
        }
        gone.extend(found);
    }
    Ok((gone, summary))
}

/// The file `path` resolves to from where the command runs, as an add records it: its
/// links resolved; for a file gone, its folder's links resolved and its name kept.
pub(in crate::archive) fn resolved(path: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (absolute.parent().map(std::fs::canonicalize), absolute.file_name()) {
        (Some(Ok(folder)), Some(name)) => folder.join(name),
        _ => absolute,
    }
}

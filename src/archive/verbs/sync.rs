//! An add's sync (`add --sync`): the archived documents whose file is gone from a folder
//! kept in step go.

use std::path::{Path, PathBuf};

use super::super::store::ArchiveStore;
use crate::archive::error::ArchiveError;

/// Removes the archived documents whose file lay under one of `folders` and is gone: the
/// path it resolved to when it was archived no longer names a file. Documents of files
/// elsewhere, and of files still there but not added this time (unreadable, passed over),
/// are kept. How many went.
pub(in crate::archive) fn drop_gone<S: ArchiveStore>(store: &S, folders: &[PathBuf]) -> Result<usize, ArchiveError> {
    store.require_write("add to")?;
    let roots: Vec<PathBuf> = folders.iter().filter_map(|f| std::fs::canonicalize(f).ok()).collect();
    if roots.is_empty() {
        return Ok(0);
    }
    store.write(|rows| {
        let gone: Vec<u32> = rows
            .sources()?
            .into_iter()
            .filter(|(_, source)| {
                let file = Path::new(source);
                roots.iter().any(|root| file.starts_with(root)) && is_gone(file)
            })
            .map(|(id, _)| id)
            .collect();
        for &id in &gone {
            rows.remove_document(id)?;
        }
        Ok(gone.len())
    })
}

/// Whether no file is left at `path`: nothing there, or a folder. A file that cannot be
/// looked at (a folder above it not readable, a share gone away) is not gone.
pub(in crate::archive) fn is_gone(path: &Path) -> bool {
    match std::fs::symlink_metadata(path) {
        Ok(meta) => meta.is_dir(),
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    }
}

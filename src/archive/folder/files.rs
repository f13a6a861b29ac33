//! The files of the archive folder beside the catalog: how segment files are named, made
//! durable, and swept when a writer left them unlisted. A leaf beside [`super::segments::segment`].

use std::path::Path;

use super::segments::segment::{self, Kind};
use crate::archive::error::ArchiveError;

/// The name of a new segment file of `kind`: `k-`, `s-` or `c-`, then `tag` (the batch's first
/// document, or `m` and the first merged segment), then a stamp no other file has.
pub(in crate::archive) fn segment_name(kind: Kind, tag: &str) -> String {
    let prefix = match kind {
        Kind::Kgrams => "k",
        Kind::Sentences => "s",
        Kind::CharGrams => "c",
    };
    format!("{prefix}-{tag}-{}.seg", unique_stamp())
}

/// A stamp no other segment file name has: time in nanoseconds and the process id.
fn unique_stamp() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("{nanos:x}-{:x}", std::process::id())
}

/// Makes renames inside `dir` durable (a no-op where folders cannot be synced).
pub(in crate::archive) fn sync_dir(dir: &Path) -> Result<(), ArchiveError> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir).and_then(|d| d.sync_all()).map_err(|e| ArchiveError::io(dir, e))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Deletes the segment files (and temporary ones) of `dir` that are not `listed`: left
/// by a writer that never finished. Called only holding the writer lock.
pub(in crate::archive) fn remove_unlisted_segments(
    dir: &Path,
    listed: &std::collections::HashSet<String>,
) -> Result<(), ArchiveError> {
    for entry in std::fs::read_dir(dir).map_err(|e| ArchiveError::io(dir, e))? {
        let entry = entry.map_err(|e| ArchiveError::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if segment::is_segment_file(&name) && !listed.contains(&name) {
            std::fs::remove_file(entry.path()).map_err(|e| ArchiveError::io(&entry.path(), e))?;
        }
    }
    Ok(())
}

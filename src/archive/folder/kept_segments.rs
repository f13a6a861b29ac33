//! The segments an open archive keeps open between its checks. Opening a segment for
//! lookups reads its sparse index: up to 8 MiB for a large one, about 40 MB for all the
//! segments of a million-document archive, as much as a suspect's lookups read. A listed
//! segment never changes (a merge writes a new file under a new name and deletes the old
//! ones), so what one check opened answers the next: a program that keeps an archive
//! open (the benchmark) and an add's checks for the groups' rule read each sparse index
//! once. (A check of many suspects opens the segments once for all of them anyway.)

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use rustc_hash::FxHashMap;

use super::segments::lookup::SegmentLookup;
use crate::archive::error::ArchiveError;

/// Segments opened for lookups, by file name.
#[derive(Default)]
pub(in crate::archive) struct OpenSegments {
    open: Mutex<FxHashMap<String, Arc<SegmentLookup>>>,
}

impl OpenSegments {
    /// The segments `files` of the archive at `dir` (all it lists now), in their order:
    /// those kept from an earlier check as they are, the others opened and kept. The
    /// segments kept that `files` does not name are let go: a merge deleted them.
    pub fn listed(&self, dir: &Path, files: &[&str]) -> Result<Vec<Arc<SegmentLookup>>, ArchiveError> {
        let mut open = self.lock();
        open.retain(|file, _| files.contains(&file.as_str()));
        files
            .iter()
            .map(|&file| match open.get(file) {
                Some(segment) => Ok(Arc::clone(segment)),
                None => {
                    let segment = Arc::new(SegmentLookup::open(&dir.join(file))?);
                    open.insert(file.to_string(), Arc::clone(&segment));
                    Ok(segment)
                }
            })
            .collect()
    }

    /// Lets the segments `files` go (a merge has deleted them), so that their disk space
    /// is given back now rather than at the next check.
    pub fn forget(&self, files: &[String]) {
        let mut open = self.lock();
        for file in files {
            open.remove(file);
        }
    }

    /// The map, also after a thread panicked holding it: it only ever holds segments
    /// opened whole.
    fn lock(&self) -> MutexGuard<'_, FxHashMap<String, Arc<SegmentLookup>>> {
        self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "tests")]
mod tests {
    use super::*;
    use crate::archive::folder::segments::segment::Kind;
    use crate::archive::folder::segments::writing::write;
    use crate::index::Posting;

    #[test]
    fn a_segment_is_opened_once_while_listed_and_let_go_when_not() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.seg", "b.seg"] {
            write(&dir.path().join(name), Kind::Kgrams, vec![(1 << 50, Posting { doc: 1, position: 0 })]).unwrap();
        }
        let open = OpenSegments::default();
        let first = open.listed(dir.path(), &["a.seg", "b.seg"]).unwrap();
        let again = open.listed(dir.path(), &["b.seg", "a.seg"]).unwrap();
        assert!(Arc::ptr_eq(&first[0], &again[1]) && Arc::ptr_eq(&first[1], &again[0]), "kept, in the order asked");
        drop(again);
        // `a` is no longer listed: let go, and opened anew should it come back.
        open.listed(dir.path(), &["b.seg"]).unwrap();
        assert_eq!(Arc::strong_count(&first[0]), 1);
        let back = open.listed(dir.path(), &["a.seg"]).unwrap();
        assert!(!Arc::ptr_eq(&first[0], &back[0]));
        open.forget(&["a.seg".to_string()]);
        assert_eq!(Arc::strong_count(&back[0]), 1);
        // A file that is not there is an error, and nothing is kept of it.
        assert!(open.listed(dir.path(), &["gone.seg"]).is_err());
        assert!(open.lock().is_empty());
    }
}

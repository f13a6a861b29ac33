//! Adding, written once above the stores: what an add is asked ([`AddOptions`]) and
//! answers ([`AddSummary`]), and its course ([`add`]): the store reads, fingerprints and
//! commits the files its own way ([`ArchiveStore::store_files`]), then the groups' rule
//! and the sync run the same for both.

use super::super::date::parse_date;
use super::super::error::ArchiveError;
use super::super::groups::Fresh;
use super::super::store::ArchiveStore;
use super::regroup::{Sharing, regroup};
use super::sync::drop_gone;
use crate::engine::{CancelFlag, DocumentInput, Progress, ProgressSink, Stage};
use crate::fingerprint::simhash::Dictionary;
use crate::ingest;

/// How documents are added.
#[derive(Clone, Debug, Default)]
pub struct AddOptions {
    /// Publication date (YYYY-MM-DD) recorded for every document of this add.
    pub published: Option<String>,
    /// Single-pass clustering: each new document joins the group of its nearest archived
    /// near duplicate only, instead of joining every group it is near.
    pub cluster: bool,
    /// Folders kept in step with the archive: once everything is added, archived documents
    /// whose file lay under one of them and is gone are removed (`add --sync`).
    pub sync: Vec<std::path::PathBuf>,
}

/// What an add did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AddSummary {
    pub added: usize,
    pub replaced: usize,
    pub unchanged: usize,
    /// Of the unchanged files, those whose bytes were read to be sure (their size or
    /// times differed from those recorded, or none were): every other unchanged file was
    /// known by its size and times alone, and not read.
    pub hashed: usize,
    /// Archived documents removed because their file is gone from a folder kept in step
    /// (`AddOptions::sync`).
    pub dropped: usize,
    /// (path, error) of each file that could not be read.
    pub failed: Vec<(String, String)>,
    /// (path, note) of each file archived with a warning, as a check gives it (a text
    /// compared only up to the character limit, a page without text, …).
    pub warnings: Vec<(String, String)>,
    /// Files given that lie inside the archive folder itself (the window's review marks
    /// and stop passages kept there, a copy of a catalog): never archived as documents.
    pub inside_archive: Vec<String>,
    /// Damaged segments a merge found and left as they were (see `archive verify`).
    pub damaged_segments: Vec<String>,
    /// New documents checked against the archive for near duplicates other than by
    /// SimHash (their groups follow the check's rule).
    pub checked_for_groups: usize,
}

impl AddSummary {
    /// Adds the counts of `other` (a batch's) to these.
    pub(in crate::archive) fn absorb(&mut self, other: AddSummary) {
        self.added += other.added;
        self.replaced += other.replaced;
        self.unchanged += other.unchanged;
        self.hashed += other.hashed;
        self.dropped += other.dropped;
        self.checked_for_groups += other.checked_for_groups;
        self.failed.extend(other.failed);
        self.warnings.extend(other.warnings);
        self.inside_archive.extend(other.inside_archive);
        for file in other.damaged_segments {
            if !self.damaged_segments.contains(&file) {
                self.damaged_segments.push(file);
            }
        }
    }
}

/// What a store's own part of an add left: what it did, the documents it added (for the
/// groups' rule), what it already knows of their sketches, and what it keeps running
/// until the add ends (a folder's read-ahead and the backfill of its log).
pub(in crate::archive) struct Stored<R> {
    pub summary: AddSummary,
    pub fresh: Vec<Fresh>,
    /// What the groups' rule's sharing says of `fresh`, when the store found it already.
    pub sharing: Result<Option<Sharing>, ArchiveError>,
    pub running: R,
}

/// Adds `inputs` to `store`: a file whose bytes are archived is not stored again, a file
/// whose path is archived with other content replaces it; batches commit one by one, and a
/// cancel keeps the committed ones. Once every document is in, the new ones are grouped by
/// the check's rule (a check that fails there leaves groups by SimHash alone, and says
/// so), and with `options.sync` the documents whose file is gone are removed.
pub(in crate::archive) fn add<S: ArchiveStore>(
    store: &S,
    inputs: &[DocumentInput],
    options: &AddOptions,
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<AddSummary, ArchiveError> {
    store.require_write("add to")?;
    if let Some(date) = &options.published {
        parse_date(date)?;
    }
    // Its helper processes (if any) read every file of this add and end with it.
    let extractor = ingest::Extractor::new(store.settings().ingest.isolation.as_ref());
    // Built on the first Chinese document, let go with the add.
    let dictionary = Dictionary::new();
    let stored = store.store_files(inputs, options, (&extractor, &dictionary), (sink, cancel))?;
    let Stored { mut summary, fresh, sharing, running } = stored;
    match sharing.and_then(|known| regroup(store, (&fresh, known), (options.cluster, &dictionary), cancel)) {
        Ok(checked) => summary.checked_for_groups = checked,
        Err(e) => summary.warnings.push((store.shown(), format!("groups by SimHash alone ({e})"))),
    }
    if !options.sync.is_empty() && !cancel.is_cancelled() {
        summary.dropped = drop_gone(store, &options.sync)?;
    }
    store.finish_add(running);
    sink.progress(Progress { stage: Stage::Done, done: 1, total: 1 });
    Ok(summary)
}

//! What the verbs are asked and answer, and what a store hands back to them, below both
//! the store trait ([`super::store`]) and the verbs ([`super::verbs`]): an add's options
//! and summary, what a store's part of an add left, the sharing of new documents' sketches,
//! a stored text as `verify` reads it, and what `verify` found.

use super::error::ArchiveError;
use super::groups::Fresh;
use super::verify_text::StoredText;

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

/// What the groups' rule's sharing says of each new document, when the store knows it already (a folder
/// from what its add looked up beside its last commit); `None`: looked up now.
pub(in crate::archive) type Sharing = Vec<Option<Vec<u32>>>;

/// What `verify` found; empty `problems` means the archive is sound.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    pub documents: u64,
    /// Segment files checked (a folder's; a server keeps none).
    pub segments: u64,
    /// Segment files no batch committed (left by an interrupted add; the next add
    /// removes them). Not a problem.
    pub leftovers: Vec<String>,
    pub problems: Vec<String>,
}

/// A stored text as `verify` reads it, or `None` when it is missing.
pub(in crate::archive) type EachText<'e> = dyn FnMut(u32, Option<StoredText<'_>>) + 'e;

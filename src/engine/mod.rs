//! Runs a whole check — read, fingerprint, index, match, score — over many documents in
//! parallel, reporting progress to a sink and stopping promptly when cancelled.
//! Front ends (command line, window) build a [`CheckRequest`] and call [`run_check`].

mod assemble;
mod candidates;
mod identical;
mod inputs;
mod languages;
mod matcher;
mod memory_index;
mod pipeline;
mod policy;
mod progress;
mod read_cache;
mod reworded;
mod stopped;
mod template;
mod translated;
mod zip_inputs;

pub use crate::model::{Mode, Role, SkipReason, Skipped};
pub use assemble::Report;
#[cfg(feature = "distributed")]
pub(crate) use assemble::assemble;
pub use candidates::{CandidateDocument, CandidateRequest, DEFAULT_GROUP_CHARS, align_candidates};
pub use inputs::{InputSet, REPORT_GENERATOR_MARK, SUPPORTED_EXTENSIONS, collect_inputs, display_path};
pub use matcher::MAX_POSTINGS;
pub(crate) use pipeline::{compared_prefix, fingerprint_document, run_against};
pub use pipeline::{MAX_COMPARED_CHARS, compared_part, run_check, run_check_cached};
pub use progress::{CancelFlag, Cancelled, MatchTimings, NoProgress, Progress, ProgressSink, Stage};
pub use read_cache::ReadCache;
pub use stopped::CheckError;

use std::path::PathBuf;

use crate::fingerprint::simhash::Dictionary;
use crate::settings::Settings;

/// One input file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentInput {
    /// The file to read.
    pub path: PathBuf,
    /// How the report names it: the path as given, or the folder as given joined with the
    /// path inside it.
    pub display: String,
    pub role: Role,
    /// A suspect that is also a reference for the other suspects (the same file was given
    /// in both parts); it is never compared with itself.
    pub also_reference: bool,
    /// The entry of the zip at `path` that is this document (a zip of submissions), or
    /// `None` when the document is the whole file.
    pub member: Option<crate::ingest::ZipMember>,
}

impl DocumentInput {
    /// An input named by its own path.
    pub fn new(path: impl Into<PathBuf>, role: Role) -> Self {
        let path = path.into();
        let display = inputs::display_path(&path);
        Self { path, display, role, also_reference: false, member: None }
    }

    /// The path a report names as the file read: the file's, or for an entry of a zip
    /// the zip's path joined with the entry's name.
    pub fn source(&self) -> PathBuf {
        match &self.member {
            Some(member) => member.path_in(&self.path),
            None => self.path.clone(),
        }
    }
}

/// A whole check: the documents, how to compare them, and the settings.
#[derive(Clone, Debug, Default)]
pub struct CheckRequest {
    pub documents: Vec<DocumentInput>,
    pub mode: Mode,
    pub settings: Settings,
    /// The jieba dictionary Chinese text is segmented with, built when first needed.
    /// The window keeps one across its checks; a one-shot command makes a new one.
    pub dictionary: Dictionary,
    /// Keep `dictionary` (about 70 MB) built after the check's SimHash pass: for the
    /// window, which runs check after check. A one-shot command leaves it false, and the
    /// dictionary is released before the index is built, lowering the peak memory.
    pub keep_dictionary: bool,
    /// The meaning layer (a sentence encoder and a bilingual dictionary), loaded when a
    /// check first compares two languages; the window keeps one across its checks.
    pub meaning: crate::meaning::SharedMeaning,
    /// What collecting the inputs passed over and why ([`InputSet::finish`]); the report
    /// carries it on.
    pub skipped: Vec<Skipped>,
}

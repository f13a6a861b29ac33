//! The worker's archive jobs: open or create an archive and read its sizes, add files and
//! folders to it, check suspects against it. Each job opens the archive for itself and
//! closes it when done, so the command line can use the same archive meanwhile.

use std::path::{Path, PathBuf};

use crate::archive::{AddOptions, AddSummary, Archive, ArchiveError, Stats, catalog, check_against};
use crate::engine::{InputSet, display_path};
use crate::{CancelFlag, CheckRequest, Mode, ProgressSink, Report, Role, Settings};

/// What the window shows of an archive it opened.
#[derive(Clone, Debug, PartialEq)]
pub struct ArchiveInfo {
    pub dir: PathBuf,
    pub stats: Stats,
    /// The settings that shape its fingerprints (k, w, sentence minimum, normalization).
    pub made_with: Settings,
    /// The archive's own near-duplicate groups of more than one document: the paths of
    /// each, its representative first.
    pub groups: Vec<Vec<String>>,
}

/// What an add did, with the archive's sizes after it.
#[derive(Clone, Debug, PartialEq)]
pub struct AddOutcome {
    pub summary: AddSummary,
    /// Paths passed over while listing the folders (missing, unsupported, given twice).
    pub skipped: usize,
    /// True when the add was cancelled: the batches committed before are kept.
    pub cancelled: bool,
    pub info: ArchiveInfo,
}

/// The window's `settings` with the fingerprint settings of the archive at `dir` when it
/// exists: an archive keeps the settings it was made with, whatever the window's are.
pub fn settings_for(dir: &Path, window: &Settings) -> Result<Settings, ArchiveError> {
    let mut settings = window.clone();
    if dir.join(catalog::CATALOG).exists() {
        let stored = Archive::stored_settings(dir)?;
        settings.k = stored.k;
        settings.w = stored.w;
        settings.min_sentence_tokens = stored.min_sentence_tokens;
        settings.normalize = stored.normalize;
    }
    Ok(settings)
}

/// True when `a` and `b` shape fingerprints alike.
pub fn same_shape(a: &Settings, b: &Settings) -> bool {
    a.k == b.k && a.w == b.w && a.min_sentence_tokens == b.min_sentence_tokens && a.normalize == b.normalize
}

fn info_of(archive: &Archive) -> Result<ArchiveInfo, ArchiveError> {
    let groups = archive.groups()?;
    let paths: std::collections::HashMap<u32, String> = if groups.is_empty() {
        std::collections::HashMap::new()
    } else {
        archive.list()?.into_iter().map(|d| (d.id, d.path)).collect()
    };
    let groups = groups
        .into_iter()
        .map(|g| g.members.iter().map(|id| paths.get(id).cloned().unwrap_or_else(|| format!("#{id}"))).collect())
        .collect();
    Ok(ArchiveInfo {
        dir: archive.dir().to_path_buf(),
        stats: archive.stats()?,
        made_with: archive.settings().clone(),
        groups,
    })
}

/// Opens the archive at `dir` and reads its sizes. With `create`, a missing or empty
/// folder becomes a new archive made with the window's `settings`; an existing archive is
/// only read here (it may sit where it cannot be changed and still be checked against).
pub fn open(dir: &Path, create: bool, settings: &Settings) -> Result<ArchiveInfo, ArchiveError> {
    let settings = settings_for(dir, settings)?;
    let exists = dir.join(catalog::CATALOG).exists();
    let archive =
        if create && !exists { Archive::open_or_create(dir, &settings)? } else { Archive::open(dir, &settings)? };
    info_of(&archive)
}

/// Adds the files and folders `paths` to the archive at `dir` (created when missing).
pub fn add(
    dir: &Path,
    paths: &[PathBuf],
    settings: &Settings,
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<AddOutcome, ArchiveError> {
    let settings = settings_for(dir, settings)?;
    let archive = Archive::open_or_create(dir, &settings)?;
    let mut inputs = InputSet::new();
    inputs.add(paths, Role::Reference);
    let mut failed: Vec<(String, String)> =
        inputs.missing().iter().map(|p| (display_path(p), "no such file or folder".to_owned())).collect();
    let (documents, skipped) = inputs.finish();
    let mut summary = archive.add(&documents, &AddOptions::default(), sink, cancel)?;
    failed.append(&mut summary.failed);
    summary.failed = failed;
    Ok(AddOutcome { summary, skipped: skipped.len(), cancelled: cancel.is_cancelled(), info: info_of(&archive)? })
}

/// Checks the suspects of `request` against the archive at `dir`, with its fingerprint
/// settings and the request's others; returns the report and the archive's sizes now.
pub fn check(
    dir: &Path,
    request: &CheckRequest,
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<(Report, ArchiveInfo), ArchiveError> {
    let settings = settings_for(dir, &request.settings)?;
    let archive = Archive::open(dir, &settings)?;
    let request = CheckRequest { mode: Mode::SuspectsVsReferences, ..request.clone() };
    let report = check_against(&archive, &request, sink, cancel)?;
    Ok((report, info_of(&archive)?))
}

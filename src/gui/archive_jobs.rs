//! The worker's archive jobs: open or create an archive (a folder, or a shared one on a
//! PostgreSQL server) and read its sizes, add files and folders to it, check suspects
//! against it. Each job opens the archive for itself and closes it when done, so the
//! command line (and, for a shared archive, other desktops) can use it meanwhile.

use std::path::{Path, PathBuf};

use crate::archive::{AddOptions, AddSummary, AnyArchive, ArchiveError, Location, Stats, WhenBusy};
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

/// The archive a job works on: a folder, or a `postgresql://` URL (without its password)
/// and schema, with the password typed into the window (kept in memory only).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchiveTarget {
    /// The folder or URL, as persisted and shown.
    pub name: PathBuf,
    /// The schema of a shared archive.
    pub schema: Option<String>,
    /// The password of a shared archive's login, when one was typed.
    pub password: Option<String>,
}

impl ArchiveTarget {
    /// A folder archive.
    pub fn folder(dir: &Path) -> Self {
        Self { name: dir.to_path_buf(), ..Self::default() }
    }

    /// Where the archive lives, with the password for the login.
    pub fn location(&self) -> Result<Location, ArchiveError> {
        Ok(Location::parse(&self.name, self.schema.as_deref())?.with_password(self.password.as_deref()))
    }
}

/// The window's `settings` with the fingerprint settings of the archive at `location`
/// when it exists: an archive keeps the settings it was made with, whatever the window's
/// are.
pub fn settings_for(location: &Location, window: &Settings) -> Result<Settings, ArchiveError> {
    Ok(with_stored(window, location.stored_settings()?))
}

/// The window's `settings` with the fingerprint settings of `stored`, an archive's.
fn with_stored(window: &Settings, stored: Option<Settings>) -> Settings {
    let mut settings = window.clone();
    if let Some(stored) = stored {
        settings.k = stored.k;
        settings.w = stored.w;
        settings.min_sentence_tokens = stored.min_sentence_tokens;
        settings.normalize = stored.normalize;
    }
    settings
}

/// True when `a` and `b` shape fingerprints alike.
pub fn same_shape(a: &Settings, b: &Settings) -> bool {
    a.k == b.k && a.w == b.w && a.min_sentence_tokens == b.min_sentence_tokens && a.normalize == b.normalize
}

fn info_of(archive: &AnyArchive, name: &Path) -> Result<ArchiveInfo, ArchiveError> {
    let groups = archive.groups()?;
    let paths = archive.member_paths(&groups)?;
    let groups = groups
        .into_iter()
        .map(|g| g.members.iter().map(|id| paths.get(id).cloned().unwrap_or_else(|| format!("#{id}"))).collect())
        .collect();
    Ok(ArchiveInfo { dir: name.to_path_buf(), stats: archive.stats()?, made_with: archive.settings().clone(), groups })
}

/// Opens the archive `target` and reads its sizes. With `create`, a missing or empty
/// folder (or a schema without an archive) becomes a new archive made with the window's
/// `settings`; an existing archive is only read here (it may sit where it cannot be
/// changed and still be checked against).
pub fn open(target: &ArchiveTarget, create: bool, settings: &Settings) -> Result<ArchiveInfo, ArchiveError> {
    let location = target.location()?;
    // Read once: for a shared archive each read is a connection.
    let stored = location.stored_settings()?;
    let exists = stored.is_some();
    let settings = with_stored(settings, stored);
    let archive = if create && !exists {
        AnyArchive::open_for_changes(&location, &settings, true, WhenBusy::Refuse, "create")?
    } else {
        AnyArchive::open(&location, &settings)?
    };
    info_of(&archive, &target.name)
}

/// Adds the files and folders `paths` to the archive `target` (created when missing).
pub fn add(
    target: &ArchiveTarget,
    paths: &[PathBuf],
    settings: &Settings,
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<AddOutcome, ArchiveError> {
    let location = target.location()?;
    let settings = settings_for(&location, settings)?;
    let archive = AnyArchive::open_for_changes(&location, &settings, true, WhenBusy::Refuse, "add to")?;
    let mut inputs = InputSet::new();
    inputs.add(paths, Role::Reference);
    let mut failed: Vec<(String, String)> =
        inputs.missing().iter().map(|p| (display_path(p), "no such file or folder".to_owned())).collect();
    let (documents, skipped) = inputs.finish();
    let mut summary = archive.add(&documents, &AddOptions::default(), sink, cancel)?;
    failed.append(&mut summary.failed);
    summary.failed = failed;
    Ok(AddOutcome {
        summary,
        skipped: skipped.len(),
        cancelled: cancel.is_cancelled(),
        info: info_of(&archive, &target.name)?,
    })
}

/// Checks the suspects of `request` against the archive `target`, with its fingerprint
/// settings and the request's others; returns the report and the archive's sizes now.
pub fn check(
    target: &ArchiveTarget,
    request: &CheckRequest,
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<(Report, ArchiveInfo), ArchiveError> {
    let location = target.location()?;
    let settings = settings_for(&location, &request.settings)?;
    let archive = AnyArchive::open(&location, &settings)?;
    let request = CheckRequest { mode: Mode::SuspectsVsReferences, ..request.clone() };
    let report = archive.check(&request, sink, cancel)?;
    Ok((report, info_of(&archive, &target.name)?))
}

//! The worker's archive jobs: open or create an archive (a folder, or a shared one on a
//! PostgreSQL server) and read its sizes, add files and folders to it, check suspects
//! against it. The archive checked against is kept open between jobs ([`KeptArchive`]):
//! one open (one connection to a shared archive) for check after check, and the mapped
//! segments of a folder archive kept warm. It holds no lock: the command line (and, for a
//! shared archive, other desktops) can add to it meanwhile, and each check reads its
//! catalog afresh. An add opens the archive for changes for itself and closes it when done.

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

/// The archive the window reads (opens, checks against), kept open from one job to the
/// next, as kitdiff's loader keeps what it loaded: opened again only for another target
/// (another folder, URL, schema or password), or after a job on it failed.
#[derive(Default)]
pub struct KeptArchive {
    kept: Option<(ArchiveTarget, AnyArchive)>,
    /// How many times an archive was opened: what keeping saves.
    opened: usize,
}

impl KeptArchive {
    /// The archive `target`, opened with its own fingerprint settings (the `window`'s
    /// others) unless it is the one kept.
    fn get(&mut self, target: &ArchiveTarget, window: &Settings) -> Result<&AnyArchive, ArchiveError> {
        let kept = match self.kept.take() {
            Some((kept, archive)) if &kept == target => (kept, archive),
            _ => {
                let location = target.location()?;
                let archive = AnyArchive::open(&location, &settings_for(&location, window)?)?;
                self.opened += 1;
                (target.clone(), archive)
            }
        };
        Ok(&self.kept.insert(kept).1)
    }

    /// Lets the kept archive go: the next job opens it again.
    fn forget(&mut self) {
        self.kept = None;
    }

    /// How many times an archive was opened.
    pub fn opened(&self) -> usize {
        self.opened
    }
}

/// Opens the archive `target` and reads its sizes. With `create`, a missing or empty
/// folder (or a schema without an archive) becomes a new archive made with the window's
/// `settings`; an existing archive is only read here (it may sit where it cannot be
/// changed and still be checked against).
pub fn open(
    kept: &mut KeptArchive,
    target: &ArchiveTarget,
    create: bool,
    settings: &Settings,
) -> Result<ArchiveInfo, ArchiveError> {
    if create {
        let location = target.location()?;
        // Read once: for a shared archive each read is a connection.
        let stored = location.stored_settings()?;
        if stored.is_none() {
            let archive = AnyArchive::open_for_changes(&location, settings, true, WhenBusy::Refuse, "create")?;
            return info_of(&archive, &target.name);
        }
    }
    let info = kept.get(target, settings).and_then(|archive| info_of(archive, &target.name));
    if info.is_err() {
        kept.forget();
    }
    info
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
/// The archive is the one `kept`, opened when it is not.
pub fn check(
    kept: &mut KeptArchive,
    target: &ArchiveTarget,
    request: &CheckRequest,
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<(Report, ArchiveInfo), ArchiveError> {
    let request = CheckRequest { mode: Mode::SuspectsVsReferences, ..request.clone() };
    let checked = kept.get(target, &request.settings).and_then(|archive| {
        let report = archive.check(&request, sink, cancel)?;
        Ok((report, info_of(archive, &target.name)?))
    });
    if matches!(checked, Err(ref e) if !matches!(e, ArchiveError::Cancelled)) {
        kept.forget();
    }
    checked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{DocumentInput, NoProgress};

    #[test]
    fn the_archive_checked_against_is_opened_once_for_check_after_check() {
        let tmp = tempfile::tempdir().unwrap();
        let suspect = tmp.path().join("essay.txt");
        std::fs::write(&suspect, "An essay of my own about rivers and the towns along them.").unwrap();
        let target = ArchiveTarget::folder(&tmp.path().join("archive"));
        let settings = Settings::default();
        let mut kept = KeptArchive::default();
        open(&mut kept, &target, true, &settings).unwrap();
        let request = CheckRequest {
            documents: vec![DocumentInput::new(suspect, Role::Suspect)],
            settings: settings.clone(),
            ..CheckRequest::default()
        };
        for _ in 0..3 {
            check(&mut kept, &target, &request, &NoProgress, &CancelFlag::new()).unwrap();
        }
        assert_eq!(kept.opened(), 1, "each check opened the archive again");
        let other = ArchiveTarget::folder(&tmp.path().join("missing"));
        assert!(check(&mut kept, &other, &request, &NoProgress, &CancelFlag::new()).is_err());
        check(&mut kept, &target, &request, &NoProgress, &CancelFlag::new()).unwrap();
        assert_eq!(kept.opened(), 2, "another target, then this one again");
    }
}

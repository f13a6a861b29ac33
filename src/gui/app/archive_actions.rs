//! The app's actions on the archive and the check's source that take more than a line.

use std::path::PathBuf;

use super::TwinspotApp;
use crate::Mode;
use crate::archive::is_server_url;
use crate::gui::state::{ArchiveTask, CheckSource, SharedForm};

impl TwinspotApp {
    /// Opens (or creates) the archive in `dir`: what the suspects are checked against next.
    pub(super) fn use_archive(&mut self, dir: PathBuf) {
        let state = &mut self.state;
        if !state.is_running() {
            state.persisted.mode = Mode::SuspectsVsReferences;
            state.persisted.use_archive = true;
            self.open_archive(dir, true);
        }
    }

    /// Opens the form of the shared archive, filled in from the one in use.
    pub(super) fn open_shared_form(&mut self) {
        let state = &mut self.state;
        let shared = state.persisted.archive.as_deref().map(|n| n.to_string_lossy().into_owned());
        let form = match shared.filter(|name| is_server_url(name)) {
            Some(name) => SharedForm::of(&name, state.persisted.archive_schema.as_deref()),
            None => SharedForm::default(),
        };
        state.archive.shared_form = Some(form);
    }

    /// Stops waiting for the archive being opened: the job's late answer is dropped.
    pub(super) fn cancel_archive_open(&mut self) {
        let state = &mut self.state;
        if matches!(state.archive.task, ArchiveTask::Opening { .. }) {
            state.archive.task = ArchiveTask::Idle;
            state.archive.error = None;
            state.persisted.archive = None;
            state.persisted.use_archive = false;
        }
    }

    /// Closes the archive (not while a check runs).
    pub(super) fn close_archive(&mut self) {
        if self.state.is_running() {
            return;
        }
        self.cancel_archive_add();
        self.archive_cancel = None;
        let state = &mut self.state;
        state.archive.reset();
        state.archive.password = None;
        state.persisted.archive = None;
        state.persisted.use_archive = false;
    }

    /// Checks against `source` next; a mode picked by hand no longer follows the lists.
    pub(super) fn set_source(&mut self, source: CheckSource) {
        let persisted = &mut self.state.persisted;
        persisted.mode_chosen = true;
        let (mode, use_archive) = match source {
            CheckSource::References => (Mode::SuspectsVsReferences, false),
            CheckSource::Archive => (Mode::SuspectsVsReferences, persisted.archive.is_some()),
            CheckSource::AllVsAll => (Mode::AllVsAll, false),
            CheckSource::Classmates => (Mode::Classmates, false),
        };
        persisted.mode = mode;
        persisted.use_archive = use_archive;
    }
}

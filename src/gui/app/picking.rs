//! The app's actions that ask a file dialog first ([`crate::gui::dialogs`]): files or a
//! folder for a list or the archive, an archive to open, a check to save or open.

use std::path::PathBuf;

use super::{TwinspotApp, list_name};
use crate::gui::action::Action;
use crate::gui::dialogs::{self, Dialog, Filter};
use crate::gui::session::{self, CHECK_EXTENSION, SavedCheck};
use crate::gui::state::{ListKind, Status};

impl TwinspotApp {
    /// Adds the files picked to the list `kind`.
    pub(super) fn add_files_with_dialog(&mut self, kind: ListKind) {
        let state = &mut self.state;
        let title = state.persisted.lang.class_tr().dialog_add_files.replace("{list}", list_name(state, kind));
        let dialog = Dialog { title: &title, start: state.persisted.last_dir.as_deref(), ..Dialog::default() };
        if let Some(files) = dialogs::pick_files(&dialog) {
            state.persisted.last_dir = files.first().and_then(|f| f.parent()).map(PathBuf::from);
            state.inputs.add(kind, files);
            state.follow_lists();
        }
    }

    /// Adds the folders picked to the list `kind`.
    pub(super) fn add_folder_with_dialog(&mut self, kind: ListKind) {
        let state = &mut self.state;
        let title = state.persisted.lang.class_tr().dialog_add_folder.replace("{list}", list_name(state, kind));
        let dialog = Dialog { title: &title, start: state.persisted.last_dir.as_deref(), ..Dialog::default() };
        if let Some(folders) = dialogs::pick_folders(&dialog) {
            state.persisted.last_dir = folders.first().cloned();
            state.inputs.add(kind, folders);
            state.follow_lists();
        }
    }

    /// Opens (or creates) the archive in the folder picked.
    pub(super) fn open_archive_with_dialog(&mut self) {
        let persisted = &self.state.persisted;
        let start = persisted.archive.as_deref().and_then(|d| d.parent()).or(persisted.last_dir.as_deref());
        let dialog = Dialog { title: persisted.lang.class_tr().dialog_open_archive, start, ..Dialog::default() };
        if let Some(dir) = dialogs::pick_folder(&dialog) {
            self.apply(Action::UseArchive(dir));
        }
    }

    /// Adds the files (or folders) picked to the archive.
    pub(super) fn add_to_archive_with_dialog(&mut self, folders: bool) {
        let persisted = &mut self.state.persisted;
        let title = persisted.lang.class_tr().dialog_add_to_archive;
        let dialog = Dialog { title, start: persisted.last_dir.as_deref(), ..Dialog::default() };
        let picked = if folders { dialogs::pick_folders(&dialog) } else { dialogs::pick_files(&dialog) };
        if let Some(paths) = picked {
            persisted.last_dir =
                paths.first().and_then(|p| if p.is_dir() { Some(p.as_path()) } else { p.parent() }).map(PathBuf::from);
            self.add_to_archive(paths);
        }
    }

    /// Opens the saved check picked.
    pub(super) fn open_check_with_dialog(&mut self) {
        let persisted = &self.state.persisted;
        let words = persisted.lang.class_tr();
        let filters = [Filter { name: words.saved_check, extensions: &[CHECK_EXTENSION] }];
        let dialog = Dialog {
            title: words.dialog_open_check,
            start: persisted.last_dir.as_deref(),
            file_name: None,
            filters: &filters,
        };
        if let Some(path) = dialogs::pick_file(&dialog) {
            self.load_check(&path);
        }
    }

    /// Saves the lists, mode and settings as a named check where a dialog says.
    pub(super) fn save_check(&mut self) {
        let state = &mut self.state;
        let words = state.persisted.lang.class_tr();
        let name = session::suggested_file_name(state.check_name.as_deref());
        let filters = [Filter { name: words.saved_check, extensions: &[CHECK_EXTENSION] }];
        let dialog = Dialog {
            title: words.dialog_save_check,
            start: state.persisted.last_dir.as_deref(),
            file_name: Some(&name),
            filters: &filters,
        };
        let Some(path) = dialogs::save_file(&dialog) else {
            return;
        };
        let check = SavedCheck {
            name: session::name_of(&path),
            lists: state.inputs.lists.clone(),
            mode: state.persisted.mode,
            settings: state.persisted.settings.clone(),
            archive: state.archive_in_use().map(PathBuf::from),
        };
        state.status = Some(match session::save(&check, &path) {
            Ok(written) => {
                state.check_name = Some(session::name_of(&written));
                state.persisted.last_dir = written.parent().map(PathBuf::from);
                Status::Saved(written)
            }
            Err(e) => Status::SaveFailed(e.to_string()),
        });
    }
}

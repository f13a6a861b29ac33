//! What the window remembers between sessions: settings, language, mode, the last folder
//! and the chosen archive; settings left at the engine's defaults follow new defaults.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::gui::i18n::Lang;
use crate::gui::session::LastSession;
use crate::{Mode, Settings};

/// What is remembered between sessions (eframe storage; the window size eframe keeps).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Persisted {
    pub settings: Settings,
    pub lang: Lang,
    pub mode: Mode,
    /// The folder the last dialog was in.
    pub last_dir: Option<PathBuf>,
    /// The engine's defaults when these settings were saved: settings the user left at
    /// their defaults follow the engine when its defaults change.
    pub engine_defaults: Option<Settings>,
    /// The archive chosen in the sidebar (opened again at start): a folder, or a shared
    /// archive's URL, which never holds a password.
    pub archive: Option<PathBuf>,
    /// The schema of a shared archive.
    pub archive_schema: Option<String>,
    /// The suspects are checked against the archive instead of the reference list.
    pub use_archive: bool,
    /// The user picked the mode: it no longer follows the lists (classmates and
    /// references once both lists are filled).
    pub mode_chosen: bool,
    /// The sidebar is folded away, giving its room to the results.
    pub sidebar_hidden: bool,
    /// A PDF export also prints the report's appendix (full texts, inputs' SHA-256).
    pub print_appendix: bool,
    /// What the last session left open: reopened on restart.
    pub session: LastSession,
}

impl Default for Persisted {
    fn default() -> Self {
        Self {
            settings: Settings::default(),
            lang: Lang::from_system(),
            mode: Mode::default(),
            last_dir: None,
            engine_defaults: Some(Settings::default()),
            archive: None,
            archive_schema: None,
            use_archive: false,
            mode_chosen: false,
            sidebar_hidden: false,
            print_appendix: false,
            session: LastSession::default(),
        }
    }
}

impl Persisted {
    /// Settings still equal to the defaults they were saved with take today's defaults.
    pub fn adopt_new_defaults(mut self) -> Self {
        let current = Settings::default();
        if self.engine_defaults.as_ref().is_some_and(|old| *old == self.settings) {
            self.settings = current.clone();
        }
        self.engine_defaults = Some(current);
        self
    }

    /// What a window opened on files of its own (`twinspot A B`) leaves for the next
    /// start while it is still that quick look: the remembered session and the check it
    /// was set up for (lists, results, name, mode, settings, archive) as `self`, the
    /// remembered state the window started from; only the window's own choices made
    /// since (language, last folder, folded lists) from `current`.
    pub fn keeping_session(self, current: &Persisted) -> Persisted {
        Persisted {
            lang: current.lang,
            last_dir: current.last_dir.clone(),
            sidebar_hidden: current.sidebar_hidden,
            print_appendix: current.print_appendix,
            ..self
        }
    }
}

/// A window opened on files of its own (`twinspot A B`, or files opened from the file
/// manager): a session apart from the remembered one, which it leaves as it was for
/// the next plain start — until the reviewer makes it a session of their own by
/// changing its lists or saving or opening a named check.
#[derive(Clone, Debug)]
pub struct OwnSession {
    /// What was remembered when the window started.
    pub remembered: Persisted,
    /// The lists as the files given made them.
    pub lists: [Vec<PathBuf>; 3],
}

impl OwnSession {
    /// What to remember of a window that was opened on files and is now in `current`,
    /// with `lists` and the saved check named `check_name` open.
    pub fn to_remember(&self, current: Persisted, lists: &[Vec<PathBuf>; 3], check_name: Option<&str>) -> Persisted {
        if *lists == self.lists && check_name.is_none() {
            self.remembered.clone().keeping_session(&current)
        } else {
            current
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untouched_settings_follow_new_engine_defaults_and_changed_ones_stay() {
        let old_defaults = Settings { min_chars: 50, ..Settings::default() };
        let untouched = Persisted {
            settings: old_defaults.clone(),
            engine_defaults: Some(old_defaults.clone()),
            ..Persisted::default()
        };
        assert_eq!(untouched.adopt_new_defaults().settings, Settings::default());
        let changed = Persisted {
            settings: Settings { k: 7, ..old_defaults.clone() },
            engine_defaults: Some(old_defaults),
            ..Persisted::default()
        };
        assert_eq!(changed.adopt_new_defaults().settings.k, 7);
    }
}

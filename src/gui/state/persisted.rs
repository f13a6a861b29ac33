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

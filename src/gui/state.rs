//! The window's plain data: what the user chose (persisted), the three input lists, the
//! running job, the last report and the views' own state. Drawing code reads it; the
//! app changes it in response to actions and worker events.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::i18n::Lang;
use super::pair_view::PairView;
use super::results_table::TableState;
use super::worker::JobId;
use crate::{Mode, Progress, Report, Settings};

/// One of the sidebar's three lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ListKind {
    Reference,
    Suspect,
    Template,
}

impl ListKind {
    pub const ALL: [ListKind; 3] = [ListKind::Reference, ListKind::Suspect, ListKind::Template];

    /// Position in [`Inputs::lists`].
    pub fn index(self) -> usize {
        match self {
            ListKind::Reference => 0,
            ListKind::Suspect => 1,
            ListKind::Template => 2,
        }
    }
}

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
}

impl Default for Persisted {
    fn default() -> Self {
        Self {
            settings: Settings::default(),
            lang: Lang::from_system(),
            mode: Mode::default(),
            last_dir: None,
            engine_defaults: Some(Settings::default()),
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

/// The three input lists: files and folders as the user gave them.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    pub lists: [Vec<PathBuf>; 3],
    pub selected: [Option<usize>; 3],
}

impl Inputs {
    pub fn list(&self, kind: ListKind) -> &[PathBuf] {
        &self.lists[kind.index()]
    }

    /// Adds paths not yet in the list.
    pub fn add(&mut self, kind: ListKind, paths: impl IntoIterator<Item = PathBuf>) {
        let list = &mut self.lists[kind.index()];
        for path in paths {
            if !list.contains(&path) {
                list.push(path);
            }
        }
    }

    pub fn remove(&mut self, kind: ListKind, index: usize) {
        let list = &mut self.lists[kind.index()];
        if index < list.len() {
            list.remove(index);
        }
        self.selected[kind.index()] = None;
    }

    pub fn clear(&mut self, kind: ListKind) {
        self.lists[kind.index()].clear();
        self.selected[kind.index()] = None;
    }

    pub fn is_empty(&self) -> bool {
        self.lists.iter().all(Vec::is_empty)
    }
}

/// Whether a check is running.
#[derive(Clone, Debug, Default)]
pub enum RunState {
    #[default]
    Idle,
    Running {
        job: JobId,
        started: Instant,
        /// Documents to read, once the folders are listed.
        documents: Option<usize>,
        progress: Option<Progress>,
    },
}

/// Which results view is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ResultsTab {
    #[default]
    Pairs,
    Heatmap,
    Groups,
}

/// A short message in the status line.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Finished { documents: usize, pairs: usize, unreadable: usize, elapsed: Duration },
    Cancelled,
    Saved(PathBuf),
    SaveFailed(String),
}

/// Everything the window shows.
#[derive(Default)]
pub struct State {
    pub persisted: Persisted,
    pub inputs: Inputs,
    pub run: RunState,
    pub report: Option<Arc<Report>>,
    pub table: TableState,
    pub tab: ResultsTab,
    /// The open pair, if any.
    pub pair: Option<PairView>,
    pub status: Option<Status>,
    pub show_problems: bool,
    /// Set when two files dropped on an empty window start a check: open the top pair.
    pub open_first_pair: bool,
    /// Where each list was drawn last frame, to route dropped files.
    pub list_rects: [Option<egui::Rect>; 3],
}

impl State {
    pub fn is_running(&self) -> bool {
        matches!(self.run, RunState::Running { .. })
    }

    /// The current job's id, if one runs.
    pub fn running_job(&self) -> Option<JobId> {
        match self.run {
            RunState::Running { job, .. } => Some(job),
            RunState::Idle => None,
        }
    }

    /// Why a check cannot start now, if it cannot.
    pub fn cannot_check(&self) -> Option<&'static str> {
        let tr = self.persisted.lang.tr();
        let inputs = &self.inputs;
        match self.persisted.mode {
            Mode::SuspectsVsReferences => {
                if inputs.list(ListKind::Suspect).is_empty() {
                    Some(tr.need_suspects)
                } else if inputs.list(ListKind::Reference).is_empty() {
                    Some(tr.need_refs)
                } else {
                    None
                }
            }
            Mode::AllVsAll => (inputs.list(ListKind::Suspect).is_empty()
                && inputs.list(ListKind::Reference).is_empty())
            .then_some(tr.need_suspects),
        }
    }

    /// Number of documents in the report that could not be read.
    pub fn problem_count(&self) -> usize {
        self.report
            .as_ref()
            .map_or(0, |r| r.documents.iter().filter(|d| d.error.is_some() || !d.warnings.is_empty()).count())
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

//! The window's plain data: what the user chose (persisted), the three input lists, the
//! running job, the last report and the views' own state (table, open pair, archive).
//! Panels read it; the app changes it in response to actions and worker events.

mod archive;
mod fold;
mod inputs;
mod pair;
mod persisted;
mod table;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use archive::{ArchiveState, ArchiveTask, SharedForm};
pub use fold::NARROW_WINDOW;
pub use inputs::{CheckSource, Inputs, ListKind};
pub use pair::{Find, PairView};
pub use persisted::{OwnSession, Persisted};
pub use table::{MarkFilter, SortColumn, TableState, doc_name, is_flagged};

use crate::gui::worker::JobId;
use crate::report::marks::{MARKS_FILE, Marks};
use crate::report::view::{View, ViewFilter, apply};
use crate::{Mode, Progress, Report, Settings};

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
        /// When the current stage began, for the time estimate.
        stage_started: Instant,
    },
}

/// Which results view is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ResultsTab {
    /// One row per suspect with its overall similarity and sources.
    #[default]
    Overview,
    Pairs,
    Heatmap,
    Groups,
}

/// A short message in the status line.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Finished {
        documents: usize,
        pairs: usize,
        unreadable: usize,
        elapsed: Duration,
    },
    Cancelled,
    Saved(PathBuf),
    SaveFailed(String),
    /// An export was cancelled before its file was written.
    ExportCancelled,
    /// The check could not run (for instance its archive could not be read).
    CheckFailed(String),
}

/// An export running on its own thread: what the status line says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Exporting {
    /// The file it writes.
    pub path: PathBuf,
    pub started: Instant,
    /// True once a cancel came too late: the file is being written.
    pub finishing: bool,
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
    /// The window is narrower than [`NARROW_WINDOW`] (this frame).
    pub narrow: bool,
    /// The reviewer showed the lists over a pair that folded them away (Ctrl+B).
    pub lists_over_pair: bool,
    /// The export running, if any.
    pub exporting: Option<Exporting>,
    /// Why the last export failed, shown in the problems panel until the next export.
    pub export_error: Option<String>,
    /// The sheet of keyboard shortcuts (F1) is open.
    pub show_shortcuts: bool,
    /// Set when two files dropped on an empty window start a check: open the top pair.
    pub open_first_pair: bool,
    /// Where each list was drawn last frame, to route dropped files.
    pub list_rects: [Option<egui::Rect>; 3],
    /// The reviewer's marks and notes, and the file they are kept in: the archive's folder
    /// while the check uses an archive, else `marks_home`.
    pub marks: Marks,
    pub marks_path: Option<PathBuf>,
    /// Where the marks are kept when no archive is used.
    pub marks_home: Option<PathBuf>,
    /// The archive source: the open archive's sizes and the job on it.
    pub archive: ArchiveState,
    /// An error reading or writing the marks, shown until the next success.
    pub marks_error: Option<String>,
    /// The reviewer's filters over the current results.
    pub filter: ViewFilter,
    /// The report as filtered and marked (what the table, overview and exports show).
    pub view: Option<Arc<View>>,
    /// What the shown results were made from, to mark them out of date when this changes.
    pub checked: Option<(Inputs, Mode, Settings)>,
    /// The archive the shown results were checked against, if any.
    pub checked_archive: Option<PathBuf>,
    /// What the running check runs on (its inputs, mode, settings and archive): it
    /// becomes `checked` when the check finishes, and is dropped when it is cancelled.
    pub pending: Option<(Inputs, Mode, Settings, Option<PathBuf>)>,
    /// Checks started so far in this window, the running one included.
    pub checks_started: u64,
    /// The number of the check the shown results come from.
    pub results_check: Option<u64>,
    /// The number of the last check cancelled while earlier results stayed on screen.
    pub cancelled_check: Option<u64>,
    /// The name of the saved check being worked on ("Class 3B, essay 2"), if any.
    pub check_name: Option<String>,
    /// The last session's results are to be made again once the archive they were
    /// checked against is open (it opens on the worker after the window starts).
    pub check_when_archive_opens: bool,
    /// How many documents a check reads from each path of the lists (a folder: the
    /// supported files inside it), counted once when the path is first listed.
    pub file_counts: std::collections::HashMap<PathBuf, usize>,
    /// Display names of the report's documents: relative to the folder they were added
    /// from, or shortened at the start.
    pub names: Vec<String>,
}

/// Where the marks are kept when no other place is given: the app's data folder.
pub fn default_marks_path() -> Option<PathBuf> {
    eframe::storage_dir("Twinspot").map(|d| d.join(MARKS_FILE))
}

/// The name of `path` relative to the input `roots` it came from (a folder: the path
/// inside it; a file: its name), else its last two components after "…/".
pub fn display_name(path: &str, roots: &[PathBuf]) -> String {
    let p = std::path::Path::new(path);
    for root in roots {
        if p == root.as_path() {
            return p.file_name().map_or_else(|| path.to_owned(), |n| n.to_string_lossy().into_owned());
        }
        if let Ok(rel) = p.strip_prefix(root)
            && !rel.as_os_str().is_empty()
        {
            return rel.display().to_string();
        }
    }
    let parts: Vec<_> = p.components().collect();
    if parts.len() <= 2 {
        return path.to_owned();
    }
    let tail: PathBuf = parts[parts.len() - 2..].iter().collect();
    format!("…/{}", tail.display())
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

    /// What the suspects are checked against.
    pub fn source(&self) -> CheckSource {
        match self.persisted.mode {
            Mode::AllVsAll => CheckSource::AllVsAll,
            Mode::Classmates => CheckSource::Classmates,
            Mode::SuspectsVsReferences if self.persisted.use_archive && self.persisted.archive.is_some() => {
                CheckSource::Archive
            }
            Mode::SuspectsVsReferences => CheckSource::References,
        }
    }

    /// The archive the check uses, when it uses one that is open.
    pub fn archive_in_use(&self) -> Option<&std::path::Path> {
        if self.source() != CheckSource::Archive {
            return None;
        }
        let info = self.archive.info.as_ref()?;
        self.persisted.archive.as_deref().filter(|dir| *dir == info.dir.as_path())
    }

    /// Why a check cannot start now, if it cannot.
    pub fn cannot_check(&self) -> Option<&'static str> {
        let tr = self.persisted.lang.tr();
        let inputs = &self.inputs;
        let words = self.persisted.lang.archive_tr();
        if self.archive.is_adding() {
            // The worker runs one job at a time: a check would wait behind the add.
            return Some(words.wait_for_add);
        }
        if self.source() == CheckSource::Archive {
            return if inputs.list(ListKind::Suspect).is_empty() {
                Some(tr.need_suspects)
            } else if self.archive_in_use().is_none() {
                Some(words.need_open_archive)
            } else {
                None
            };
        }
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
            Mode::Classmates => inputs.list(ListKind::Suspect).is_empty().then_some(tr.need_suspects),
            Mode::AllVsAll => (inputs.list(ListKind::Suspect).is_empty()
                && inputs.list(ListKind::Reference).is_empty())
            .then_some(tr.need_suspects),
        }
    }

    /// Number of documents in the report that could not be read (notes do not count),
    /// and the failed export, if any.
    pub fn problem_count(&self) -> usize {
        self.report.as_ref().map_or(0, |r| r.errors().count()) + usize::from(self.export_error.is_some())
    }

    /// Number of readable documents with notes (warnings), and of paths passed over.
    pub fn note_count(&self) -> usize {
        self.report.as_ref().map_or(0, |r| {
            r.documents.iter().filter(|d| d.error.is_none() && !d.warnings.is_empty()).count() + r.skipped.len()
        })
    }

    /// True when the inputs, mode or settings changed since the shown results were made.
    pub fn is_stale(&self) -> bool {
        self.report.is_some()
            && self.checked.as_ref().is_some_and(|(inputs, mode, settings)| {
                *inputs != self.inputs
                    || *mode != self.persisted.mode
                    || *settings != self.persisted.settings
                    || self.checked_archive.as_deref() != self.archive_in_use()
            })
    }

    /// Once both lists are filled, a teacher who has not picked a mode checks the class
    /// against its classmates and its sources (not against the archive, when one is used).
    pub fn follow_lists(&mut self) {
        let p = &mut self.persisted;
        if !p.mode_chosen && !p.use_archive && self.inputs.both_filled() && p.mode == Mode::SuspectsVsReferences {
            p.mode = Mode::Classmates;
        }
    }

    /// Counts the documents of the listed paths not counted yet, as a check lists them.
    pub fn count_new_inputs(&mut self) {
        for path in self.inputs.lists.iter().flatten() {
            if !self.file_counts.contains_key(path) {
                let mut set = crate::engine::InputSet::reading_zips();
                set.add(std::slice::from_ref(path), crate::Role::Suspect);
                let n = set.finish().0.len();
                self.file_counts.insert(path.clone(), n);
            }
        }
    }

    /// What list `kind` holds, in words: "30 files in 1 folder", "2 files".
    pub fn list_summary(&self, kind: ListKind) -> String {
        let words = self.persisted.lang.class_tr();
        let list = self.inputs.list(kind);
        let files: usize = list.iter().map(|p| self.file_counts.get(p).copied().unwrap_or(0)).sum();
        let folders = list.iter().filter(|p| p.is_dir()).count();
        words.files_in_folders(files, folders)
    }

    /// The words of `mode` as the results line says it (the archive when one was used).
    pub fn mode_words(&self, mode: Mode, archive: bool) -> &'static str {
        let words = self.persisted.lang.class_tr();
        match mode {
            Mode::SuspectsVsReferences if archive => words.mode_archive_short,
            Mode::SuspectsVsReferences => words.mode_refs_short,
            Mode::AllVsAll => words.mode_all_short,
            Mode::Classmates => words.mode_classmates,
        }
    }

    /// Whether document `doc` of the shown report is another suspect of the check (a
    /// classmate) rather than a reference.
    pub fn is_classmate(&self, doc: usize) -> bool {
        self.report.as_ref().and_then(|r| r.documents.get(doc)).is_some_and(|d| d.role == crate::Role::Suspect)
    }

    /// Recomputes the filtered view of the report (after a new report, a filter or a mark).
    pub fn refresh_view(&mut self) {
        self.view = self.report.as_ref().map(|r| Arc::new(apply(r, &self.filter, &self.marks)));
        if let (Some(pair), Some(report)) = (&mut self.pair, &self.report) {
            pair.read_marks(report, &self.marks);
        }
    }

    /// The pair an HTML export of one pair covers: the open pair, else the selected row.
    pub fn export_pair(&self) -> Option<usize> {
        let view = self.view.as_ref()?;
        match &self.pair {
            Some(open) => view.origin.iter().position(|&o| o == open.pair),
            None => self.table.selected.filter(|&i| i < view.report.pairs.len()),
        }
    }

    /// The document an HTML export of one document covers: the open or selected pair's
    /// first document, else the overview's selected row.
    pub fn export_suspect(&self) -> Option<usize> {
        let view = self.view.as_ref()?;
        self.export_pair().and_then(|p| view.report.pairs.get(p)).map(|p| p.a).or(self.table.selected_doc)
    }

    /// The display name of document `id`.
    pub fn name(&self, id: usize) -> &str {
        self.names.get(id).map_or("?", String::as_str)
    }

    /// Where the marks belong now: in the folder of the archive the check uses, else home
    /// (also while a shared archive, on a server, is used).
    pub fn wanted_marks_path(&self) -> Option<PathBuf> {
        match self.archive_in_use() {
            Some(dir) if !crate::archive::is_server_url(&dir.to_string_lossy()) => Some(dir.join(MARKS_FILE)),
            _ => self.marks_home.clone(),
        }
    }

    /// Follows a change of the archive in use: the marks of the new place are read.
    /// True when the place changed.
    pub fn sync_marks_path(&mut self) -> bool {
        let wanted = self.wanted_marks_path();
        if wanted == self.marks_path {
            return false;
        }
        self.marks_path = wanted;
        self.marks = Marks::default();
        self.load_marks();
        self.refresh_view();
        true
    }

    /// Saves the marks to their file, keeping any error to show.
    pub fn save_marks(&mut self) {
        if let Some(path) = &self.marks_path {
            self.marks_error = self.marks.save(path).err().map(|e| e.to_string());
        }
    }

    /// Loads the marks from their file, keeping any error to show.
    pub fn load_marks(&mut self) {
        if let Some(path) = &self.marks_path {
            match Marks::load(path) {
                Ok(marks) => {
                    self.marks = marks;
                    self.marks_error = None;
                }
                Err(e) => self.marks_error = Some(e.to_string()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_relative_to_the_folder_added_or_shortened_at_the_start() {
        let roots = vec![PathBuf::from("/home/t/class"), PathBuf::from("/home/t/one.txt")];
        assert_eq!(display_name("/home/t/class/a/x.txt", &roots), "a/x.txt");
        assert_eq!(display_name("/home/t/one.txt", &roots), "one.txt");
        assert_eq!(display_name("/else/where/deep/y.txt", &roots), "…/deep/y.txt");
    }
}

//! The eframe app, on top of the window: owns the [`State`] and the worker. `logic` drains
//! the worker's events; `ui` draws the panels (which read the state and push [`Action`]s),
//! then applies the actions: dialogs, starting and cancelling checks, opening pairs, exporting.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use egui::{Key, Modifiers, RichText};

mod archive_actions;
mod exporting;
mod picking;
mod results;

use super::action::Action;
use super::archive_jobs::ArchiveTarget;
use super::archive_panel::shared_form_ui;
use super::errors_panel::errors_ui;
use super::export_job::{ExportJob, Printer, chromium};
use super::fonts;
use super::heatmap::{groups_ui, has_heatmap, heatmap_ui};
use super::overview::overview_ui;
use super::pair_view::{PairLayout, pair_view_ui};
use super::results_table::table_ui;
use super::review::filter_bar_ui;
use super::session::{self, LastSession};
use super::sidebar::sidebar_ui;
use super::state::{
    ArchiveTask, CheckSource, ListKind, OwnSession, PairView, Persisted, ResultsTab, RunState, State, Status,
    default_marks_path, display_name,
};
use super::status_bar::status_ui;
use super::toolbar::{progress_ui, toolbar_ui};
use super::worker::{CheckPlan, Command, Event, JobId, Waker, Worker};
use crate::archive::is_server_url;
use crate::ingest::Isolation;
use crate::{CancelFlag, Mode, Report};

/// The window.
pub struct TwinspotApp {
    pub state: State,
    worker: Option<Worker>,
    cancel: Option<CancelFlag>,
    /// Stops the running add to the archive.
    archive_cancel: Option<CancelFlag>,
    next_job: JobId,
    /// Where documents are read: helper processes, or this process (`None`).
    isolation: Option<Isolation>,
    /// The open pair's texts as laid out last (the pair view's memo).
    pair_layout: PairLayout,
    /// Set when the window was opened on files: the remembered session it leaves alone.
    own_session: Option<OwnSession>,
    /// The export running on its own thread, if any.
    export: Option<ExportJob>,
    /// What prints a PDF (Chromium; a test's fake).
    printer: Printer,
    /// Wakes the window when a job on another thread has news.
    waker: Waker,
}

impl TwinspotApp {
    /// Builds the app: fonts, remembered settings, the worker thread, and `files` as suspects
    /// (exactly two files: compared with each other at once).
    pub fn new(cc: &eframe::CreationContext<'_>, files: Vec<PathBuf>) -> Self {
        fonts::install(&cc.egui_ctx);
        let persisted = cc
            .storage
            .and_then(|s| eframe::get_value::<Persisted>(s, eframe::APP_KEY))
            .unwrap_or_default()
            .adopt_new_defaults();
        let ctx = cc.egui_ctx.clone();
        let waker: Waker = Arc::new(move || ctx.request_repaint());
        let worker = Worker::spawn(waker.clone())
            .map_err(|e| log_error(&format!("the worker thread could not start: {e}")))
            .ok();
        let marks_home = default_marks_path();
        let mut state = State { persisted, marks_path: marks_home.clone(), marks_home, ..State::default() };
        state.load_marks();
        let mut app = Self {
            state,
            worker,
            cancel: None,
            archive_cancel: None,
            next_job: 1,
            isolation: None,
            pair_layout: PairLayout::default(),
            own_session: None,
            export: None,
            printer: chromium(),
            waker,
        };
        // The archive chosen last time is opened again (never created: it may have moved).
        if let Some(dir) = app.state.persisted.archive.clone() {
            app.open_archive(dir, false);
        }
        if files.is_empty() {
            app.restore_session();
        } else {
            // A session of its own: what was remembered is left for the next plain start.
            let remembered = app.state.persisted.clone();
            // Like a drop on the empty window: two files are compared at once (the first as
            // suspect, the second as reference); otherwise every path joins the suspects.
            app.apply(Action::Dropped(None, files));
            app.own_session = Some(OwnSession { remembered, lists: app.state.inputs.lists.clone() });
        }
        app
    }

    /// Reopens what the last session left: its lists and named check, and its results
    /// (checked again, so they are those of the files as they are now).
    fn restore_session(&mut self) {
        let session = std::mem::take(&mut self.state.persisted.session);
        self.state.inputs.lists = session.lists;
        self.state.check_name = session.check_name;
        if !session.had_results {
            return;
        }
        if self.state.source() == CheckSource::Archive && self.state.archive.is_busy() {
            // Checked against the archive: once it is open.
            self.state.check_when_archive_opens = true;
        } else {
            self.start_check();
        }
    }

    /// What the window remembers for its next start: this session, unless the window
    /// was opened on files and is still that quick look (then the session before it).
    pub fn to_remember(&self) -> Persisted {
        let current = Persisted { session: self.last_session(), ..self.state.persisted.clone() };
        match &self.own_session {
            Some(own) => own.to_remember(current, &self.state.inputs.lists, self.state.check_name.as_deref()),
            None => current,
        }
    }

    /// What this session leaves for the next one.
    fn last_session(&self) -> LastSession {
        LastSession {
            lists: self.state.inputs.lists.clone(),
            had_results: self.state.report.is_some() || self.state.is_running(),
            check_name: self.state.check_name.clone(),
        }
    }

    /// Opens the named check saved at `path`: its lists, mode, settings and archive.
    pub fn load_check(&mut self, path: &std::path::Path) {
        match session::load(path) {
            Ok(check) => {
                let state = &mut self.state;
                state.inputs.lists = check.lists;
                state.inputs.selected = [None; 3];
                state.persisted.mode = check.mode;
                state.persisted.mode_chosen = true;
                state.persisted.settings = check.settings;
                state.persisted.last_dir = path.parent().map(PathBuf::from);
                state.check_name = Some(check.name);
                state.persisted.use_archive = check.archive.is_some();
                if let Some(dir) = check.archive {
                    self.open_archive(dir, false);
                }
            }
            Err(e) => self.state.status = Some(Status::CheckFailed(e.to_string())),
        }
    }

    /// Reads documents in helper processes started as `isolation` says.
    pub fn with_isolation(mut self, isolation: Option<Isolation>) -> Self {
        self.isolation = isolation;
        self
    }

    /// Shows a finished report, as if a check had just produced it.
    pub fn show_report(&mut self, report: Arc<Report>) {
        let roots: Vec<PathBuf> = self.state.inputs.lists.iter().flatten().cloned().collect();
        self.state.names = report.documents.iter().map(|d| display_name(&d.path, &roots)).collect();
        self.state.report = Some(report);
        self.state.table.reset();
        self.state.filter.excluded.clear();
        self.state.pair = None;
        self.state.tab = ResultsTab::Overview;
        self.state.refresh_view();
    }

    /// Keeps the marks in `path` from now on (while no archive is in use: then they are
    /// in its folder), reading the marks already there.
    pub fn set_marks_path(&mut self, path: PathBuf) {
        self.state.marks_home = Some(path);
        self.state.marks_path = self.state.wanted_marks_path();
        self.state.load_marks();
        self.state.refresh_view();
    }

    fn new_job(&mut self) -> JobId {
        let job = self.next_job;
        self.next_job += 1;
        job
    }

    /// Opens the archive at `dir` on the worker (with `create`, an empty or missing folder
    /// becomes a new archive); its sizes come back as an event.
    fn open_archive(&mut self, dir: PathBuf, create: bool) {
        self.cancel_archive_add();
        let job = self.new_job();
        let settings = self.archive_settings();
        self.state.archive.reset();
        self.state.persisted.archive = Some(dir.clone());
        let command = Command::OpenArchive { job, archive: self.archive_target(&dir), create, settings };
        if self.worker.as_ref().is_some_and(|w| w.send(command)) {
            self.state.archive.task = ArchiveTask::Opening { job };
        }
    }

    /// Connects to the shared archive of the open form: its URL (without the password)
    /// and schema are kept, its password only in memory.
    fn connect_shared(&mut self) {
        let Some(form) = self.state.archive.shared_form.clone() else {
            return;
        };
        if self.state.is_running() {
            return;
        }
        let Some((url, password)) = form.target() else {
            self.state.archive.error = Some(self.state.persisted.lang.shared_tr().not_a_url.to_owned());
            return;
        };
        let schema = form.schema.trim();
        self.state.archive.shared_form = None;
        self.state.archive.password = password;
        self.state.persisted.archive_schema = Some(if schema.is_empty() { "twinspot" } else { schema }.to_owned());
        self.state.persisted.mode = Mode::SuspectsVsReferences;
        self.state.persisted.use_archive = true;
        self.open_archive(PathBuf::from(url), true);
    }

    /// The archive named `name` (a folder, or a shared archive's URL without its password)
    /// as a job opens it: with the schema chosen and the password typed, if any.
    fn archive_target(&self, name: &std::path::Path) -> ArchiveTarget {
        let shared = is_server_url(&name.to_string_lossy());
        ArchiveTarget {
            name: name.to_path_buf(),
            schema: if shared { self.state.persisted.archive_schema.clone() } else { None },
            password: if shared { self.state.archive.password.clone() } else { None },
        }
    }

    /// The window's settings as an archive job uses them (documents read like a check's).
    fn archive_settings(&self) -> crate::Settings {
        let mut settings = self.state.persisted.settings.clone();
        settings.ingest.isolation = self.isolation.clone();
        settings
    }

    /// Adds `paths` to the open archive on the worker, with progress and a cancel.
    pub fn add_to_archive(&mut self, paths: Vec<PathBuf>) {
        let Some(dir) = self.state.persisted.archive.clone() else {
            return;
        };
        if paths.is_empty() || self.state.archive.is_busy() || self.state.is_running() {
            return;
        }
        let job = self.new_job();
        let cancel = CancelFlag::new();
        let settings = self.archive_settings();
        let archive = self.archive_target(&dir);
        let command = Command::AddToArchive { job, archive, paths, settings, cancel: cancel.clone() };
        if self.worker.as_ref().is_some_and(|w| w.send(command)) {
            self.archive_cancel = Some(cancel);
            self.state.archive.error = None;
            self.state.archive.task =
                ArchiveTask::Adding { job, started: Instant::now(), progress: None, cancelling: false };
        }
    }

    /// Asks the running add to stop after its current batch; its end is still reported.
    fn cancel_archive_add(&mut self) {
        if let Some(cancel) = self.archive_cancel.take() {
            cancel.cancel();
        }
        if let ArchiveTask::Adding { cancelling, .. } = &mut self.state.archive.task {
            *cancelling = true;
        }
    }

    /// Starts a check of the current lists (cancelling any running one).
    pub fn start_check(&mut self) {
        if self.state.cannot_check().is_some() {
            return;
        }
        self.cancel_check();
        let job = self.new_job();
        let archive = self.state.archive_in_use().map(PathBuf::from);
        let inputs = &self.state.inputs;
        let mut plan = CheckPlan {
            references: inputs.list(ListKind::Reference).to_vec(),
            suspects: inputs.list(ListKind::Suspect).to_vec(),
            templates: inputs.list(ListKind::Template).to_vec(),
            mode: self.state.persisted.mode,
            settings: self.state.persisted.settings.clone(),
            archive: archive.as_deref().map(|name| self.archive_target(name)),
        };
        // Same protection as the command line: documents are read in helper processes.
        plan.settings.ingest.isolation = self.isolation.clone();
        // Passages the reviewer dismissed everywhere are stop passages of the next check:
        // the engine shows them as common and counts them nowhere.
        plan.settings.stop_passages.extend(self.state.marks.stop_passages.values().cloned());
        // Lines of the settings' stop passages, as a stop-passage file gives them.
        plan.settings.stop_passages = plan.settings.stop_passages.iter().map(|p| p.trim().to_owned()).collect();
        plan.settings.stop_passages.retain(|p| !p.is_empty());
        plan.settings.stop_passages.sort();
        plan.settings.stop_passages.dedup();
        let cancel = CancelFlag::new();
        let sent = self.worker.as_ref().is_some_and(|w| w.send(Command::Check { job, plan, cancel: cancel.clone() }));
        if sent {
            self.cancel = Some(cancel);
            self.state.run = RunState::Running {
                job,
                started: Instant::now(),
                documents: None,
                progress: None,
                stage_started: Instant::now(),
            };
            // The results shown stay those of the last finished check until this one finishes.
            let p = &self.state.persisted;
            self.state.pending = Some((self.state.inputs.clone(), p.mode, p.settings.clone(), archive));
            self.state.checks_started += 1;
            self.state.status = None;
        }
    }

    /// Cancels the running check; its late events are dropped.
    pub fn cancel_check(&mut self) {
        if let Some(cancel) = self.cancel.take() {
            cancel.cancel();
        }
        if self.state.is_running() {
            self.state.run = RunState::Idle;
            self.state.status = Some(Status::Cancelled);
            self.forget_pending();
        }
    }

    /// The running check ended without results: what it ran on is forgotten, and the
    /// results on screen (if any) say that they are the earlier ones.
    fn forget_pending(&mut self) {
        self.state.pending = None;
        if self.state.report.is_some() {
            self.state.cancelled_check = Some(self.state.checks_started);
        }
    }

    fn handle_event(&mut self, event: Event) {
        if Some(event.job()) == self.state.archive.job() {
            self.handle_archive_event(event);
            self.state.sync_marks_path();
            return;
        }
        if Some(event.job()) != self.state.running_job() {
            return; // stale: from a cancelled or replaced job
        }
        match event {
            Event::Listed { documents: n, .. } => {
                if let RunState::Running { documents, .. } = &mut self.state.run {
                    *documents = Some(n);
                }
            }
            Event::Progress { progress: p, .. } => {
                if let RunState::Running { progress, stage_started, .. } = &mut self.state.run {
                    if progress.is_none_or(|old| old.stage != p.stage) {
                        *stage_started = Instant::now();
                    }
                    *progress = Some(p);
                }
            }
            Event::Finished { report, elapsed, .. } => {
                self.cancel = None;
                self.state.run = RunState::Idle;
                if let Some((inputs, mode, settings, archive)) = self.state.pending.take() {
                    self.state.checked = Some((inputs, mode, settings));
                    self.state.checked_archive = archive;
                }
                self.state.results_check = Some(self.state.checks_started);
                self.state.cancelled_check = None;
                self.state.status = Some(Status::Finished {
                    documents: report.documents.len(),
                    pairs: report.pairs.len(),
                    unreadable: report.errors().count(),
                    elapsed,
                });
                let open_first = std::mem::take(&mut self.state.open_first_pair);
                let has_errors = report.errors().next().is_some();
                self.show_report(report);
                self.state.show_problems |= has_errors;
                if open_first {
                    self.apply(Action::OpenPair(0));
                }
            }
            Event::Cancelled { .. } => {
                self.cancel = None;
                self.state.run = RunState::Idle;
                self.state.status = Some(Status::Cancelled);
                self.forget_pending();
            }
            Event::Failed { error, .. } => {
                self.cancel = None;
                self.state.run = RunState::Idle;
                self.state.status = Some(Status::CheckFailed(error));
                self.state.pending = None;
            }
            Event::ArchiveReady { info, .. } => {
                // The archive checked against, its sizes now (unless another was opened since).
                if self.state.persisted.archive.as_ref() == Some(&info.dir) {
                    self.state.archive.info = Some(info);
                }
            }
            Event::ArchiveAdded { .. } => {}
        }
    }

    /// An event of the job running on the archive (open or add).
    fn handle_archive_event(&mut self, event: Event) {
        let archive = &mut self.state.archive;
        match event {
            Event::Progress { progress: p, .. } => {
                if let ArchiveTask::Adding { progress, .. } = &mut archive.task {
                    *progress = Some(p);
                }
            }
            Event::ArchiveReady { info, .. } => {
                archive.task = ArchiveTask::Idle;
                archive.error = None;
                archive.info = Some(info);
                if std::mem::take(&mut self.state.check_when_archive_opens) {
                    self.start_check();
                }
            }
            Event::ArchiveAdded { outcome, .. } => {
                self.archive_cancel = None;
                archive.task = ArchiveTask::Idle;
                archive.error = None;
                archive.info = Some(outcome.info.clone());
                archive.last_add = Some(outcome);
            }
            Event::Failed { error, .. } => {
                self.archive_cancel = None;
                if matches!(archive.task, ArchiveTask::Opening { .. }) {
                    archive.info = None;
                }
                archive.task = ArchiveTask::Idle;
                archive.error = Some(error);
                // The archive the last session checked against is gone: nothing to redo.
                self.state.check_when_archive_opens = false;
            }
            Event::Listed { .. } | Event::Finished { .. } | Event::Cancelled { .. } => {}
        }
    }

    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        let state = &mut self.state;
        match action {
            Action::AddFiles(kind) => self.add_files_with_dialog(kind),
            Action::AddFolder(kind) => self.add_folder_with_dialog(kind),
            Action::Remove(kind, i) => state.inputs.remove(kind, i),
            Action::Clear(kind) => state.inputs.clear(kind),
            Action::Dropped(target, paths) => self.dropped(target, paths),
            Action::Check => self.start_check(),
            Action::Cancel => self.cancel_check(),
            Action::OpenPair(i) => self.open_pair(i),
            Action::FocusPassage(i) => self.on_pair(|view| view.focus(i)),
            Action::SwapSides => self.on_pair(PairView::swap),
            Action::MarkPair(i, mark) => self.mark_pair(i, mark),
            Action::MarkPassage(i, p, mark) => self.mark_passage(i, p, mark),
            Action::SetNote(i, note) => self.set_note(i, &note),
            Action::FilterChanged => state.refresh_view(),
            Action::ClosePair => self.close_pair(),
            Action::StepPassage(delta) => self.step_passage(delta),
            Action::MoveSelection(delta) => state.table.move_selection(delta),
            Action::MoveDocument(delta) => self.move_document(delta),
            Action::OpenArchive => self.open_archive_with_dialog(),
            Action::UseArchive(dir) => self.use_archive(dir),
            Action::OpenSharedForm => self.open_shared_form(),
            Action::EditSharedForm(form) => state.archive.shared_form = Some(form),
            Action::CloseSharedForm => state.archive.shared_form = None,
            Action::ConnectShared => self.connect_shared(),
            Action::CancelArchiveOpen => self.cancel_archive_open(),
            Action::CloseArchive => self.close_archive(),
            Action::AddFilesToArchive => self.add_to_archive_with_dialog(false),
            Action::AddFolderToArchive => self.add_to_archive_with_dialog(true),
            Action::AddToArchive(paths) => self.add_to_archive(paths),
            Action::CancelArchiveAdd => self.cancel_archive_add(),
            Action::SetSource(source) => self.set_source(source),
            Action::ToggleSidebar => state.toggle_lists(),
            Action::ToggleShortcuts => state.show_shortcuts = !state.show_shortcuts,
            Action::SaveCheck => self.save_check(),
            Action::OpenCheck => self.open_check_with_dialog(),
            Action::LoadCheck(path) => self.load_check(&path),
            Action::Find(query) => self.find(query),
            Action::FindStep(delta) => self.on_pair(|view| view.find.step(delta)),
            Action::FocusFind(on) => self.on_pair(|view| view.find.focus = on),
            Action::FindScrolled => self.on_pair(|view| view.find.pending_scroll = false),
            Action::SelectInput(kind, row) => {
                if let Some(selected) = state.inputs.selected.get_mut(kind.index()) {
                    *selected = row;
                }
            }
            Action::SetSettings(settings) => state.persisted.settings = settings,
            Action::SetLang(lang) => state.persisted.lang = lang,
            Action::ShowProblems(show) => state.show_problems = show,
            Action::SetNameFilter(name) => state.table.name_filter = name,
            Action::SetMarkFilter(filter) => state.table.mark_filter = filter,
            Action::SetFlaggedOnly(on) => state.table.flagged_only = on,
            Action::SetPrintAppendix(on) => state.persisted.print_appendix = on,
            Action::SetFilter(filter) => {
                state.filter = filter;
                state.refresh_view();
            }
            Action::ExcludeSource(doc) => {
                state.filter.excluded.insert(doc);
                state.refresh_view();
            }
            Action::ToggleSources(doc) => {
                if !state.table.expanded.remove(&doc) {
                    state.table.expanded.insert(doc);
                }
            }
            Action::SelectDocument(doc) => {
                state.table.selected_doc = Some(doc);
                state.table.selected = None;
            }
            Action::SelectPair(i) => state.table.selected = Some(i),
            Action::SortBy(column) => state.table.toggle_sort(column),
            Action::ScrolledToSelected(row) => {
                // A selection moved since (by a key this frame) still wants its scroll.
                if state.table.selected == row {
                    state.table.scroll_to_selected = false;
                }
            }
            Action::SetTab(tab) => state.tab = tab,
            Action::PassageClicked { side, passage } => self.on_pair(|view| view.clicked(side, passage)),
            Action::ScrolledSide { side, passage } => self.scrolled_side(side, passage),
            Action::SelectText(on) => self.on_pair(|view| view.select_text = on),
            Action::EditNote(note) => self.on_pair(|view| view.note = note),
            Action::Export(kind, scope) => self.export_with_dialog(kind, scope),
            Action::CancelExport => self.cancel_export(),
        }
    }

    /// Keys and dropped files of this frame, as actions.
    fn input_actions(&self, ctx: &egui::Context, actions: &mut Vec<Action>) {
        let typing = ctx.egui_wants_keyboard_input();
        let state = &self.state;
        ctx.input_mut(|i| {
            if i.consume_key(Modifiers::COMMAND, Key::Enter) {
                actions.push(Action::Check);
            }
            if i.consume_key(Modifiers::COMMAND, Key::B) {
                actions.push(Action::ToggleSidebar);
            }
            if i.consume_key(Modifiers::NONE, Key::F1) {
                actions.push(Action::ToggleShortcuts);
            }
            if i.consume_key(Modifiers::COMMAND, Key::S) {
                actions.push(Action::SaveCheck);
            }
            if i.consume_key(Modifiers::COMMAND, Key::O) {
                actions.push(Action::OpenCheck);
            }
            if i.consume_key(Modifiers::NONE, Key::Escape) {
                if state.is_running() {
                    actions.push(Action::Cancel);
                } else if state.exporting.is_some() {
                    actions.push(Action::CancelExport);
                } else if state.pair.is_some() {
                    actions.push(Action::ClosePair);
                }
            }
            if state.pair.is_some() && i.consume_key(Modifiers::COMMAND, Key::F) {
                actions.push(Action::FocusFind(true));
            }
            if !typing && state.pair.is_some() {
                if i.consume_key(Modifiers::NONE, Key::N) || i.consume_key(Modifiers::NONE, Key::F3) {
                    actions.push(Action::StepPassage(1));
                }
                if i.consume_key(Modifiers::NONE, Key::P) || i.consume_key(Modifiers::SHIFT, Key::F3) {
                    actions.push(Action::StepPassage(-1));
                }
            }
            let overview = state.tab == ResultsTab::Overview;
            if !typing && state.pair.is_none() && state.report.is_some() && i.consume_key(Modifiers::NONE, Key::Enter) {
                // The overview opens the selected student's sources; the table its pair.
                match (overview, state.table.selected_doc, state.table.selected) {
                    (true, Some(doc), _) => actions.push(Action::ToggleSources(doc)),
                    (false, _, Some(selected)) => actions.push(Action::OpenPair(selected)),
                    _ => {}
                }
            }
            let dropped: Vec<PathBuf> = i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).collect();
            if !dropped.is_empty() {
                let pos = i.pointer.latest_pos();
                let target = ListKind::ALL
                    .into_iter()
                    .find(|k| pos.is_some_and(|p| state.list_rects[k.index()].is_some_and(|r| r.contains(p))));
                actions.push(Action::Dropped(target, dropped));
            }
        });
        if !typing && state.pair.is_none() && state.report.is_some() {
            let (up, down) = ctx.input(|i| (i.key_pressed(Key::ArrowUp), i.key_pressed(Key::ArrowDown)));
            let delta = if up { -1 } else { 1 };
            if (up || down) && state.tab == ResultsTab::Overview {
                actions.push(Action::MoveDocument(delta));
            } else if up || down {
                actions.push(Action::MoveSelection(delta));
            }
        }
    }

    /// The pair an HTML export of one pair covers: the open pair, else the selected row.
    pub fn export_pair(&self) -> Option<usize> {
        self.state.export_pair()
    }

    /// The document an HTML export of one document covers.
    pub fn export_suspect(&self) -> Option<usize> {
        self.state.export_suspect()
    }

    /// True when both sides of the open pair have been laid out.
    pub fn pair_laid_out(&self) -> bool {
        self.state.pair.is_some() && self.pair_layout.laid_out()
    }

    /// How many times a side of a pair was laid out so far.
    pub fn pair_layouts(&self) -> usize {
        self.pair_layout.count()
    }

    /// The results: the open pair, else the tabs (overview, pairs, heat map, groups).
    fn central_ui(&mut self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        let tr = self.state.persisted.lang.tr();
        let Some(view) = self.state.view.clone() else {
            empty_ui(ui, &self.state);
            return;
        };
        if self.state.is_stale() {
            ui.label(RichText::new(tr.stale).color(egui::Color32::from_rgb(0xc0, 0x60, 0x00)).strong())
                .on_hover_text(tr.tip_stale);
        }
        results_of_ui(ui, &self.state, &view.report);
        if self.state.pair.is_some() {
            pair_view_ui(ui, &self.state, &mut self.pair_layout, actions);
            return;
        }
        let report = view.report.clone();
        // The table's row order is cached in its state: brought up to date before drawing.
        let state = &mut self.state;
        state.table.rows(&report, &state.names, &state.marks);
        let state = &self.state;
        ui.horizontal(|ui| {
            let mut tab = state.tab;
            ui.selectable_value(&mut tab, ResultsTab::Overview, tr.tab_overview).on_hover_text(tr.tip_overview);
            ui.selectable_value(&mut tab, ResultsTab::Pairs, tr.tab_pairs);
            if has_heatmap(report.mode) {
                ui.selectable_value(&mut tab, ResultsTab::Heatmap, tr.tab_heatmap);
            }
            if has_groups_tab(state, &report) {
                ui.selectable_value(&mut tab, ResultsTab::Groups, tr.tab_groups);
            }
            if tab != state.tab {
                actions.push(Action::SetTab(tab));
            }
        });
        ui.separator();
        match (report.mode, state.tab) {
            (mode, ResultsTab::Heatmap) if has_heatmap(mode) => heatmap_ui(ui, state, &report, actions),
            (_, ResultsTab::Groups) if has_groups_tab(state, &report) => groups_ui(ui, state, &report, actions),
            (_, ResultsTab::Overview) => {
                filter_bar_ui(ui, state, &report, actions);
                overview_ui(ui, state, &report, actions);
            }
            _ => {
                filter_bar_ui(ui, state, &report, actions);
                if !report.pairs.is_empty() {
                    ui.label(RichText::new(tr.open_hint).weak());
                }
                without_shared_ui(ui, state, &report);
                table_ui(ui, state, &report, actions);
            }
        }
    }
}

/// Whether the results have a groups tab: all against all, a class against its
/// classmates, and a check against the archive (its near duplicates grouped).
fn has_groups_tab(state: &State, report: &Report) -> bool {
    report.mode != Mode::SuspectsVsReferences || state.checked_archive.is_some() || !report.groups.is_empty()
}

/// Which check the results come from (its number, mode and documents), and a cancelled
/// check's note that they are still the earlier ones.
fn results_of_ui(ui: &mut egui::Ui, state: &State, report: &Report) {
    let words = state.persisted.lang.class_tr();
    let Some(n) = state.results_check else {
        return;
    };
    let mode = state.mode_words(report.mode, state.checked_archive.is_some());
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(words.results_of(n, mode, report.documents.len())).weak())
            .on_hover_text(words.tip_results_of);
        if let Some(cancelled) = state.cancelled_check {
            ui.label(RichText::new(words.cancelled_kept(cancelled)).color(egui::Color32::from_rgb(0xc0, 0x60, 0x00)));
        }
    });
}

/// Above the pairs: how many checked documents share no text with any other.
fn without_shared_ui(ui: &mut egui::Ui, state: &State, report: &Report) {
    let words = state.persisted.lang.class_tr();
    let without = super::overview::without_shared(report);
    if without.is_empty() {
        return;
    }
    let names: Vec<&str> = without.iter().map(|&d| state.name(d)).collect();
    ui.label(RichText::new(words.students_without(without.len())).italics()).on_hover_text(format!(
        "{}\n\n{}",
        words.tip_students_without,
        names.join("\n")
    ));
}

/// The name of list `kind` in the window's language.
fn list_name(state: &State, kind: ListKind) -> &'static str {
    let tr = state.persisted.lang.tr();
    match kind {
        ListKind::Reference => tr.reference,
        ListKind::Suspect => tr.suspects,
        ListKind::Template => tr.template,
    }
}

/// The sheet of keyboard shortcuts (F1).
fn shortcuts_ui(ctx: &egui::Context, lang: super::i18n::Lang, actions: &mut Vec<Action>) {
    let words = lang.class_tr();
    let mut open = true;
    egui::Window::new(words.shortcuts).collapsible(false).resizable(false).open(&mut open).show(ctx, |ui| {
        egui::Grid::new("shortcuts").num_columns(2).striped(true).show(ui, |ui| {
            for (keys, what) in words.shortcut_rows {
                ui.label(RichText::new(keys).monospace().strong());
                ui.label(what);
                ui.end_row();
            }
        });
        if ui.button(words.close).clicked() {
            actions.push(Action::ToggleShortcuts);
        }
    });
    if !open {
        actions.push(Action::ToggleShortcuts);
    }
}

fn log_error(message: &str) {
    eprintln!("twinspot: {message}");
}

fn empty_ui(ui: &mut egui::Ui, state: &State) {
    let tr = state.persisted.lang.tr();
    ui.vertical_centered(|ui| {
        ui.add_space(ui.available_height() * 0.3);
        ui.label(RichText::new("Twinspot").size(28.0).strong());
        ui.add_space(8.0);
        if state.is_running() {
            progress_ui(ui, state);
        } else if state.inputs.is_empty() {
            ui.label(RichText::new(tr.empty_hint).size(15.0));
        } else if let Some(why) = state.cannot_check() {
            ui.label(RichText::new(why).size(15.0));
        } else {
            ui.label(RichText::new(tr.ready_hint).size(15.0));
        }
    });
}

impl eframe::App for TwinspotApp {
    fn logic(&mut self, _ctx: &egui::Context, _frame: &mut eframe::Frame) {
        let events = self.worker.as_ref().map(Worker::drain).unwrap_or_default();
        for event in events {
            self.handle_event(event);
        }
        self.drain_export();
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        let mut actions = Vec::new();
        self.state.count_new_inputs();
        self.state.narrow = ctx.content_rect().width() < super::state::NARROW_WINDOW;
        self.input_actions(&ctx, &mut actions);
        egui::Panel::top("toolbar").show(ui, |ui| {
            ui.add_space(4.0);
            toolbar_ui(ui, &self.state, &mut actions);
            ui.add_space(2.0);
        });
        egui::Panel::bottom("status").show(ui, |ui| status_ui(ui, &self.state, &mut actions));
        if self.state.show_problems {
            let lang = self.state.persisted.lang;
            egui::Panel::bottom("problems")
                .resizable(true)
                .default_size(140.0)
                .show(ui, |ui| errors_ui(ui, lang, self.state.report.as_deref(), self.state.export_error.as_deref()));
        }
        if !self.state.lists_shown() {
            // Folded away: files dropped anywhere join the suspects.
            self.state.list_rects = [None; 3];
        } else {
            let lists = egui::Panel::left("sidebar")
                .resizable(true)
                .default_size(350.0)
                .show(ui, |ui| sidebar_ui(ui, &self.state, &mut actions));
            self.state.list_rects = lists.inner;
        }
        egui::CentralPanel::default().show(ui, |ui| self.central_ui(ui, &mut actions));
        if self.state.show_shortcuts {
            shortcuts_ui(&ctx, self.state.persisted.lang, &mut actions);
        }
        shared_form_ui(&ctx, &self.state, &mut actions);
        for action in actions {
            self.apply(action);
        }
        // The archive in use decides where the review marks are kept.
        self.state.sync_marks_path();
        if self.state.is_running() || self.state.archive.is_adding() || self.state.exporting.is_some() {
            // The elapsed time ticks once a second; progress events wake the window themselves.
            ctx.request_repaint_after(std::time::Duration::from_secs(1));
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.to_remember());
    }

    fn on_exit(&mut self) {
        if let Some(cancel) = self.cancel.take() {
            cancel.cancel();
        }
        self.cancel_export();
        self.cancel_archive_add();
    }
}

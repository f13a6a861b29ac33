//! The app's exports: the dialogs asked on the UI thread, then the file rendered, printed
//! and written on an [`ExportJob`] while the window keeps drawing; `logic` collects its
//! end, a cancel drops it before anything is written.

use std::path::PathBuf;

use super::TwinspotApp;
use crate::gui::export::{ExportKind, ask_where};
use crate::gui::export_job::{ExportJob, ExportRequest, Printer};
use crate::gui::state::{Exporting, Status};
use crate::report::html::Scope;

impl TwinspotApp {
    /// Prints PDFs with `printer` instead of Chromium.
    pub fn with_printer(mut self, printer: Printer) -> Self {
        self.printer = printer;
        self
    }

    /// Asks where to export the view in `kind` (and whether to anonymise), then starts it.
    pub(super) fn export_with_dialog(&mut self, kind: ExportKind, scope: Scope) {
        let state = &self.state;
        let Some(view) = &state.view else {
            return;
        };
        let lang = state.persisted.lang.report_lang();
        let title = state.persisted.lang.tr().export_dialog;
        let last_dir = state.persisted.last_dir.clone();
        if let Some((path, anonymize)) = ask_where(kind, &view.report, scope, lang, title, last_dir.as_deref()) {
            self.start_export(kind, scope, path, anonymize);
        }
    }

    /// Exports the view in `kind` to `path` on a thread of its own (unless an export is
    /// running already); the scope's indices are of the view.
    pub fn start_export(&mut self, kind: ExportKind, scope: Scope, path: PathBuf, anonymize: bool) {
        let state = &mut self.state;
        let Some(view) = state.view.clone() else {
            return;
        };
        if self.export.is_some() {
            return;
        }
        let request = ExportRequest {
            kind,
            path: path.clone(),
            report: view.report.clone(),
            scope,
            lang: state.persisted.lang.report_lang(),
            date: crate::report::html::now_utc(),
            marks: state.marks.clone(),
            // The check the view was made from: dismissed passages are listed.
            original: state.report.clone().map(|report| (report, view.origin.clone())),
            anonymize,
            appendix: state.persisted.print_appendix,
        };
        match ExportJob::start(request, self.printer.clone(), self.waker.clone()) {
            Ok(job) => {
                state.exporting = Some(Exporting { path, started: job.started, finishing: false });
                state.export_error = None;
                state.status = None;
                self.export = Some(job);
            }
            Err(e) => self.export_failed(format!("the export could not start: {e}")),
        }
    }

    /// Cancels the running export; one already writing its file is left to finish.
    pub(super) fn cancel_export(&mut self) {
        let Some(job) = &self.export else {
            return;
        };
        if job.cancel() {
            self.export = None;
            self.state.exporting = None;
            self.state.status = Some(Status::ExportCancelled);
        } else if let Some(exporting) = &mut self.state.exporting {
            exporting.finishing = true;
        }
    }

    /// Collects the end of the running export, when it has ended.
    pub(super) fn drain_export(&mut self) {
        let Some(result) = self.export.as_ref().and_then(ExportJob::poll) else {
            return;
        };
        self.export = None;
        self.state.exporting = None;
        match result {
            Ok(path) => {
                self.state.persisted.last_dir = path.parent().map(PathBuf::from);
                self.state.status = Some(Status::Saved(path));
            }
            Err(e) => self.export_failed(e),
        }
    }

    /// Shows why an export failed, once: in the problems panel, opened.
    fn export_failed(&mut self, error: String) {
        self.state.export_error = Some(error);
        self.state.show_problems = true;
    }
}

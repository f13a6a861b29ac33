//! An export on a thread of its own (`twinspot-export`): the HTML rendered, printed to PDF
//! (seconds for a student, more for a class) and written while the window keeps drawing.
//! A cancel before the file is written stops it: the printer's late result is dropped and
//! no file is made. The printer is a seam ([`Printer`]), so tests print without a browser.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::Arc;
use std::time::Instant;

use super::export::{ExportKind, PrintAsk, print_with_chromium, write_with};
use super::worker::Waker;
use crate::Report;
use crate::report::html::{HtmlOptions, Original, Scope};
use crate::report::marks::Marks;
use crate::report::pdf::PdfError;
use crate::report::words::ReportLang;

/// Turns a report's HTML into a PDF's bytes, as [`PrintAsk`] says.
pub type Printer = Arc<dyn Fn(&str, &PrintAsk<'_>) -> Result<Vec<u8>, PdfError> + Send + Sync>;

/// The printer of the window: Chromium or Chrome, headless.
pub fn chromium() -> Printer {
    Arc::new(print_with_chromium)
}

/// One export, with its own copies of what the HTML renderer reads.
#[derive(Clone, Debug)]
pub struct ExportRequest {
    pub kind: ExportKind,
    /// The file chosen (a `.pdf` name prints the HTML report).
    pub path: PathBuf,
    /// The report as filtered and marked (the window's view).
    pub report: Arc<Report>,
    pub scope: Scope,
    pub lang: ReportLang,
    pub date: String,
    pub marks: Marks,
    /// The check the view was made from, and each view pair's pair in it.
    pub original: Option<(Arc<Report>, Vec<usize>)>,
    pub anonymize: bool,
    /// A PDF also prints the report's appendix.
    pub appendix: bool,
}

impl ExportRequest {
    /// Renders, prints and writes; `go_on` is asked just before the file is written,
    /// `cancelled` by the printer while it prints.
    fn run(&self, print: &Printer, go_on: &dyn Fn() -> bool, cancelled: &dyn Fn() -> bool) -> Result<bool, String> {
        let options = HtmlOptions {
            scope: self.scope,
            lang: self.lang,
            date: self.date.clone(),
            marks: Some(&self.marks),
            original: self.original.as_ref().map(|(report, origin)| Original { report, origin }),
            anonymize: self.anonymize,
        };
        let print_one = |html: &str| print(html, &PrintAsk { appendix: self.appendix, cancelled });
        write_with(self.kind, &self.report, &options, &self.path, &print_one, go_on)
    }
}

/// The job is printing (or rendering): it can still be cancelled.
const WORKING: u8 = 0;
/// The file is being written: too late to cancel.
const WRITING: u8 = 1;
/// Cancelled: nothing is written.
const CANCELLED: u8 = 2;

/// The window's handle on a running export.
pub struct ExportJob {
    pub path: PathBuf,
    pub started: Instant,
    phase: Arc<AtomicU8>,
    done: Receiver<Result<bool, String>>,
}

impl ExportJob {
    /// Starts `request` on the thread `twinspot-export`; `waker` wakes the window when it
    /// has ended.
    pub fn start(request: ExportRequest, printer: Printer, waker: Waker) -> std::io::Result<Self> {
        let phase = Arc::new(AtomicU8::new(WORKING));
        let (tx, done) = channel();
        let path = request.path.clone();
        let job_phase = phase.clone();
        std::thread::Builder::new().name("twinspot-export".into()).spawn(move || {
            let go_on = || job_phase.compare_exchange(WORKING, WRITING, Ordering::SeqCst, Ordering::SeqCst).is_ok();
            let cancelled = || job_phase.load(Ordering::SeqCst) == CANCELLED;
            let result = request.run(&printer, &go_on, &cancelled);
            // After a cancel nobody listens any more: the result is dropped, as asked.
            if tx.send(result).is_ok() {
                waker();
            }
        })?;
        Ok(Self { path, started: Instant::now(), phase, done })
    }

    /// How the job ended, once it has: `Ok` with the path written, or the error in one
    /// message. `None` while it runs.
    pub fn poll(&self) -> Option<Result<PathBuf, String>> {
        match self.done.try_recv() {
            Ok(Ok(true)) => Some(Ok(self.path.clone())),
            Ok(Ok(false)) => Some(Err("the export was cancelled".to_owned())),
            Ok(Err(e)) => Some(Err(e)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("the export stopped before it wrote the file".to_owned())),
        }
    }

    /// Cancels the job unless it is writing its file already; true when nothing will be
    /// written.
    pub fn cancel(&self) -> bool {
        let phase = self.phase.compare_exchange(WORKING, CANCELLED, Ordering::SeqCst, Ordering::SeqCst);
        matches!(phase, Ok(_) | Err(CANCELLED))
    }
}

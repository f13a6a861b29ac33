//! The named worker thread that runs checks off the UI thread. The UI sends typed
//! [`Command`]s and drains [`Event`]s (no egui types in either); every event carries its
//! job id so events of a cancelled job can be dropped. A waker closure, wired by the app to
//! `request_repaint`, tells the UI that events are waiting. The thread ends when the UI
//! drops its [`Worker`]. Archive jobs (open, add, check against) run here too, one at a
//! time with the checks ([`super::archive_jobs`]).

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::archive_jobs::{self, AddOutcome, ArchiveInfo, ArchiveTarget, KeptArchive};
use crate::engine::InputSet;
use crate::fingerprint::simhash::Dictionary;
use crate::meaning::SharedMeaning;
use crate::{CancelFlag, CheckError, CheckRequest, Mode, Progress, Report, Role, Settings, Stage, run_check};

/// Identifies one check; events of any other job than the current one are stale.
pub type JobId = u64;

/// Progress is sent to the UI at most this often (plus at every change of stage).
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(200);

/// What to check: the paths of the three lists, as the user gave them.
#[derive(Clone, Debug, Default)]
pub struct CheckPlan {
    pub references: Vec<PathBuf>,
    pub suspects: Vec<PathBuf>,
    pub templates: Vec<PathBuf>,
    pub mode: Mode,
    pub settings: Settings,
    /// Check the suspects against this archive instead of the references and templates.
    pub archive: Option<ArchiveTarget>,
}

/// From the UI to the worker.
#[derive(Debug)]
pub enum Command {
    /// Expand the folders of `plan` and run a check; `cancel` stops it.
    Check { job: JobId, plan: CheckPlan, cancel: CancelFlag },
    /// Open the archive at `archive` (with `create`, a missing or empty folder becomes a
    /// new archive made with `settings`) and read its sizes.
    OpenArchive { job: JobId, archive: ArchiveTarget, create: bool, settings: Settings },
    /// Add the files and folders `paths` to the archive; `cancel` stops after the batch
    /// being read (the batches committed before are kept).
    AddToArchive { job: JobId, archive: ArchiveTarget, paths: Vec<PathBuf>, settings: Settings, cancel: CancelFlag },
}

/// From the worker to the UI.
#[derive(Clone, Debug)]
pub enum Event {
    /// The folders are listed: this many documents will be read.
    Listed { job: JobId, documents: usize },
    /// Throttled progress of the engine.
    Progress { job: JobId, progress: Progress },
    /// The check finished; the report crosses once.
    Finished { job: JobId, report: Arc<Report>, elapsed: Duration },
    /// The check stopped because it was cancelled.
    Cancelled { job: JobId },
    /// The archive is open: its sizes now (after opening it, or after checking against it).
    ArchiveReady { job: JobId, info: ArchiveInfo },
    /// An add to the archive ended (finished or cancelled).
    ArchiveAdded { job: JobId, outcome: AddOutcome },
    /// The job failed: why, in one message for the user.
    Failed { job: JobId, error: String },
}

impl Event {
    /// The job this event belongs to.
    pub fn job(&self) -> JobId {
        match self {
            Event::Listed { job, .. }
            | Event::Progress { job, .. }
            | Event::Finished { job, .. }
            | Event::Cancelled { job }
            | Event::ArchiveReady { job, .. }
            | Event::ArchiveAdded { job, .. }
            | Event::Failed { job, .. } => *job,
        }
    }
}

/// Something that wakes the UI up (the app passes `ctx.request_repaint()`).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// The UI's handle on the worker thread.
pub struct Worker {
    commands: Option<Sender<Command>>,
    events: Receiver<Event>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the thread `twinspot-worker`.
    pub fn spawn(waker: Waker) -> std::io::Result<Self> {
        let (command_tx, command_rx) = channel::<Command>();
        let (event_tx, event_rx) = channel::<Event>();
        let thread = std::thread::Builder::new()
            .name("twinspot-worker".into())
            .spawn(move || serve(&command_rx, &event_tx, &waker))?;
        Ok(Self { commands: Some(command_tx), events: event_rx, thread: Some(thread) })
    }

    /// Sends a command; false when the worker is gone.
    pub fn send(&self, command: Command) -> bool {
        self.commands.as_ref().is_some_and(|tx| tx.send(command).is_ok())
    }

    /// Every event waiting now, without blocking.
    pub fn drain(&self) -> Vec<Event> {
        let mut out = Vec::new();
        loop {
            match self.events.try_recv() {
                Ok(event) => out.push(event),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return out,
            }
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // Closing the command channel ends the thread once its current check returns.
        self.commands = None;
        // Do not join: a long check must not hold the window open; it was cancelled by the app.
        drop(self.thread.take());
    }
}

fn serve(commands: &Receiver<Command>, events: &Sender<Event>, waker: &Waker) {
    // The window runs check after check: the jieba dictionary is built once and kept.
    let dictionary = Dictionary::new();
    // So is the meaning layer, loaded by the first check that compares two languages.
    let meaning = SharedMeaning::new();
    // And the archive checked against, from one job to the next.
    let mut kept = KeptArchive::default();
    while let Ok(command) = commands.recv() {
        let event = match command {
            Command::Check { job, plan, cancel } => {
                run_one(job, plan, (&cancel, &dictionary, &meaning), &mut kept, (events, waker))
            }
            Command::OpenArchive { job, archive, create, settings } => {
                match archive_jobs::open(&mut kept, &archive, create, &settings) {
                    Ok(info) => Event::ArchiveReady { job, info },
                    Err(e) => Event::Failed { job, error: e.to_string() },
                }
            }
            Command::AddToArchive { job, archive, paths, settings, cancel } => {
                let sink = throttled(job, events, waker);
                match archive_jobs::add(&archive, &paths, &settings, &sink, &cancel) {
                    Ok(outcome) => Event::ArchiveAdded { job, outcome },
                    Err(e) => Event::Failed { job, error: e.to_string() },
                }
            }
        };
        if events.send(event).is_err() {
            return;
        }
        waker();
    }
}

/// A progress sink that sends at most one event per [`PROGRESS_INTERVAL`] (and one at
/// every change of stage).
fn throttled<'a>(job: JobId, events: &'a Sender<Event>, waker: &'a Waker) -> impl Fn(Progress) + Sync + 'a {
    let throttle = Mutex::new((Instant::now() - PROGRESS_INTERVAL, None::<Stage>));
    move |progress: Progress| {
        let Ok(mut last) = throttle.try_lock() else {
            return;
        };
        let now = Instant::now();
        if last.1 == Some(progress.stage) && now.duration_since(last.0) < PROGRESS_INTERVAL {
            return;
        }
        *last = (now, Some(progress.stage));
        if events.send(Event::Progress { job, progress }).is_ok() {
            waker();
        }
    }
}

fn run_one(
    job: JobId,
    plan: CheckPlan,
    (cancel, dictionary, meaning): (&CancelFlag, &Dictionary, &SharedMeaning),
    kept: &mut KeptArchive,
    (events, waker): (&Sender<Event>, &Waker),
) -> Event {
    let started = Instant::now();
    // One set for every role: a file or folder in two lists is read once, never compared
    // with itself, and what is passed over is reported with the results. A .zip (a class's
    // submissions from the LMS) is read entry by entry.
    let mut inputs = InputSet::reading_zips();
    inputs.add(&plan.suspects, Role::Suspect);
    if cancel.is_cancelled() {
        return Event::Cancelled { job };
    }
    // Against an archive, only the suspects are read: the archive is the reference.
    if plan.archive.is_none() {
        // In all-against-all mode the engine compares references with the suspects as well.
        inputs.add(&plan.references, Role::Reference);
        inputs.add(&plan.templates, Role::Template);
    }
    let (documents, skipped) = inputs.finish();
    if cancel.is_cancelled() {
        return Event::Cancelled { job };
    }
    events.send(Event::Listed { job, documents: documents.len() }).ok();
    waker();
    let request = CheckRequest {
        documents,
        mode: plan.mode,
        settings: plan.settings.sanitized(),
        dictionary: dictionary.clone(),
        keep_dictionary: true,
        meaning: meaning.clone(),
        skipped,
    };
    let sink = throttled(job, events, waker);
    let finished = |report: Report| Event::Finished { job, report: Arc::new(report), elapsed: started.elapsed() };
    let Some(archive) = &plan.archive else {
        return match run_check(&request, &sink, cancel) {
            Ok(report) => finished(report),
            Err(CheckError::Cancelled(_)) => Event::Cancelled { job },
            Err(e) => Event::Failed { job, error: e.to_string() },
        };
    };
    match archive_jobs::check(kept, archive, &request, &sink, cancel) {
        Ok((report, info)) => {
            // The sizes may have changed since the archive was opened (another add).
            events.send(Event::ArchiveReady { job, info }).ok();
            finished(report)
        }
        Err(_) if cancel.is_cancelled() => Event::Cancelled { job },
        Err(e) => Event::Failed { job, error: e.to_string() },
    }
}

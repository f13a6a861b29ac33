//! The named worker thread that runs checks off the UI thread. The UI sends typed
//! [`Command`]s and drains [`Event`]s (no egui types in either); every event carries its
//! job id so events of a cancelled job can be dropped. A waker closure, wired by the app to
//! `request_repaint`, tells the UI that events are waiting. The thread ends when the UI
//! drops its [`Worker`].

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::engine::InputSet;
use crate::{CancelFlag, CheckRequest, Mode, Progress, Report, Role, Settings, Stage, run_check};

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
}

/// From the UI to the worker.
#[derive(Debug)]
pub enum Command {
    /// Expand the folders of `plan` and run a check; `cancel` stops it.
    Check { job: JobId, plan: CheckPlan, cancel: CancelFlag },
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
}

impl Event {
    /// The job this event belongs to.
    pub fn job(&self) -> JobId {
        match self {
            Event::Listed { job, .. }
            | Event::Progress { job, .. }
            | Event::Finished { job, .. }
            | Event::Cancelled { job } => *job,
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
    while let Ok(command) = commands.recv() {
        let Command::Check { job, plan, cancel } = command;
        let event = run_one(job, plan, &cancel, events, waker);
        if events.send(event).is_err() {
            return;
        }
        waker();
    }
}

fn run_one(job: JobId, plan: CheckPlan, cancel: &CancelFlag, events: &Sender<Event>, waker: &Waker) -> Event {
    let started = Instant::now();
    // One set for every role: a file or folder in two lists is read once, never compared
    // with itself, and what is passed over is reported with the results.
    let mut inputs = InputSet::new();
    inputs.add(&plan.suspects, Role::Suspect);
    if cancel.is_cancelled() {
        return Event::Cancelled { job };
    }
    // In all-against-all mode the engine compares references with the suspects as well.
    inputs.add(&plan.references, Role::Reference);
    inputs.add(&plan.templates, Role::Template);
    let (documents, skipped) = inputs.finish();
    if cancel.is_cancelled() {
        return Event::Cancelled { job };
    }
    let _ = events.send(Event::Listed { job, documents: documents.len() });
    waker();
    // The window runs check after check: the jieba dictionary is built once and kept.
    let request = CheckRequest {
        documents,
        mode: plan.mode,
        settings: plan.settings.sanitized(),
        keep_dictionary: true,
        skipped,
    };
    let throttle = Mutex::new((Instant::now() - PROGRESS_INTERVAL, None::<Stage>));
    let sink = |progress: Progress| {
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
    };
    match run_check(&request, &sink, cancel) {
        Ok(report) => Event::Finished { job, report: Arc::new(report), elapsed: started.elapsed() },
        Err(_) => Event::Cancelled { job },
    }
}

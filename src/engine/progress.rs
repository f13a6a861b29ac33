//! Progress reports and cancellation, shared by every front end.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The stages of a check, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Reading files and fingerprinting their text.
    Reading,
    /// Building the index of the references.
    Indexing,
    /// Comparing each suspect with the index.
    Matching,
    /// The report is complete.
    Done,
}

/// Where a check is: `done` of `total` units of `stage`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub stage: Stage,
    pub done: usize,
    pub total: usize,
}

/// Receives progress from the engine's worker threads. Calls come often and from many
/// threads: throttle in the sink if drawing is costly.
pub trait ProgressSink: Sync {
    fn progress(&self, progress: Progress);
}

impl<F: Fn(Progress) + Sync> ProgressSink for F {
    fn progress(&self, progress: Progress) {
        self(progress)
    }
}

/// A sink that ignores everything.
pub struct NoProgress;

impl ProgressSink for NoProgress {
    fn progress(&self, _: Progress) {}
}

/// Set from any thread to stop a running check; the engine checks it between documents.
#[derive(Clone, Debug, Default)]
pub struct CancelFlag(Arc<AtomicBool>);

impl CancelFlag {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The check was cancelled before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the check was cancelled")]
pub struct Cancelled;

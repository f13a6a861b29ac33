//! Progress reports, the matching's timings and cancellation, shared by every front end.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

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

/// Where the matching of a check spent its time, each suspect's time summed over the
/// suspects (about the CPU time when suspects are matched side by side on every core; a
/// suspect's archive lookups also run on every core, so one suspect alone takes less
/// time than CPU): finding the candidates of each suspect (its k-gram and sentence
/// lookups, the SimHash neighbours, the glances that pass references over) and aligning
/// it with each candidate read (the reference read, aligned, classified and scored). The
/// first is the cost of the collection's size; the second grows with the text really
/// shared, `kept` being the pairs that found some.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchTimings {
    pub suspects: usize,
    pub finding: Duration,
    /// References read and aligned.
    pub candidates: usize,
    pub aligning: Duration,
    /// Pairs kept: a shared passage or a near duplicate.
    pub kept: usize,
}

/// [`MatchTimings`] as the matcher's threads add to them.
#[derive(Debug, Default)]
pub(crate) struct MatchClock {
    suspects: AtomicUsize,
    finding_ns: AtomicU64,
    candidates: AtomicUsize,
    aligning_ns: AtomicU64,
    kept: AtomicUsize,
}

impl MatchClock {
    /// One suspect's candidates found, from `since`: `candidates` of them.
    pub fn found(&self, since: Instant, candidates: usize) {
        self.suspects.fetch_add(1, Ordering::Relaxed);
        self.finding_ns.fetch_add(nanos(since.elapsed()), Ordering::Relaxed);
        self.candidates.fetch_add(candidates, Ordering::Relaxed);
    }

    /// One suspect's candidates aligned, from `since`: `kept` pairs kept.
    pub fn aligned(&self, since: Instant, kept: usize) {
        self.aligning_ns.fetch_add(nanos(since.elapsed()), Ordering::Relaxed);
        self.kept.fetch_add(kept, Ordering::Relaxed);
    }

    /// What was added so far.
    pub fn timings(&self) -> MatchTimings {
        MatchTimings {
            suspects: self.suspects.load(Ordering::Relaxed),
            finding: Duration::from_nanos(self.finding_ns.load(Ordering::Relaxed)),
            candidates: self.candidates.load(Ordering::Relaxed),
            aligning: Duration::from_nanos(self.aligning_ns.load(Ordering::Relaxed)),
            kept: self.kept.load(Ordering::Relaxed),
        }
    }
}

/// A duration in nanoseconds, saturating (585 years).
fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// Receives progress from the engine's worker threads. Calls come often and from many
/// threads: throttle in the sink if drawing is costly. At the end of the matching, the
/// sink is told where its time went ([`MatchTimings`]); most sinks ignore it.
pub trait ProgressSink: Sync {
    fn progress(&self, progress: Progress);

    fn matched(&self, _timings: &MatchTimings) {}
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

//! Containment: runs one format extractor on a named helper thread, catches its panics
//! and abandons it when it overruns its time bound, so no file can take a run down.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Name prefix of the helper threads; the panic hook stays quiet for them only.
const THREAD_PREFIX: &str = "twinspot-extract";

/// Stack of a helper thread: deeply nested PDF objects recurse deeply, and a stack
/// overflow cannot be caught. Reserved, not committed, memory.
const STACK_BYTES: usize = 64 * 1024 * 1024;

/// When an extraction must stop. Extractors that loop over input check it and give up
/// early; code they cannot interrupt is abandoned when the bound passes.
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    deadline: Option<Instant>,
    abandoned: Arc<AtomicBool>,
}

impl Budget {
    /// A budget of `secs` seconds from now (none when `secs` is not a positive number).
    pub(crate) fn new(secs: f64) -> Self {
        let deadline = (secs.is_finite() && secs > 0.0)
            .then(|| Instant::now().checked_add(Duration::from_secs_f64(secs.min(1e9))))
            .flatten();
        Self { deadline, abandoned: Arc::new(AtomicBool::new(false)) }
    }

    /// A budget that never runs out (for tests and benchmarks of one extractor).
    #[cfg(test)]
    pub(crate) fn unlimited() -> Self {
        Self::new(0.0)
    }

    /// True once the time is up or the caller stopped waiting.
    pub(crate) fn exhausted(&self) -> bool {
        self.abandoned.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn remaining(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }
}

/// How a contained run ended when it did not return a value.
#[derive(Debug)]
pub(crate) enum Escape {
    /// The extractor panicked; the panic message.
    Panicked(String),
    /// The time bound passed; the helper thread was abandoned.
    TimedOut,
}

/// Runs `job` on a helper thread, catching panics and waiting at most until `budget`
/// runs out. On a timeout the thread is left to finish on its own (it is told to stop
/// through the budget) and its result is dropped.
pub(crate) fn run_contained<T, F>(label: &str, budget: &Budget, job: F) -> Result<T, Escape>
where
    T: Send + 'static,
    F: FnOnce(&Budget) -> T + Send + 'static,
{
    install_quiet_hook();
    let (tx, rx) = mpsc::sync_channel(1);
    let thread_budget = budget.clone();
    let spawned =
        std::thread::Builder::new().name(format!("{THREAD_PREFIX}-{label}")).stack_size(STACK_BYTES).spawn(move || {
            let result = panic::catch_unwind(AssertUnwindSafe(|| job(&thread_budget)));
            // The receiver is gone after a timeout: nothing left to tell.
            tx.send(result.map_err(|payload| panic_message(payload.as_ref()))).ok();
        });
    if spawned.is_err() {
        return Err(Escape::Panicked("could not start an extraction thread".to_string()));
    }
    let received = match budget.remaining() {
        Some(left) => rx.recv_timeout(left).map_err(|e| match e {
            mpsc::RecvTimeoutError::Timeout => Escape::TimedOut,
            mpsc::RecvTimeoutError::Disconnected => Escape::Panicked("the extraction thread vanished".to_string()),
        }),
        None => rx.recv().map_err(|_| Escape::Panicked("the extraction thread vanished".to_string())),
    };
    match received {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(message)) => Err(Escape::Panicked(message)),
        Err(escape) => {
            budget.abandoned.store(true, Ordering::Relaxed);
            Err(escape)
        }
    }
}

/// Runs `job` on the calling thread, catching its panics: for extractors that are
/// linear in their input and cannot hang, where a helper thread costs more than the job.
pub(crate) fn run_inline<T, F>(budget: &Budget, job: F) -> Result<T, Escape>
where
    F: FnOnce(&Budget) -> T,
{
    panic::catch_unwind(AssertUnwindSafe(|| job(budget)))
        .map_err(|payload| Escape::Panicked(panic_message(payload.as_ref())))
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic without a message".to_string()
    }
}

/// Wraps the process's panic hook once: panics on extraction helper threads are
/// reported through their error instead of on stderr; every other thread's panic goes
/// to the previous hook unchanged.
fn install_quiet_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let ours = std::thread::current().name().is_some_and(|n| n.starts_with(THREAD_PREFIX));
            if !ours {
                previous(info);
            }
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_panic_and_timeout() {
        let budget = Budget::new(5.0);
        assert_eq!(run_contained("t", &budget, |_| 7).ok(), Some(7));
        let panicked = run_contained("t", &budget, |_| -> u8 { panic!("boom {}", 1) });
        assert!(matches!(panicked, Err(Escape::Panicked(m)) if m == "boom 1"));
        let short = Budget::new(0.2);
        let start = Instant::now();
        // The job runs until the caller gives up on it: a job that stopped by itself at
        // its deadline could report back before the caller's wait ran out.
        let slow = run_contained("t", &short, |b| {
            while !b.abandoned.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        assert!(matches!(slow, Err(Escape::TimedOut)));
        assert!(start.elapsed() < Duration::from_secs(3));
    }
}

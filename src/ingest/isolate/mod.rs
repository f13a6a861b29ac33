//! Extraction in helper processes: a small pool of long-lived helpers (the front end's
//! own executable, started with its hidden subcommand) fed over a framed protocol on
//! their standard input and output. Each helper bounds its own address space and CPU
//! time; the engine bounds wall-clock time and the size of every reply and kills a
//! helper that overruns. A crash, a stack overflow or a runaway allocation so ends only
//! the helper: the file gets one clear error and the next file gets a fresh helper.

mod protocol;
mod serve;

pub use serve::serve_helper;

use std::io::{self, BufWriter, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use super::error::Failure;
use super::{Format, IngestLimits, Isolation};
use protocol::{MAX_HEADER_BYTES, Reply, Request, read_frame, write_frame};

/// Time a helper gets beyond the extraction's own limit (it stops itself at that limit and
/// answers; this covers starting up and sending the text back).
const GRACE: Duration = Duration::from_secs(5);

/// The first and the last bytes of a helper's standard error are kept to tell why it
/// died: the cause comes first ("memory allocation of … failed"), and whatever the helper
/// wrote after it (a backtrace of hundreds of lines) must not push it out.
const STDERR_HEAD_BYTES: usize = 4096;
const STDERR_TAIL_BYTES: usize = 4096;

/// Why a helper gave no answer.
#[derive(Debug)]
pub(crate) enum Death {
    /// It reached its memory bound (an allocation failed).
    OutOfMemory { limit_mb: u64 },
    /// It overran its wall-clock or CPU-time bound and was stopped.
    TimedOut,
    /// It crashed (a stack overflow, a signal, a broken reply); what is known of why.
    Crashed(String),
}

/// What a helper extracted: text, format and warnings, or the extractor's failure.
pub(crate) type Extraction = Result<(String, Format, Vec<crate::model::Notice>), Failure>;

/// The helpers of one front end; idle ones wait here for the next file.
pub(crate) struct Pool {
    isolation: Isolation,
    idle: Mutex<Vec<Helper>>,
}

impl Pool {
    pub(crate) fn new(isolation: Isolation) -> Self {
        Self { isolation, idle: Mutex::new(Vec::new()) }
    }

    /// Extracts `bytes` (a file with extension `ext`) in a helper.
    pub(crate) fn extract(&self, bytes: &[u8], ext: &str, limits: &IngestLimits) -> Result<Extraction, Death> {
        let idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner).pop();
        let mut helper = match idle {
            Some(helper) => helper,
            None => Helper::start(&self.isolation)
                .map_err(|e| Death::Crashed(format!("the extraction helper could not be started: {e}")))?,
        };
        // The limit as applied: JSON has no NaN or infinity.
        let limits = IngestLimits { isolation: None, timeout_secs: limits.effective_timeout_secs(), ..limits.clone() };
        let request = Request { ext: ext.to_string(), limits, max_memory_bytes: self.isolation.max_memory_bytes };
        let answer = helper.run(&request, bytes);
        // A helper that gave up on a file ends itself (its abandoned thread with it).
        let reusable = !matches!(&answer, Ok(Err(Failure::TimedOut)));
        match answer {
            Ok(extraction) => {
                if reusable {
                    self.idle.lock().unwrap_or_else(PoisonError::into_inner).push(helper);
                }
                Ok(extraction)
            }
            Err(Answer::Panicked(message)) => Err(Death::Crashed(message)),
            Err(Answer::Died(death)) => Err(death),
        }
    }
}

/// How a request went wrong.
enum Answer {
    Panicked(String),
    Died(Death),
}

/// One helper process, with the threads that read its standard output and standard error.
struct Helper {
    child: Child,
    stdin: Option<BufWriter<ChildStdin>>,
    replies: Receiver<io::Result<(Reply, Option<Vec<u8>>)>>,
    max_reply: Arc<AtomicU64>,
    stderr: Option<JoinHandle<Vec<u8>>>,
    memory_mb: u64,
}

impl Helper {
    fn start(isolation: &Isolation) -> io::Result<Self> {
        let mut child = Command::new(&isolation.program)
            .args(&isolation.args)
            .envs(isolation.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let (Some(stdin), Some(mut stdout), Some(mut stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            child.kill().ok();
            child.wait().ok();
            return Err(io::Error::other("no pipes to the helper"));
        };
        let max_reply = Arc::new(AtomicU64::new(0));
        let (tx, replies) = mpsc::channel();
        let limit = max_reply.clone();
        let reader = std::thread::Builder::new().name("twinspot-helper-out".into()).spawn(move || {
            loop {
                let reply = read_reply(&mut stdout, &limit);
                let stop = !matches!(reply, Ok(Some(_)));
                let sent = match reply {
                    Ok(Some(reply)) => tx.send(Ok(reply)),
                    Ok(None) => break,
                    Err(e) => tx.send(Err(e)),
                };
                if stop || sent.is_err() {
                    break;
                }
            }
        });
        let said = std::thread::Builder::new().name("twinspot-helper-err".into()).spawn(move || {
            let (mut head, mut tail) = (Vec::new(), Vec::new());
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = stderr.read(&mut buffer) {
                let into_head = n.min(STDERR_HEAD_BYTES - head.len());
                head.extend_from_slice(&buffer[..into_head]);
                tail.extend_from_slice(&buffer[into_head..n]);
                if tail.len() > STDERR_TAIL_BYTES {
                    tail.drain(..tail.len() - STDERR_TAIL_BYTES);
                }
            }
            head.extend_from_slice(b"\n");
            head.extend_from_slice(&tail);
            head
        });
        let (Ok(_), Ok(stderr)) = (reader, said) else {
            child.kill().ok();
            child.wait().ok();
            return Err(io::Error::other("the threads that read the helper could not start"));
        };
        Ok(Self {
            child,
            stdin: Some(BufWriter::new(stdin)),
            replies,
            max_reply,
            stderr: Some(stderr),
            memory_mb: isolation.max_memory_bytes / (1024 * 1024),
        })
    }

    fn run(&mut self, request: &Request, bytes: &[u8]) -> Result<Extraction, Answer> {
        self.max_reply.store(request.limits.max_text_bytes, Ordering::Relaxed);
        let header = serde_json::to_vec(request).map_err(|e| Answer::Panicked(e.to_string()))?;
        let sent = match self.stdin.as_mut() {
            Some(stdin) => {
                write_frame(stdin, &header).and_then(|()| write_frame(stdin, bytes)).and_then(|()| stdin.flush())
            }
            None => Err(io::ErrorKind::BrokenPipe.into()),
        };
        if sent.is_err() {
            return Err(Answer::Died(self.death(None)));
        }
        let wall = Duration::from_secs_f64(request.limits.effective_timeout_secs()) + GRACE;
        match self.replies.recv_timeout(wall) {
            Ok(Ok((Reply::Done { format, warnings }, Some(text)))) => match String::from_utf8(text) {
                Ok(text) => Ok(Ok((text, format, warnings))),
                Err(_) => Err(Answer::Died(Death::Crashed("the helper sent text that is not UTF-8".into()))),
            },
            Ok(Ok((Reply::Done { .. }, None))) => Err(Answer::Died(Death::Crashed("the helper sent no text".into()))),
            Ok(Ok((Reply::Failed(failure), _))) => Ok(Err(failure)),
            Ok(Ok((Reply::Panicked(message), _))) => Err(Answer::Panicked(message)),
            Ok(Err(e)) if e.kind() == io::ErrorKind::InvalidData => {
                self.child.kill().ok();
                Err(Answer::Died(Death::Crashed(format!("the helper's answer was refused: {e}"))))
            }
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => Err(Answer::Died(self.death(None))),
            Err(RecvTimeoutError::Timeout) => {
                self.child.kill().ok();
                Err(Answer::Died(self.death(Some(Death::TimedOut))))
            }
        }
    }

    /// Waits for the helper to end and tells why it did (`known` when the engine knows).
    fn death(&mut self, known: Option<Death>) -> Death {
        self.stdin = None;
        let status = self.child.wait();
        let said = self.stderr.take().and_then(|t| t.join().ok()).unwrap_or_default();
        if let Some(death) = known {
            return death;
        }
        let said = String::from_utf8_lossy(&said);
        if said.contains("memory allocation of") || said.contains("out of memory") || said.contains("capacity overflow")
        {
            return Death::OutOfMemory { limit_mb: self.memory_mb };
        }
        if said.contains("overflowed its stack") {
            return Death::Crashed("stack overflow".into());
        }
        match status {
            Ok(status) => match status.signal() {
                Some(libc::SIGXCPU) => Death::TimedOut,
                Some(signal) => Death::Crashed(format!("ended by signal {signal}")),
                None => Death::Crashed(format!("the helper ended ({status})")),
            },
            Err(e) => Death::Crashed(format!("the helper was lost: {e}")),
        }
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        // A helper ends by itself when its input closes; one that is busy is stopped.
        self.stdin = None;
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

/// Reads one reply: the header, and the text after `Done`, of at most `max_text` bytes
/// (read once the header is in: the request being answered has set it by then).
fn read_reply(input: &mut impl Read, max_text: &AtomicU64) -> io::Result<Option<(Reply, Option<Vec<u8>>)>> {
    let Some(header) = read_frame(input, MAX_HEADER_BYTES)? else {
        return Ok(None);
    };
    let reply: Reply = serde_json::from_slice(&header).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    let text = match reply {
        Reply::Done { .. } => {
            Some(read_frame(input, max_text.load(Ordering::Relaxed))?.ok_or(io::ErrorKind::UnexpectedEof)?)
        }
        _ => None,
    };
    Ok(Some((reply, text)))
}

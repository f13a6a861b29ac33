//! What reading one file may cost at most, and the bounded read of its bytes:
//! only regular files are opened, never more than the size limit is read.

use std::fs::File;
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::IngestError;

/// What reading one file may cost at most.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct IngestLimits {
    /// Files larger than this are refused.
    pub max_file_bytes: u64,
    /// Archives (.docx, .odt) may expand to at most this many bytes.
    pub max_uncompressed_bytes: u64,
    /// Archives may hold at most this many entries.
    pub max_archive_entries: usize,
    /// Extraction of one file is abandoned after this many seconds. A value that is not
    /// a positive number (0, NaN, negative) means the default; see
    /// [`IngestLimits::effective_timeout_secs`].
    pub timeout_secs: f64,
    /// Extracted text longer than this many bytes (UTF-8) is refused.
    pub max_text_bytes: u64,
    /// Where format extractors run: `None` in this process (on contained threads), or in
    /// helper processes under resource limits. A front end that can start itself as a
    /// helper supplies this; the report does not record it.
    #[serde(skip)]
    pub isolation: Option<Isolation>,
}

/// How to start an extraction helper: a process that reads requests on its standard input
/// and answers on its standard output (the front end's own executable, with the hidden
/// subcommand that serves them). A crash, a stack overflow or a runaway allocation then
/// ends only the helper, and the file gets one error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Isolation {
    /// The program to start.
    pub program: PathBuf,
    /// The arguments that make it serve extractions.
    pub args: Vec<String>,
    /// Address space one helper may use (RLIMIT_AS), in bytes.
    pub max_memory_bytes: u64,
    /// Environment variables set for the helper, beside those it inherits.
    pub env: Vec<(String, String)>,
}

/// The environment a helper starts with, beside what it inherits. Its address space is
/// bounded ([`Isolation::max_memory_bytes`]), and the program's allocator (mimalloc)
/// reserves address space a gibibyte at a time by default: a helper holding one such
/// reservation could not map a thread's stack under the bound. A 64 MiB piece at a time
/// leaves the bound to what the helper really uses. (An allocator that does not know the
/// variable ignores it.) A helper prints no backtrace when it dies: nobody reads it (its
/// standard error only tells the engine why it died), and symbolizing one under the bound
/// costs memory the helper has just run out of.
pub const HELPER_ENV: &[(&str, &str)] = &[("MIMALLOC_ARENA_RESERVE", "64MiB"), ("RUST_BACKTRACE", "0")];

impl Isolation {
    /// Address space of a helper unless told otherwise: 1 GiB.
    pub const DEFAULT_MEMORY_BYTES: u64 = 1024 * 1024 * 1024;

    /// Helpers started as `program args…`, with the default memory bound.
    pub fn helper(program: impl Into<PathBuf>, args: &[&str]) -> Self {
        Self {
            program: program.into(),
            args: args.iter().map(|a| (*a).to_string()).collect(),
            max_memory_bytes: Self::DEFAULT_MEMORY_BYTES,
            env: HELPER_ENV.iter().map(|(k, v)| ((*k).to_string(), (*v).to_string())).collect(),
        }
    }
}

/// The longest time limit honoured: one day.
const MAX_TIMEOUT_SECS: f64 = 86_400.0;

impl IngestLimits {
    /// The time limit actually applied, in seconds: `timeout_secs` when it is a positive
    /// number (at most a day), the default otherwise — never "no limit", never a panic.
    pub fn effective_timeout_secs(&self) -> f64 {
        let secs = self.timeout_secs;
        if secs.is_nan() || secs <= 0.0 { Self::default().timeout_secs } else { secs.min(MAX_TIMEOUT_SECS) }
    }
}

impl Default for IngestLimits {
    fn default() -> Self {
        Self {
            max_file_bytes: 200 * 1024 * 1024,
            max_uncompressed_bytes: 512 * 1024 * 1024,
            max_archive_entries: 20_000,
            timeout_secs: 30.0,
            max_text_bytes: 256 * 1024 * 1024,
            isolation: None,
        }
    }
}

/// True for the error of a path that runs through a loop of symbolic links (`a` → `b` →
/// `a`), which is not a link to nothing and is said as what it is.
pub fn is_link_loop(error: &std::io::Error) -> bool {
    #[cfg(target_os = "linux")]
    {
        error.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(target_os = "linux"))]
    {
        error.raw_os_error() == Some(62)
    }
}

/// Reads the whole file at `path`, refusing anything but a regular, non-empty file
/// within `limits.max_file_bytes`. Opens read-only.
pub(crate) fn read_bounded(path: &Path, limits: &IngestLimits) -> Result<Vec<u8>, IngestError> {
    let owned = || path.to_path_buf();
    let io = |source: std::io::Error| io_error(path, source);
    let (file, meta) = open_regular(path)?;
    let too_large = |bytes| IngestError::TooLarge { path: owned(), bytes, limit: limits.max_file_bytes };
    if meta.len() > limits.max_file_bytes {
        return Err(too_large(meta.len()));
    }
    let capacity = usize::try_from(meta.len()).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity);
    // The file may grow while it is read: never take more than the limit + 1 byte.
    file.take(limits.max_file_bytes.saturating_add(1)).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limits.max_file_bytes {
        return Err(too_large(bytes.len() as u64));
    }
    if bytes.is_empty() {
        return Err(IngestError::Empty { path: owned() });
    }
    Ok(bytes)
}

/// Opens `path` (links followed) for reading when it is a regular file, and never waits
/// in `open`: a named pipe, a socket, a device or a folder is refused before it is opened,
/// and the file opened is asked again (the path may have changed in between), opened
/// without waiting for a pipe's writer. Every read of a user's file opens it here.
pub fn open_regular(path: &Path) -> Result<(File, std::fs::Metadata), IngestError> {
    let owned = || path.to_path_buf();
    let io = |source: std::io::Error| io_error(path, source);
    let link = std::fs::symlink_metadata(path).map_err(io)?;
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == ErrorKind::NotFound && link.file_type().is_symlink() => {
            return Err(IngestError::BrokenLink { path: owned() });
        }
        Err(e) => return Err(io(e)),
    };
    if !meta.is_file() {
        return Err(IngestError::NotAFile { path: owned(), kind: kind_of(&meta) });
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // No effect on a regular file; a pipe put in its place opens at once.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(IngestError::NotAFile { path: owned(), kind: kind_of(&meta) });
    }
    Ok((file, meta))
}

/// The error of an I/O failure on `path`: a file that is not there is named as such.
fn io_error(path: &Path, source: std::io::Error) -> IngestError {
    match source.kind() {
        ErrorKind::NotFound => IngestError::NotFound { path: path.to_path_buf() },
        _ => IngestError::Io { path: path.to_path_buf(), source: source.into() },
    }
}

fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    "not a regular file"
}

//! The ways reading one file can fail, each naming the file.
//! Every message reads "what is wrong: path", so `{:#}` alone tells the whole story.

use std::path::{Path, PathBuf};

use super::Format;

/// Why a file's text could not be read. Displays as "what is wrong: path".
#[derive(Clone, Debug, thiserror::Error)]
pub enum IngestError {
    /// The operating system refused to open or read the file.
    #[error("cannot read file ({source}): {path}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::sync::Arc<std::io::Error>,
    },
    /// Nothing exists at the path.
    #[error("no such file: {path}")]
    NotFound { path: PathBuf },
    /// A symbolic link whose target does not exist.
    #[error("broken link (its target does not exist): {path}")]
    BrokenLink { path: PathBuf },
    /// A directory, a device, a socket… where a regular file was expected.
    #[error("not a file ({kind}): {path}")]
    NotAFile { path: PathBuf, kind: &'static str },
    /// The file has no bytes at all.
    #[error("empty file (0 bytes): {path}")]
    Empty { path: PathBuf },
    /// The file is over `IngestLimits::max_file_bytes`.
    #[error("file too large ({bytes} bytes, limit {limit}): {path}")]
    TooLarge { path: PathBuf, bytes: u64, limit: u64 },
    /// Text whose encoding could not be worked out.
    #[error("not readable as text ({reason}): {path}")]
    Undecodable { path: PathBuf, reason: String },
    /// Not a document at all (an image, a program, random bytes…).
    #[error("binary file, not a document ({what}): {path}")]
    Binary { path: PathBuf, what: String },
    /// A document format Twinspot does not read, with what to do instead.
    #[error("unsupported format ({what}): {path}")]
    Unsupported { path: PathBuf, what: String },
    /// The file claims a format but its content is broken.
    #[error("corrupt {format} file ({reason}): {path}")]
    Corrupt { path: PathBuf, format: Format, reason: String },
    /// A password-protected document.
    #[error("encrypted {format} file (password protected, cannot be read): {path}")]
    Encrypted { path: PathBuf, format: Format },
    /// A .docx/.odt whose archive would expand beyond the limits (a zip bomb?).
    #[error("{format} archive exceeds the limits ({reason}; a zip bomb?): {path}")]
    ArchiveTooLarge { path: PathBuf, format: Format, reason: String },
    /// The extractor crashed on the file; the crash was contained.
    #[error("the {format} extractor crashed on this file ({message}): {path}")]
    Panicked { path: PathBuf, format: Format, message: String },
    /// Extraction took longer than `IngestLimits::timeout_secs` and was abandoned.
    #[error("extraction took longer than {secs} s and was abandoned: {path}")]
    TimedOut { path: PathBuf, secs: f64 },
    /// A .zip of submissions that cannot be opened (damaged, password protected, too many
    /// entries, not a zip at all): one error for the whole zip.
    #[error("not a readable zip of submissions ({reason}): {path}")]
    BadZip { path: PathBuf, reason: String },
    /// The extraction helper process reached its memory bound and was stopped.
    #[error("ran out of memory while reading the {format} (limit {limit_mb} MB; stopped): {path}")]
    OutOfMemory { path: PathBuf, format: Format, limit_mb: u64 },
}

impl IngestError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            Self::Io { path, .. }
            | Self::NotFound { path }
            | Self::BrokenLink { path }
            | Self::NotAFile { path, .. }
            | Self::Empty { path }
            | Self::TooLarge { path, .. }
            | Self::Undecodable { path, .. }
            | Self::Binary { path, .. }
            | Self::Unsupported { path, .. }
            | Self::Corrupt { path, .. }
            | Self::Encrypted { path, .. }
            | Self::ArchiveTooLarge { path, .. }
            | Self::BadZip { path, .. }
            | Self::Panicked { path, .. }
            | Self::TimedOut { path, .. }
            | Self::OutOfMemory { path, .. } => path,
        }
    }
}

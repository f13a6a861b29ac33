//! The ways reading one file can fail, each naming the file.

use std::path::PathBuf;

/// Why a file's text could not be read. Displays as "what is wrong: path".
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error("cannot read file: {path}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("not a file: {path}")]
    NotAFile { path: PathBuf },
    #[error("file too large ({bytes} bytes, limit {limit}): {path}")]
    TooLarge { path: PathBuf, bytes: u64, limit: u64 },
    #[error("not readable as text ({reason}): {path}")]
    Undecodable { path: PathBuf, reason: String },
}

impl IngestError {
    /// The file the error is about.
    pub fn path(&self) -> &std::path::Path {
        match self {
            Self::Io { path, .. }
            | Self::NotAFile { path }
            | Self::TooLarge { path, .. }
            | Self::Undecodable { path, .. } => path,
        }
    }
}

//! What a format extractor reports when it fails, before the file is named: it crosses the
//! pipe from an extraction helper process, and becomes an [`IngestError`] naming the file.

use std::path::Path;

use crate::model::{Format, IngestError};

/// What a format extractor reports; [`Failure::at`] names the file. It crosses the pipe
/// from an extraction helper process, hence serde.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Failure {
    Undecodable(String),
    Binary(String),
    Unsupported(String),
    Corrupt(Format, String),
    Encrypted(Format),
    ArchiveTooLarge(Format, String),
    TimedOut,
}

impl Failure {
    /// The error for the file at `path`.
    pub(crate) fn at(self, path: &Path, timeout_secs: f64) -> IngestError {
        let path = path.to_path_buf();
        match self {
            Self::Undecodable(reason) => IngestError::Undecodable { path, reason },
            Self::Binary(what) => IngestError::Binary { path, what },
            Self::Unsupported(what) => IngestError::Unsupported { path, what },
            Self::Corrupt(format, reason) => IngestError::Corrupt { path, format, reason },
            Self::Encrypted(format) => IngestError::Encrypted { path, format },
            Self::ArchiveTooLarge(format, reason) => IngestError::ArchiveTooLarge { path, format, reason },
            Self::TimedOut => IngestError::TimedOut { path, secs: timeout_secs },
        }
    }
}

//! Ingest: a path becomes one `String` of extracted text (plus warnings), or a typed,
//! per-file error. The format is chosen by sniffing the content first, the extension
//! second. Input files are only ever read.

mod error;
mod text;

pub use error::IngestError;

use std::path::Path;

use serde::{Deserialize, Serialize};

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
    /// Extraction of one file is abandoned after this many seconds.
    pub timeout_secs: f64,
}

impl Default for IngestLimits {
    fn default() -> Self {
        Self {
            max_file_bytes: 200 * 1024 * 1024,
            max_uncompressed_bytes: 512 * 1024 * 1024,
            max_archive_entries: 20_000,
            timeout_secs: 30.0,
        }
    }
}

/// The formats ingest reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Text,
    Docx,
    Pdf,
    Html,
    Odt,
}

/// The text of one file.
#[derive(Clone, Debug, PartialEq)]
pub struct Extracted {
    /// The extracted text: every offset the engine reports counts characters of it.
    pub text: String,
    /// What the file was read as.
    pub format: Format,
    /// Things worth telling the user that did not stop the extraction.
    pub warnings: Vec<String>,
}

/// Reads the text of the file at `path`.
pub fn extract(path: &Path, limits: &IngestLimits) -> Result<Extracted, IngestError> {
    let bytes = read_bounded(path, limits)?;
    let (text, warnings) =
        text::decode(&bytes).map_err(|reason| IngestError::Undecodable { path: path.to_path_buf(), reason })?;
    Ok(Extracted { text, format: Format::Text, warnings })
}

fn read_bounded(path: &Path, limits: &IngestLimits) -> Result<Vec<u8>, IngestError> {
    let io = |source| IngestError::Io { path: path.to_path_buf(), source };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return Err(IngestError::NotAFile { path: path.to_path_buf() });
    }
    if meta.len() > limits.max_file_bytes {
        return Err(IngestError::TooLarge {
            path: path.to_path_buf(),
            bytes: meta.len(),
            limit: limits.max_file_bytes,
        });
    }
    std::fs::read(path).map_err(io)
}

//! One file read for adding, the same way whichever store it goes to: its text
//! extracted and fingerprinted exactly as a check reads a reference, compressed as stored.

use std::path::Path;

use super::codec::compress;
use super::unchanged::FileStamp;
use crate::engine::{DocumentInput, fingerprint_document};
use crate::fingerprint::DocumentFingerprints;
use crate::fingerprint::keywords::KeywordPrint;
use crate::fingerprint::simhash::Dictionary;
use crate::ingest;
use crate::settings::Settings;

/// One file read for adding.
pub(super) struct Prepared {
    pub path: String,
    /// The path the file resolves to (links and `..` followed), which identifies it
    /// however it was named.
    pub source: String,
    /// Warnings of the reading, as a check gives them.
    pub warnings: Vec<String>,
    pub sha256: String,
    pub size: u64,
    /// The file's stamp as seen before it was read (none when it had not settled).
    pub stamp: Option<FileStamp>,
    /// The text, compressed as stored (in the parallel part of an add).
    pub compressed: Vec<u8>,
    pub chars: usize,
    pub prints: DocumentFingerprints,
    /// `None` for a text without words: it is nobody's near duplicate.
    pub simhash: Option<u64>,
    pub keywords: Option<KeywordPrint>,
}

/// Reads and fingerprints `input` exactly as a check reads a reference.
pub(super) fn prepare(
    settings: &Settings,
    input: &DocumentInput,
    readers: (&ingest::Extractor, &Dictionary),
    source: String,
    stamp: Option<FileStamp>,
) -> Result<Prepared, (String, String)> {
    let read = fingerprint_document(input, settings, readers).map_err(|e| (input.display.clone(), e))?;
    let size = std::fs::metadata(&input.path).map(|m| m.len()).unwrap_or(0);
    let compressed = compress(&read.entry.text).map_err(|e| (input.display.clone(), e.to_string()))?;
    Ok(Prepared {
        path: input.display.clone(),
        source,
        stamp,
        warnings: read.entry.warnings.iter().map(ToString::to_string).collect(),
        sha256: read.entry.sha256.unwrap_or_default(),
        size,
        chars: read.entry.chars,
        compressed,
        prints: read.prints,
        simhash: read.entry.simhash,
        keywords: read.keywords,
    })
}

/// The path `path` resolves to, as text: how a file is known whatever its spelling.
pub(super) fn source_of(path: &Path) -> String {
    let real =
        std::fs::canonicalize(path).or_else(|_| std::path::absolute(path)).unwrap_or_else(|_| path.to_path_buf());
    real.to_string_lossy().into_owned()
}

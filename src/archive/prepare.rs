//! One file read for adding, the same way whichever store it goes to: its text
//! extracted and fingerprinted exactly as a check reads a reference, compressed as stored;
//! and what either store makes of it (its row, its postings, its entry for regrouping);
//! and a file's SHA-256, by which a store knows bytes it holds before reading them.

use std::io::Read;
use std::path::Path;

use super::codec::{bands, compress};
use super::date::now;
use super::groups::{Fresh, sketch};
use super::records::{FileStamp, NewDocument};
use super::signals::BySignal;
use crate::engine::{DocumentInput, fingerprint_document};
use crate::fingerprint::char_grams::grams_of_text;
use crate::fingerprint::keywords::KeywordPrint;
use crate::fingerprint::simhash::Dictionary;
use crate::fingerprint::{DocumentFingerprints, TokenKeys};
use crate::index::{Posting, Signal};
use crate::ingest::{self, IngestError};
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
    /// Of them, those a check compares: fewer than `chars` for a document it cuts.
    pub compared: usize,
    pub prints: DocumentFingerprints,
    /// `None` for a text without words: it is nobody's near duplicate.
    pub simhash: Option<u64>,
    pub keywords: Option<KeywordPrint>,
    /// The two-byte keys of its compared tokens (taken in the parallel part of an add).
    pub keys: TokenKeys<'static>,
    /// Its smallest k-gram hashes, for the groups' rule (taken in the parallel part too).
    pub sketch: Vec<u64>,
}

impl Prepared {
    /// Its row as a store inserts it, published on `published`.
    pub fn row<'a>(&'a self, published: Option<&'a str>) -> NewDocument<'a> {
        let keywords = self.keywords.as_ref().map(|k| k.keywords.join("\n"));
        NewDocument {
            path: &self.path,
            source: &self.source,
            sha256: &self.sha256,
            size: self.size,
            added_at: now(),
            published,
            chars: self.chars,
            compared: self.compared,
            simhash: self.simhash,
            bands: self.simhash.map(bands),
            nshash: self.prints.nshash,
            keywords,
            text: &self.compressed,
            keys: &self.keys,
            stamp: self.stamp,
        }
    }

    /// Itself as archived document `id`, kept for its check by the groups' rule.
    pub fn fresh(&self, id: u32, nshash_neighbour: bool) -> Fresh {
        Fresh { id, file: std::path::PathBuf::from(&self.source), sketch: self.sketch.clone(), nshash_neighbour }
    }

    /// Appends its postings as archived document `id`, (hash, posting) of each signal to
    /// that signal's list: k-grams and character grams at their positions (tokens, stream
    /// characters), sentences at their first token.
    pub fn push_postings(&self, id: u32, postings: &mut BySignal<Vec<(u64, Posting)>>) {
        let at = |hash, position| (hash, Posting { doc: id, position });
        let prints = &self.prints;
        for (signal, list) in postings.iter_mut() {
            match signal {
                Signal::Kgram => list.extend(prints.kgrams.iter().map(|f| at(f.hash, f.position))),
                Signal::Sentence => list.extend(prints.sentences.iter().map(|s| at(s.hash, s.start))),
                Signal::CharGram => list.extend(prints.char_grams.iter().flatten().map(|f| at(f.hash, f.position))),
            }
        }
    }
}

/// Reads and fingerprints `input` exactly as a check reads a reference.
pub(super) fn prepare(
    settings: &Settings,
    input: &DocumentInput,
    readers: (&ingest::Extractor, &Dictionary),
    source: String,
    stamp: Option<FileStamp>,
) -> Result<Prepared, (String, String)> {
    let mut read = fingerprint_document(input, settings, readers).map_err(|e| (input.display.clone(), e))?;
    // The character grams of its compared text, as a check's index takes a reference's.
    read.prints.char_grams = Some(grams_of_text(&read.entry.text[..read.compared], settings.normalize));
    let size = std::fs::metadata(&input.path).map(|m| m.len()).unwrap_or(0);
    let compressed = compress(&read.entry.text).map_err(|e| (input.display.clone(), e.to_string()))?;
    let keys = TokenKeys::of(&read.prints.tokenized.tokens);
    let sketch = sketch(read.prints.kgrams.iter().map(|f| f.hash));
    let compared = match read.compared < read.entry.text.len() {
        true => read.entry.text[..read.compared].chars().count(),
        false => read.entry.chars,
    };
    Ok(Prepared {
        sketch,
        path: input.display.clone(),
        source,
        stamp,
        warnings: read.entry.warnings.iter().map(ToString::to_string).collect(),
        sha256: read.entry.sha256.unwrap_or_default(),
        size,
        chars: read.entry.chars,
        compared,
        compressed,
        prints: read.prints,
        simhash: read.entry.simhash,
        keywords: read.keywords,
        keys,
    })
}

/// The path `path` resolves to, as text: how a file is known whatever its spelling.
pub(super) fn source_of(path: &Path) -> String {
    let real =
        std::fs::canonicalize(path).or_else(|_| std::path::absolute(path)).unwrap_or_else(|_| path.to_path_buf());
    real.to_string_lossy().into_owned()
}

/// SHA-256 of the file at `path`, read in pieces; a path that is not a regular file (a
/// named pipe, a device) is refused unopened ([`ingest::open_regular`]).
pub(super) fn file_digest(path: &Path) -> Result<[u8; 32], IngestError> {
    use sha2::Digest;
    let (mut file, _) = ingest::open_regular(path)?;
    let mut hasher = sha2::Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let io = |source: std::io::Error| IngestError::Io { path: path.to_path_buf(), source: source.into() };
    loop {
        match file.read(&mut buf).map_err(io)? {
            0 => break,
            n => hasher.update(&buf[..n]),
        }
    }
    Ok(hasher.finalize().into())
}

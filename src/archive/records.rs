//! The records both stores keep and answer with: an archived document as listed
//! ([`DocumentInfo`]), one to insert ([`NewDocument`]), what a check reads back of one
//! ([`EntryRow`], [`StoredRow`]), what grouping reads of a near one ([`NearRow`]), a
//! file's stamp, an archive's sizes ([`Stats`]), and how a 64-bit hash is kept in a
//! signed column ([`stored_hash`]).

use crate::fingerprint::TokenKeys;

/// A 64-bit hash as stored.
pub(in crate::archive) fn stored_hash(h: u64) -> i64 {
    i64::from_ne_bytes(h.to_ne_bytes())
}

/// One archived document, as `archive list` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentInfo {
    pub id: u32,
    pub path: String,
    /// The file it was archived from (the path as added resolved where the add ran):
    /// what tells two documents added under one relative path apart. `None` for a
    /// document archived before it was recorded.
    pub source: Option<String>,
    pub sha256: String,
    pub size: u64,
    pub added_at: i64,
    pub published: Option<String>,
    pub chars: u64,
    /// Of its characters, those a check compares, as recorded when it was added: fewer
    /// than `chars` for a document cut ([`Self::cut`]). `None` for a document archived
    /// before it was recorded.
    pub compared: Option<u64>,
    pub simhash: Option<u64>,
    pub nshash: Option<u64>,
    pub group: u32,
}

impl DocumentInfo {
    /// The characters compared of a document a check compares by its first part only.
    pub fn cut(&self) -> Option<u64> {
        self.compared.filter(|&compared| compared < self.chars)
    }
}

/// What is recorded of a file as seen before it was read (see the folder's `unchanged.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::archive) struct FileStamp {
    pub size: i64,
    pub mtime_ns: i64,
    /// The status-change time (Unix), which no tool can set back: a file rewritten with
    /// its old size and modification time restored still differs here. 0 elsewhere.
    pub ctime_ns: i64,
}

/// A document to insert (its group is set after, by the store).
pub(in crate::archive) struct NewDocument<'a> {
    pub path: &'a str,
    pub source: &'a str,
    pub sha256: &'a str,
    pub size: u64,
    pub added_at: i64,
    pub published: Option<&'a str>,
    pub chars: usize,
    /// Of them, those a check compares (all but for a document it cuts).
    pub compared: usize,
    pub simhash: Option<u64>,
    #[cfg_attr(not(feature = "server"), expect(dead_code, reason = "the server's band columns"))]
    pub bands: Option<[i64; 4]>,
    pub nshash: Option<u64>,
    pub keywords: Option<String>,
    /// The text, compressed as stored.
    pub text: &'a [u8],
    /// Its token keys, two bytes each: a store keeps them in its own width.
    pub keys: &'a TokenKeys<'static>,
    /// The file's stamp as seen before it was read, when it had settled.
    pub stamp: Option<FileStamp>,
}

/// A document near a new one, as grouping reads it.
pub(in crate::archive) struct NearRow {
    pub id: u32,
    pub simhash: Option<u64>,
    pub group: u32,
    pub nshash: Option<u64>,
}

/// What a check shows of an archived reference.
pub(in crate::archive) struct EntryRow {
    pub path: String,
    pub sha256: String,
    pub text: Vec<u8>,
    pub chars: i64,
    pub simhash: Option<u64>,
}

/// What a check reads of an archived reference: its stored text, SimHash and keywords.
pub(in crate::archive) struct StoredRow {
    pub text: Vec<u8>,
    pub simhash: Option<u64>,
    pub keywords: Option<String>,
}

/// Sizes of an archive.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub documents: u64,
    pub chars: u64,
    pub groups: u64,
    pub kgram_segments: u64,
    pub sentence_segments: u64,
    pub postings: u64,
    /// Bytes on disk: catalog (with its WAL) and segments.
    pub bytes: u64,
}

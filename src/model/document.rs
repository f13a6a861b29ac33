//! One document of a check as a report states it: its name, role, text and what was said
//! about it.

use std::path::PathBuf;
use std::sync::Arc;

use super::{DocError, Flag, Notice, Role};

/// One document of a check.
#[derive(Clone, Debug)]
pub struct DocumentEntry {
    /// Index in [`Report::documents`].
    pub id: usize,
    /// The path as given (folder joined with the path inside it).
    pub path: String,
    /// The file that was read.
    pub source: PathBuf,
    pub role: Role,
    /// Characters of extracted text.
    pub chars: usize,
    /// Characters that count in scores (template text excluded).
    pub countable_chars: usize,
    pub simhash: Option<u64>,
    /// SHA-256 of the file's bytes, lowercase hex; `None` when the file could not be read.
    pub sha256: Option<String>,
    /// Why the file could not be read, shown as "what is wrong: path".
    pub error: Option<DocError>,
    /// Remarks that did not stop the check ("decoded as GBK", "no text found", …).
    pub warnings: Vec<Notice>,
    /// What the document does to hide a copy (look-alike letters, hidden text, …); empty
    /// for ordinary documents.
    pub flags: Vec<Flag>,
    /// The extracted text; every offset in the report counts its characters.
    pub text: Arc<str>,
}

impl DocumentEntry {
    /// The entry of a document not read yet: no text, no SHA-256, no error.
    pub fn unread(id: usize, path: String, source: PathBuf, role: Role) -> Self {
        Self {
            id,
            path,
            source,
            role,
            chars: 0,
            countable_chars: 0,
            simhash: None,
            sha256: None,
            error: None,
            warnings: Vec::new(),
            flags: Vec::new(),
            text: Arc::from(""),
        }
    }
}

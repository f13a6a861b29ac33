//! The seam through which a check takes the texts of unchanged references from an earlier
//! run instead of reading their files again (the reference cache, [`crate::cache`]), and
//! the embeddings of their units instead of computing them again.

use std::path::Path;

use crate::ingest::Extracted;
use crate::meaning::kept::KeptEmbeddings;

/// Texts of files read by an earlier run. A check asks it for each plain reference (not
/// for suspects, templates, or a file that is both suspect and reference) and hands it each
/// such reference it had to read, so that the report is the same whether a text came from
/// here or from the file.
pub trait ReadCache: Sync {
    /// The extraction of the file at `path` as an earlier run got it, when the file has not
    /// changed since; `None` means "read it".
    fn get(&self, path: &Path) -> Option<Extracted>;
    /// The extraction of the file at `path` that this run just read (it could be read).
    fn put(&self, path: &Path, extracted: &Extracted);
    /// Where the meaning layer's embeddings of the references' units are kept between
    /// runs, if anywhere.
    fn embeddings(&self) -> Option<&dyn KeptEmbeddings> {
        None
    }
}

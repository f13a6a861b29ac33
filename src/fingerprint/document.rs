//! One fingerprinted document as matching reads it, suspect or reference: its tokens and
//! sentence hashes, its text and the part of it compared, its template mask, what counts
//! in scores, its SimHash and keyword fingerprint. A check's own documents lend theirs; an
//! archive's reference owns what it read back.

use std::borrow::Cow;
use std::sync::Arc;

use super::DocumentFingerprints;
use super::keywords::KeywordPrint;

/// One document, suspect or reference, as matching needs it. A reference's id is the
/// `doc` of its postings; a suspect's is given beside it.
#[derive(Clone, Debug)]
pub struct FingerprintedDoc<'a> {
    /// Tokens (with character offsets) and sentence hashes of its compared text.
    pub prints: Cow<'a, DocumentFingerprints>,
    /// Its extracted text.
    pub text: Arc<str>,
    /// Bytes of `text` that are compared (all of it but for giant documents).
    pub compared: usize,
    /// Character ranges masked out as template text, ascending.
    pub masked_chars: Cow<'a, [(u32, u32)]>,
    /// Characters that count in scores (all but masked ones).
    pub countable_chars: usize,
    /// Its SimHash, when it has one.
    pub simhash: Option<u64>,
    /// Its keyword fingerprint, when it has one.
    pub keywords: Option<Cow<'a, KeywordPrint>>,
}

impl FingerprintedDoc<'_> {
    /// The part of its text that is compared.
    pub fn compared_text(&self) -> &str {
        &self.text[..self.compared]
    }
}

//! An archived document read back, whichever store kept it: its compressed text opened
//! and fingerprinted for matching as a check's own reference is, or made the report's
//! entry of a reference.

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use super::codec::decompress;
use super::error::ArchiveError;
use super::records::{EntryRow, StoredRow};
use crate::engine::{Role, compared_part, compared_prefix};
use crate::fingerprint::char_grams::grams_of_text;
use crate::fingerprint::keywords::KeywordPrint;
use crate::fingerprint::{DocumentFingerprints, FingerprintedDoc};
use crate::index::Posting;
use crate::model::DocumentEntry;
use crate::settings::Settings;

/// Document `doc` as matching reads a reference: its text opened, its tokens and
/// sentences fingerprinted (matching reads those, not k-grams, as in a check's own index).
pub(super) fn reference_of(
    doc: u32,
    row: StoredRow,
    settings: &Settings,
) -> Result<FingerprintedDoc<'static>, ArchiveError> {
    let StoredRow { text: compressed, simhash, keywords } = row;
    let text =
        decompress(&compressed).map_err(|e| ArchiveError::Corrupt(format!("the text of document {doc}: {e}")))?;
    let keywords = keywords.map(|k| KeywordPrint::from_keywords(k.lines().map(str::to_string).collect()));
    let compared = compared_prefix(&text, settings);
    let prints = DocumentFingerprints::without_kgrams(&text[..compared], settings);
    let countable_chars = text[..compared].chars().count();
    Ok(FingerprintedDoc {
        prints: Cow::Owned(prints),
        text: Arc::from(text),
        compared,
        masked_chars: Cow::Borrowed(&[]),
        countable_chars,
        simhash,
        keywords: keywords.map(Cow::Owned),
    })
}

/// The character-gram postings of archived document `doc` from its `compressed` text, as
/// an add takes them: for a document archived before they were stored.
pub(super) fn char_gram_postings(
    doc: u32,
    compressed: &[u8],
    settings: &Settings,
) -> Result<Vec<(u64, Posting)>, ArchiveError> {
    let text = decompress(compressed).map_err(|e| ArchiveError::Corrupt(format!("the text of document {doc}: {e}")))?;
    let compared = compared_prefix(&text, settings);
    let grams = grams_of_text(&text[..compared], settings.normalize);
    Ok(grams.into_iter().map(|f| (f.hash, Posting { doc, position: f.position })).collect())
}

/// The report entry of archived document `doc`, numbered `id`, from its row as read
/// (`location` names the archive): a row missing or unreadable gives an entry with its
/// error, a text longer than a check compares the notice that says it was cut.
pub(super) fn entry_of(
    doc: u32,
    id: usize,
    row: Result<Option<EntryRow>, ArchiveError>,
    location: PathBuf,
    settings: &Settings,
) -> DocumentEntry {
    let mut entry = DocumentEntry::unread(id, format!("archive document {doc}"), location, Role::Reference);
    let EntryRow { path, sha256, text, chars, simhash } = match row {
        Ok(Some(row)) => row,
        Ok(None) => {
            entry.error = Some(ArchiveError::NoSuchDocument(doc).to_string().into());
            return entry;
        }
        Err(error) => {
            entry.error = Some(error.to_string().into());
            return entry;
        }
    };
    entry.source = PathBuf::from(&path);
    entry.path = path;
    match decompress(&text) {
        Ok(text) => {
            // A reference cut as a check's own document is says so as one does: matching
            // read its first part only (`reference_of`), so a copy of the rest is not found.
            let (part, cut) = compared_part(&text, settings);
            entry.countable_chars = part.chars().count();
            entry.warnings.extend(cut);
            entry.text = Arc::from(text);
        }
        Err(e) => {
            entry.error = Some(ArchiveError::Corrupt(format!("the text of document {doc}: {e}")).to_string().into())
        }
    }
    entry.chars = usize::try_from(chars).unwrap_or_default();
    entry.simhash = simhash;
    entry.sha256 = Some(sha256);
    entry
}

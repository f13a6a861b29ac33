//! What `verify` says of one stored document's text, the same for the folder archive and
//! the shared one: it decompresses, to as many characters as the catalog says, and to
//! the token keys stored beside it.

use super::codec::decompress;
use crate::engine::compared_prefix;
use crate::fingerprint::TokenKeys;
use crate::normalize::tokenize;
use crate::settings::Settings;

/// A document's stored text as `verify` reads it.
pub(super) struct StoredText<'a> {
    pub id: u32,
    /// The text as stored (compressed).
    pub text: &'a [u8],
    /// Its characters, as the catalog says.
    pub chars: u64,
    /// Its token keys and their width in bytes; `None` for documents archived before the
    /// keys were (a folder archive before format 3): they are read whole.
    pub keys: Option<(&'a [u8], usize)>,
}

/// The problem of `stored`, if it has one, under the archive's `settings`.
pub(super) fn text_problem(stored: &StoredText<'_>, settings: &Settings) -> Option<String> {
    let id = stored.id;
    let text = match decompress(stored.text) {
        Ok(text) => text,
        Err(e) => return Some(format!("document {id}: text does not decompress: {e}")),
    };
    if text.chars().count() as u64 != stored.chars {
        return Some(format!("document {id}: text length differs from the catalog"));
    }
    let (keys, width) = stored.keys?;
    let compared = compared_prefix(&text, settings);
    let expected = TokenKeys::of(&tokenize(&text[..compared], settings.normalize).tokens);
    (!expected.stored_as(keys, width)).then(|| format!("document {id}: its token keys do not match its text"))
}

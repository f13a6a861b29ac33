//! Token keys: the low 16 bits of each token hash of a document, two bytes a token.
//! Stored beside an archived document, they let a check pass over a reference that shares
//! only chance k-grams with a suspect before its text is read and tokenized again (see
//! [`crate::matching::may_open_box`]): keys agree wherever tokens agree, so what is
//! measured on keys is never less than what the tokens would give.

use std::borrow::Cow;

use crate::normalize::Token;

/// The keys of a document's tokens, in text order, as stored: two bytes a key,
/// little-endian (read in place from the archive, never copied).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TokenKeys<'a>(Cow<'a, [u8]>);

impl<'a> TokenKeys<'a> {
    /// The key of one token hash.
    #[inline]
    pub fn key(hash: u64) -> u16 {
        hash as u16
    }

    /// The keys of `tokens`.
    pub fn of(tokens: &[Token]) -> TokenKeys<'static> {
        TokenKeys(Cow::Owned(tokens.iter().flat_map(|t| Self::key(t.hash).to_le_bytes()).collect()))
    }

    /// The key of token `i`.
    #[inline]
    pub fn get(&self, i: usize) -> u16 {
        u16::from_le_bytes([self.0[2 * i], self.0[2 * i + 1]])
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.0.len() / 2
    }

    /// True for a document without tokens.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// As stored.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// Keys as stored ([`Self::as_bytes`]); `None` for bytes of odd length.
    pub fn from_bytes(bytes: &'a [u8]) -> Option<Self> {
        bytes.len().is_multiple_of(2).then_some(TokenKeys(Cow::Borrowed(bytes)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::{NormalizeOptions, tokenize};

    #[test]
    fn keys_round_trip_through_bytes_and_agree_where_tokens_do() {
        let tokens = tokenize("the cat saw the dog 的的是", NormalizeOptions::default()).tokens;
        let keys = TokenKeys::of(&tokens);
        assert_eq!(keys.len(), tokens.len());
        assert_eq!(TokenKeys::from_bytes(keys.as_bytes()), Some(keys.clone()));
        assert_eq!(keys.get(0), keys.get(3), "both are 'the'");
        assert_eq!(keys.get(5), keys.get(6));
        assert_eq!(keys.get(1), TokenKeys::key(tokens[1].hash));
        assert_eq!(TokenKeys::from_bytes(&[1, 2, 3]), None);
    }
}

//! Token keys: the low 16 bits of each token hash of a document, two bytes a token.
//! Stored beside an archived document, they let a check pass over a reference that shares
//! only chance k-grams with a suspect before its text is read and tokenized again (see
//! [`crate::matching::may_open_box`]): keys agree wherever tokens agree, so what
//! is measured on keys is never less than what the tokens would give.

use std::borrow::Cow;

use crate::normalize::Token;

/// The keys of a document's tokens, in text order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TokenKeys<'a>(Cow<'a, [u16]>);

impl TokenKeys<'_> {
    /// The key of one token hash.
    #[inline]
    pub fn key(hash: u64) -> u16 {
        hash as u16
    }

    /// The keys of `tokens`.
    pub fn of(tokens: &[Token]) -> TokenKeys<'static> {
        TokenKeys(Cow::Owned(tokens.iter().map(|t| Self::key(t.hash)).collect()))
    }

    /// One key a token.
    pub fn keys(&self) -> &[u16] {
        &self.0
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True for a document without tokens.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// As stored: two bytes a key, little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.iter().flat_map(|k| k.to_le_bytes()).collect()
    }

    /// Read back from [`Self::to_bytes`]; `None` for bytes of odd length.
    pub fn from_bytes(bytes: &[u8]) -> Option<TokenKeys<'static>> {
        if !bytes.len().is_multiple_of(2) {
            return None;
        }
        Some(TokenKeys(Cow::Owned(bytes.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect())))
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
        assert_eq!(TokenKeys::from_bytes(&keys.to_bytes()), Some(keys.clone()));
        assert_eq!(keys.keys()[0], keys.keys()[3], "both are 'the'");
        assert_eq!(keys.keys()[5], keys.keys()[6]);
        assert_eq!(TokenKeys::from_bytes(&[1, 2, 3]), None);
    }
}

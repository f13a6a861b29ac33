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

/// The keys a glance at a reference holds: all of them, or only some windows of them
/// (what [`crate::matching::may_open_box`] can read, [`crate::matching::glance_windows`]),
/// which is all a remote archive sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GlancedKeys<'a> {
    /// Every key of the document.
    Whole(TokenKeys<'a>),
    /// Keys of a document of `len` tokens at some places only: each window its first
    /// token and its keys, sorted and apart.
    Windows { len: usize, windows: Vec<(usize, TokenKeys<'a>)> },
}

impl GlancedKeys<'_> {
    /// Number of tokens of the document.
    pub fn len(&self) -> usize {
        match self {
            Self::Whole(keys) => keys.len(),
            Self::Windows { len, .. } => *len,
        }
    }

    /// True for a document without tokens.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The key of token `i`, when held.
    #[inline]
    pub fn get(&self, i: usize) -> Option<u16> {
        match self {
            Self::Whole(keys) => (i < keys.len()).then(|| keys.get(i)),
            Self::Windows { windows, .. } => {
                let after = windows.partition_point(|(first, _)| *first <= i);
                let (first, keys) = windows.get(after.checked_sub(1)?)?;
                (i - first < keys.len()).then(|| keys.get(i - first))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::{NormalizeOptions, tokenize};

    #[test]
    fn windows_hold_the_keys_of_their_tokens_only() {
        let whole = TokenKeys::from_bytes(&[1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0]).unwrap();
        let piece = |bytes: &'static [u8]| TokenKeys::from_bytes(bytes).unwrap();
        let windows = GlancedKeys::Windows { len: 6, windows: vec![(1, piece(&[2, 0, 3, 0])), (4, piece(&[5, 0]))] };
        let all = GlancedKeys::Whole(whole);
        assert_eq!((all.len(), windows.len()), (6, 6));
        let held: Vec<Option<u16>> = (0..7).map(|i| windows.get(i)).collect();
        assert_eq!(held, [None, Some(2), Some(3), None, Some(5), None, None]);
        assert_eq!((0..7).map(|i| all.get(i)).collect::<Vec<_>>()[..6], [1, 2, 3, 4, 5, 6].map(Some));
        assert_eq!(all.get(6), None);
    }

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

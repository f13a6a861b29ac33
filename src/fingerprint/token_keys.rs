//! Token keys: the low bits of each token hash of a document, one or two bytes a token.
//! Stored beside an archived document, they let a check pass over a reference that shares
//! only chance k-grams with a suspect before its text is read and tokenized again (see
//! [`crate::matching::may_open_box`]): keys agree wherever tokens agree, so what is
//! measured on keys is never less than what the tokens would give, whatever their width.
//!
//! A folder archive keeps one byte a token (archive format 6; two before): a chance
//! agreement of one token in 256 rather than 65,536 lets a few more references be read,
//! and halves what the keys take on disk. A shared archive keeps two.

use std::borrow::Cow;

use crate::normalize::Token;

/// The keys of a document's tokens, in text order, as stored: one or two bytes a key,
/// little-endian (read in place from the archive, never copied).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenKeys<'a> {
    bytes: Cow<'a, [u8]>,
    /// Bytes a key: 1 or 2.
    width: usize,
}

impl<'a> TokenKeys<'a> {
    /// The two-byte key of one token hash.
    #[inline]
    #[expect(clippy::cast_possible_truncation, reason = "a key is a hash's low 16 bits")]
    pub fn key(hash: u64) -> u16 {
        hash as u16
    }

    /// The two-byte keys of `tokens`.
    pub fn of(tokens: &[Token]) -> TokenKeys<'static> {
        TokenKeys { bytes: Cow::Owned(tokens.iter().flat_map(|t| Self::key(t.hash).to_le_bytes()).collect()), width: 2 }
    }

    /// The same keys in one byte each: the low byte of each.
    pub fn narrowed(&self) -> TokenKeys<'static> {
        TokenKeys { bytes: Cow::Owned(self.bytes.iter().step_by(self.width).copied().collect()), width: 1 }
    }

    /// The key of token `i`.
    #[inline]
    pub fn get(&self, i: usize) -> u16 {
        match self.width {
            1 => u16::from(self.bytes[i]),
            _ => u16::from_le_bytes([self.bytes[2 * i], self.bytes[2 * i + 1]]),
        }
    }

    /// Whether the key of token `i` is that of a token of hash `hash`.
    #[inline]
    pub fn holds(&self, i: usize, hash: u64) -> bool {
        let key = Self::key(hash);
        self.get(i) == if self.width == 1 { key & 0xff } else { key }
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.bytes.len() / self.width
    }

    /// True for a document without tokens.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Bytes a key: 1 or 2.
    pub fn width(&self) -> usize {
        self.width
    }

    /// As stored.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Whether `bytes`, keys of `width` bytes as stored, are these keys.
    pub fn stored_as(&self, bytes: &[u8], width: usize) -> bool {
        match (self.width, width) {
            (2, 1) => self.narrowed().as_bytes() == bytes,
            (mine, theirs) => mine == theirs && self.as_bytes() == bytes,
        }
    }

    /// Two-byte keys as stored ([`Self::as_bytes`]); `None` for bytes of odd length.
    pub fn from_bytes(bytes: &'a [u8]) -> Option<Self> {
        Self::from_stored(bytes, 2)
    }

    /// Keys of `width` bytes as stored; `None` for another width or bytes that are not a
    /// whole number of keys.
    pub fn from_stored(bytes: &'a [u8], width: usize) -> Option<Self> {
        (matches!(width, 1 | 2) && bytes.len().is_multiple_of(width))
            .then_some(TokenKeys { bytes: Cow::Borrowed(bytes), width })
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
        self.locate(i).map(|(keys, at)| keys.get(at))
    }

    /// Whether the key of token `i` is held and is that of a token of hash `hash`.
    #[inline]
    pub fn holds(&self, i: usize, hash: u64) -> bool {
        self.locate(i).is_some_and(|(keys, at)| keys.holds(at, hash))
    }

    /// The keys holding token `i`, and its place in them.
    #[inline]
    fn locate(&self, i: usize) -> Option<(&TokenKeys<'_>, usize)> {
        match self {
            Self::Whole(keys) => (i < keys.len()).then_some((keys, i)),
            Self::Windows { windows, .. } => {
                let after = windows.partition_point(|(first, _)| *first <= i);
                let (first, keys) = windows.get(after.checked_sub(1)?)?;
                (i - first < keys.len()).then_some((keys, i - first))
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
        // One byte a key: the low byte of each, still agreeing where tokens agree.
        let narrow = keys.narrowed();
        assert_eq!((narrow.len(), narrow.width()), (tokens.len(), 1));
        assert_eq!(TokenKeys::from_stored(narrow.as_bytes(), 1), Some(narrow.clone()));
        assert_eq!(TokenKeys::from_stored(narrow.as_bytes(), 3), None);
        for (i, token) in tokens.iter().enumerate() {
            assert!(keys.holds(i, token.hash) && narrow.holds(i, token.hash));
            assert_eq!(narrow.get(i), keys.get(i) & 0xff);
        }
        assert!(!keys.holds(0, tokens[0].hash ^ 0x100) && narrow.holds(0, tokens[0].hash ^ 0x100));
    }
}

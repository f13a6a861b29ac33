//! Typed positions inside one document. Matching moves between three coordinates: the
//! index of a token in the document's token list ([`TokenAt`]), the index of a character
//! in its normalized character stream ([`StreamAt`]), and the character offset in its
//! extracted text ([`CharAt`]; a passage keeps its ends as plain `u32`, as reports state
//! them). All three were once `u32`, and a seed could hold "a token or a stream index"; now a token index
//! cannot be used where a stream index is meant, and each conversion is a named function
//! of the stream or the token list that knows both coordinates.

use std::ops::{Add, Sub};

/// A count, offset or index as the `u32` positions and ids hold it: within one text
/// (characters, tokens, bytes, grams: ingest refuses a text of more than `u32::MAX`
/// bytes) or among what one process holds in memory (documents, entries, postings,
/// passages: far fewer than 2^32 fit), so it fits; should one not, it saturates rather
/// than wrap onto another place.
pub fn saturating_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A size, count or offset held as `u64` (in a file, a segment's header, a database
/// row) used to index memory: on the 64-bit machines Twinspot runs on it always fits;
/// elsewhere it saturates, and the slice it indexes refuses it.
pub fn usize_from(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// Declares a position type: a `u32` index with the arithmetic positions need.
macro_rules! position {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl $name {
            /// The index, to index a slice.
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// This position moved back by `n`, stopping at 0.
            pub fn back(self, n: u32) -> Self {
                Self(self.0.saturating_sub(n))
            }

            /// `self − other` on the diagonal of two documents' positions: how far this
            /// position (on one side) lies from `other` (on the other side).
            pub fn diagonal(self, other: Self) -> i64 {
                i64::from(self.0) - i64::from(other.0)
            }
        }

        impl Add<u32> for $name {
            type Output = Self;
            fn add(self, n: u32) -> Self {
                Self(self.0 + n)
            }
        }

        impl Sub for $name {
            /// How many positions lie from `rhs` up to `self`.
            type Output = u32;
            fn sub(self, rhs: Self) -> u32 {
                self.0 - rhs.0
            }
        }
    };
}

position! {
    /// The index of a token in a document's token list (what a k-gram hit points at).
    TokenAt
}

position! {
    /// The index of a character in a document's normalized character stream (what a
    /// dense seed and a box of the matcher point at).
    StreamAt
}

position! {
    /// The offset of a character in a document's extracted text: what a passage's ends, a
    /// flag's span and a dictionary word count ([`super::CharIndex`] turns it into bytes).
    CharAt
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_move_and_measure_within_their_own_kind() {
        let at = StreamAt(10);
        assert_eq!(at + 5, StreamAt(15));
        assert_eq!(at.back(20), StreamAt(0));
        assert_eq!((at + 5) - at, 5);
        assert_eq!(TokenAt(3).diagonal(TokenAt(7)), -4);
        assert_eq!(TokenAt(3).index(), 3);
    }
}

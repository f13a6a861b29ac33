//! One table from the characters of a text ([`CharAt`]: what passages, flags and word
//! pairs count) to the byte offsets that slicing and painting need: built once for a
//! text, then asked in constant time. A position past the end stands for the end.

use std::ops::Range;

use super::position::CharAt;

/// The byte offset of every character of a text.
#[derive(Clone, Debug)]
pub struct CharIndex<'t> {
    text: &'t str,
    /// The byte offset of each character, then the text's length.
    starts: Vec<usize>,
}

impl<'t> CharIndex<'t> {
    /// The index of `text`.
    pub fn new(text: &'t str) -> Self {
        let mut starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        starts.push(text.len());
        Self { text, starts }
    }

    /// The text indexed.
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// How many characters the text has.
    pub fn chars(&self) -> u32 {
        super::position::saturating_u32(self.starts.len() - 1)
    }

    /// The byte offset of character `at` (the text's length for one past its end).
    pub fn byte(&self, at: CharAt) -> usize {
        self.starts.get(at.index()).copied().unwrap_or(self.text.len())
    }

    /// The bytes of characters `[start, end)`; empty at `start` when `end` is before it.
    pub fn bytes(&self, start: CharAt, end: CharAt) -> Range<usize> {
        let from = self.byte(start);
        from..self.byte(end).max(from)
    }

    /// Characters `[start, end)` of the text.
    pub fn slice(&self, start: CharAt, end: CharAt) -> &'t str {
        &self.text[self.bytes(start, end)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_are_counted_and_past_the_end_is_the_end() {
        let index = CharIndex::new("ab软件cd");
        assert_eq!(index.chars(), 6);
        assert_eq!(index.slice(CharAt(2), CharAt(4)), "软件");
        assert_eq!(index.slice(CharAt(0), CharAt(6)), "ab软件cd");
        assert_eq!(index.slice(CharAt(4), CharAt(4)), "");
        assert_eq!(index.slice(CharAt(5), CharAt(99)), "d");
        assert_eq!(index.slice(CharAt(4), CharAt(2)), "");
        assert_eq!(index.byte(CharAt(3)), 5);
        assert_eq!(index.bytes(CharAt(7), CharAt(9)), 10..10);
        assert_eq!(CharIndex::new("").chars(), 0);
    }
}

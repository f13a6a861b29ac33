//! The result of a check as its readers see it: [`json`], [`csv`] and [`html`] format a
//! [`Report`] (documents, pairs with their passages — ranges into both texts, never copied
//! text —, near duplicates and groups); [`view`] and [`marks`] serve the window and the
//! reviewer.

pub mod csv;
pub mod html;
pub mod json;
pub mod marks;
pub mod notices;
pub mod palette;
pub mod pdf;
#[cfg(test)]
pub(crate) mod tests_support;
pub mod view;
pub mod words;
pub mod write;

pub use crate::engine::Report;
pub use crate::model::{Alternative, DocumentEntry, Pair, Passage, PassageKind, TOOL, union_length};

/// The `[start, end)` character range as a byte range of `text`, for slicing.
pub fn byte_range(text: &str, start: u32, end: u32) -> std::ops::Range<usize> {
    let mut indices = text.char_indices().map(|(i, _)| i).chain(std::iter::once(text.len()));
    let from = indices.nth(start as usize).unwrap_or(text.len());
    let to = if end > start { indices.nth((end - start - 1) as usize).unwrap_or(text.len()) } else { from };
    from..to
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_range_counts_characters() {
        let text = "ab软件cd";
        assert_eq!(&text[byte_range(text, 2, 4)], "软件");
        assert_eq!(&text[byte_range(text, 0, 6)], text);
        assert_eq!(&text[byte_range(text, 4, 4)], "");
        assert_eq!(&text[byte_range(text, 5, 99)], "d");
    }
}

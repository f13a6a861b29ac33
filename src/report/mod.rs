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

//! The types every stage shares: what a document is ([`Role`]) and how documents are
//! compared ([`Mode`]), a shared [`Passage`] and a scored [`Pair`], the [`DocumentEntry`] a
//! report states, what was said about a document ([`Notice`], [`DocError`], [`IngestError`])
//! and what collecting the inputs passed over ([`Skipped`]); typed positions inside a
//! document ([`TokenAt`], [`StreamAt`]). A leaf: it imports no other
//! module of the crate, and every stage may use it.

mod char_index;
mod date;
mod document;
mod flags;
mod format;
mod ingest_error;
mod language;
mod notice;
mod pair;
mod passage;
mod position;
mod role;
mod skipped;
mod utc;

pub use char_index::CharIndex;
pub use date::is_calendar_date;
pub use document::DocumentEntry;
pub use flags::{Flag, FlagKind, LookAlikeScript, MAX_SPANS};
pub use format::Format;
pub use ingest_error::IngestError;
pub use language::Language;
pub use notice::{DocError, Notice};
pub use pair::Pair;
pub use passage::{Alternative, Passage, PassageKind, Reworded, Span, Translation, union_length};
pub use position::{CharAt, StreamAt, TokenAt, saturating_u32, usize_from};
pub use role::{Mode, Role};
pub use skipped::{SkipReason, Skipped};
pub use utc::utc_minute;

/// The name and version of the tool that wrote a report, for the report to state.
pub const TOOL: &str = concat!("twinspot ", env!("CARGO_PKG_VERSION"));

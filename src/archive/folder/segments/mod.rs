//! The segment engine of a folder archive: immutable sorted files of postings (hash →
//! document, position), one per add batch and signal, laid out ([`segment`]) and written once ([`writing`]), packed
//! ([`packing`]), checksummed ([`checksum`]), looked up one hash or many at a time
//! ([`lookup`], [`batched_lookup`]), read end to end ([`sequential`]), and read again from
//! segments of older formats ([`older_entries`]). Merging them in tiers is the folder's
//! ([`super::merge`]).

pub(super) mod batched_lookup;
pub(super) mod checksum;
mod file_reads;
pub(in crate::archive) mod lookup;
pub(super) mod older_entries;
pub(super) mod packing;
pub mod segment;
pub(super) mod sequential;
pub mod writing;

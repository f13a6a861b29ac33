//! The segment engine of a folder archive: immutable sorted files of postings (hash →
//! document, position), one per add batch and signal, written once ([`segment`]), packed
//! ([`packing`]), checksummed ([`checksum`]), looked up one hash or many at a time
//! ([`lookup`], [`batched_lookup`]), read end to end ([`sequential`]) and merged in tiers
//! ([`merge`], with [`older_entries`] for segments of older formats).

pub(super) mod batched_lookup;
pub(super) mod checksum;
pub(in crate::archive) mod lookup;
pub(super) mod merge;
pub(super) mod older_entries;
pub(super) mod packing;
pub mod segment;
pub(super) mod sequential;

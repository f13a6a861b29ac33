//! Immutable sorted segment files of postings (hash → document, position): one per add
//! batch and kind, merged in tiers. A segment is written once to a temporary name, synced
//! and renamed; it is then only read: by lookups ([`super::lookup`]) or from end to end
//! ([`super::sequential`]).
//!
//! Layout, little-endian: a 40-byte header (magic, kind, bucket bits, posting count, filter
//! words, and for packed entries the packing's document base, widths and dropped hash
//! bits), the entries ascending by (hash, document, position), each of one width
//! ([`super::packing`]), the sparse index
//! (for each value of the hash's top bits, the first entry holding it: `2^bits + 1` u64),
//! the Bloom filter over the distinct hashes, and a checksum of everything before it
//! ([`super::checksum`]).
//!
//! The magic says how entries and filter are laid out. `TWSEG05` (written now) packs the
//! entries, their hashes cut to the top [`super::packing::KEPT_HASH_BITS`] bits, and puts
//! the probes of a hash in one 64-byte block chosen by the hash's top bits, so that a
//! writer, whose entries come in hash order, fills the filter from front to back. The
//! older layouts are still read: `TWSEG04` (archive format 6) packed entries with the
//! whole hash; the rest have entries of 16 bytes: `TWSEG03` (format 5) has the same
//! filter; `TWSEG02` (format 4) chose the block by a mix of the hash; `TWSEG01` (formats
//! 1 to 3) spread the probes over the whole filter.

use std::path::Path;

use super::checksum::Checksum;
use super::packing::{Bounds, Packing};
use crate::archive::error::ArchiveError;
use crate::hash::fmix64;
use crate::index::{Posting, Signal};
use crate::model::usize_from;

const MAGIC: &[u8; 8] = b"TWSEG05\n";
const MAGIC_WHOLE_HASHES: &[u8; 8] = b"TWSEG04\n";
const MAGIC_WHOLE_ENTRIES: &[u8; 8] = b"TWSEG03\n";
const MAGIC_MIXED_BLOCKS: &[u8; 8] = b"TWSEG02\n";
const MAGIC_SPREAD_FILTER: &[u8; 8] = b"TWSEG01\n";
pub(in crate::archive) const HEADER: usize = 40;
/// At most this many top bits pick a sparse-index slot (8 MiB of index at most). Segments
/// of archive formats before 9 used at most 16.
const MAX_BUCKET_BITS: u32 = 20;
/// Entries of a bucket a large segment is cut to, at most, on average: a lookup's guess
/// of where a hash lies within its bucket is off by a share of the bucket (the runs of
/// frequent hashes before it), and the window it reads is sized to match
/// ([`super::lookup`]). Buckets of 6,000 entries (a segment of 400 million under format
/// 8's 16 bits) sent half the lookups past their window into a search.
const LARGE_BUCKET: u64 = 512;
/// Bloom filter bits per distinct hash, and probes.
const FILTER_BITS_PER_KEY: usize = 10;
const FILTER_PROBES: u64 = 3;
/// Words of one filter block: a cache line, so a lookup reads 64 bytes of the filter.
pub(in crate::archive) const BLOCK_WORDS: usize = 8;

/// Where a filter puts the probes of a hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::archive) enum FilterLayout {
    /// All in one block of [`BLOCK_WORDS`] words, picked by the hash's top bits: blocks
    /// in hash order.
    Ordered,
    /// All in one block of [`BLOCK_WORDS`] words, picked by a mix of the hash
    /// (`TWSEG02`, written by archive format 4).
    Blocked,
    /// Anywhere in the filter (`TWSEG01`, written by archive formats 1 to 3).
    Spread,
}

/// How a segment's entries are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::archive) enum EntryLayout {
    /// Packed, the hash cut to its kept bits (`TWSEG05`, written now).
    Kept,
    /// Packed with the whole hash (`TWSEG04`, archive format 6).
    WholeHashes,
    /// 16 bytes each (archive formats 1 to 5).
    Whole,
}

impl FilterLayout {
    /// The magic of a segment with this filter and entries stored as `entries` (only the
    /// filter written now goes with packed entries).
    pub(super) fn magic(self, entries: EntryLayout) -> &'static [u8; 8] {
        match self {
            FilterLayout::Ordered if entries == EntryLayout::Kept => MAGIC,
            FilterLayout::Ordered if entries == EntryLayout::WholeHashes => MAGIC_WHOLE_HASHES,
            FilterLayout::Ordered => MAGIC_WHOLE_ENTRIES,
            FilterLayout::Blocked => MAGIC_MIXED_BLOCKS,
            FilterLayout::Spread => MAGIC_SPREAD_FILTER,
        }
    }

    /// The checksum of a segment of this layout: over words for those written now.
    pub(in crate::archive) fn checksum(self) -> Checksum {
        Checksum::new(self == FilterLayout::Ordered)
    }

    /// The filter bits of `hash` in a filter of `words` words: fingerprint hashes are
    /// well mixed, so probes are taken from mixes of the hash itself.
    pub(in crate::archive) fn probes(self, hash: u64, words: usize) -> impl Iterator<Item = usize> {
        let mix = move |i: u64| {
            (hash ^ (hash >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15 ^ i.wrapping_mul(0xbf58_476d_1ce4_e5b9))
        };
        let blocks = (words / BLOCK_WORDS).max(1);
        let block = match self {
            FilterLayout::Spread => None,
            // The hash's place among all hashes, scaled to the blocks.
            FilterLayout::Ordered => {
                Some(usize_from(u64::try_from((u128::from(hash) * blocks as u128) >> 64).unwrap_or(u64::MAX)))
            }
            // The block from another mix of the hash than the probes within it.
            FilterLayout::Blocked => Some(usize_from(fmix64(hash) % blocks as u64)),
        };
        let (base, bits) = match block {
            None => (0, (words * 64) as u64),
            Some(block) => (block * BLOCK_WORDS * 64, (words.min(BLOCK_WORDS) * 64) as u64),
        };
        (0..FILTER_PROBES).map(move |i| base + ((mix(i) >> 17) % bits) as usize)
    }
}

/// What a segment holds: the postings of one signal ([`crate::archive::signals::STORED`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Kgrams = 0,
    Sentences = 1,
    /// Character grams (archive format 10 on).
    CharGrams = 2,
}

impl Kind {
    pub fn code(self) -> i64 {
        self as i64
    }
    pub fn from_code(code: i64) -> Option<Self> {
        match code {
            0 => Some(Kind::Kgrams),
            1 => Some(Kind::Sentences),
            2 => Some(Kind::CharGrams),
            _ => None,
        }
    }

    /// The segments that hold the postings of `signal`.
    pub fn of(signal: Signal) -> Self {
        match signal {
            Signal::Kgram => Kind::Kgrams,
            Signal::Sentence => Kind::Sentences,
            Signal::CharGram => Kind::CharGrams,
        }
    }

    /// The signal whose postings these segments hold.
    pub fn signal(self) -> Signal {
        match self {
            Kind::Kgrams => Signal::Kgram,
            Kind::Sentences => Signal::Sentence,
            Kind::CharGrams => Signal::CharGram,
        }
    }
}

/// True for the name of a segment file or of a segment being written (`NAME.seg.tmp`,
/// and `k-…-….tmp` / `s-…-….tmp` as earlier versions named them): the only files of the
/// archive folder that an add or `verify` treats as its own. Other files (the window's
/// review marks and their atomic temporaries, the writer lock) are left alone.
pub fn is_segment_file(name: &str) -> bool {
    let earlier_temporary = name.ends_with(".tmp")
        && (name.starts_with("k-") || name.starts_with("s-"))
        && name.trim_end_matches(".tmp").split('-').count() >= 3;
    name.ends_with(".seg") || name.ends_with(".seg.tmp") || earlier_temporary
}

/// What a segment to be written holds: how many entries, about how many distinct hashes
/// (its Bloom filter is sized for them; at most the entries), and the documents and
/// positions they span (its entries are packed for them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contents {
    pub count: u64,
    pub distinct: u64,
    pub bounds: Bounds,
}

impl Contents {
    /// Nothing yet.
    pub fn empty() -> Self {
        Contents { count: 0, distinct: 0, bounds: Bounds::empty() }
    }

    /// What `entries`, ascending, hold.
    pub fn of_sorted(entries: &[(u64, Posting)]) -> Self {
        let distinct = entries.chunk_by(|a, b| a.0 == b.0).count() as u64;
        Contents { count: entries.len() as u64, distinct, bounds: Bounds::of(entries.iter().map(|e| &e.1)) }
    }

    /// Widens to hold the entry (`hash`, `posting`) that comes after those held, in hash
    /// order; `new_hash` when its hash is not that of the entry before it.
    pub fn include(&mut self, new_hash: bool, posting: &Posting) {
        self.count += 1;
        self.distinct += u64::from(new_hash);
        self.bounds.include(posting);
    }

    /// What a merge of both holds at most: the entries of both, the distinct hashes of
    /// both (some may be shared).
    pub fn and(self, other: Contents) -> Contents {
        Contents {
            count: self.count + other.count,
            distinct: self.distinct + other.distinct,
            bounds: self.bounds.union(other.bounds),
        }
    }
}

/// What the 40-byte header of a segment says, checked against the file's size.
#[derive(Clone, Copy, Debug)]
pub(in crate::archive) struct Header {
    pub kind: Kind,
    /// Top bits of a hash that pick its sparse-index slot.
    pub bits: u32,
    /// Number of entries.
    pub count: usize,
    pub filter_words: usize,
    pub layout: FilterLayout,
    /// How its entries are stored.
    pub packing: Packing,
}

impl Header {
    /// Reads the header from the first bytes of the file at `path` (`file_len` long).
    pub(in crate::archive) fn parse(bytes: &[u8], file_len: u64, path: &Path) -> Result<Header, ArchiveError> {
        let bad = |what: &str| ArchiveError::Corrupt(format!("segment {}: {what}", path.display()));
        if bytes.len() < HEADER || file_len < (HEADER + 8) as u64 {
            return Err(bad("not a twinspot segment"));
        }
        let (layout, stored) = match &bytes[..8] {
            magic if magic == MAGIC => (FilterLayout::Ordered, EntryLayout::Kept),
            magic if magic == MAGIC_WHOLE_HASHES => (FilterLayout::Ordered, EntryLayout::WholeHashes),
            magic if magic == MAGIC_WHOLE_ENTRIES => (FilterLayout::Ordered, EntryLayout::Whole),
            magic if magic == MAGIC_MIXED_BLOCKS => (FilterLayout::Blocked, EntryLayout::Whole),
            magic if magic == MAGIC_SPREAD_FILTER => (FilterLayout::Spread, EntryLayout::Whole),
            _ => return Err(bad("not a twinspot segment")),
        };
        let kind = Kind::from_code(i64::from(u32_at(bytes, 8))).ok_or_else(|| bad("unknown kind"))?;
        let bits = u32_at(bytes, 12);
        let count = usize_from(u64_at(bytes, 16));
        let filter_words = usize_from(u64_at(bytes, 24));
        let packed = |dropped_bits| {
            Packing::from_parts((bits, dropped_bits), u32_at(bytes, 32), u32::from(bytes[36]), u32::from(bytes[37]))
        };
        let packing = match stored {
            EntryLayout::Kept => packed(u32::from(bytes[38])),
            EntryLayout::WholeHashes => packed(0),
            EntryLayout::Whole => Packing::WHOLE,
        };
        if !packing.is_valid() {
            return Err(bad("its entries have widths no segment has"));
        }
        let expected = HEADER as u128
            + count as u128 * packing.bytes() as u128
            + ((1u128 << bits.min(63)) + 1) * 8
            + filter_words as u128 * 8
            + 8;
        if bits > MAX_BUCKET_BITS || u128::from(file_len) != expected {
            return Err(bad("truncated or of the wrong size"));
        }
        Ok(Header { kind, bits, count, filter_words, layout, packing })
    }

    /// Bytes of one entry.
    pub(in crate::archive) fn entry_bytes(&self) -> usize {
        self.packing.bytes()
    }

    /// Byte offset of entry `i`.
    pub(in crate::archive) fn entry_offset(&self, i: usize) -> u64 {
        (HEADER + i * self.entry_bytes()) as u64
    }

    /// Byte offset of the sparse index (`2^bits + 1` u64).
    pub(in crate::archive) fn index_offset(&self) -> u64 {
        self.entry_offset(self.count)
    }

    /// Byte offset of the Bloom filter.
    pub(in crate::archive) fn filter_offset(&self) -> u64 {
        self.index_offset() + (((1u64 << self.bits) + 1) * 8)
    }
}

fn u32_at(map: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&map[at..at + 4]);
    u32::from_le_bytes(b)
}

pub(in crate::archive) fn u64_at(map: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&map[at..at + 8]);
    u64::from_le_bytes(b)
}

/// Top bits of the sparse index of a segment of `count` entries: as many as the square
/// root of the count takes (a small segment's index costs little beside its entries),
/// and for a large one enough for buckets of about [`LARGE_BUCKET`] entries, at most
/// [`MAX_BUCKET_BITS`].
pub(super) fn bucket_bits(count: u64) -> u32 {
    let log = count.max(1).next_power_of_two().trailing_zeros();
    (log / 2 + 4).max(log.saturating_sub(LARGE_BUCKET.trailing_zeros())).min(MAX_BUCKET_BITS)
}

pub(in crate::archive) fn top_bits(hash: u64, bits: u32) -> u64 {
    if bits == 0 { 0 } else { hash >> (64 - bits) }
}

/// Words of the filter of a segment of `keys` distinct hashes.
pub(super) fn filter_words(keys: u64, layout: FilterLayout) -> usize {
    let words = ((usize_from(keys) * FILTER_BITS_PER_KEY).div_ceil(64)).max(1);
    match layout {
        FilterLayout::Ordered | FilterLayout::Blocked if words > BLOCK_WORDS => words.next_multiple_of(BLOCK_WORDS),
        _ => words,
    }
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "the tests' values are small")]
mod tests {
    use super::*;
    use crate::archive::folder::segments::lookup::{Held, SegmentLookup};
    use crate::archive::folder::segments::packing::kept_hash;
    use crate::archive::folder::segments::sequential::Segment;
    use crate::archive::folder::segments::writing::{write, write_with_layout};

    fn postings(lookup: &SegmentLookup, hash: u64) -> Vec<Posting> {
        let mut out = Vec::new();
        lookup.postings(hash, &mut out).unwrap();
        out
    }

    #[test]
    fn a_span_is_read_ahead_only_for_lookups_that_would_touch_a_quarter_of_its_pages() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.seg");
        let entries: Vec<(u64, Posting)> = (0..200_000u64)
            .map(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15), Posting { doc: i as u32 % 1000, position: i as u32 }))
            .collect();
        write(&path, Kind::Kgrams, entries).unwrap();
        let lookup = SegmentLookup::open(&path).unwrap();
        // Half the hash space: about half of 1.6 MB of entries and of the filter, some 230
        // pages.
        let half = u64::MAX / 2;
        assert!(!lookup.read_ahead_below(half, 40), "40 lookups touch a sixth of its pages at most");
        assert!(lookup.read_ahead_below(half, 100));
        assert!(lookup.read_ahead_below(0, 1), "the first bucket alone is a few pages");
        assert!(lookup.read_ahead_below(u64::MAX, 1_000));
        assert!(!lookup.read_ahead_below(u64::MAX, 60));
    }

    #[test]
    fn written_segments_answer_every_hash_and_no_absent_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.seg");
        let p = |doc, position| Posting { doc, position };
        let mut entries = Vec::new();
        for i in 0..5000u64 {
            let h = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            entries.push((h, p(i as u32 % 7, i as u32)));
            if i % 3 == 0 {
                entries.push((h, p(9, 1)));
            }
        }
        write(&path, Kind::Kgrams, entries.clone()).unwrap();
        let seg = Segment::open(&path).unwrap();
        assert!(seg.verify().unwrap());
        assert_eq!(seg.len(), entries.len());
        let lookup = SegmentLookup::open(&path).unwrap();
        for i in 0..5000u64 {
            let h = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let mut want: Vec<Posting> = entries.iter().filter(|e| e.0 == h).map(|e| e.1).collect();
            want.sort();
            assert_eq!(postings(&lookup, h), want);
            // The low bits are not kept: a hash that differs only there is the same one.
            assert_eq!(postings(&lookup, h ^ 1), want);
            assert!(postings(&lookup, h ^ (1 << 16)).is_empty());
        }
    }

    #[test]
    fn a_frequent_hash_gives_its_first_postings_its_entry_count_and_its_documents() {
        // One hash held 1,000 times (up to 8 positions in each of 200 documents, some of
        // them removed), beside others, spread over more than one read window.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.seg");
        let frequent = 0x5555_5555_5555_5555u64;
        let mut entries: Vec<(u64, Posting)> = (0..1000u32)
            .map(|i| (frequent, Posting { doc: 1 + i / 5, position: i % 5 }))
            .chain((0..3000u64).map(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15), Posting { doc: 7, position: 1 })))
            .collect();
        let next = frequent + (1 << 16);
        entries.push((next, Posting { doc: 3, position: 0 }));
        write(&path, Kind::Kgrams, entries.clone()).unwrap();
        let lookup = SegmentLookup::open(&path).unwrap();
        let removed = |p: &Posting| p.doc.is_multiple_of(10);
        let mut first = Vec::new();
        let held = lookup.first_postings(frequent, 51, |p| !removed(p), &mut first).unwrap();
        // Stopped at its cap: bounded by its bucket, and counted when asked.
        assert!(held.least() >= 51 && held.least() <= 1000 && held.most() >= 1000, "{held:?}");
        assert_eq!(lookup.entries(&held).unwrap(), 1000);
        assert_eq!(first.len(), 51);
        let mut want: Vec<Posting> =
            entries.iter().filter(|e| e.0 == frequent && !removed(&e.1)).map(|e| e.1).collect();
        want.sort();
        assert_eq!(first, want[..51]);
        // All of them when the cap is not reached; none of an absent hash.
        let mut all = Vec::new();
        assert_eq!(lookup.first_postings(frequent, 5000, |p| !removed(p), &mut all).unwrap(), Held::Known(1000));
        assert_eq!(all, want);
        assert_eq!(lookup.first_postings(frequent ^ (2 << 16), 51, |_| true, &mut Vec::new()).unwrap(), Held::Known(0));
        // 200 documents, 20 of them removed; counted up to a limit.
        assert_eq!(lookup.documents(frequent, 1000, |p| !removed(p)).unwrap(), 180);
        assert_eq!(lookup.documents(frequent, 50, |p| !removed(p)).unwrap(), 50);
        assert_eq!(lookup.documents(next, 1000, |_| true).unwrap(), 1);
    }

    #[test]
    fn a_hash_a_little_past_the_cap_is_counted_from_the_entries_read() {
        // 120 entries: the end of the run lies in the window its first 51 were read from;
        // the last hash of its bucket runs to the bucket's end.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.seg");
        let middling = 0x3333_3333_3333_3333u64;
        let highest = u64::MAX;
        let mut entries: Vec<(u64, Posting)> = (0..120u32)
            .map(|i| (middling, Posting { doc: 1 + i / 4, position: i % 4 }))
            .chain((0..90u32).map(|i| (highest, Posting { doc: 1 + i / 8, position: i % 8 })))
            .chain((0..3000u64).map(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15), Posting { doc: 7, position: 1 })))
            .collect();
        entries.sort_unstable();
        write(&path, Kind::Kgrams, entries).unwrap();
        let lookup = SegmentLookup::open(&path).unwrap();
        for (hash, count) in [(middling, 120), (highest, 90)] {
            let mut first = Vec::new();
            // The run ends in the window read: known without a search.
            assert_eq!(lookup.first_postings(hash, 51, |_| true, &mut first).unwrap(), Held::Known(count));
            assert_eq!(first.len(), 51);
            assert_eq!(lookup.first_postings(hash, 5000, |_| true, &mut Vec::new()).unwrap(), Held::Known(count));
        }
    }

    #[test]
    fn segments_of_every_layout_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let entries: Vec<(u64, Posting)> = (0..3000u64)
            .map(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15), Posting { doc: i as u32 % 5, position: i as u32 }))
            .collect();
        let mut sorted = entries.clone();
        sorted.sort_unstable();
        let contents = Contents::of_sorted(&sorted);
        let layouts = [
            (FilterLayout::Spread, EntryLayout::Whole),
            (FilterLayout::Blocked, EntryLayout::Whole),
            (FilterLayout::Ordered, EntryLayout::Whole),
            (FilterLayout::Ordered, EntryLayout::WholeHashes),
            (FilterLayout::Ordered, EntryLayout::Kept),
        ];
        for (layout, stored) in layouts {
            let path = dir.path().join(format!("{layout:?}-{stored:?}.seg"));
            let cut = |(hash, posting): &(u64, Posting)| {
                (if stored == EntryLayout::Kept { kept_hash(*hash) } else { *hash }, *posting)
            };
            write_with_layout(&path, Kind::Kgrams, contents, &mut sorted.iter().map(cut), (layout, stored)).unwrap();
            let seg = Segment::open(&path).unwrap();
            assert_eq!(seg.header.layout, layout);
            assert_eq!(seg.header.packing == Packing::WHOLE, stored == EntryLayout::Whole);
            assert_eq!(seg.header.packing.dropped_bits() == 0, stored != EntryLayout::Kept);
            assert!(seg.verify().unwrap());
            let lookup = SegmentLookup::open(&path).unwrap();
            for &(hash, posting) in &entries {
                assert_eq!(postings(&lookup, hash), vec![posting]);
            }
            // A filter that lets most absent hashes through would not be one.
            let passed =
                (0..10_000u64).filter(|i| lookup.may_hold(i.wrapping_mul(0xd6e8_feb8_6659_fd93) | 1).unwrap()).count();
            assert!(passed < 600, "{layout:?}: {passed} of 10,000 absent hashes pass the filter");
        }
    }

    #[test]
    fn large_segments_get_buckets_of_about_512_entries_and_small_ones_keep_theirs() {
        for log in 0..=40u32 {
            let count = 1u64 << log;
            let bits = bucket_bits(count);
            let before = (log / 2 + 4).min(16);
            assert!(bits >= before, "never coarser than format 8's index: {log}");
            assert!(bits <= MAX_BUCKET_BITS);
            if log <= 24 {
                assert_eq!(bits, before, "a small segment's index is as it was: {log}");
            }
            if log <= 29 {
                assert!(count >> bits <= LARGE_BUCKET, "2^{log} entries in buckets of {}", count >> bits);
            }
        }
    }

    #[test]
    fn lookups_find_what_a_binary_search_finds() {
        // Crowded low hashes (as winnowing leaves them), runs of equal ones, empty buckets.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.seg");
        let mut next = crate::hash::xorshift(0x2545_f491_4f6c_dd1du64);
        let mut entries = Vec::new();
        for i in 0..20_000u32 {
            let r = next();
            let h = r >> (r % 48);
            for copy in 0..(1 + i % 4) {
                entries.push((h, Posting { doc: copy, position: i }));
            }
        }
        // Frequent hashes, whose entries put those after them in their buckets far from
        // where an even spread would.
        for (k, frequent) in [1u64 << 40, 3 << 52, u64::MAX >> 1].into_iter().enumerate() {
            for doc in 0..6_000 * (k as u32 + 1) {
                entries.push((frequent, Posting { doc, position: 0 }));
            }
        }
        write(&path, Kind::Kgrams, entries).unwrap();
        let seg = Segment::open(&path).unwrap();
        let stored: Vec<(u64, Posting)> = seg.entries().unwrap().map(Result::unwrap).collect();
        assert_eq!(stored.len(), seg.len());
        let hashes: Vec<u64> = stored.iter().map(|e| e.0).collect();
        let lookup = SegmentLookup::open(&path).unwrap().unfiltered();
        let mut distinct = hashes.clone();
        distinct.dedup();
        let mut queries: Vec<u64> = distinct.iter().step_by(7).copied().collect();
        queries.extend(distinct.iter().step_by(11).map(|h| h.wrapping_add(1)));
        queries.extend(distinct.iter().step_by(13).map(|h| h.wrapping_add(1 << 16)));
        queries.extend((0..5_000).map(|_| next()));
        queries.extend([0, u64::MAX, 1 << 40, (1 << 40) + (1 << 16), 3 << 52, (3 << 52) - (1 << 16), u64::MAX >> 1]);
        for query in queries {
            // Stored hashes are cut, and so is a query.
            let hash = kept_hash(query);
            let start = hashes.partition_point(|&h| h < hash);
            let end = start + hashes[start..].partition_point(|&h| h == hash);
            let want: Vec<Posting> = stored[start..end].iter().map(|e| e.1).collect();
            assert_eq!(postings(&lookup, query), want, "{query:x}");
        }
    }

    #[test]
    fn damaged_segments_are_refused_or_fail_verification() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.seg");
        write(&path, Kind::Sentences, vec![(1, Posting { doc: 1, position: 2 })]).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        assert!(!Segment::open(&path).unwrap().verify().unwrap());
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        assert!(Segment::open(&path).is_err());
        assert!(SegmentLookup::open(&path).is_err());
        // A sparse index out of order (the size still right) is refused before a lookup.
        bytes[HEADER] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        let index = Segment::open(&path).unwrap().header.index_offset() as usize;
        bytes[index..index + 8].copy_from_slice(&5u64.to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        assert!(Segment::open(&path).is_ok());
        assert!(matches!(SegmentLookup::open(&path), Err(ArchiveError::Corrupt(m)) if m.contains("sparse index")));
        // Packed entries whose widths, as the header tells them, no writer gives: refused
        // before any entry is read.
        write(
            &path,
            Kind::Kgrams,
            (0..100u32).map(|i| (u64::from(i) << 40, Posting { doc: i, position: i })).collect(),
        )
        .unwrap();
        let good = std::fs::read(&path).unwrap();
        assert!(Segment::open(&path).unwrap().verify().unwrap());
        for (at, value) in [(36, 40u8), (37, 33), (36, 0)] {
            let mut bytes = good.clone();
            bytes[at] = value;
            std::fs::write(&path, &bytes).unwrap();
            let refused =
                |e: ArchiveError| matches!(e, ArchiveError::Corrupt(m) if m.contains("widths") || m.contains("size"));
            assert!(Segment::open(&path).err().is_some_and(refused), "byte {at} = {value}");
            assert!(SegmentLookup::open(&path).err().is_some_and(refused), "byte {at} = {value}");
        }
    }
}

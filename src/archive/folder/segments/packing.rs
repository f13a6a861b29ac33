//! How a segment's entries are packed. A posting is a hash, a document and a position;
//! segments of archive formats 1 to 5 store them as 8 + 4 + 4 bytes. Segments written now
//! (`TWSEG05`) store each entry in as few whole bytes as the segment needs:
//!
//! - the hash's top [`KEPT_HASH_BITS`] bits, the archive's k-gram and sentence hash, less
//!   the top bits the entry's bucket of the sparse index already says (every entry of a
//!   bucket shares them);
//! - the document less the segment's lowest, in as many bits as its highest needs;
//! - the position in as many bits as the segment's highest needs.
//!
//! At 100,000 generated documents an entry takes 8 bytes instead of 16. Entries stay of
//! one width, so a lookup still reads entry `i` at a place it can compute. Segments of
//! archive format 6 (`TWSEG04`) were packed the same way with the whole 64-bit hash.
//!
//! Why 48 bits are enough: two different k-grams share a kept hash by chance with
//! probability 2^-48 a pair, so a lookup meets a stranger's postings with probability
//! (distinct hashes held) / 2^48: under one in 100,000 at a billion distinct hashes, a few
//! hundred million documents' worth. Such a posting is a lone hit, which the matcher
//! never grows into a passage without more hits in order around it, and every passage is
//! aligned on the texts themselves.

use crate::index::Posting;

/// The top bits of a k-gram or sentence hash that segments written now keep.
pub const KEPT_HASH_BITS: u32 = 48;

/// `hash` as segments written now keep it: its low `64 - KEPT_HASH_BITS` bits cleared.
/// Cutting keeps the order of hashes (a hash below another is not above it once cut).
pub fn kept_hash(hash: u64) -> u64 {
    hash & !mask64(64 - KEPT_HASH_BITS)
}

/// The range of documents and positions a segment's entries span: what its packing must
/// hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub min_doc: u32,
    pub max_doc: u32,
    pub max_position: u32,
}

impl Bounds {
    /// Bounds that hold nothing yet (widened by [`Bounds::include`]).
    pub fn empty() -> Self {
        Bounds { min_doc: u32::MAX, max_doc: 0, max_position: 0 }
    }

    /// Widens the bounds to hold `posting`.
    pub fn include(&mut self, posting: &Posting) {
        self.min_doc = self.min_doc.min(posting.doc);
        self.max_doc = self.max_doc.max(posting.doc);
        self.max_position = self.max_position.max(posting.position);
    }

    /// The bounds of both.
    pub fn union(self, other: Bounds) -> Bounds {
        Bounds {
            min_doc: self.min_doc.min(other.min_doc),
            max_doc: self.max_doc.max(other.max_doc),
            max_position: self.max_position.max(other.max_position),
        }
    }

    /// The bounds of `postings`.
    pub fn of<'a>(postings: impl IntoIterator<Item = &'a Posting>) -> Bounds {
        let mut bounds = Bounds::empty();
        for p in postings {
            bounds.include(p);
        }
        bounds
    }
}

/// The widths of a segment's entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packing {
    /// Bits of the hash stored: those below its bucket's and above the dropped (64 when
    /// the whole hash is).
    hash_bits: u32,
    /// Low bits of the hash not kept: 0 for the whole hash (archive formats 1 to 6),
    /// `64 - KEPT_HASH_BITS` for segments written now.
    dropped_bits: u32,
    /// Subtracted from every document before it is stored.
    doc_base: u32,
    doc_bits: u32,
    position_bits: u32,
    /// Bytes of one entry.
    bytes: usize,
}

/// Bits needed to write `value`.
fn width(value: u32) -> u32 {
    u32::BITS - value.leading_zeros()
}

/// The low `bits` bits of a u128 set.
fn mask(bits: u32) -> u128 {
    if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 }
}

/// The low `bits` bits of a `u64` set.
fn mask64(bits: u32) -> u64 {
    if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 }
}

impl Packing {
    /// Entries of 16 bytes, the whole hash, document and position (archive formats 1–5).
    pub const WHOLE: Packing =
        Packing { hash_bits: 64, dropped_bits: 0, doc_base: 0, doc_bits: 32, position_bits: 32, bytes: 16 };

    /// The packing of a segment written now, whose sparse index uses the hash's top
    /// `bucket_bits` bits, for entries within `bounds` (their hashes cut by
    /// [`kept_hash`]).
    pub fn new(bucket_bits: u32, bounds: Bounds) -> Packing {
        Self::with_dropped_bits(64 - KEPT_HASH_BITS, bucket_bits, bounds)
    }

    /// The packing of a segment whose entries drop the hash's low `dropped_bits` bits
    /// (0: archive format 6, `TWSEG04`).
    pub fn with_dropped_bits(dropped_bits: u32, bucket_bits: u32, bounds: Bounds) -> Packing {
        let doc_base = if bounds.min_doc > bounds.max_doc { 0 } else { bounds.min_doc };
        Self::from_parts(
            (bucket_bits, dropped_bits),
            doc_base,
            width(bounds.max_doc.saturating_sub(doc_base)),
            width(bounds.max_position),
        )
    }

    /// The packing a header stores, for a sparse index of `bucket_bits` bits and hashes
    /// without their low `dropped_bits` (check it with [`Packing::is_valid`]).
    pub fn from_parts(
        (bucket_bits, dropped_bits): (u32, u32),
        doc_base: u32,
        doc_bits: u32,
        position_bits: u32,
    ) -> Packing {
        let hash_bits = 64u32.saturating_sub(bucket_bits).saturating_sub(dropped_bits);
        let bytes = (hash_bits + doc_bits + position_bits).div_ceil(8) as usize;
        Packing { hash_bits, dropped_bits, doc_base, doc_bits, position_bits, bytes }
    }

    /// Whether widths read from a header describe entries this code can read: a hash
    /// stored in at least one bit, fields of at most 32 bits, entries of at most 16 bytes.
    pub fn is_valid(&self) -> bool {
        self.dropped_bits <= 32
            && self.hash_bits >= 1
            && self.doc_bits <= 32
            && self.position_bits <= 32
            && self.bytes <= 16
    }

    /// Low bits of the hash the entries do not keep.
    pub fn dropped_bits(&self) -> u32 {
        self.dropped_bits
    }

    /// `hash` as these entries keep it: what a lookup compares them with.
    #[inline]
    pub fn keep(&self, hash: u64) -> u64 {
        hash & !mask64(self.dropped_bits)
    }

    /// Bytes of one entry.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The document base and widths, as a header stores them.
    pub fn parts(&self) -> (u32, u32, u32) {
        (self.doc_base, self.doc_bits, self.position_bits)
    }

    /// Whether `posting` fits these widths.
    pub fn holds(&self, posting: &Posting) -> bool {
        posting.doc >= self.doc_base
            && u128::from(posting.doc - self.doc_base) <= mask(self.doc_bits)
            && u128::from(posting.position) <= mask(self.position_bits)
    }

    /// Writes the entry (`hash`, `posting`) into `out` ([`Packing::bytes`] long); the
    /// posting must fit ([`Packing::holds`]) and the hash be kept ([`Packing::keep`]).
    pub fn encode(&self, hash: u64, posting: &Posting, out: &mut [u8]) {
        let value = (u128::from(hash >> self.dropped_bits) & mask(self.hash_bits))
            | (u128::from(posting.doc.wrapping_sub(self.doc_base)) << self.hash_bits)
            | (u128::from(posting.position) << (self.hash_bits + self.doc_bits));
        out[..self.bytes].copy_from_slice(&value.to_le_bytes()[..self.bytes]);
    }

    /// The entry stored in the first [`Packing::bytes`] of `bytes`, whose hash's top bits
    /// are those of `bucket`; its hash as kept, the dropped bits clear. Fastest when `bytes` goes on for
    /// 16 bytes (a reader pads its buffer): the entry is then one load.
    #[inline]
    #[expect(
        clippy::cast_possible_truncation,
        reason = "the document and position are masked to their widths, at most 32 bits each, the hash to its low 64"
    )]
    pub fn decode(&self, bytes: &[u8], bucket: u64) -> (u64, Posting) {
        let mut raw = [0u8; 16];
        match bytes.get(..16) {
            Some(whole) => raw.copy_from_slice(whole),
            None => raw[..self.bytes].copy_from_slice(&bytes[..self.bytes]),
        }
        let value = u128::from_le_bytes(raw);
        let doc = ((value >> self.hash_bits) & mask(self.doc_bits)) as u32;
        let position = ((value >> (self.hash_bits + self.doc_bits)) & mask(self.position_bits)) as u32;
        (self.with_bucket(value as u64, bucket), Posting { doc: doc.wrapping_add(self.doc_base), position })
    }

    /// The hash of the entry stored in `bytes` (which goes on for at least 8 bytes), as
    /// [`Packing::decode`] gives it.
    #[inline]
    pub fn hash(&self, bytes: &[u8], bucket: u64) -> u64 {
        let mut raw = [0u8; 8];
        raw.copy_from_slice(&bytes[..8]);
        self.with_bucket(u64::from_le_bytes(raw), bucket)
    }

    /// The hash from the stored bits at the bottom of `stored` (and any bits above them)
    /// and the bucket.
    #[inline]
    fn with_bucket(&self, stored: u64, bucket: u64) -> u64 {
        let below_bucket = self.hash_bits + self.dropped_bits;
        let kept = (stored & mask64(self.hash_bits)) << self.dropped_bits;
        if below_bucket >= 64 { kept } else { kept | (bucket << below_bucket) }
    }
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "the tests' values are small")]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_as_written_in_every_width() {
        let mut next = crate::hash::xorshift(0x9e37_79b9_7f4a_7c15u64);
        for (bucket_bits, dropped_bits) in [0, 4, 11, 16].into_iter().flat_map(|b| [(b, 0), (b, 64 - KEPT_HASH_BITS)]) {
            for (min_doc, max_doc, max_position) in
                [(0, 0, 0), (7, 7, 1), (1000, 100_000, 6000), (0, u32::MAX, u32::MAX)]
            {
                let bounds = Bounds { min_doc, max_doc, max_position };
                let packing = Packing::with_dropped_bits(dropped_bits, bucket_bits, bounds);
                assert!(packing.is_valid());
                for _ in 0..200 {
                    let hash = packing.keep(next());
                    let span = u64::from(max_doc - min_doc) + 1;
                    let doc = min_doc + (next() % span) as u32;
                    let position = (next() % (u64::from(max_position) + 1)) as u32;
                    let posting = Posting { doc, position };
                    assert!(packing.holds(&posting));
                    let mut out = [0u8; 16];
                    packing.encode(hash, &posting, &mut out);
                    let bucket = if bucket_bits == 0 { 0 } else { hash >> (64 - bucket_bits) };
                    assert_eq!(packing.decode(&out, bucket), (hash, posting));
                    assert_eq!(packing.decode(&out[..packing.bytes()], bucket), (hash, posting));
                    assert_eq!(packing.hash(&out, bucket), hash);
                }
                assert!(!packing.holds(&Posting { doc: min_doc.wrapping_sub(1), position: 0 }) || min_doc == 0);
            }
        }
        let at_100_000 = Bounds { min_doc: 1, max_doc: 100_000, max_position: 6000 };
        assert_eq!(Packing::with_dropped_bits(0, 16, at_100_000).bytes(), 10);
        assert_eq!(Packing::new(16, at_100_000).bytes(), 8);
    }

    #[test]
    fn segments_written_now_keep_the_top_bits_of_a_hash() {
        let packing = Packing::new(16, Bounds { min_doc: 1, max_doc: 100_000, max_position: 6000 });
        let hash = 0x0123_4567_89ab_cdefu64;
        assert_eq!(kept_hash(hash), 0x0123_4567_89ab_0000);
        assert_eq!(packing.keep(hash), kept_hash(hash));
        let mut out = [0u8; 16];
        let posting = Posting { doc: 99_999, position: 5999 };
        packing.encode(kept_hash(hash), &posting, &mut out);
        assert_eq!(packing.decode(&out, hash >> 48), (kept_hash(hash), posting));
        // Cutting keeps the order: hashes in order stay in order, some become equal.
        let mut hashes: Vec<u64> = (0..1000u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (i % 40)).collect();
        hashes.sort_unstable();
        assert!(hashes.windows(2).all(|w| kept_hash(w[0]) <= kept_hash(w[1])));
        assert_eq!(Packing::WHOLE.keep(hash), hash);
        // A sparse index and dropped bits that leave nothing of the hash to store.
        assert!(!Packing::from_parts((40, 30), 0, 1, 1).is_valid());
    }

    #[test]
    fn whole_entries_are_the_layout_of_earlier_formats() {
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&0x0123_4567_89ab_cdefu64.to_le_bytes());
        bytes[8..12].copy_from_slice(&77u32.to_le_bytes());
        bytes[12..].copy_from_slice(&9u32.to_le_bytes());
        let entry = (0x0123_4567_89ab_cdef, Posting { doc: 77, position: 9 });
        assert_eq!(Packing::WHOLE.decode(&bytes, 0), entry);
        let mut out = [0u8; 16];
        Packing::WHOLE.encode(entry.0, &entry.1, &mut out);
        assert_eq!(out, bytes);
    }
}

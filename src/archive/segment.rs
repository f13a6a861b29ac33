//! Immutable sorted segment files of postings (hash → document, position): one per add
//! batch and kind, merged in tiers. A segment is written once to a temporary name, synced
//! and renamed; it is then only read, through a memory map.
//!
//! Layout, little-endian: a 40-byte header (magic, kind, bucket bits, posting count, filter
//! words), the entries ascending (hash, document, position: 8 + 4 + 4 bytes), the sparse
//! index (for each value of the hash's top bits,
//! the first entry holding it: `2^bits + 1` u64), the Bloom filter over the distinct
//! hashes, and an FNV-1a checksum of everything before it.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use memmap2::Mmap;

use super::error::ArchiveError;
use crate::index::{Posting, keep_first_positions};

const MAGIC: &[u8; 8] = b"TWSEG01\n";
const HEADER: usize = 40;
/// At most this many top bits pick a sparse-index slot (512 KiB of index at most).
const MAX_BUCKET_BITS: u32 = 16;
/// Bloom filter bits per distinct hash, and probes.
const FILTER_BITS_PER_KEY: usize = 10;
const FILTER_PROBES: u64 = 3;

/// What a segment holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Kgrams = 0,
    Sentences = 1,
}

impl Kind {
    pub fn code(self) -> i64 {
        self as i64
    }
    pub fn from_code(code: i64) -> Option<Self> {
        match code {
            0 => Some(Kind::Kgrams),
            1 => Some(Kind::Sentences),
            _ => None,
        }
    }
}

/// True for the name of a segment file or of a segment being written (`NAME.seg.tmp`):
/// the only files of the archive folder that an add or `verify` treats as its own. Other
/// files (the window's review marks and their atomic temporaries) are left alone.
pub fn is_segment_file(name: &str) -> bool {
    name.ends_with(".seg") || name.ends_with(".seg.tmp")
}

/// Writes `entries` (any order; sorted and deduplicated here) as a segment at `path`,
/// through `path` + ".tmp", synced before the rename. Returns the posting count.
pub fn write(path: &Path, kind: Kind, mut entries: Vec<(u64, Posting)>) -> Result<u64, ArchiveError> {
    entries.sort_unstable();
    entries.dedup();
    // As in a check's own index: one document keeps its first positions of a hash.
    keep_first_positions(&mut entries);
    write_sorted(path, kind, entries.len() as u64, &mut entries.into_iter())
}

/// Writes `count` entries, already ascending and distinct, from `entries`.
pub fn write_sorted(
    path: &Path,
    kind: Kind,
    count: u64,
    entries: &mut dyn Iterator<Item = (u64, Posting)>,
) -> Result<u64, ArchiveError> {
    let tmp = path.with_extension("tmp");
    let io = |e| ArchiveError::io(&tmp, e);
    let bits = bucket_bits(count);
    let filter_words = filter_words(count);
    let mut filter = vec![0u64; filter_words];
    // starts[b] counts entries whose top bits are below b, filled in as entries stream by.
    let mut bucket_counts = vec![0u64; (1usize << bits) + 1];
    let mut out = Checksummed::new(BufWriter::with_capacity(1 << 20, File::create(&tmp).map_err(io)?));
    let mut header = Vec::with_capacity(HEADER);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&(kind as u32).to_le_bytes());
    header.extend_from_slice(&bits.to_le_bytes());
    header.extend_from_slice(&count.to_le_bytes());
    header.extend_from_slice(&(filter_words as u64).to_le_bytes());
    header.extend_from_slice(&[0u8; 8]);
    out.write_all(&header).map_err(io)?;
    let mut written = 0u64;
    let mut entry = [0u8; 16];
    for (hash, p) in entries.take(count as usize) {
        entry[..8].copy_from_slice(&hash.to_le_bytes());
        entry[8..12].copy_from_slice(&p.doc.to_le_bytes());
        entry[12..].copy_from_slice(&p.position.to_le_bytes());
        out.write_all(&entry).map_err(io)?;
        bucket_counts[top_bits(hash, bits) as usize + 1] += 1;
        for bit in probes(hash, filter_words) {
            filter[bit / 64] |= 1 << (bit % 64);
        }
        written += 1;
    }
    if written != count {
        return Err(ArchiveError::Corrupt(format!("{}: fewer entries than announced", path.display())));
    }
    let mut start = 0u64;
    for c in &bucket_counts {
        start += c;
        out.write_all(&start.to_le_bytes()).map_err(io)?;
    }
    for w in &filter {
        out.write_all(&w.to_le_bytes()).map_err(io)?;
    }
    let sum = out.sum;
    let mut inner = out.inner;
    inner.write_all(&sum.to_le_bytes()).map_err(io)?;
    let file = inner.into_inner().map_err(|e| ArchiveError::io(&tmp, e.into_error()))?;
    file.sync_all().map_err(io)?;
    drop(file);
    std::fs::rename(&tmp, path).map_err(|e| ArchiveError::io(path, e))?;
    Ok(count)
}

/// A segment opened for reading.
pub struct Segment {
    map: Mmap,
    count: usize,
    bits: u32,
    filter_words: usize,
    kind: Kind,
    /// Whether [`Segment::find`] asks the Bloom filter first (see [`Segment::unfiltered`]).
    filtered: bool,
}

impl Segment {
    /// Maps the segment at `path` and checks its header and size (not its checksum: see
    /// [`Segment::verify`]).
    pub fn open(path: &Path) -> Result<Self, ArchiveError> {
        let file = File::open(path).map_err(|e| ArchiveError::io(path, e))?;
        // SAFETY: segments are immutable once renamed into place; nothing writes to them.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| ArchiveError::io(path, e))?;
        let bad = |what: &str| ArchiveError::Corrupt(format!("segment {}: {what}", path.display()));
        if map.len() < HEADER + 8 || &map[..8] != MAGIC {
            return Err(bad("not a twinspot segment"));
        }
        let kind = Kind::from_code(i64::from(u32_at(&map, 8))).ok_or_else(|| bad("unknown kind"))?;
        let bits = u32_at(&map, 12);
        let count = u64_at(&map, 16) as usize;
        let filter_words = u64_at(&map, 24) as usize;
        let expected =
            HEADER as u128 + count as u128 * 16 + ((1u128 << bits.min(63)) + 1) * 8 + filter_words as u128 * 8 + 8;
        if bits > MAX_BUCKET_BITS || map.len() as u128 != expected {
            return Err(bad("truncated or of the wrong size"));
        }
        Ok(Self { map, count, bits, filter_words, kind, filtered: true })
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Number of postings.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// True when the stored checksum matches the content.
    pub fn verify(&self) -> bool {
        let body = &self.map[..self.map.len() - 8];
        fnv(FNV_OFFSET, body) == u64_at(&self.map, self.map.len() - 8)
    }

    fn hash(&self, i: usize) -> u64 {
        u64_at(&self.map, HEADER + i * 16)
    }

    /// The `i`-th entry in hash order.
    pub fn entry(&self, i: usize) -> (u64, Posting) {
        let at = HEADER + i * 16;
        (self.hash(i), Posting { doc: u32_at(&self.map, at + 8), position: u32_at(&self.map, at + 12) })
    }

    fn bucket_start(&self, bucket: u64) -> usize {
        u64_at(&self.map, HEADER + self.count * 16 + bucket as usize * 8) as usize
    }

    fn may_hold(&self, hash: u64) -> bool {
        let base = HEADER + self.count * 16 + ((1usize << self.bits) + 1) * 8;
        probes(hash, self.filter_words).all(|bit| u64_at(&self.map, base + bit / 64 * 8) & (1 << (bit % 64)) != 0)
    }

    /// Tells the system this segment is read for lookups, a few bytes at scattered
    /// places: no read-ahead. On a cold page cache, checks of one suspect against
    /// 100,000 documents took 4.0–4.8 s instead of 5.0–6.3 s; on a warm one the medians
    /// moved from 0.59–0.66 s to 0.55–0.62 s, within the host's noise. Not for merges and
    /// `verify`, which read a segment from end to end.
    pub fn for_lookups(self) -> Self {
        #[cfg(unix)]
        self.map.advise(memmap2::Advice::Random).ok();
        self
    }

    /// Looks hashes up without asking the Bloom filter first. The filter's probes touch
    /// three scattered pages of a large filter, where the search itself touches one or two
    /// (see [`Segment::find`]): for the largest segment of a kind, which holds most of the
    /// hashes a check looks for, the filter costs more than it saves. At 100,000
    /// documents in one segment, a check took 141 ms without it and 163 ms with it; with
    /// 9 segments of each kind, asking the filters of all of them took 277 ms, of none
    /// 326 ms.
    pub fn unfiltered(mut self) -> Self {
        self.filtered = false;
        self
    }

    /// Lets go of the pages of the file this process has read (they stay in the system's
    /// page cache): a check looks up thousands of hashes in every segment, and each
    /// lookup maps a page or two of a file that may hold gigabytes. Only a hint: should
    /// the system refuse it, the pages simply stay mapped until the segment is dropped.
    pub fn release_pages(&self) {
        #[cfg(unix)]
        // SAFETY: the map is read-only and its file immutable; after MADV_DONTNEED a read
        // maps the same bytes again from the file. No reference into the map outlives the
        // lookup that made it (entries are copied out).
        unsafe {
            self.map.unchecked_advise(memmap2::UncheckedAdvice::DontNeed).ok();
        }
    }

    /// The range of entries holding `hash`.
    pub fn find(&self, hash: u64) -> std::ops::Range<usize> {
        if self.count == 0 || (self.filtered && !self.may_hold(hash)) {
            return 0..0;
        }
        let bucket = top_bits(hash, self.bits);
        let (first, last) = (self.bucket_start(bucket), self.bucket_start(bucket + 1));
        let lo = self.lower_bound(hash, first, last, bucket);
        let mut end = lo;
        while end < self.count && self.hash(end) == hash {
            end += 1;
        }
        lo..end
    }
}

impl Segment {
    /// The first entry of `first..last` (the entries of `bucket`) whose hash is not below
    /// `hash`. Hashes are well mixed, so within one bucket they spread about evenly: the
    /// search starts where `hash` would lie were they even, and gallops from there. It
    /// reads a page or two of the segment where a binary search over the bucket read
    /// one page per halving.
    fn lower_bound(&self, hash: u64, first: usize, last: usize, bucket: u64) -> usize {
        if first >= last {
            return first;
        }
        let span = last - first;
        let shift = 64 - self.bits;
        // Where `hash` lies within the bucket's share of the hash space, as a fraction.
        let within = if self.bits == 0 { hash } else { hash - (bucket << shift) };
        let scaled = (u128::from(within) * span as u128) >> shift;
        let guess = first + (scaled as usize).min(span - 1);
        // Gallop from the guess to a range that holds the answer, then halve it.
        let (mut lo, mut hi) = if self.hash(guess) < hash {
            let (mut below, mut step) = (guess, 1);
            loop {
                let probe = below + step;
                if probe >= last {
                    break (below + 1, last);
                }
                if self.hash(probe) >= hash {
                    break (below + 1, probe);
                }
                below = probe;
                step *= 2;
            }
        } else {
            let (mut at_or_above, mut step) = (guess, 1);
            loop {
                if at_or_above < first + step {
                    break (first, at_or_above);
                }
                let probe = at_or_above - step;
                if self.hash(probe) < hash {
                    break (probe + 1, at_or_above);
                }
                at_or_above = probe;
                step *= 2;
            }
        };
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.hash(mid) < hash { lo = mid + 1 } else { hi = mid }
        }
        lo
    }
}

fn u32_at(map: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&map[at..at + 4]);
    u32::from_le_bytes(b)
}

fn u64_at(map: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&map[at..at + 8]);
    u64::from_le_bytes(b)
}

fn bucket_bits(count: u64) -> u32 {
    (count.max(1).next_power_of_two().trailing_zeros() / 2 + 4).min(MAX_BUCKET_BITS)
}

fn top_bits(hash: u64, bits: u32) -> u64 {
    if bits == 0 { 0 } else { hash >> (64 - bits) }
}

fn filter_words(count: u64) -> usize {
    ((count as usize * FILTER_BITS_PER_KEY).div_ceil(64)).max(1)
}

/// The filter bits of `hash`: fingerprint hashes are well mixed, so probes are taken from
/// multiplications of the hash itself.
fn probes(hash: u64, words: usize) -> impl Iterator<Item = usize> {
    let bits = (words * 64) as u64;
    (0..FILTER_PROBES).map(move |i| {
        let mixed = (hash ^ (hash >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15 ^ (i.wrapping_mul(0xbf58_476d_1ce4_e5b9)));
        ((mixed >> 17) % bits) as usize
    })
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv(mut state: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        state ^= u64::from(b);
        state = state.wrapping_mul(0x0100_0000_01b3);
    }
    state
}

/// A writer that keeps the FNV-1a checksum of what went through it.
struct Checksummed<W: Write> {
    inner: W,
    sum: u64,
}

impl<W: Write> Checksummed<W> {
    fn new(inner: W) -> Self {
        Self { inner, sum: FNV_OFFSET }
    }
}

impl<W: Write> Write for Checksummed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.sum = fnv(self.sum, &buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(seg.verify());
        assert_eq!(seg.len(), entries.len());
        for i in 0..5000u64 {
            let h = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let got: Vec<Posting> = seg.find(h).map(|j| seg.entry(j).1).collect();
            let mut want: Vec<Posting> = entries.iter().filter(|e| e.0 == h).map(|e| e.1).collect();
            want.sort();
            assert_eq!(got, want);
            assert!(seg.find(h ^ 1).is_empty());
        }
    }

    #[test]
    fn the_guided_search_finds_what_a_binary_search_finds() {
        // Crowded low hashes (as winnowing leaves them), runs of equal ones, empty buckets.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.seg");
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut entries = Vec::new();
        for i in 0..20_000u32 {
            let r = next();
            let h = r >> (r % 48);
            for copy in 0..(1 + i % 4) {
                entries.push((h, Posting { doc: copy, position: i }));
            }
        }
        write(&path, Kind::Kgrams, entries).unwrap();
        let seg = Segment::open(&path).unwrap();
        let hashes: Vec<u64> = (0..seg.len()).map(|i| seg.hash(i)).collect();
        let mut queries: Vec<u64> = hashes.iter().step_by(7).copied().collect();
        queries.extend(hashes.iter().step_by(11).map(|h| h.wrapping_add(1)));
        queries.extend((0..5_000).map(|_| next()));
        queries.extend([0, u64::MAX]);
        for hash in queries {
            let bucket = top_bits(hash, seg.bits);
            let (first, last) = (seg.bucket_start(bucket), seg.bucket_start(bucket + 1));
            assert_eq!(seg.lower_bound(hash, first, last, bucket), hashes.partition_point(|&h| h < hash), "{hash:x}");
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
        assert!(!Segment::open(&path).unwrap().verify());
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        assert!(Segment::open(&path).is_err());
    }
}

//! Lookups in a segment without mapping it. A check looks up thousands of hashes in
//! segment files of gigabytes, each in a few bytes at a scattered place. Reading those
//! bytes (`pread`) costs about a microsecond; touching a mapped page costs the fault, the
//! pages the system maps around it, and letting them all go again to keep the check's
//! memory bounded: measured here, 0.85–1.5 µs a read against 4.2–4.6 µs a touch.
//!
//! A lookup reads the filter block of the hash, then one window of entries around where
//! the hash would lie were hashes spread evenly over its bucket: nearly always the whole
//! answer. The sparse index is read once, when the segment is opened. (Through the map,
//! the largest segment was best searched without its filter, whose probes touched pages
//! of their own; read, the filter pays for itself in every segment: 60 ms instead of
//! 67 ms for a check at 100,000 documents in one segment.)

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use super::file_reads::{PAGE, advise_random, read_at, will_need};
use super::packing::Packing;
use super::segment::{BLOCK_WORDS, FilterLayout, HEADER, Header, top_bits, u64_at};
use crate::archive::error::ArchiveError;
use crate::index::Posting;
use crate::model::usize_from;

/// Entries read at most around the guessed place of a hash (4 KiB of whole entries,
/// 2 KiB of entries packed in 8 bytes), and at once past a window a walk or a search
/// leaves.
pub(in crate::archive) const WINDOW: usize = 256;

/// Entries read at least around the guessed place of a hash.
const LEAST_WINDOW: usize = 32;

/// The window read around the guessed place of a hash in a segment whose buckets hold
/// `mean` entries on average: a quarter of a bucket, within [`LEAST_WINDOW`] and
/// [`WINDOW`]. The guess is off by a share of the bucket, not by its square root: the
/// runs of frequent hashes before a hash push it from where an even spread would put it.
/// Measured on a million generated documents, 90 % of the hashes lie within 11 entries
/// of their guess in buckets of 96, 32 in buckets of 378, 65 in buckets of 375 that a
/// frequent hash's run can fill, 119 in buckets of 1,500 and 449 in buckets of 6,000. A
/// window that misses costs a search of a few reads more; one too wide costs its bytes,
/// which the system copies out of its page cache: most of a check's time in lookups.
fn window_for(mean: usize) -> usize {
    (mean / 4).next_power_of_two().clamp(LEAST_WINDOW, WINDOW)
}

/// A segment opened for lookups.
pub struct SegmentLookup {
    file: File,
    path: PathBuf,
    header: Header,
    /// The sparse index: the first entry of each bucket, and the entry count last.
    starts: Vec<u64>,
    /// Whether [`SegmentLookup::postings`] asks the Bloom filter first.
    filtered: bool,
}

impl SegmentLookup {
    /// Opens the segment at `path`, checks its header against its size and reads its
    /// sparse index.
    pub fn open(path: &Path) -> Result<Self, ArchiveError> {
        let io_error = |e| ArchiveError::io(path, e);
        let file = File::open(path).map_err(io_error)?;
        let len = file.metadata().map_err(io_error)?.len();
        let mut first = [0u8; HEADER];
        let available = usize_from(len).min(HEADER);
        read_at(&file, &mut first[..available], 0).map_err(io_error)?;
        let header = Header::parse(&first[..available], len, path)?;
        let slots = (1usize << header.bits) + 1;
        let mut raw = vec![0u8; slots * 8];
        read_at(&file, &mut raw, header.index_offset()).map_err(io_error)?;
        let starts: Vec<u64> = raw.chunks_exact(8).map(|c| u64_at(c, 0)).collect();
        if starts.windows(2).any(|w| w[0] > w[1]) || starts.last().is_some_and(|&n| n != header.count as u64) {
            return Err(ArchiveError::Corrupt(format!("segment {}: its sparse index is out of order", path.display())));
        }
        advise_random(&file);
        Ok(Self { file, path: path.to_path_buf(), header, starts, filtered: true })
    }

    /// Entries read around a hash's guessed place: sized to the segment's buckets.
    fn window(&self) -> usize {
        window_for(self.header.count >> self.header.bits)
    }

    /// Asks the system to read, in the background, what lookups of hashes below `below`
    /// read: the entries of their buckets and, where filter blocks lie in hash order, their
    /// blocks. Only when `lookups` of them would touch at least a quarter of those pages
    /// anyway: one read of a span from the disk costs less than the many scattered reads
    /// the lookups would wait on, but not when they would touch few of its pages. Whether
    /// it asked.
    pub(in crate::archive) fn read_ahead_below(&self, below: u64, lookups: usize) -> bool {
        let below = self.header.packing.keep(below);
        let bucket = usize_from(top_bits(below, self.header.bits));
        let Some(&end) = self.starts.get(bucket + 1) else { return false };
        let entries = (self.header.entry_offset(0), self.header.entry_offset(usize_from(end)));
        let words = self.header.filter_words;
        let filter = match self.header.layout {
            FilterLayout::Ordered => {
                // The word of its first probe; its block ends within BLOCK_WORDS after it.
                let word = self.header.layout.probes(below, words).next().unwrap_or(0) / 64;
                let base = self.header.filter_offset();
                (base, base + ((word + BLOCK_WORDS).min(words) * 8) as u64)
            }
            // Blocks picked by a mix of the hash: the lookups' blocks lie all over it.
            FilterLayout::Blocked | FilterLayout::Spread => (0, 0),
        };
        let pages = (entries.1 - entries.0 + filter.1 - filter.0) / PAGE;
        if (lookups as u64).saturating_mul(4) < pages {
            return false;
        }
        will_need(&self.file, entries);
        will_need(&self.file, filter);
        true
    }

    /// Looks hashes up without asking the Bloom filter first: the search itself, also on
    /// hashes the filter would stop.
    #[cfg(test)]
    pub(in crate::archive) fn unfiltered(mut self) -> Self {
        self.filtered = false;
        self
    }

    /// The file read.
    pub(in crate::archive) fn path(&self) -> &Path {
        &self.path
    }

    /// Appends the postings of `hash` to `out`, in stored order (by document, then
    /// position).
    #[cfg(test)]
    pub fn postings(&self, hash: u64, out: &mut Vec<Posting>) -> io::Result<()> {
        self.walk(hash, |posting| {
            out.push(posting);
            true
        })
        .map(|_| ())
    }

    /// [`Self::first_postings_at`] of `hash` looked up alone.
    #[cfg(test)]
    pub fn first_postings(
        &self,
        hash: u64,
        cap: usize,
        keep: impl Fn(&Posting) -> bool,
        out: &mut Vec<Posting>,
    ) -> io::Result<Held> {
        Ok(self.first_postings_at(hash, self.place(hash, None), cap, keep, out)?.0)
    }

    /// Appends to `out` the first `cap` postings of `hash` that `keep` keeps, in stored
    /// order, looked for at `place` ([`Self::place`]; `None`: the segment holds no entry
    /// of its bucket), the Bloom filter asked first. Returns how many entries the segment
    /// holds for `hash` in all (kept or not): known when the entries read show where they
    /// end, else bounded, and found by [`Self::entries`] only when asked (most frequent
    /// hashes need no more than a bound); and where its entries start, when any were read.
    pub(in crate::archive) fn first_postings_at(
        &self,
        hash: u64,
        place: Option<Place>,
        cap: usize,
        keep: impl Fn(&Posting) -> bool,
        out: &mut Vec<Posting>,
    ) -> io::Result<(Held, Option<usize>)> {
        let hash = self.header.packing.keep(hash);
        let walked = self.walk_at(hash, place, kept_up_to(cap, keep, out))?;
        Ok(walked.map_or((Held::Known(0), None), |walked| (walked.held(hash), Some(walked.first))))
    }

    /// [`Self::first_postings_at`] of `hash` at `place` ([`Self::place`]), walked
    /// from `entries`, a span of its bucket read beforehand (for several hashes) rather
    /// than the window around its guessed place; the Bloom filter is not asked. With
    /// where its entries start.
    pub(in crate::archive) fn first_postings_from(
        &self,
        hash: u64,
        (place, entries): (&Place, &Window),
        cap: usize,
        keep: impl Fn(&Posting) -> bool,
        out: &mut Vec<Posting>,
    ) -> io::Result<(Held, usize)> {
        let hash = self.header.packing.keep(hash);
        let walked = self.walk_from(hash, place, entries, kept_up_to(cap, keep, out))?;
        Ok((walked.held(hash), walked.first))
    }

    /// Where the entries of `hash` are looked for: its bucket, and the window around
    /// where it would lie were the bucket's hashes spread evenly over their share of the
    /// hash space, or, with `after` (the first entry of a lower hash of the same bucket,
    /// and that hash), over the part of it past that hash: a frequent hash's thousands of
    /// entries put the hashes after it far from where an even spread over the whole
    /// bucket would. `None` when the segment holds no entry of its bucket.
    pub(in crate::archive) fn place(&self, hash: u64, after: Option<(usize, u64)>) -> Option<Place> {
        let hash = self.header.packing.keep(hash);
        if self.header.count == 0 {
            return None;
        }
        let bucket = top_bits(hash, self.header.bits);
        let slot = usize_from(bucket);
        let (first, last) = (usize_from(self.starts[slot]), usize_from(self.starts[slot + 1]));
        if first >= last {
            return None;
        }
        let (below, above) = self.bucket_hashes(bucket);
        let after = after.map(|(at, lower)| (at, self.header.packing.keep(lower)));
        let (from, below) = match after {
            Some((at, lower))
                if (first..last).contains(&at) && lower <= hash && top_bits(lower, self.header.bits) == bucket =>
            {
                (at, u128::from(lower))
            }
            _ => (first, below),
        };
        Some(Place::around(bucket, (from, last), spread_guess(hash, (from, below), (last, above)), self.window()))
    }

    /// The hashes of `bucket`: from the first, up to (not including) the second.
    fn bucket_hashes(&self, bucket: u64) -> (u128, u128) {
        let shift = 64 - self.header.bits;
        let below = if self.header.bits == 0 { 0 } else { u128::from(bucket) << shift };
        (below, below + (1u128 << shift))
    }

    /// Entries `from..to` of `bucket` (within it), read in one go and checked.
    pub(in crate::archive) fn read_entries(&self, bucket: u64, from: usize, to: usize) -> io::Result<Window> {
        let window = Window::read(self, bucket, from, to)?;
        window.check_order(bucket, self.header.bits)?;
        Ok(window)
    }

    /// How many entries `held` (an answer of [`Self::first_postings_at`] of this segment)
    /// counts: found past those read, by a search rather than by reading them.
    pub fn entries(&self, held: &Held) -> io::Result<usize> {
        match *held {
            Held::Known(entries) => Ok(entries),
            Held::Bounded { above, first, next, last } => Ok(self.lower_bound_near_guess(above, next, last)? - first),
        }
    }

    /// The documents holding `hash` that `keep` keeps, counted up to `limit`.
    pub fn documents(&self, hash: u64, limit: usize, keep: impl Fn(&Posting) -> bool) -> io::Result<usize> {
        let (mut count, mut previous) = (0, None);
        self.walk(hash, |posting| {
            if keep(&posting) && previous != Some(posting.doc) {
                count += 1;
                previous = Some(posting.doc);
            }
            count < limit
        })?;
        Ok(count)
    }

    /// Calls `each` with the postings of `hash` (as the segment keeps it) in stored order
    /// while it returns true. `None` when the segment holds no entry of `hash`'s bucket (or
    /// its filter says it holds no `hash`).
    fn walk(&self, hash: u64, each: impl FnMut(Posting) -> bool) -> io::Result<Option<Walked>> {
        let hash = self.header.packing.keep(hash);
        self.walk_at(hash, self.place(hash, None), each)
    }

    /// [`Self::walk`] of `hash` (as the segment keeps it) looked for at `place`
    /// ([`Self::place`]), the Bloom filter asked first.
    fn walk_at(
        &self,
        hash: u64,
        place: Option<Place>,
        each: impl FnMut(Posting) -> bool,
    ) -> io::Result<Option<Walked>> {
        let Some(place) = place else { return Ok(None) };
        if self.filtered && !self.may_hold(hash)? {
            return Ok(None);
        }
        let window = self.read_entries(place.bucket, place.from, place.to)?;
        self.walk_from(hash, &place, &window, each).map(Some)
    }

    /// [`Self::walk`] of `hash` at `place`, from `entries` (entries of its bucket read
    /// beforehand): where they bracket `hash`, its place is found in them; the entries
    /// past them are read as the walk goes on.
    fn walk_from(
        &self,
        hash: u64,
        place: &Place,
        entries: &Window,
        mut each: impl FnMut(Posting) -> bool,
    ) -> io::Result<Walked> {
        let Place { bucket, first, last, .. } = *place;
        let start = match entries.place_of(hash, first, last) {
            Ok(start) => start,
            Err((lo, hi)) => self.lower_bound(hash, lo, hi)?,
        };
        // The entries read past `entries`, when the walk leaves them.
        let mut further: Option<Window> = None;
        let mut at = start;
        while at < last {
            let mut window = further.as_ref().unwrap_or(entries);
            if !window.contains(at) {
                window = further.insert(self.read_entries(bucket, at, (at + WINDOW).min(last))?);
            }
            let (found, posting) = window.entry(at);
            if found != hash {
                break;
            }
            at += 1;
            if !each(posting) {
                return Ok(Walked { first: start, next: at, last, end: window.end_of_run(hash, at, last) });
            }
        }
        Ok(Walked { first: start, next: at, last, end: Some(at) })
    }

    /// The window of entries of `first..last` (of `bucket`) around where `hash` would lie
    /// were the bucket's hashes spread evenly over its share of the hash space, read and
    /// checked.
    fn window_near_guess(&self, hash: u64, first: usize, last: usize, bucket: u64) -> io::Result<Window> {
        let (below, above) = self.bucket_hashes(bucket);
        let place =
            Place::around(bucket, (first, last), spread_guess(hash, (first, below), (last, above)), self.window());
        self.read_entries(bucket, place.from, place.to)
    }

    /// The first entry of `first..last` (entries of one bucket, `first < last`) whose
    /// hash is not below `hash`: found in the window around its guessed place (one read,
    /// nearly always), else by halving what the window left. Where a frequent hash's
    /// entries end, for one.
    fn lower_bound_near_guess(&self, hash: u64, first: usize, last: usize) -> io::Result<usize> {
        let bucket = top_bits(hash, self.header.bits);
        let window = self.window_near_guess(hash, first, last, bucket)?;
        match window.place_of(hash, first, last) {
            Ok(place) => Ok(place),
            Err((lo, hi)) => self.lower_bound(hash, lo, hi),
        }
    }

    /// The first entry of `lo..hi` whose hash is not below `hash` (`hi` if none), by
    /// halving, one entry read at a time, and the last few hundred entries in one read:
    /// for the rare hash whose guess missed its window.
    fn lower_bound(&self, hash: u64, mut lo: usize, mut hi: usize) -> io::Result<usize> {
        let bucket = top_bits(hash, self.header.bits);
        while lo < hi {
            if hi - lo <= WINDOW {
                return Ok(self.read_entries(bucket, lo, hi)?.lower_bound(hash));
            }
            let mid = (lo + hi) / 2;
            let one = self.read_entries(bucket, mid, mid + 1)?;
            if one.hash(mid) < hash {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Ok(lo)
    }

    /// Whether the Bloom filter lets `hash` through: one read for a filter that keeps the
    /// probes of a hash in one block, one a probe for the older layout.
    pub(in crate::archive) fn may_hold(&self, hash: u64) -> io::Result<bool> {
        let hash = self.header.packing.keep(hash);
        let words = self.header.filter_words;
        let mut probes = self.header.layout.probes(hash, words);
        let base = self.header.filter_offset();
        let read_word = |word: usize, buf: &mut [u8]| read_at(&self.file, buf, base + word as u64 * 8);
        let set = |word: u64, bit: usize| word & (1 << (bit % 64)) != 0;
        match self.header.layout {
            FilterLayout::Ordered | FilterLayout::Blocked => {
                // Every probe lies in the block of the first.
                let first = probes.next().unwrap_or(0);
                let block = first / 64 / BLOCK_WORDS * BLOCK_WORDS;
                let mut buf = [0u8; BLOCK_WORDS * 8];
                let count = BLOCK_WORDS.min(words - block);
                read_word(block, &mut buf[..count * 8])?;
                Ok(std::iter::once(first).chain(probes).all(|bit| set(u64_at(&buf, (bit / 64 - block) * 8), bit)))
            }
            FilterLayout::Spread => {
                for bit in probes {
                    let mut buf = [0u8; 8];
                    read_word(bit / 64, &mut buf)?;
                    if !set(u64::from_le_bytes(buf), bit) {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }
}

/// How many entries a segment holds for a hash, as [`SegmentLookup::first_postings_at`]
/// tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// Known from the entries read.
    Known(usize),
    /// The entries from `first` (the hash's first) to `next` (the first not read) are the
    /// hash's; those up to `last`, the end of its bucket, may be; `above` is the next hash,
    /// whose first entry ends them.
    Bounded { above: u64, first: usize, next: usize, last: usize },
}

impl Held {
    /// The most entries it may count, read nothing more.
    pub fn most(&self) -> usize {
        match *self {
            Held::Known(entries) => entries,
            Held::Bounded { first, last, .. } => last - first,
        }
    }

    /// The fewest entries it may count.
    #[cfg(test)]
    pub fn least(&self) -> usize {
        match *self {
            Held::Known(entries) => entries,
            Held::Bounded { first, next, .. } => next - first,
        }
    }
}

/// How far [`SegmentLookup::walk`] read the entries of a hash: from `first` (its first
/// entry) to `next` (the first not read), in a bucket ending at `last`; `end`, the entry
/// past the hash's last, when the entries read show it.
struct Walked {
    first: usize,
    next: usize,
    last: usize,
    end: Option<usize>,
}

impl Walked {
    /// How many entries the segment holds for `hash` (as the segment keeps it), as far as
    /// this walk shows.
    fn held(&self, hash: u64) -> Held {
        match (self.end, hash.checked_add(1)) {
            (Some(end), _) => Held::Known(end - self.first),
            (None, Some(above)) => Held::Bounded { above, first: self.first, next: self.next, last: self.last },
            (None, None) => Held::Known(self.last - self.first),
        }
    }
}

/// Where a segment's entries of a hash are looked for ([`SegmentLookup::place`]): entries
/// `first..last` are the part of its bucket it lies in (the entries before `first` are
/// below it), `from..to` the window around its guessed place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::archive) struct Place {
    pub bucket: u64,
    pub first: usize,
    pub last: usize,
    pub from: usize,
    pub to: usize,
}

impl Place {
    /// The window of `window` entries of `first..last` (of `bucket`, `first < last`)
    /// around entry `guess`.
    fn around(bucket: u64, (first, last): (usize, usize), guess: usize, window: usize) -> Place {
        let from = guess.saturating_sub(window / 2).max(first);
        Place { bucket, first, last, from, to: (from + window).min(last) }
    }
}

/// Where `hash` would lie in entries `first..last` (`first < last`) were the hashes from
/// `below` (that of entry `first`, or less) up to `above` (past that of entry `last - 1`)
/// spread evenly over them.
fn spread_guess(hash: u64, (first, below): (usize, u128), (last, above): (usize, u128)) -> usize {
    let span = last - first;
    let share = (u128::from(hash).saturating_sub(below) * span as u128) / (above - below).max(1);
    first + (share as usize).min(span - 1)
}

/// What a walk calls with each posting to keep the first `cap` of them that `keep` keeps
/// in `out`: true while it wants more.
fn kept_up_to<'o>(
    cap: usize,
    keep: impl Fn(&Posting) -> bool + 'o,
    out: &'o mut Vec<Posting>,
) -> impl FnMut(Posting) -> bool + 'o {
    let mut kept = 0;
    move |posting| {
        if keep(&posting) {
            out.push(posting);
            kept += 1;
        }
        kept < cap
    }
}

/// Entries `from..to` of a segment, all of one bucket, read at once and decoded as they
/// are asked for (a lookup uses a few of them).
pub(in crate::archive) struct Window {
    from: usize,
    to: usize,
    bytes: Vec<u8>,
    packing: Packing,
    /// The top bits every hash of the window has.
    bucket: u64,
}

impl Window {
    fn read(segment: &SegmentLookup, bucket: u64, from: usize, to: usize) -> io::Result<Self> {
        let packing = segment.header.packing;
        let len = (to - from) * packing.bytes();
        // Padded, so that every entry is decoded with one load.
        let mut bytes = vec![0u8; len + 16];
        read_at(&segment.file, &mut bytes[..len], segment.header.entry_offset(from))?;
        Ok(Self { from, to, bytes, packing, bucket })
    }

    /// Fails when the entries read are not those of one bucket in ascending order, as
    /// every window of a sound segment is: the segment was damaged (overwritten, bits
    /// flipped) after its checksum was written. A few hundred comparisons beside a read.
    fn check_order(&self, bucket: u64, bits: u32) -> io::Result<()> {
        let mut previous = None;
        for i in self.from..self.to {
            let hash = self.hash(i);
            if top_bits(hash, bits) != bucket || previous.is_some_and(|p| p > hash) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "its entries are out of order, so the file was damaged after it was written",
                ));
            }
            previous = Some(hash);
        }
        Ok(())
    }

    /// Entry `i` of the segment (within the window).
    fn entry(&self, i: usize) -> (u64, Posting) {
        self.packing.decode(&self.bytes[(i - self.from) * self.packing.bytes()..], self.bucket)
    }

    fn hash(&self, i: usize) -> u64 {
        self.packing.hash(&self.bytes[(i - self.from) * self.packing.bytes()..], self.bucket)
    }

    fn contains(&self, i: usize) -> bool {
        (self.from..self.to).contains(&i)
    }

    /// The entry past the last of `hash`'s run, which holds entry `at - 1`, in a bucket
    /// ending at `last`: when the window shows it (the run ends within it, or the bucket
    /// does), without reading more.
    fn end_of_run(&self, hash: u64, at: usize, last: usize) -> Option<usize> {
        if at >= last {
            return Some(last);
        }
        if !self.contains(at) {
            return None;
        }
        // The window is sorted and holds `hash` at `at - 1`: a last entry that differs is
        // above it (so `hash` is not the largest hash), and the run ends before it.
        if self.hash(self.to - 1) != hash {
            return Some(self.lower_bound(hash + 1));
        }
        (self.to == last).then_some(last)
    }

    /// Where `hash`'s first entry lies, when the window shows it: the window lies within
    /// `first..last` (the bucket) and brackets it. Otherwise the part of the bucket, as
    /// `lo..hi`, whose first entry not below `hash` (or `hi`) is the place.
    fn place_of(&self, hash: u64, first: usize, last: usize) -> Result<usize, (usize, usize)> {
        if self.from > first && self.hash(self.from) >= hash {
            Err((first, self.from))
        } else if self.to < last && self.hash(self.to - 1) < hash {
            Err((self.to, last))
        } else {
            Ok(self.lower_bound(hash))
        }
    }

    /// The first entry of the window whose hash is not below `hash`, or its end.
    fn lower_bound(&self, hash: u64) -> usize {
        let (mut lo, mut hi) = (self.from, self.to);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.hash(mid) < hash { lo = mid + 1 } else { hi = mid }
        }
        lo
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_a_quarter_of_a_bucket_within_bounds() {
        assert_eq!(window_for(0), LEAST_WINDOW);
        assert_eq!(window_for(96), LEAST_WINDOW);
        assert_eq!(window_for(185), 64);
        assert_eq!(window_for(375), 128);
        assert_eq!(window_for(1_500), WINDOW);
        assert_eq!(window_for(6_000), WINDOW, "format 8's largest buckets keep the widest window");
    }
}

//! A segment read from end to end, for merges and `verify`: through a buffered reader, not
//! a memory map, so that reading segments of many gigabytes keeps a few megabytes in
//! memory (a map kept every page it touched in the process's resident memory). A check's
//! lookups read segments through [`super::lookup::SegmentLookup`] instead.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use super::checksum::Checksum;
use super::packing::Packing;
use super::segment::{Contents, HEADER, Header, Kind, u64_at};
use crate::archive::error::ArchiveError;
use crate::index::Posting;
use crate::model::usize_from;

/// Entries read at a time.
const CHUNK_ENTRIES: usize = 65_536;

/// A segment file, its header checked against its size.
pub struct Segment {
    path: PathBuf,
    /// Its size in bytes.
    size: u64,
    pub(in crate::archive) header: Header,
}

impl Segment {
    /// Opens the segment at `path` and checks its header and size (not its checksum: see
    /// [`Segment::verify`]).
    pub fn open(path: &Path) -> Result<Self, ArchiveError> {
        let io = |e| ArchiveError::io(path, e);
        let file = File::open(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        let mut head = Vec::with_capacity(HEADER);
        file.take(HEADER as u64).read_to_end(&mut head).map_err(io)?;
        let header = Header::parse(&head, size, path)?;
        Ok(Self { path: path.to_path_buf(), size, header })
    }

    pub fn kind(&self) -> Kind {
        self.header.kind
    }

    /// Number of postings.
    pub fn len(&self) -> usize {
        self.header.count
    }

    /// Whether the stored checksum matches the content.
    pub fn verify(&self) -> Result<bool, ArchiveError> {
        Ok(self.verify_counting(|_| true)?.is_some())
    }

    /// Reads the whole segment once: what it holds of the postings whose document `keep`
    /// accepts, when the stored checksum matches the content; `None` when it does not.
    pub fn verify_counting(&self, keep: impl Fn(u32) -> bool) -> Result<Option<Contents>, ArchiveError> {
        let io = |e| ArchiveError::io(&self.path, e);
        let packing = self.header.packing;
        let width = packing.bytes();
        // Read in chunks of its own size: a buffered reader would only copy them again.
        let mut reader = File::open(&self.path).map_err(io)?;
        let mut buffer = vec![0u8; width * CHUNK_ENTRIES];
        let mut sum = self.header.layout.checksum();
        let mut live = Contents::empty();
        // The stored low bits of the last hash kept: hashes of different buckets that share
        // them are counted as one, which only sizes a filter a little smaller.
        let mut last = None;
        let entries = (self.header.count * width) as u64;
        let rest = self.size - 8 - HEADER as u64 - entries;
        read_through(&mut reader, &mut buffer, HEADER as u64, &mut sum, |_| {}).map_err(io)?;
        read_through(&mut reader, &mut buffer, entries, &mut sum, |chunk| {
            // Each entry with the bytes after it: one load, but for the last.
            for at in (0..chunk.len()).step_by(width) {
                let (hash, posting) = packing.decode(&chunk[at..], 0);
                if keep(posting.doc) {
                    live.include(last != Some(hash), &posting);
                    last = Some(hash);
                }
            }
        })
        .map_err(io)?;
        read_through(&mut reader, &mut buffer, rest, &mut sum, |_| {}).map_err(io)?;
        let mut stored = [0u8; 8];
        reader.read_exact(&mut stored).map_err(io)?;
        Ok((sum.finish() == u64::from_le_bytes(stored)).then_some(live))
    }

    /// Its entries in hash order, read as they are asked for.
    pub fn entries(&self) -> Result<Entries, ArchiveError> {
        let io = |e| ArchiveError::io(&self.path, e);
        let mut file = File::open(&self.path).map_err(io)?;
        // The sparse index says which bucket, so which top bits of the hash, each entry has.
        let mut index = vec![0u8; ((1usize << self.header.bits) + 1) * 8];
        file.seek(SeekFrom::Start(self.header.index_offset())).map_err(io)?;
        file.read_exact(&mut index).map_err(io)?;
        let starts = index.chunks_exact(8).map(|c| u64_at(c, 0)).collect();
        file.seek(SeekFrom::Start(HEADER as u64)).map_err(io)?;
        Ok(Entries {
            file,
            packing: self.header.packing,
            chunk: Vec::new(),
            first: 0,
            read: 0,
            starts,
            bucket: 0,
            at: 0,
            count: self.header.count,
            path: self.path.clone(),
        })
    }
}

/// The entries of a [`Segment`], in hash order, read a chunk at a time; a read error
/// ends them with the error.
pub struct Entries {
    file: File,
    packing: Packing,
    /// Entries `first..read` (padded for one-load decoding).
    chunk: Vec<u8>,
    /// The first entry of the chunk.
    first: usize,
    /// Entries read so far.
    read: usize,
    /// The sparse index: the first entry of each bucket.
    starts: Vec<u64>,
    /// The bucket of entry `at`.
    bucket: usize,
    /// The next entry.
    at: usize,
    count: usize,
    path: PathBuf,
}

impl Entries {
    /// Reads the chunk of entries from `at` on.
    fn refill(&mut self) -> std::io::Result<()> {
        let width = self.packing.bytes();
        let entries = CHUNK_ENTRIES.min(self.count - self.at);
        self.chunk.resize(entries * width + 16, 0);
        self.file.read_exact(&mut self.chunk[..entries * width])?;
        (self.first, self.read) = (self.at, self.at + entries);
        Ok(())
    }
}

impl Iterator for Entries {
    type Item = Result<(u64, Posting), ArchiveError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.count {
            return None;
        }
        if self.at == self.read
            && let Err(e) = self.refill()
        {
            self.at = self.count;
            return Some(Err(ArchiveError::io(&self.path, e)));
        }
        while self.starts.get(self.bucket + 1).is_some_and(|&next| next <= self.at as u64) {
            self.bucket += 1;
        }
        let at = (self.at - self.first) * self.packing.bytes();
        let entry = self.packing.decode(&self.chunk[at..], self.bucket as u64);
        self.at += 1;
        Some(Ok(entry))
    }
}

/// Reads the next `len` bytes of `reader` in chunks of at most `buffer`'s size (whole
/// entries when it is read from an entry), folding each into the checksum `sum` and
/// handing it to `each`.
fn read_through(
    reader: &mut impl Read,
    buffer: &mut [u8],
    mut len: u64,
    sum: &mut Checksum,
    mut each: impl FnMut(&[u8]),
) -> std::io::Result<()> {
    let most = buffer.len() as u64;
    while len > 0 {
        let chunk = &mut buffer[..usize_from(len.min(most))];
        reader.read_exact(chunk)?;
        sum.update(chunk);
        each(chunk);
        len -= chunk.len() as u64;
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "the tests' values are small")]
mod tests {
    use super::*;
    use crate::archive::folder::segments::packing::kept_hash;
    use crate::archive::folder::segments::writing::write;

    #[test]
    fn a_read_through_counts_live_postings_and_finds_damage_anywhere() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.seg");
        // More entries than one chunk holds, so that chunks meet inside the entries.
        let entries: Vec<(u64, Posting)> = (0..150_000u64)
            .map(|i| (crate::hash::fmix64(i), Posting { doc: (i % 97) as u32, position: i as u32 }))
            .collect();
        write(&path, Kind::Kgrams, entries.clone()).unwrap();
        // Stored with their hashes cut.
        let entries: Vec<(u64, Posting)> = entries.into_iter().map(|(hash, p)| (kept_hash(hash), p)).collect();
        let seg = Segment::open(&path).unwrap();
        let mut kept: Vec<(u64, Posting)> = entries.iter().copied().filter(|e| e.1.doc % 3 != 0).collect();
        kept.sort_unstable();
        let live = Contents::of_sorted(&kept);
        assert_eq!(seg.verify_counting(|doc| doc % 3 != 0).unwrap(), Some(live));
        let mut read: Vec<(u64, Posting)> = seg.entries().unwrap().map(Result::unwrap).collect();
        let mut want = entries;
        want.sort_unstable();
        assert_eq!(read.len(), want.len());
        read.dedup();
        assert_eq!(read, want);
        // One flipped bit in an entry, in the sparse index or in the filter.
        let bytes = std::fs::read(&path).unwrap();
        for at in [HEADER + 3, HEADER + seg.header.entry_bytes() * 70_000 + 9, bytes.len() - 20] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x10;
            std::fs::write(&path, &damaged).unwrap();
            assert_eq!(Segment::open(&path).unwrap().verify_counting(|_| true).unwrap(), None, "byte {at}");
        }
    }
}

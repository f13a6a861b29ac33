//! Writing a segment file ([`super::segment`] says its layout): entries cut, sorted and
//! deduplicated, written once to a temporary name with the sparse index, the filter and
//! the checksum, synced, then renamed into place.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use super::checksum::Checksum;
use super::packing::{Packing, kept_hash};
use super::segment::{Contents, EntryLayout, FilterLayout, HEADER, Kind, bucket_bits, filter_words, top_bits};
use crate::archive::error::ArchiveError;
use crate::index::{Posting, keep_first_positions};
use crate::model::usize_from;

/// Entries a writer packs before it writes them.
const WRITE_BLOCK: usize = 4096;

/// Writes `entries` (any order, whole hashes; cut, sorted and deduplicated here) as a
/// segment at `path`, through `path` + ".tmp", synced before the rename (removed when the
/// write fails, a full disk for one). Returns the posting count.
pub fn write(path: &Path, kind: Kind, mut entries: Vec<(u64, Posting)>) -> Result<u64, ArchiveError> {
    for entry in &mut entries {
        entry.0 = kept_hash(entry.0);
    }
    entries.sort_unstable();
    entries.dedup();
    // As in a check's own index: one document keeps its first positions of a hash.
    keep_first_positions(&mut entries);
    write_sorted(path, kind, Contents::of_sorted(&entries), &mut entries.into_iter())
}

/// Writes the entries `contents` tells of, already cut ([`kept_hash`]), ascending and
/// distinct, from `entries`.
pub fn write_sorted(
    path: &Path,
    kind: Kind,
    contents: Contents,
    entries: &mut dyn Iterator<Item = (u64, Posting)>,
) -> Result<u64, ArchiveError> {
    write_with_layout(path, kind, contents, entries, (FilterLayout::Ordered, EntryLayout::Kept))
}

/// Writes a segment with the filter `layout`, its entries stored as the second (packed
/// only with [`FilterLayout::Ordered`]), as this or an earlier format wrote them.
pub(in crate::archive) fn write_with_layout(
    path: &Path,
    kind: Kind,
    contents: Contents,
    entries: &mut dyn Iterator<Item = (u64, Posting)>,
    layout: (FilterLayout, EntryLayout),
) -> Result<u64, ArchiveError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let written = write_file(&tmp, path, kind, contents, entries, layout);
    if written.is_err() {
        // Best effort: a file that cannot go now is a leftover the next writer removes.
        std::fs::remove_file(&tmp).ok();
    }
    written
}

/// Writes the segment to `tmp`, syncs it and renames it to `path`.
fn write_file(
    tmp: &Path,
    path: &Path,
    kind: Kind,
    contents: Contents,
    entries: &mut dyn Iterator<Item = (u64, Posting)>,
    (layout, stored): (FilterLayout, EntryLayout),
) -> Result<u64, ArchiveError> {
    let io = |e| ArchiveError::io(tmp, e);
    let count = contents.count;
    let bits = bucket_bits(count);
    let stored = if layout == FilterLayout::Ordered { stored } else { EntryLayout::Whole };
    let packing = match stored {
        EntryLayout::Kept => Packing::new(bits, contents.bounds),
        EntryLayout::WholeHashes => Packing::with_dropped_bits(0, bits, contents.bounds),
        EntryLayout::Whole => Packing::WHOLE,
    };
    let (doc_base, doc_bits, position_bits) = packing.parts();
    let filter_words = filter_words(contents.distinct.min(count), layout);
    let mut filter = vec![0u64; filter_words];
    // starts[b] counts entries whose top bits are below b, filled in as entries stream by.
    let mut bucket_counts = vec![0u64; (1usize << bits) + 1];
    let inner = BufWriter::with_capacity(1 << 20, File::create(tmp).map_err(io)?);
    let mut out = Checksummed { inner, sum: layout.checksum() };
    let mut header = Vec::with_capacity(HEADER);
    header.extend_from_slice(layout.magic(stored));
    header.extend_from_slice(&(kind as u32).to_le_bytes());
    header.extend_from_slice(&bits.to_le_bytes());
    header.extend_from_slice(&count.to_le_bytes());
    header.extend_from_slice(&(filter_words as u64).to_le_bytes());
    if stored != EntryLayout::Whole {
        // Widths of at most 32 bits.
        header.extend_from_slice(&doc_base.to_le_bytes());
        let width = |bits: u32| u8::try_from(bits).unwrap_or(u8::MAX);
        header.extend_from_slice(&[width(doc_bits), width(position_bits), width(packing.dropped_bits()), 0]);
    } else {
        header.extend_from_slice(&[0u8; 8]);
    }
    out.write_all(&header).map_err(io)?;
    let mut written = 0u64;
    // Entries are packed into a block written at once: the checksum and the writer then
    // take long runs of bytes, not one entry at a time.
    let width = packing.bytes();
    let mut block = vec![0u8; width * WRITE_BLOCK + 16];
    let mut filled = 0;
    for (hash, p) in entries.take(usize_from(count)) {
        if !packing.holds(&p) {
            return Err(ArchiveError::Corrupt(format!("{}: a posting outside the bounds announced", path.display())));
        }
        if packing.keep(hash) != hash {
            return Err(ArchiveError::Corrupt(format!(
                "{}: a hash with bits the segment does not keep",
                path.display()
            )));
        }
        packing.encode(hash, &p, &mut block[filled..]);
        filled += width;
        if filled == width * WRITE_BLOCK {
            out.write_all(&block[..filled]).map_err(io)?;
            filled = 0;
        }
        bucket_counts[usize_from(top_bits(hash, bits)) + 1] += 1;
        for bit in layout.probes(hash, filter_words) {
            filter[bit / 64] |= 1 << (bit % 64);
        }
        written += 1;
    }
    out.write_all(&block[..filled]).map_err(io)?;
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
    let sum = out.sum.finish();
    let mut inner = out.inner;
    inner.write_all(&sum.to_le_bytes()).map_err(io)?;
    let file = inner.into_inner().map_err(|e| ArchiveError::io(tmp, e.into_error()))?;
    file.sync_all().map_err(io)?;
    drop(file);
    std::fs::rename(tmp, path).map_err(|e| ArchiveError::io(path, e))?;
    Ok(count)
}

/// A writer that keeps the checksum of what went through it.
struct Checksummed<W: Write> {
    inner: W,
    sum: Checksum,
}

impl<W: Write> Write for Checksummed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.sum.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

//! Reads ahead, while an add reads its files, what the groups' check after it will look
//! up in the segments.
//!
//! Once every batch is in, the sketch of each new document (its 32 smallest k-gram
//! hashes, `regroup.rs`) is looked up in every k-gram segment. The smallest hashes lie at
//! the low end of the hash space, so an add's sketches crowd into the first few hundredths
//! of each segment, its first buckets and first filter blocks. At 1.4 million documents
//! those lookups took 1.1–1.2 s of an add of 5,000 when they waited on the disk, and
//! 0.45–0.55 s when the same ones were asked again. Reading that span ahead, in the
//! background while the files are read and fingerprinted, leaves the lookups what they
//! cost with the pages cached.

use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

use super::segments::lookup::SegmentLookup;
use super::segments::segment::Kind;
use super::{catalog, rows};

/// The share of a batch's sketch hashes the span read ahead holds: the rest (the sketches
/// of short documents reach further) are sparse enough to be read where they lie.
const SHARE_READ_AHEAD: f64 = 0.8;

/// Starts reading ahead, on a thread of its own, the span of every k-gram segment of the
/// archive at `dir` that the sketches of an add of `files` will be looked up in, judged
/// from the `sketches` of the files read of its first batch of `batch` files (nothing
/// when it read none). The thread only gives the system hints: a failure leaves the pages
/// to be read when they are needed.
pub(in crate::archive) fn start<'s>(
    dir: &Path,
    sketches: impl Iterator<Item = &'s [u64]>,
    (batch, files): (usize, usize),
) -> Option<JoinHandle<()>> {
    let (below, lookups) = span(sketches, (batch, files))?;
    let dir: PathBuf = dir.to_path_buf();
    std::thread::Builder::new().name("twinspot-read-ahead".into()).spawn(move || read_ahead(&dir, below, lookups)).ok()
}

/// The hash below which [`SHARE_READ_AHEAD`] of the hashes of `sketches` (those of a
/// batch of `batch` files) lie, and how many lookups below it an add of `files` like it
/// makes.
#[expect(clippy::cast_possible_truncation, reason = "a share of a length held in memory; `as` saturates")]
fn span<'s>(sketches: impl Iterator<Item = &'s [u64]>, (batch, files): (usize, usize)) -> Option<(u64, usize)> {
    let mut hashes: Vec<u64> = sketches.flatten().copied().collect();
    if hashes.is_empty() {
        return None;
    }
    let at = ((hashes.len() - 1) as f64 * SHARE_READ_AHEAD) as usize;
    let (_, &mut below, _) = hashes.select_nth_unstable(at);
    let lookups = (at + 1).saturating_mul(files) / batch.max(1);
    Some((below, lookups))
}

/// Asks for the span below `below` of each k-gram segment listed now.
fn read_ahead(dir: &Path, below: u64, lookups: usize) {
    let Ok(conn) = catalog::open(dir, false) else { return };
    let Ok(listed) = rows::segments(&conn) else { return };
    drop(conn);
    for segment in listed.iter().filter(|s| s.kind == Kind::Kgrams.code()) {
        if let Ok(lookup) = SegmentLookup::open(&dir.join(&segment.file)) {
            lookup.read_ahead_below(below, lookups);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_span_holds_most_of_the_first_batchs_sketch_hashes() {
        assert_eq!(span(std::iter::empty(), (2, 10)), None, "nothing read, nothing to look up");
        // Two documents of ten hashes each, 0..10 and 100..110: four fifths lie below 105.
        let a: Vec<u64> = (0..10).collect();
        let b: Vec<u64> = (100..110).collect();
        let (below, lookups) = span([a.as_slice(), b.as_slice()].into_iter(), (4, 40)).unwrap();
        assert_eq!(below, 105);
        // 16 of the batch's lookups below it, the batch a tenth of the add.
        assert_eq!(lookups, 160);
    }
}

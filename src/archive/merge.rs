//! Tiered merging of segments: a lookup costs one probe per segment, so segments of one
//! size tier are merged into one as soon as there are [`MERGE_FACTOR`] of them. A merge
//! streams the sorted inputs into one new segment (dropping removed documents) and swaps
//! the lists in one catalog transaction, holding the write lock throughout.
//!
//! Every segment a merge reads is checked against its checksum first: a damaged segment
//! is never merged into a fresh one (which would carry a valid checksum over damaged
//! postings). An add leaves it as it is, listed, for `verify` to report; a compaction
//! refuses to run.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashSet;

use super::files::{segment_name, sync_dir};
use super::rows::{self, SegmentRow};
use super::segment::{self, Kind, Segment};
use super::{Archive, ArchiveError};
use crate::index::Posting;

/// Segments of one tier merged together.
pub const MERGE_FACTOR: usize = 4;
/// Postings of the smallest tier: a segment of `n` postings is in tier
/// `log_MERGE_FACTOR(n / TIER_BASE)`.
const TIER_BASE: u64 = 65_536;

fn tier(postings: u64) -> u32 {
    (postings / TIER_BASE).max(1).ilog(MERGE_FACTOR as u64)
}

impl Archive {
    /// Merges every full tier, repeatedly, for both kinds of segment, leaving damaged
    /// segments out; returns the damaged segments met (each is left as it is).
    pub(super) fn merge_if_needed(&self) -> Result<Vec<String>, ArchiveError> {
        let mut damaged = Vec::new();
        loop {
            match self.merge_one_tier(false, &damaged) {
                Ok(true) => {}
                Ok(false) => return Ok(damaged),
                Err(ArchiveError::DamagedSegments { files, .. }) => damaged.extend(files),
                Err(e) => return Err(e),
            }
        }
    }

    /// Merges all segments of each kind into one (for `archive merge`-like maintenance
    /// and benchmarks); returns whether anything was merged. Refuses, merging nothing,
    /// when a segment is damaged.
    pub fn merge_all(&self) -> Result<bool, ArchiveError> {
        self.require_writable()?;
        self.merge_one_tier(true, &[])
    }

    /// Merges one full tier of each kind (or, with `everything`, all segments of each
    /// kind), never one of `skipped`.
    fn merge_one_tier(&self, everything: bool, skipped: &[String]) -> Result<bool, ArchiveError> {
        let mut conn = self.lock();
        let dir = self.dir.clone();
        let sql = |e| ArchiveError::sql(&dir, e);
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(sql)?;
        let listed = rows::segments(&tx).map_err(sql)?;
        let mut merged_any = false;
        let mut old_files: Vec<String> = Vec::new();
        let mut new_files: Vec<String> = Vec::new();
        for kind in [Kind::Kgrams, Kind::Sentences] {
            let of_kind: Vec<&SegmentRow> =
                listed.iter().filter(|s| s.kind == kind.code() && !skipped.contains(&s.file)).collect();
            let chosen: Vec<&SegmentRow> = if everything {
                if of_kind.len() < 2 {
                    continue;
                }
                of_kind
            } else {
                let mut tiers: std::collections::BTreeMap<u32, Vec<&SegmentRow>> = Default::default();
                for s in of_kind {
                    tiers.entry(tier(u64::try_from(s.postings).unwrap_or_default())).or_default().push(s);
                }
                match tiers.into_values().find(|t| t.len() >= MERGE_FACTOR) {
                    Some(t) => t,
                    None => continue,
                }
            };
            let removed = rows::removed_ids(&tx).map_err(sql)?;
            let inputs = match self.open_sound(&chosen) {
                Ok(inputs) => inputs,
                Err(e) => {
                    // Nothing of this call is listed: what it wrote goes with it.
                    for file in &new_files {
                        std::fs::remove_file(self.dir.join(file)).ok();
                    }
                    return Err(e);
                }
            };
            let count: u64 = inputs
                .iter()
                .map(|seg| (0..seg.len()).filter(|&i| !removed.contains(&seg.entry(i).1.doc)).count())
                .map(|n| u64::try_from(n).unwrap_or(u64::MAX))
                .sum();
            let file = segment_name(kind, &format!("m{}", chosen[0].id));
            let mut merged = MergeIter::new(&inputs, &removed);
            segment::write_sorted(&self.dir.join(&file), kind, count, &mut merged)?;
            new_files.push(file.clone());
            sync_dir(&self.dir)?;
            for s in &chosen {
                rows::delete_segment(&tx, s.id).map_err(sql)?;
            }
            rows::insert_segment(&tx, kind.code(), &file, count).map_err(sql)?;
            merged_any = true;
            // The old files go after the commit below.
            old_files.extend(chosen.iter().map(|s| s.file.clone()));
        }
        tx.commit().map_err(sql)?;
        drop(conn);
        for file in old_files {
            // A file still mapped elsewhere may refuse to go (on some systems): it is then
            // an unlisted leftover, which the next add removes.
            if let Err(error) = std::fs::remove_file(self.dir.join(&file))
                && error.kind() != std::io::ErrorKind::NotFound
            {
                eprintln!("twinspot: merged segment {file} stays until the next add: {error}");
            }
        }
        Ok(merged_any)
    }
}

impl Archive {
    /// Opens the segments `chosen` for merging, each checked
    /// against its checksum and its listed posting count; the damaged ones are named in
    /// [`ArchiveError::DamagedSegments`].
    fn open_sound(&self, chosen: &[&SegmentRow]) -> Result<Vec<Segment>, ArchiveError> {
        let mut inputs = Vec::with_capacity(chosen.len());
        let mut damaged = Vec::new();
        for SegmentRow { file, postings, .. } in chosen {
            match Segment::open(&self.dir.join(file)) {
                Ok(seg) if seg.verify() && i64::try_from(seg.len()).ok() == Some(*postings) => inputs.push(seg),
                Ok(_) | Err(ArchiveError::Corrupt(_)) => damaged.push(file.clone()),
                Err(e) => return Err(e),
            }
        }
        if damaged.is_empty() {
            Ok(inputs)
        } else {
            Err(ArchiveError::DamagedSegments { dir: self.dir.clone(), files: damaged })
        }
    }
}

/// The next entry of one input: (entry, input, index in the input), smallest first.
type Head = Reverse<((u64, Posting), usize, usize)>;

/// A k-way merge of sorted segments, without removed documents and exact duplicates.
struct MergeIter<'a> {
    inputs: &'a [Segment],
    removed: &'a FxHashSet<u32>,
    heap: BinaryHeap<Head>,
    last: Option<(u64, Posting)>,
}

impl<'a> MergeIter<'a> {
    fn new(inputs: &'a [Segment], removed: &'a FxHashSet<u32>) -> Self {
        let mut heap = BinaryHeap::new();
        for (s, seg) in inputs.iter().enumerate() {
            if !seg.is_empty() {
                heap.push(Reverse((seg.entry(0), s, 0)));
            }
        }
        Self { inputs, removed, heap, last: None }
    }
}

impl Iterator for MergeIter<'_> {
    type Item = (u64, Posting);
    fn next(&mut self) -> Option<Self::Item> {
        while let Some(Reverse((entry, s, i))) = self.heap.pop() {
            if i + 1 < self.inputs[s].len() {
                self.heap.push(Reverse((self.inputs[s].entry(i + 1), s, i + 1)));
            }
            if self.removed.contains(&entry.1.doc) || self.last == Some(entry) {
                continue;
            }
            self.last = Some(entry);
            return Some(entry);
        }
        None
    }
}

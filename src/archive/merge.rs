//! Tiered merging of segments: a lookup costs one probe per segment, so segments of one
//! size tier are merged into one as soon as there are [`MERGE_FACTOR`] of them. A merge
//! streams the sorted inputs into one new segment (dropping removed documents) and swaps
//! the lists in one catalog transaction, holding the write lock throughout.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rusqlite::params;
use rustc_hash::FxHashSet;

use super::add::{kind_prefix, sync_dir, unique_stamp};
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
    /// Merges every full tier, repeatedly, for both kinds of segment.
    pub(super) fn merge_if_needed(&self) -> Result<(), ArchiveError> {
        while self.merge_one_tier(false)? {}
        Ok(())
    }

    /// Merges all segments of each kind into one (for `archive merge`-like maintenance
    /// and benchmarks); returns whether anything was merged.
    pub fn merge_all(&self) -> Result<bool, ArchiveError> {
        self.require_writable()?;
        self.merge_one_tier(true)
    }

    fn merge_one_tier(&self, everything: bool) -> Result<bool, ArchiveError> {
        let mut conn = self.lock();
        let dir = self.dir.clone();
        let sql = |e| ArchiveError::sql(&dir, e);
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(sql)?;
        let mut stmt = tx.prepare("SELECT id, kind, file, postings FROM segments ORDER BY id").map_err(sql)?;
        let listed: Vec<(i64, i64, String, i64)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .map_err(sql)?
            .collect::<Result<_, _>>()
            .map_err(sql)?;
        drop(stmt);
        let mut merged_any = false;
        let mut old_files: Vec<String> = Vec::new();
        for kind in [Kind::Kgrams, Kind::Sentences] {
            let of_kind: Vec<&(i64, i64, String, i64)> = listed.iter().filter(|s| s.1 == kind.code()).collect();
            let chosen: Vec<&(i64, i64, String, i64)> = if everything {
                if of_kind.len() < 2 {
                    continue;
                }
                of_kind
            } else {
                let mut tiers: std::collections::BTreeMap<u32, Vec<&(i64, i64, String, i64)>> = Default::default();
                for s in of_kind {
                    tiers.entry(tier(s.3 as u64)).or_default().push(s);
                }
                match tiers.into_values().find(|t| t.len() >= MERGE_FACTOR) {
                    Some(t) => t,
                    None => continue,
                }
            };
            let removed: FxHashSet<u32> = {
                let mut stmt = tx.prepare("SELECT id FROM removed").map_err(sql)?;
                stmt.query_map([], |r| r.get::<_, i64>(0))
                    .map_err(sql)?
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(sql)?
                    .into_iter()
                    .map(|id| id as u32)
                    .collect()
            };
            let inputs: Vec<Segment> =
                chosen.iter().map(|s| Segment::open(&self.dir.join(&s.2))).collect::<Result<_, _>>()?;
            let count: u64 = inputs
                .iter()
                .map(|seg| (0..seg.len()).filter(|&i| !removed.contains(&seg.entry(i).1.doc)).count() as u64)
                .sum();
            let file = format!("{}-m{}-{}.seg", kind_prefix(kind), chosen[0].0, unique_stamp());
            let mut merged = MergeIter::new(&inputs, &removed);
            segment::write_sorted(&self.dir.join(&file), kind, count, &mut merged)?;
            sync_dir(&self.dir)?;
            for s in &chosen {
                tx.execute("DELETE FROM segments WHERE id = ?1", [s.0]).map_err(sql)?;
            }
            tx.execute(
                "INSERT INTO segments(kind, file, postings) VALUES (?1, ?2, ?3)",
                params![kind.code(), file, count as i64],
            )
            .map_err(sql)?;
            merged_any = true;
            // The old files go after the commit below.
            old_files.extend(chosen.iter().map(|s| s.2.clone()));
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

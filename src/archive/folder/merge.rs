//! Tiered merging of segments: a lookup costs one probe per segment, so segments of one
//! size tier are merged into one as soon as there are [`MERGE_FACTOR`] of them, together
//! with the tiers above that the merged segment would fill in turn. A merge streams the
//! sorted inputs into one new segment (dropping removed documents) and swaps the lists in
//! one catalog transaction, holding the write lock throughout.
//!
//! Every segment a merge reads is checked against its checksum first: a damaged segment
//! is never merged into a fresh one (which would carry a valid checksum over damaged
//! postings). An add leaves it as it is, listed, for `verify` to report; a compaction
//! refuses to run.

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use super::Archive;
use super::files::{segment_name, sync_dir};
use super::rows::{self, SegmentRow};
use super::segments::older_entries::Recut;
use super::segments::packing::KEPT_HASH_BITS;
use super::segments::segment::{Contents, Kind};
use super::segments::sequential::{Entries, Segment};
use super::segments::writing;
use crate::archive::error::ArchiveError;
use crate::archive::signals::STORED;
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
    pub(in crate::archive) fn merge_if_needed(&self) -> Result<Vec<String>, ArchiveError> {
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
    /// and benchmarks), after taking the character grams of the documents archived
    /// without them ([`Archive::keep_old_char_grams`]); returns whether anything was
    /// merged or written. Refuses, merging nothing,
    /// when a segment is damaged.
    pub fn merge_all(&self) -> Result<bool, ArchiveError> {
        self.require_writable()?;
        let backfilled = self.keep_old_char_grams()?;
        Ok(self.merge_one_tier(true, &[])? || backfilled > 0)
    }

    /// Merges one full tier of each kind (or, with `everything`, all segments of each
    /// kind), never one of `skipped`.
    fn merge_one_tier(&self, everything: bool, skipped: &[String]) -> Result<bool, ArchiveError> {
        let mut conn = self.lock();
        let dir = self.dir.clone();
        let sql = |e| ArchiveError::sql(&dir, e);
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(sql)?;
        let listed = rows::segments(&tx).map_err(sql)?;
        let chosen: Vec<(Kind, Vec<&SegmentRow>)> = STORED
            .into_iter()
            .map(Kind::of)
            .filter_map(|kind| Some((kind, chosen_of(&listed, kind, everything, skipped)?)))
            .collect();
        let removed = if chosen.is_empty() { FxHashSet::default() } else { rows::removed_ids(&tx).map_err(sql)? };
        let files: Vec<String> =
            chosen.iter().map(|(kind, inputs)| segment_name(*kind, &format!("m{}", inputs[0].id))).collect();
        // The kinds are merged at once, each on a thread of its own: a merge reads and
        // writes on one core.
        let counts: Vec<Result<u64, ArchiveError>> = std::thread::scope(|scope| {
            let merges: Vec<_> = chosen
                .iter()
                .zip(&files)
                .map(|((kind, inputs), file)| scope.spawn(|| self.merge_into(inputs, &removed, *kind, file)))
                .collect();
            // A panic while merging is a bug: it goes on as if the merge had run here.
            merges
                .into_iter()
                .map(|merge| merge.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect()
        });
        let mut written: Vec<(&String, u64)> = Vec::with_capacity(files.len());
        let mut failed = None;
        for (file, count) in files.iter().zip(counts) {
            match count {
                Ok(count) => written.push((file, count)),
                Err(e) => failed = Some(together(failed, e)),
            }
        }
        if let Some(e) = failed {
            // Nothing of this call is listed: what it wrote goes with it.
            for (file, _) in written {
                std::fs::remove_file(self.dir.join(file)).ok();
            }
            return Err(e);
        }
        let merged_any = !chosen.is_empty();
        if merged_any {
            sync_dir(&self.dir)?;
        }
        let mut old_files: Vec<String> = Vec::new();
        for ((kind, inputs), (file, count)) in chosen.iter().zip(written) {
            for s in inputs {
                rows::delete_segment(&tx, s.id).map_err(sql)?;
            }
            rows::insert_segment(&tx, kind.code(), file, count).map_err(sql)?;
            // The old files go after the commit below.
            old_files.extend(inputs.iter().map(|s| s.file.clone()));
        }
        tx.commit().map_err(sql)?;
        drop(conn);
        self.open_segments.forget(&old_files);
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
    /// Merges the segments `chosen` (of `kind`) into the new segment `file`, without the
    /// postings of `removed` documents; each input is checked first (see
    /// [`Archive::open_sound`]). Two reads of each input: the check, then the merge. The
    /// postings written.
    fn merge_into(
        &self,
        chosen: &[&SegmentRow],
        removed: &FxHashSet<u32>,
        kind: Kind,
        file: &str,
    ) -> Result<u64, ArchiveError> {
        let (inputs, live) = self.open_sound(chosen, (kind, removed))?;
        let mut merged = MergeIter::new(&inputs, removed)?;
        let written = writing::write_sorted(&self.dir.join(file), kind, live, &mut merged);
        // A read error ends the merged entries early, and the short segment is not kept
        // (its temporary is removed): the error, not the short count, is the cause.
        match merged.error.take() {
            Some(error) => Err(error),
            None => written,
        }
    }

    /// Opens the segments `chosen` for merging, each checked against its checksum, its
    /// listed posting count and `kind`, and tells what they hold of documents not
    /// `removed` (how many postings, within what bounds); the damaged ones are named in
    /// [`ArchiveError::DamagedSegments`].
    ///
    /// The inputs are read on every core, each by one: their check is a read of each from
    /// end to end, and a merge of a tier at a million documents read 3.5 GB twice.
    fn open_sound(
        &self,
        chosen: &[&SegmentRow],
        (kind, removed): (Kind, &FxHashSet<u32>),
    ) -> Result<(Vec<Segment>, Contents), ArchiveError> {
        let checked: Vec<Result<Option<(Segment, Contents)>, ArchiveError>> =
            chosen.par_iter().map(|row| self.checked_input(row, (kind, removed))).collect();
        let mut inputs = Vec::with_capacity(chosen.len());
        let mut all = Contents::empty();
        let mut damaged = Vec::new();
        for (SegmentRow { file, .. }, checked) in chosen.iter().zip(checked) {
            match checked? {
                Some((seg, live)) => {
                    all = all.and(live);
                    inputs.push(seg);
                }
                None => damaged.push(file.clone()),
            }
        }
        if damaged.is_empty() {
            Ok((inputs, all))
        } else {
            Err(ArchiveError::DamagedSegments { dir: self.dir.clone(), files: damaged })
        }
    }

    /// The segment of `row`, opened and checked against its checksum, its listed posting
    /// count and `kind`, with what it holds of documents not `removed`; `None` when it is
    /// damaged.
    fn checked_input(
        &self,
        SegmentRow { file, postings, .. }: &SegmentRow,
        (kind, removed): (Kind, &FxHashSet<u32>),
    ) -> Result<Option<(Segment, Contents)>, ArchiveError> {
        let sound = |seg: &Segment| i64::try_from(seg.len()).ok() == Some(*postings) && seg.kind() == kind;
        match Segment::open(&self.dir.join(file)) {
            Ok(seg) if sound(&seg) => Ok(seg.verify_counting(|doc| !removed.contains(&doc))?.map(|live| (seg, live))),
            Ok(_) | Err(ArchiveError::Corrupt(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// The segments of `kind` in `listed` to merge now: the lowest full tier, with the tiers
/// above that its merged segment would fill in turn (or, with `everything`, all of them
/// when there are two or more), never one of `skipped`; `None` for none.
fn chosen_of<'l>(
    listed: &'l [SegmentRow],
    kind: Kind,
    everything: bool,
    skipped: &[String],
) -> Option<Vec<&'l SegmentRow>> {
    let of_kind: Vec<&SegmentRow> =
        listed.iter().filter(|s| s.kind == kind.code() && !skipped.contains(&s.file)).collect();
    if everything {
        return (of_kind.len() >= 2).then_some(of_kind);
    }
    let mut tiers: std::collections::BTreeMap<u32, Vec<&SegmentRow>> = Default::default();
    for s in of_kind {
        tiers.entry(tier(postings_of(s))).or_default().push(s);
    }
    let full = *tiers.iter().find(|(_, t)| t.len() >= MERGE_FACTOR)?.0;
    let mut chosen = tiers.remove(&full)?;
    cascade(&mut chosen, tiers);
    Some(chosen)
}

/// Takes into `chosen` each tier of `above` that the segment merged from `chosen` would
/// fill: that segment would be merged again at once, with them, and writing it first
/// would only write its postings twice (a tier of four 860 MB segments, then the 3.4 GB
/// segment they made with three others). What is left is what merging tier after tier
/// leaves, but for documents removed meanwhile, whose postings the estimate still counts.
fn cascade<'l>(chosen: &mut Vec<&'l SegmentRow>, mut above: std::collections::BTreeMap<u32, Vec<&'l SegmentRow>>) {
    loop {
        let merged = tier(chosen.iter().map(|s| postings_of(s)).sum());
        match above.remove(&merged) {
            Some(waiting) if waiting.len() + 1 >= MERGE_FACTOR => chosen.extend(waiting),
            _ => return,
        }
    }
}

/// The postings the catalog lists for `segment`.
fn postings_of(segment: &SegmentRow) -> u64 {
    u64::try_from(segment.postings).unwrap_or_default()
}

/// The error of two merges that failed, `earlier` (if any) and `e`: the damaged segments
/// of both when that is what each found, else the first other error.
fn together(earlier: Option<ArchiveError>, e: ArchiveError) -> ArchiveError {
    match (earlier, e) {
        (None, e) => e,
        (Some(ArchiveError::DamagedSegments { dir, files: mut all }), ArchiveError::DamagedSegments { files, .. }) => {
            all.extend(files);
            ArchiveError::DamagedSegments { dir, files: all }
        }
        (Some(ArchiveError::DamagedSegments { .. }), e) => e,
        (Some(earlier), _) => earlier,
    }
}

/// An entry packed so that one comparison orders entries as (hash, document, position)
/// does.
fn pack((hash, p): (u64, Posting)) -> u128 {
    u128::from(hash) << 64 | u128::from(p.doc) << 32 | u128::from(p.position)
}

#[expect(clippy::cast_possible_truncation, reason = "the fields `pack` put side by side, each cut back to its width")]
fn unpack(packed: u128) -> (u64, Posting) {
    ((packed >> 64) as u64, Posting { doc: (packed >> 32) as u32, position: packed as u32 })
}

/// A k-way merge of sorted segments, without removed documents and exact duplicates. A
/// read error ends it, kept in `error`. The next entry of each input not done is held
/// packed, and the smallest is found by going through them: a merge has a few inputs (a
/// tier's four), and a pass over four packed numbers costs less than a heap's sifting.
struct MergeIter<'a> {
    inputs: Vec<Recut<Entries>>,
    removed: &'a FxHashSet<u32>,
    /// The next entry of each input not done, packed, and that input.
    heads: Vec<(u128, usize)>,
    last: Option<(u64, Posting)>,
    error: Option<ArchiveError>,
}

impl<'a> MergeIter<'a> {
    fn new(segments: &[Segment], removed: &'a FxHashSet<u32>) -> Result<Self, ArchiveError> {
        // Segments written before hashes were cut are cut as they are read.
        let inputs = segments
            .iter()
            .map(|s| Ok(Recut::new(s.entries()?, s.header.packing.dropped_bits() < 64 - KEPT_HASH_BITS)))
            .collect::<Result<Vec<_>, ArchiveError>>()?;
        let mut merge = Self { inputs, removed, heads: Vec::new(), last: None, error: None };
        for s in 0..merge.inputs.len() {
            if let Some(entry) = merge.read(s) {
                merge.heads.push((pack(entry), s));
            }
        }
        Ok(merge)
    }

    /// The next entry of input `s`; `None` when it is done or failed (the error kept).
    fn read(&mut self, s: usize) -> Option<(u64, Posting)> {
        match self.inputs[s].next()? {
            Ok(entry) => Some(entry),
            Err(e) => {
                self.error.get_or_insert(e);
                None
            }
        }
    }

    /// Takes the smallest entry, putting the next entry of its input in its place;
    /// `None` when every input is done.
    fn take_smallest(&mut self) -> Option<(u64, Posting)> {
        let (mut at, mut smallest) = (0, *self.heads.first()?);
        for (i, &head) in self.heads.iter().enumerate().skip(1) {
            if head.0 < smallest.0 {
                (at, smallest) = (i, head);
            }
        }
        match self.read(smallest.1) {
            Some(next) => self.heads[at].0 = pack(next),
            None => {
                self.heads.swap_remove(at);
            }
        }
        Some(unpack(smallest.0))
    }
}

impl Iterator for MergeIter<'_> {
    type Item = (u64, Posting);
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let entry = self.take_smallest()?;
            if self.error.is_some() {
                return None;
            }
            if (!self.removed.is_empty() && self.removed.contains(&entry.1.doc)) || self.last == Some(entry) {
                continue;
            }
            self.last = Some(entry);
            return Some(entry);
        }
    }
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "the tests' values are small")]
mod tests {
    use super::*;
    use crate::archive::folder::segments::segment::FilterLayout;
    use crate::archive::folder::segments::writing::write_with_layout;
    use crate::archive::{AddOptions, WhenBusy};
    use crate::engine::{CancelFlag, DocumentInput, NoProgress};
    use crate::model::Role;
    use crate::settings::Settings;

    /// Adds texts `numbers` ([`text`]) to the archive at `dir`, one file each under `docs`.
    fn add(dir: &std::path::Path, docs: &std::path::Path, numbers: std::ops::Range<usize>) {
        let archive = Archive::open_for_changes(dir, &Settings::default(), true, WhenBusy::Refuse).unwrap();
        let inputs: Vec<DocumentInput> = numbers
            .map(|n| {
                let path = docs.join(format!("{n}.txt"));
                std::fs::write(&path, text(n)).unwrap();
                DocumentInput::new(path, Role::Reference)
            })
            .collect();
        archive.add(&inputs, &AddOptions::default(), &NoProgress, &CancelFlag::new()).unwrap();
    }

    /// Text number `n`: 120 words of its own.
    fn text(n: usize) -> String {
        (0..120).map(|w| format!("word{} ", (n * 7919 + w * 104_729) % 5003)).collect::<String>() + ".\n"
    }

    /// The postings of every listed segment, read from end to end.
    fn all_postings(dir: &std::path::Path) -> Vec<(u64, Posting)> {
        let archive = Archive::open(dir, &Settings::default()).unwrap();
        let listed = rows::segments(&archive.lock()).unwrap();
        let mut all: Vec<(u64, Posting)> = listed
            .iter()
            .filter(|s| s.kind == Kind::Kgrams.code())
            .flat_map(|s| Segment::open(&dir.join(&s.file)).unwrap().entries().unwrap().map(Result::unwrap))
            .collect();
        all.sort_unstable();
        all
    }

    /// `entries` as an earlier format held them, with whole hashes: the kept hashes
    /// given low bits of their own for each posting (so that one kept hash comes from many
    /// whole ones, its postings out of document order), ascending again.
    fn with_whole_hashes(entries: &[(u64, Posting)]) -> Vec<(u64, Posting)> {
        let mut whole: Vec<(u64, Posting)> = entries
            .iter()
            .map(|&(hash, p)| (hash | u64::from((p.doc * 40_503 + p.position * 2_654_435) & 0xffff), p))
            .collect();
        whole.sort_unstable();
        whole
    }

    #[test]
    fn a_merge_that_would_fill_the_tier_above_takes_that_tier_in() {
        // The fewest postings of tier `n`.
        let least = |n: u32| TIER_BASE * (MERGE_FACTOR as u64).pow(n);
        let row = |id: i64, kind: Kind, postings: u64| SegmentRow {
            id,
            kind: kind.code(),
            file: format!("s{id}"),
            postings: i64::try_from(postings).unwrap(),
        };
        let ids = |chosen: Option<Vec<&SegmentRow>>| chosen.map(|c| c.iter().map(|s| s.id).collect::<Vec<_>>());
        // Four of tier 1 make one of tier 2, where three wait: seven merged at once; the
        // one of tier 3 and the other kind's stay.
        let mut listed: Vec<SegmentRow> = (0..4).map(|id| row(id, Kind::Kgrams, least(1))).collect();
        listed.extend((4..7).map(|id| row(id, Kind::Kgrams, least(2))));
        listed.push(row(7, Kind::Kgrams, least(3)));
        listed.push(row(8, Kind::Sentences, least(1)));
        assert_eq!(ids(chosen_of(&listed, Kind::Kgrams, false, &[])), Some((0..7).collect()));
        // A damaged segment of tier 2 left out: the merged one would make three, and
        // tier 2 waits.
        assert_eq!(ids(chosen_of(&listed, Kind::Kgrams, false, &["s6".into()])), Some((0..4).collect()));
        // Three of tier 3 waiting too: the seven would make a fourth there, so all ten.
        listed.extend((9..11).map(|id| row(id, Kind::Kgrams, least(3))));
        assert_eq!(ids(chosen_of(&listed, Kind::Kgrams, false, &[])), Some(vec![0, 1, 2, 3, 4, 5, 6, 7, 9, 10]));
        // No full tier, nothing; compaction takes every segment of the kind.
        let few = &listed[3..];
        assert_eq!(ids(chosen_of(few, Kind::Kgrams, false, &[])), None);
        assert_eq!(ids(chosen_of(few, Kind::Sentences, true, &[])), None);
        assert_eq!(ids(chosen_of(few, Kind::Kgrams, true, &[])).map(|c| c.len()), Some(7));
    }

    #[test]
    fn the_damaged_segments_of_both_kinds_are_named_together_and_another_error_wins() {
        let damaged = |file: &str| ArchiveError::DamagedSegments { dir: "a".into(), files: vec![file.into()] };
        let files = |e: ArchiveError| match e {
            ArchiveError::DamagedSegments { files, .. } => files,
            other => panic!("{other}"),
        };
        assert_eq!(files(together(Some(damaged("k")), damaged("s"))), ["k", "s"]);
        assert_eq!(files(together(None, damaged("s"))), ["s"]);
        let other = || ArchiveError::Corrupt("x".into());
        assert!(matches!(together(Some(damaged("k")), other()), ArchiveError::Corrupt(_)));
        assert!(matches!(together(Some(other()), damaged("s")), ArchiveError::Corrupt(_)));
    }

    #[test]
    fn a_merge_gives_every_entry_once_in_order_without_removed_documents() {
        let tmp = tempfile::tempdir().unwrap();
        let p = |doc, position| Posting { doc, position };
        // Three inputs whose hashes interleave, an entry in two of them, and documents
        // 3 and 7 removed.
        let mut all = Vec::new();
        let mut segments = Vec::new();
        for input in 0..3u64 {
            let entries: Vec<(u64, Posting)> = (0..2_000u64)
                .map(|i| (crate::hash::fmix64(i * 3 + input) << 16, p((i % 11) as u32, (i + input) as u32)))
                .chain(std::iter::once((5 << 16, p(1, 1))).filter(|_| input > 0))
                .collect();
            let path = tmp.path().join(format!("{input}.seg"));
            crate::archive::folder::segments::writing::write(&path, Kind::Kgrams, entries.clone()).unwrap();
            segments.push(Segment::open(&path).unwrap());
            all.extend(entries);
        }
        let removed: FxHashSet<u32> = [3, 7].into_iter().collect();
        let merged: Vec<(u64, Posting)> = MergeIter::new(&segments, &removed).unwrap().collect();
        all.retain(|e| !removed.contains(&e.1.doc));
        all.sort_unstable();
        all.dedup();
        assert_eq!(merged, all);
        assert_eq!(merged.iter().filter(|e| e.0 == 5 << 16).count(), 1, "the entry in two inputs, once");
    }

    #[test]
    fn segments_of_earlier_formats_merge_with_those_written_now() {
        use crate::archive::folder::segments::packing::kept_hash;
        use crate::archive::folder::segments::segment::EntryLayout;
        // Format 4: the filter's blocks picked by a mix of the hash, 16-byte entries, a
        // checksum over bytes; format 6: entries packed with the whole hash.
        for (format, layout) in [
            ("4", (FilterLayout::Blocked, EntryLayout::Whole)),
            ("6", (FilterLayout::Ordered, EntryLayout::WholeHashes)),
        ] {
            let tmp = tempfile::tempdir().unwrap();
            let (dir, docs) = (tmp.path().join("arc"), tmp.path().join("docs"));
            std::fs::create_dir(&docs).unwrap();
            add(&dir, &docs, 0..6);
            // Its segments rewritten as the earlier format wrote them.
            {
                let archive = Archive::open_for_changes(&dir, &Settings::default(), false, WhenBusy::Refuse).unwrap();
                let conn = archive.lock();
                for s in rows::segments(&conn).unwrap() {
                    let path = dir.join(&s.file);
                    let seg = Segment::open(&path).unwrap();
                    let kept: Vec<(u64, Posting)> = seg.entries().unwrap().map(Result::unwrap).collect();
                    let entries = with_whole_hashes(&kept);
                    std::fs::remove_file(&path).unwrap();
                    let kind = seg.kind();
                    write_with_layout(&path, kind, Contents::of_sorted(&entries), &mut entries.into_iter(), layout)
                        .unwrap();
                    let header = Segment::open(&path).unwrap().header;
                    assert_eq!((header.layout, header.packing.dropped_bits()), (layout.0, 0));
                }
                conn.execute("UPDATE settings SET value = ?1 WHERE key = 'format'", [format]).unwrap();
            }
            add(&dir, &docs, 6..9);
            let mut before: Vec<(u64, Posting)> =
                all_postings(&dir).into_iter().map(|(hash, p)| (kept_hash(hash), p)).collect();
            before.sort_unstable();
            let archive = Archive::open_for_changes(&dir, &Settings::default(), false, WhenBusy::Refuse).unwrap();
            let headers: Vec<(FilterLayout, u32)> = rows::segments(&archive.lock())
                .unwrap()
                .iter()
                .map(|s| Segment::open(&dir.join(&s.file)).unwrap().header)
                .map(|h| (h.layout, h.packing.dropped_bits()))
                .collect();
            assert!(headers.contains(&(layout.0, 0)) && headers.contains(&(FilterLayout::Ordered, 16)), "{headers:?}");
            assert!(archive.merge_all().unwrap());
            let report = archive.verify().unwrap();
            assert!(report.problems.is_empty(), "{:?}", report.problems);
            assert_eq!(report.segments, 3, "k-grams, sentences, character grams");
            // Every posting kept, under its kept hash, in the order lookups rely on.
            for s in rows::segments(&archive.lock()).unwrap() {
                let stored: Vec<(u64, Posting)> =
                    Segment::open(&dir.join(&s.file)).unwrap().entries().unwrap().map(Result::unwrap).collect();
                assert!(stored.windows(2).all(|w| w[0] < w[1]), "{format}: {} is out of order", s.file);
            }
            drop(archive);
            assert_eq!(all_postings(&dir), before);
        }
    }
}

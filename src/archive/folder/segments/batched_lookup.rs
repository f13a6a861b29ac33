//! Lookups of many hashes in one segment at once, in ascending order. Looked up one by
//! one, each hash costs a read of its filter block and one of the window around its
//! guessed place, whatever its neighbours, and a guess that missed (a frequent hash's
//! thousands of entries before it in its bucket) a search of a dozen reads more. Taken
//! in order, each hash is guessed past the place found for the one before it, and hashes
//! whose windows overlap or nearly touch in one bucket are answered from one read of the
//! span their windows cover: the sketches of an add's new documents (their smallest
//! hashes, all in the lowest few hundredths of the hash space) fall hundreds to a bucket,
//! and 160,000 of them were 1.7 s of an add of 5,000 documents at a million, most of it
//! in the reads themselves. A hash alone in its span has its filter asked first.

use std::io;

use super::lookup::{Held, Place, SegmentLookup, WINDOW};
use crate::index::Posting;

/// Entries one span covers at most: 128 KiB of entries packed in 8 bytes.
const MOST_SPAN: usize = 64 * WINDOW;

/// What a segment holds of one hash: its first postings kept and how many entries it
/// holds ([`SegmentLookup::first_postings_at`]).
pub(in crate::archive) type Found = io::Result<(Vec<Posting>, Held)>;

/// [`SegmentLookup::first_postings_at`] of each of `hashes` (ascending) in `segment`, in
/// their order, each looked for at its own place: the same answers, from fewer reads.
pub(in crate::archive) fn first_postings_sorted(
    segment: &SegmentLookup,
    hashes: &[u64],
    cap: usize,
    keep: &impl Fn(&Posting) -> bool,
) -> Vec<Found> {
    let mut out = Vec::with_capacity(hashes.len());
    // Where the last hash found starts, and that hash: every entry before it is below the
    // hashes still to look up.
    let mut after: Option<(usize, u64)> = None;
    let mut i = 0;
    while i < hashes.len() {
        let places = span(segment, &hashes[i..], after);
        let end = i + places.len().max(1);
        let started = match &places[..] {
            [] | [_] => {
                let mut postings = Vec::new();
                let found = segment.first_postings_at(hashes[i], places.first().copied(), cap, keep, &mut postings);
                let start = found.as_ref().ok().and_then(|(_, start)| *start);
                out.push(found.map(|(held, _)| (postings, held)));
                start
            }
            _ => {
                let found = span_postings(segment, (&hashes[i..end], &places), cap, keep);
                let start = found.last().and_then(|found| found.as_ref().ok()).map(|(_, start, _)| *start);
                out.extend(found.into_iter().map(|found| found.map(|(postings, _, held)| (postings, held))));
                start
            }
        };
        if let Some(start) = started {
            after = Some((start, hashes[end - 1]));
        }
        i = end;
    }
    out
}

/// The places of the hashes that `hashes[0]`'s span answers, all guessed past `after`:
/// the next ones of its bucket whose windows start at most a window past the span's end
/// so far, while the span stays within [`MOST_SPAN`] entries. None when the bucket of
/// `hashes[0]` holds no entry: it is a span of its own.
fn span(segment: &SegmentLookup, hashes: &[u64], after: Option<(usize, u64)>) -> Vec<Place> {
    let Some(start) = segment.place(hashes[0], after) else { return Vec::new() };
    let mut places = vec![start];
    let mut to = start.to;
    for &hash in &hashes[1..] {
        match segment.place(hash, after) {
            Some(next) if joins(&start, to, &next) => {
                to = to.max(next.to);
                places.push(next);
            }
            _ => break,
        }
    }
    places
}

/// Whether the window at `next` joins the span that starts at `start` and reaches `to`.
fn joins(start: &Place, to: usize, next: &Place) -> bool {
    next.bucket == start.bucket && next.from <= to + WINDOW && next.to.max(to) - start.from <= MOST_SPAN
}

/// The first postings, where its entries start, and what the segment holds, of each of
/// `hashes` at `places` (one span of one bucket, two or more), from one read of the span.
fn span_postings(
    segment: &SegmentLookup,
    (hashes, places): (&[u64], &[Place]),
    cap: usize,
    keep: &impl Fn(&Posting) -> bool,
) -> Vec<io::Result<(Vec<Posting>, usize, Held)>> {
    let (first, to) = (places[0], places.iter().map(|p| p.to).max().unwrap_or(places[0].to));
    match segment.read_entries(first.bucket, first.from, to) {
        Ok(entries) => hashes
            .iter()
            .zip(places)
            .map(|(&hash, place)| {
                let mut postings = Vec::new();
                let (held, start) = segment.first_postings_from(hash, (place, &entries), cap, keep, &mut postings)?;
                Ok((postings, start, held))
            })
            .collect(),
        Err(error) => hashes.iter().map(|_| Err(io::Error::new(error.kind(), error.to_string()))).collect(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "tests")]
mod tests {
    use super::*;
    use crate::archive::folder::segments::segment::Kind;
    use crate::archive::folder::segments::writing::write;

    fn posting(doc: u32, position: u32) -> Posting {
        Posting { doc, position }
    }

    /// A segment of `docs` documents over few buckets, one hash very frequent, written to a
    /// temporary file; its hashes.
    fn segment(dir: &std::path::Path, docs: u32) -> (SegmentLookup, Vec<u64>) {
        let mut entries = Vec::new();
        let mut hashes = Vec::new();
        for doc in 1..=docs {
            for position in 0..40u32 {
                // Hashes crowded in the lowest part of the hash space, as sketches are.
                let hash = (u64::from(doc % 97) * 40 + u64::from(position)) << 44 | 0x5a5;
                entries.push((hash, posting(doc, position)));
                hashes.push(hash);
            }
        }
        // A frequent hash among them: the hashes after it in its bucket lie far from where
        // an even spread would put them.
        let frequent = (125 << 44) | 0x5a6;
        for doc in 1..=3 * docs {
            entries.push((frequent, posting(doc, 999)));
        }
        hashes.push(frequent);
        let path = dir.join("k.seg");
        write(&path, Kind::Kgrams, entries).unwrap();
        hashes.sort_unstable();
        hashes.dedup();
        (SegmentLookup::open(&path).unwrap(), hashes)
    }

    #[test]
    fn sorted_lookups_answer_as_lone_ones() {
        let dir = tempfile::tempdir().unwrap();
        let (lookup, held) = segment(dir.path(), 2_000);
        // Held hashes, absent ones between them and past them, and a repeated one.
        let mut asked: Vec<u64> = held.iter().step_by(3).copied().collect();
        asked.extend(held.iter().step_by(7).map(|h| h + (1 << 40)));
        asked.extend([held[5], u64::MAX - 3, 0, 1 << 63]);
        asked.sort_unstable();
        let keep = |p: &Posting| !p.doc.is_multiple_of(5);
        for cap in [1, 3, 51, 5_000] {
            let together = first_postings_sorted(&lookup, &asked, cap, &keep);
            assert_eq!(together.len(), asked.len());
            for (&hash, found) in asked.iter().zip(together) {
                let mut alone = Vec::new();
                let held_alone = lookup.first_postings(hash, cap, keep, &mut alone).unwrap();
                let (postings, held) = found.unwrap();
                assert_eq!(postings, alone, "hash {hash:#x}, cap {cap}");
                assert_eq!(lookup.entries(&held).unwrap(), lookup.entries(&held_alone).unwrap());
            }
        }
    }

    #[test]
    fn windows_join_a_span_while_near_and_in_one_bucket() {
        let place = |bucket, from| Place { bucket, first: 0, last: 1 << 20, from, to: from + WINDOW };
        let start = place(0, 0);
        assert!(joins(&start, WINDOW, &place(0, 100)));
        assert!(joins(&start, WINDOW, &place(0, 2 * WINDOW)), "at most a window past the span joins it");
        assert!(!joins(&start, WINDOW, &place(0, 2 * WINDOW + 1)));
        assert!(!joins(&start, WINDOW, &place(1, 10)), "another bucket starts another span");
        assert!(joins(&start, MOST_SPAN - WINDOW, &place(0, MOST_SPAN - WINDOW)));
        assert!(!joins(&start, MOST_SPAN - WINDOW, &place(0, MOST_SPAN - WINDOW + 1)), "a span stays bounded");
    }
}

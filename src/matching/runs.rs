//! Runs of dense seeds, and which of them a box keeps. A run is a stretch of characters
//! that match exactly on one diagonal. Every character on each side belongs to one kept
//! run only, so a phrase that occurs twice in one text keeps one twin.
//!
//! Which twin: the longer run, unless the text repeats itself — a reference that shows
//! the same lines of example code twice, the same sentence under two headings. Then runs
//! of about the same length compete for one stretch of the suspect, and the one with the
//! most support wins: the most matched characters around it on both sides (runs near it
//! in the suspect whose twins lie near where its diagonal puts them). Copied text keeps
//! its neighbourhood — even reordered, its sentences come from one region of the
//! reference — while the other copy is wherever the reference happened to repeat it.

use std::cmp::Reverse;
use std::ops::Range;

use super::{SpanSeed, StreamBox};

/// Runs of at least this share of a run's length, covering its middle on the suspect
/// side, compete with it for its twin.
const RIVAL_SHARE: (u32, u32) = (3, 4);

/// A stretch of consecutive characters matching on both sides: seeds on one diagonal
/// whose grams overlap or touch.
struct Run<'s> {
    seeds: &'s [SpanSeed],
    /// Stream indices covered on the suspect side and on the reference side.
    a: Range<u32>,
    b: Range<u32>,
    diagonal: i64,
}

impl Run<'_> {
    fn len(&self) -> u32 {
        self.a.end - self.a.start
    }
    fn middle(&self) -> u32 {
        self.a.start + self.len() / 2
    }
    fn rivals(&self, other: &Run) -> bool {
        other.diagonal != self.diagonal && other.len() * RIVAL_SHARE.1 >= self.len() * RIVAL_SHARE.0
    }
    /// Whether the run is at least twice as long as the shortest run `min_run` allows:
    /// shorter ones are mostly chance, and a chance run's twin is no better beside a
    /// passage than anywhere else.
    fn substantial(&self, min_run: u32) -> bool {
        self.len() >= 2 * (self.seeds[0].len + min_run.max(1) - 1)
    }
}

/// Keeps the seeds that lie in a run of at least `min_run` seeds and lets
/// every character on each side belong to one run only: longer runs first, and of runs
/// that compete for one stretch of the suspect, the one with the most support (see the
/// module doc). `neighbourhood` is how far, in stream characters, a neighbour may lie on
/// each side.
pub(super) fn keep_runs(mut seeds: Vec<SpanSeed>, min_run: u32, neighbourhood: u32, sb: StreamBox) -> Vec<SpanSeed> {
    seeds.sort_by_key(|s| (s.a_at as i64 - s.b_at as i64, s.a_at));
    let runs = diagonal_runs(&seeds, min_run);
    let rivals = rivals(&runs, min_run);
    let support = support(&runs, &rivals, neighbourhood, min_run);
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by_key(|&i| (Reverse(runs[i].len()), runs[i].a.start, runs[i].b.start));
    let mut taken_a = vec![false; (sb.a.1 - sb.a.0) as usize];
    let mut taken_b = vec![false; (sb.b.1 - sb.b.0) as usize];
    let mut decided = vec![false; runs.len()];
    let mut kept = Vec::with_capacity(seeds.len());
    let mut deferred = Vec::new();
    let mut place = |i: usize, kept: &mut Vec<SpanSeed>| {
        let run = &runs[i];
        let ra = (run.a.start - sb.a.0) as usize..(run.a.end - sb.a.0) as usize;
        let rb = (run.b.start - sb.b.0) as usize..(run.b.end - sb.b.0) as usize;
        let free = |taken: &[bool], r: &Range<usize>| {
            let slice = taken.get(r.clone()).unwrap_or(&[]);
            slice.iter().filter(|&&t| !t).count() * 2 >= slice.len()
        };
        if free(&taken_a, &ra) && free(&taken_b, &rb) {
            taken_a.get_mut(ra).into_iter().flatten().for_each(|t| *t = true);
            taken_b.get_mut(rb).into_iter().flatten().for_each(|t| *t = true);
            kept.extend_from_slice(run.seeds);
        }
    };
    for &i in &order {
        // A rival still to come with more support goes first.
        if rivals[i].iter().any(|&r| !decided[r] && support[r] > support[i]) {
            deferred.push(i);
            continue;
        }
        decided[i] = true;
        place(i, &mut kept);
    }
    for i in deferred {
        place(i, &mut kept);
    }
    kept
}

/// The runs among `seeds` (sorted by diagonal, then suspect position) of at least
/// `min_run` seeds.
fn diagonal_runs(seeds: &[SpanSeed], min_run: u32) -> Vec<Run<'_>> {
    let mut runs = Vec::new();
    let mut start = 0;
    while start < seeds.len() {
        let diagonal = seeds[start].a_at as i64 - seeds[start].b_at as i64;
        let mut reach = seeds[start].a_at + seeds[start].len;
        let mut end = start + 1;
        // Seeds of grams that repeat too often were dropped: the next seed on the diagonal
        // continues the run as long as the grams overlap or touch.
        while end < seeds.len()
            && seeds[end].a_at as i64 - seeds[end].b_at as i64 == diagonal
            && seeds[end].a_at <= reach
        {
            reach = reach.max(seeds[end].a_at + seeds[end].len);
            end += 1;
        }
        let run = &seeds[start..end];
        if run.len() >= min_run.max(1) as usize {
            let b_reach = run.iter().map(|s| s.b_at + s.len).max().unwrap_or(0);
            runs.push(Run { seeds: run, a: run[0].a_at..reach, b: run[0].b_at..b_reach, diagonal });
        }
        start = end;
    }
    runs
}

/// For each substantial run, the substantial runs on other diagonals that cover its middle
/// on the suspect side and are about as long or longer: one sweep along the suspect side.
fn rivals(runs: &[Run], min_run: u32) -> Vec<Vec<usize>> {
    let substantial: Vec<usize> = (0..runs.len()).filter(|&i| runs[i].substantial(min_run)).collect();
    let mut by_start = substantial.clone();
    by_start.sort_by_key(|&i| runs[i].a.start);
    let mut by_middle = substantial;
    by_middle.sort_by_key(|&i| runs[i].middle());
    let mut rivals = vec![Vec::new(); runs.len()];
    let mut active: Vec<usize> = Vec::new();
    let mut next = 0;
    for i in by_middle {
        let middle = runs[i].middle();
        while next < by_start.len() && runs[by_start[next]].a.start <= middle {
            active.push(by_start[next]);
            next += 1;
        }
        active.retain(|&j| runs[j].a.end > middle);
        rivals[i] = active.iter().copied().filter(|&j| j != i && runs[i].rivals(&runs[j])).collect();
    }
    rivals
}

/// For each run that has rivals, its support: the characters of the runs around it —
/// within `neighbourhood` characters on the suspect side, not overlapping it there, on a
/// diagonal at most `neighbourhood` away (their twins that near to where its diagonal
/// puts them). Zero for runs without rivals.
fn support(runs: &[Run], rivals: &[Vec<usize>], neighbourhood: u32, min_run: u32) -> Vec<u64> {
    let mut by_start: Vec<&Run> = runs.iter().filter(|run| run.substantial(min_run)).collect();
    by_start.sort_by_key(|run| run.a.start);
    // The furthest end of the runs so far, for a search by end.
    let reach: Vec<u32> = by_start
        .iter()
        .scan(0, |furthest, run| {
            *furthest = run.a.end.max(*furthest);
            Some(*furthest)
        })
        .collect();
    runs.iter()
        .zip(rivals)
        .map(|(run, rivals)| {
            if rivals.is_empty() {
                return 0;
            }
            let first = reach.partition_point(|&end| end + neighbourhood < run.a.start);
            by_start[first..]
                .iter()
                .take_while(|other| other.a.start <= run.a.end + neighbourhood)
                .filter(|other| other.a.end <= run.a.start || other.a.start >= run.a.end)
                .filter(|other| other.a.end + neighbourhood >= run.a.start)
                .filter(|other| other.diagonal.abs_diff(run.diagonal) <= u64::from(neighbourhood))
                .map(|other| u64::from(other.len()))
                .sum()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run of `len` consecutive one-character seeds from (a, b).
    fn run(a: u32, b: u32, len: u32) -> Vec<SpanSeed> {
        (0..len)
            .map(|k| SpanSeed { a_at: a + k, b_at: b + k, len: 1, a: (a + k, a + k + 1), b: (b + k, b + k + 1) })
            .collect()
    }

    fn kept(seeds: Vec<SpanSeed>) -> Vec<(u32, u32)> {
        let sb = StreamBox { a: (0, 2000), b: (0, 2000) };
        keep_runs(seeds, 3, 300, sb).iter().map(|s| (s.a_at, s.b_at)).collect()
    }

    #[test]
    fn a_repeated_line_keeps_the_twin_beside_its_neighbours() {
        // Suspect 100..150 and 200..250 come from reference 1100.. and 1200..; the line at
        // suspect 150..190 occurs at reference 300 (a little longer there by chance) and
        // at 1150 among its neighbours.
        let mut seeds = run(100, 1100, 50);
        seeds.extend(run(200, 1200, 50));
        seeds.extend(run(150, 300, 42));
        seeds.extend(run(152, 1152, 38));
        let kept = kept(seeds);
        assert!(kept.contains(&(160, 1160)), "{kept:?}");
        assert!(!kept.contains(&(160, 310)), "{kept:?}");
        assert_eq!(kept.len(), 138);
    }

    #[test]
    fn without_neighbours_the_longer_twin_wins() {
        let mut seeds = run(150, 300, 42);
        seeds.extend(run(152, 1152, 38));
        let kept = kept(seeds);
        assert!(kept.contains(&(160, 310)), "{kept:?}");
        assert_eq!(kept.len(), 42);
    }

    #[test]
    fn seeds_dropped_inside_a_run_do_not_split_it() {
        let mut seeds = run(10, 500, 20);
        seeds.retain(|s| !(5..9).contains(&(s.a_at - 10)));
        for s in &mut seeds {
            s.len = 6;
        }
        let sb = StreamBox { a: (0, 100), b: (400, 600) };
        let runs = diagonal_runs(&seeds, 3);
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].a, 10..35);
        assert_eq!(keep_runs(seeds.clone(), 3, 300, sb).len(), seeds.len());
    }
}

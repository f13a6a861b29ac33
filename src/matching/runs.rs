//! Runs of dense seeds, and which of them a box keeps. A run is a stretch of characters
//! that match exactly on one diagonal. Every character on each side belongs to one kept
//! run only, so a phrase that occurs twice in one text keeps one twin.
//!
//! Which twin: the longer run, unless the text repeats itself — a reference that shows
//! the same lines of example code twice, the same sentence under two headings. Then runs
//! of about the same length compete for one stretch of the suspect (rivals), and:
//!
//! 1. A twin that lies inside the source of another stretch of copied text is not taken
//!    while a rival's twin is free of such a claim. The source is the reference extent of
//!    a chain: unambiguous runs (without rivals) that follow each other in order on both
//!    sides, elsewhere in the suspect. A stretch of the reference is copied once; a
//!    sentence that the reference repeats came, the second time, from another copy.
//! 2. Of the rest, the one with the most support wins: first the matched characters
//!    right beside it on both sides (a neighbouring sentence whose twin touches this
//!    twin, in either order), then the matched characters around it (runs near it in
//!    the suspect whose twins lie near where its diagonal puts them). Copied text keeps
//!    its neighbourhood — even reordered, its sentences come from one region of the
//!    reference — while the other copy is wherever the reference happened to repeat it.

use std::cmp::Reverse;
use std::ops::Range;

use super::{StreamBox, StreamSeed};

/// Runs of at least this share of a run's length, covering its middle on the suspect
/// side, compete with it for its twin.
const RIVAL_SHARE: (u32, u32) = (3, 4);

/// A stretch of consecutive characters matching on both sides: seeds on one diagonal
/// whose grams overlap or touch. Its ranges, and every range and gap below, are counted
/// in stream characters ([`crate::model::StreamAt`]'s unit), as plain numbers.
struct Run<'s> {
    seeds: &'s [StreamSeed],
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
pub(super) fn keep_runs(
    mut seeds: Vec<StreamSeed>,
    min_run: u32,
    neighbourhood: u32,
    sb: StreamBox,
) -> Vec<StreamSeed> {
    seeds.sort_by_key(|s| (s.a_at.diagonal(s.b_at), s.a_at));
    let runs = diagonal_runs(&seeds, min_run);
    let rivals = rivals(&runs, min_run);
    let chains = chains(&runs, &rivals, min_run, neighbourhood);
    let claimed = claimed(&runs, &rivals, &chains);
    let support = support(&runs, &rivals, &claimed, neighbourhood, min_run);
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by_key(|&i| (Reverse(runs[i].len()), runs[i].a.start, runs[i].b.start));
    let mut taken_a = vec![false; (sb.a.1 - sb.a.0) as usize];
    let mut taken_b = vec![false; (sb.b.1 - sb.b.0) as usize];
    let (a0, b0) = (sb.a.0.0, sb.b.0.0);
    // A claimed run never takes its twin, so no rival waits for it.
    let mut decided = claimed.clone();
    let mut kept = Vec::with_capacity(seeds.len());
    let mut deferred = Vec::new();
    let mut place = |i: usize, kept: &mut Vec<StreamSeed>| {
        let run = &runs[i];
        let ra = (run.a.start - a0) as usize..(run.a.end - a0) as usize;
        let rb = (run.b.start - b0) as usize..(run.b.end - b0) as usize;
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
        if claimed[i] {
            continue;
        }
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
fn diagonal_runs(seeds: &[StreamSeed], min_run: u32) -> Vec<Run<'_>> {
    let mut runs = Vec::new();
    let mut start = 0;
    while start < seeds.len() {
        let diagonal = seeds[start].a_at.diagonal(seeds[start].b_at);
        let mut reach = seeds[start].a_at + seeds[start].len;
        let mut end = start + 1;
        // Seeds of grams that repeat too often were dropped: the next seed on the diagonal
        // continues the run as long as the grams overlap or touch.
        while end < seeds.len() && seeds[end].a_at.diagonal(seeds[end].b_at) == diagonal && seeds[end].a_at <= reach {
            reach = reach.max(seeds[end].a_at + seeds[end].len);
            end += 1;
        }
        let run = &seeds[start..end];
        if run.len() >= min_run.max(1) as usize {
            let b_reach = run.iter().map(|s| (s.b_at + s.len).0).max().unwrap_or(0);
            runs.push(Run { seeds: run, a: run[0].a_at.0..reach.0, b: run[0].b_at.0..b_reach, diagonal });
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

/// Where one stretch of copied text lies on each side, as its unambiguous runs show it.
struct Chain {
    a: Range<u32>,
    b: Range<u32>,
}

/// Characters the diagonal may move between two runs that touch, in a chain; it may move
/// a quarter of the gap more (a reworded stretch drifts as words change length).
const DRIFT: u32 = 8;

/// Runs at most this many characters apart on both sides are beside each other.
const BESIDE: u32 = 8;

/// The chains of the substantial runs without rivals: in suspect order, each run joins the
/// chain of the run before it when it follows that run on both sides (see `follows`).
fn chains(runs: &[Run], rivals: &[Vec<usize>], min_run: u32, neighbourhood: u32) -> Vec<Chain> {
    let mut unambiguous: Vec<&Run> = runs
        .iter()
        .zip(rivals)
        .filter(|(run, rivals)| rivals.is_empty() && run.substantial(min_run))
        .map(|(run, _)| run)
        .collect();
    unambiguous.sort_by_key(|run| run.a.start);
    let mut chains: Vec<Chain> = Vec::new();
    let mut last: Option<&Run> = None;
    for run in unambiguous {
        match (last, chains.last_mut()) {
            (Some(prev), Some(chain)) if follows(prev, run, neighbourhood) => {
                chain.a.end = chain.a.end.max(run.a.end);
                chain.b.start = chain.b.start.min(run.b.start);
                chain.b.end = chain.b.end.max(run.b.end);
            }
            _ => chains.push(Chain { a: run.a.clone(), b: run.b.clone() }),
        }
        last = Some(run);
    }
    chains
}

/// Whether `next` continues the copied text of `prev` in the same order on both sides:
/// it starts after it within `neighbourhood` characters on each side, and the two gaps
/// are about the same size (the diagonal moves at most `DRIFT` and a quarter of the gaps).
fn follows(prev: &Run, next: &Run, neighbourhood: u32) -> bool {
    let gap_a = next.a.start.saturating_sub(prev.a.end);
    let gap_b = next.b.start.saturating_sub(prev.b.end);
    // On the reference side `next` may start a little before `prev` ends.
    let back_b = prev.b.end.saturating_sub(next.b.start);
    gap_a <= neighbourhood
        && gap_b <= neighbourhood
        && back_b <= DRIFT
        && next.diagonal.abs_diff(prev.diagonal) <= u64::from(DRIFT + (gap_a + gap_b) / 4)
}

/// Characters shared by two ranges.
fn overlap(x: &Range<u32>, y: &Range<u32>) -> u32 {
    x.end.min(y.end).saturating_sub(x.start.max(y.start))
}

/// Characters between two ranges (0 when they touch or overlap).
fn gap(x: &Range<u32>, y: &Range<u32>) -> u32 {
    x.start.saturating_sub(y.end).max(y.start.saturating_sub(x.end))
}

/// For each run, whether its twin is claimed: the run has rivals, at least half its twin
/// lies inside a chain's reference extent, the run lies outside that chain on the suspect
/// side, and some rival's twin is not claimed so (when all are, none gives way).
fn claimed(runs: &[Run], rivals: &[Vec<usize>], chains: &[Chain]) -> Vec<bool> {
    let inside_a_source = |run: &Run| {
        chains
            .iter()
            .any(|chain| overlap(&chain.a, &run.a) == 0 && 2 * overlap(&chain.b, &run.b) >= run.b.end - run.b.start)
    };
    let claims: Vec<bool> =
        runs.iter().zip(rivals).map(|(run, rivals)| !rivals.is_empty() && inside_a_source(run)).collect();
    claims.iter().zip(rivals).map(|(&claimed, rivals)| claimed && rivals.iter().any(|&r| !claims[r])).collect()
}

/// How strongly the text around a run vouches for its twin. Compared beside first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Support {
    /// Characters of the runs at most `BESIDE` characters from it on both sides.
    beside: u64,
    /// Characters of the runs within the neighbourhood on the suspect side whose diagonal
    /// is within the neighbourhood of its own.
    near: u64,
}

/// For each run that has rivals, its support from the substantial runs around it: within
/// `neighbourhood` characters on the suspect side, not overlapping it there, their twins
/// not claimed. Zero for runs without rivals.
fn support(runs: &[Run], rivals: &[Vec<usize>], claimed: &[bool], neighbourhood: u32, min_run: u32) -> Vec<Support> {
    let mut by_start: Vec<usize> = (0..runs.len()).filter(|&i| runs[i].substantial(min_run)).collect();
    by_start.sort_by_key(|&i| runs[i].a.start);
    // The furthest end of the runs so far, for a search by end.
    let reach: Vec<u32> = by_start
        .iter()
        .scan(0, |furthest, &i| {
            *furthest = runs[i].a.end.max(*furthest);
            Some(*furthest)
        })
        .collect();
    runs.iter()
        .zip(rivals)
        .map(|(run, rivals)| {
            let mut support = Support::default();
            if rivals.is_empty() {
                return support;
            }
            let first = reach.partition_point(|&end| end + neighbourhood < run.a.start);
            let neighbours = by_start[first..]
                .iter()
                .take_while(|&&j| runs[j].a.start <= run.a.end + neighbourhood)
                .filter(|&&j| !claimed[j])
                .map(|&j| &runs[j])
                .filter(|other| overlap(&other.a, &run.a) == 0 && other.a.end + neighbourhood >= run.a.start);
            for other in neighbours {
                if gap(&run.a, &other.a) <= BESIDE && gap(&run.b, &other.b) <= BESIDE {
                    support.beside += u64::from(other.len());
                }
                if other.diagonal.abs_diff(run.diagonal) <= u64::from(neighbourhood) {
                    support.near += u64::from(other.len());
                }
            }
            support
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::matching::Seed;
    use crate::model::StreamAt;

    /// A run of `len` consecutive one-character seeds from (a, b).
    fn run(a: u32, b: u32, len: u32) -> Vec<StreamSeed> {
        (0..len)
            .map(|k| Seed {
                a_at: StreamAt(a + k),
                b_at: StreamAt(b + k),
                len: 1,
                a: (a + k, a + k + 1),
                b: (b + k, b + k + 1),
            })
            .collect()
    }

    /// The seeds of runs given as (a, b, len).
    fn runs(list: &[(u32, u32, u32)]) -> Vec<StreamSeed> {
        list.iter().flat_map(|&(a, b, len)| run(a, b, len)).collect()
    }

    /// A box of stream indices `a` on the suspect side, `b` on the reference side.
    fn stream_box(a: (u32, u32), b: (u32, u32)) -> StreamBox {
        StreamBox { a: (StreamAt(a.0), StreamAt(a.1)), b: (StreamAt(b.0), StreamAt(b.1)) }
    }

    fn kept(seeds: Vec<StreamSeed>) -> Vec<(u32, u32)> {
        keep_runs(seeds, 3, 300, stream_box((0, 2000), (0, 2000))).iter().map(|s| (s.a_at.0, s.b_at.0)).collect()
    }

    #[test]
    fn a_repeated_line_keeps_the_twin_beside_its_neighbours() {
        // Suspect 100..150 and 200..250 come from reference 1100.. and 1200..; the line at
        // suspect 150..190 occurs at reference 300 (a little longer there by chance) and
        // at 1150 among its neighbours.
        let seeds = runs(&[(100, 1100, 50), (200, 1200, 50), (150, 300, 42), (152, 1152, 38)]);
        let kept = kept(seeds);
        assert!(kept.contains(&(160, 1160)), "{kept:?}");
        assert!(!kept.contains(&(160, 310)), "{kept:?}");
        assert_eq!(kept.len(), 138);
    }

    #[test]
    fn without_neighbours_the_longer_twin_wins() {
        let seeds = runs(&[(150, 300, 42), (152, 1152, 38)]);
        let kept = kept(seeds);
        assert!(kept.contains(&(160, 310)), "{kept:?}");
        assert_eq!(kept.len(), 42);
    }

    #[test]
    fn a_twin_inside_the_source_of_another_passage_gives_way() {
        // Suspect 100..140 and 200..240 come from reference 1100.. and 1200..; the
        // sentence between them was reworded past matching, and its reference text
        // (1150..1180) is repeated at 500. The suspect copies that sentence again, word
        // for word, at 300: from the copy at 500, since 1150 is the source of the first.
        let seeds = runs(&[(100, 1100, 40), (200, 1200, 40), (300, 1150, 30), (300, 500, 30)]);
        let kept = kept(seeds);
        assert!(kept.contains(&(310, 510)), "{kept:?}");
        assert!(!kept.contains(&(310, 1160)), "{kept:?}");
        assert_eq!(kept.len(), 110);
    }

    #[test]
    fn when_every_twin_lies_inside_a_source_none_gives_way() {
        let seeds = runs(&[(100, 1100, 40), (200, 1200, 40), (300, 1145, 30), (300, 1160, 30)]);
        assert_eq!(kept(seeds).len(), 110);
    }

    #[test]
    fn a_reordered_sentence_keeps_the_twin_beside_its_neighbours_twin() {
        // Suspect 0..200 comes from reference 700..900. Then two sentences, S1 at 300 and
        // S2 at 332, are copied in swapped order from 1468.. (S2) and 1500.. (S1); the
        // reference also has S1 at 1000 and S2 at 1062, nearer the first passage's
        // diagonal but not beside each other.
        let seeds = runs(&[(0, 700, 200), (300, 1000, 30), (300, 1500, 30), (332, 1062, 30), (332, 1468, 30)]);
        let kept = kept(seeds);
        assert!(kept.contains(&(310, 1510)) && kept.contains(&(340, 1476)), "{kept:?}");
        assert!(!kept.contains(&(310, 1010)) && !kept.contains(&(340, 1070)), "{kept:?}");
    }

    #[test]
    fn seeds_dropped_inside_a_run_do_not_split_it() {
        let mut seeds = run(10, 500, 20);
        seeds.retain(|s| !(5..9).contains(&(s.a_at.0 - 10)));
        for s in &mut seeds {
            s.len = 6;
        }
        let sb = stream_box((0, 100), (400, 600));
        let runs = diagonal_runs(&seeds, 3);
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].a, 10..35);
        assert_eq!(keep_runs(seeds.clone(), 3, 300, sb).len(), seeds.len());
    }
}

//! One suspect span, one source, across references: text of a suspect found in several
//! references is shown against the reference it matches most closely, the others listed
//! as its alternatives. A suspect pieced together from several sources, each of which a
//! further reference holds in a near twin, keeps each piece with its own source: where a
//! passage of another reference matches part of a longer passage clearly more closely,
//! that part is its, and the longer passage keeps what lies around it.

use crate::model::{Alternative, Pair, Passage};

/// A passage takes the part of a longer one that it overlaps when it shares at least
/// this much more of that part's text (9/8: an eighth more), not on a tie: a repost
/// keeps a paragraph that another reference holds as well.
const CLEARLY_CLOSER: (usize, usize) = (9, 8);

/// Folds passages of different pairs of one suspect. A passage whose suspect side lies
/// at least half inside a passage kept before it (of another pair) becomes an
/// alternative of that passage (naming its reference), unless it matches the part they
/// share clearly more closely: then it is kept, the other passage's part becomes its
/// alternative, and the other passage keeps the parts around it that still hold
/// `min_chars` characters. Passages come in order of `closeness(pair index, passage)`
/// (see [`super::closeness`]), highest first, then the longer. Returns, per pair,
/// whether its passages changed.
pub fn fold_across_pairs(
    pairs: &mut [Pair],
    min_chars: usize,
    closeness: impl Fn(usize, &Passage) -> usize,
) -> Vec<bool> {
    let order = closest_first(pairs, &closeness);
    let mut slots: Vec<Vec<Option<Passage>>> =
        pairs.iter_mut().map(|p| std::mem::take(&mut p.passages).into_iter().map(Some).collect()).collect();
    let mut kept: Vec<(usize, Passage)> = Vec::new();
    let mut changed = vec![false; pairs.len()];
    for (i, j) in order {
        let Some(mut p) = slots[i][j].take() else { continue };
        let Some(h) = kept.iter().position(|(k, host)| *k != i && 2 * shared(&p, host) >= p.a_len()) else {
            kept.push((i, p));
            continue;
        };
        let (hi, host_b) = (kept[h].0, pairs[kept[h].0].b);
        let both = (p.a_start.max(kept[h].1.a_start), p.a_end.min(kept[h].1.a_end));
        let mine = closeness(i, &widened(&p.part(both)));
        // Clearly closer than every place the host may hold the part: asked place by
        // place, the place by proportion first, until one holds it as closely.
        let clearly_closer = |q: Passage| mine * CLEARLY_CLOSER.1 > closeness(hi, &q) * CLEARLY_CLOSER.0;
        if places_holding(&kept[h].1, both).all(clearly_closer) {
            let (_, host) = kept.remove(h);
            p.alternatives.push(host.part(both).as_alternative(Some(host_b)));
            let mut rest = around(&host, both, min_chars);
            match rest.first_mut() {
                Some(first) => first.alternatives = host.alternatives,
                None => p.alternatives.extend(host.alternatives.iter().map(|a| named(a, host_b))),
            }
            p.alternatives.sort_unstable();
            kept.extend(rest.into_iter().map(|r| (hi, r)));
            kept.push((i, p));
            changed[hi] = true;
        } else {
            let host = &mut kept[h].1;
            host.alternatives.push(p.as_alternative(Some(pairs[i].b)));
            host.alternatives.extend(p.alternatives.iter().map(|a| named(a, pairs[i].b)));
            host.alternatives.sort_unstable();
            changed[i] = true;
        }
    }
    for (i, p) in kept {
        pairs[i].passages.push(p);
    }
    for pair in pairs.iter_mut() {
        pair.passages.sort_by_key(|p| (p.a_start, p.b_start));
    }
    changed
}

/// Every passage of `pairs` as (pair index, passage index): those whose suspect side
/// overlaps a passage of another pair by `closeness`, highest first, then by the
/// suspect characters its pair holds in all, then by the characters of both sides, most
/// first. Closeness is asked only of those: the order of a passage without a rival
/// changes nothing.
fn closest_first(pairs: &[Pair], closeness: &impl Fn(usize, &Passage) -> usize) -> Vec<(usize, usize)> {
    use std::cmp::Reverse;
    let rivalled = |i: usize, p: &Passage| {
        pairs.iter().enumerate().any(|(k, other)| k != i && other.passages.iter().any(|o| shared(o, p) > 0))
    };
    // Of two equally close twins, the one whose reference holds more of the suspect: the
    // source of the copy around it.
    let held: Vec<u32> = pairs.iter().map(|pair| pair.passages.iter().map(Passage::a_len).sum()).collect();
    let mut order: Vec<(usize, usize)> =
        pairs.iter().enumerate().flat_map(|(i, pair)| (0..pair.passages.len()).map(move |j| (i, j))).collect();
    order.sort_by_cached_key(|&(i, j)| {
        let p = &pairs[i].passages[j];
        let close = if rivalled(i, p) { closeness(i, p) } else { 0 };
        (Reverse(close), Reverse(held[i]), Reverse(p.a_len() + p.b_len()), pairs[i].b, p.a_start, j)
    });
    order
}

/// Suspect characters that `p` and `q` both cover.
fn shared(p: &Passage, q: &Passage) -> u32 {
    p.a_end.min(q.a_end).saturating_sub(p.a_start.max(q.a_start))
}

/// `p` with its reference side widened by an eighth of its length and a few characters
/// each way: a part's reference side is cut by proportion, and closeness counts the
/// suspect's text found on the reference side, which a little more of it never lowers.
fn widened(p: &Passage) -> Passage {
    let slack = 8 + p.b_len() / 8;
    Passage { b_start: p.b_start.saturating_sub(slack), b_end: p.b_end + slack, ..p.clone() }
}

/// The parts of `p` before and after suspect characters `taken` that hold `min_chars`.
fn around(p: &Passage, taken: (u32, u32), min_chars: usize) -> Vec<Passage> {
    [(p.a_start, taken.0.max(p.a_start)), (taken.1.min(p.a_end), p.a_end)]
        .into_iter()
        .filter(|&(a0, a1)| a1 > a0 && (a1 - a0) as usize >= min_chars)
        .map(|span| Passage { alternatives: Vec::new(), ..p.part(span) })
        .collect()
}

/// How far either way of its place by proportion [`places_holding`] looks for a part's
/// text in the reference side of a longer passage: about a paragraph, as far as the
/// sentences of a reordered copy move.
const REORDER_REACH: u32 = 2000;

/// Where `host` may hold its suspect characters `both`: its reference side cut in
/// proportion ([`widened`]), then the windows of that width [`REORDER_REACH`] either way
/// within the host's reference side, a quarter of the part apart. A passage found whole
/// over a reordered copy holds each sentence somewhere in its reference side, not where
/// the proportion puts it.
fn places_holding(host: &Passage, both: (u32, u32)) -> impl Iterator<Item = Passage> {
    let part = Passage { alternatives: Vec::new(), ..widened(&host.part(both)) };
    let width = part.b_len();
    let step = ((both.1 - both.0) / 4).max(1) as usize;
    let first = host.b_start.max(part.b_start.saturating_sub(REORDER_REACH));
    let last = host.b_end.min(part.b_end.saturating_add(REORDER_REACH)).saturating_sub(width);
    let window = part.clone();
    let windows =
        (first..=last).step_by(step).map(move |b_start| Passage { b_start, b_end: b_start + width, ..window.clone() });
    std::iter::once(part).chain(windows)
}

/// An alternative of a passage of reference `b`, moved to another reference's passage:
/// one in `b` itself now names it.
fn named(a: &Alternative, b: usize) -> Alternative {
    Alternative { reference: a.reference.or(Some(b)), ..*a }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(b: usize, passages: Vec<Passage>) -> Pair {
        Pair {
            a: 0,
            b,
            score: 0.0,
            score_b: 0.0,
            simhash_distance: None,
            passages,
            longest: 0,
            shared_sentences: 0,
            near_duplicate: false,
        }
    }

    #[test]
    fn text_found_in_two_references_is_shown_against_the_better_twin() {
        let mut pairs = vec![
            pair(1, vec![Passage::copied((50, 120), (800, 870))]),
            pair(2, vec![Passage::copied((0, 2000), (0, 2000)), Passage::copied((3000, 3100), (3000, 3100))]),
        ];
        assert_eq!(fold_across_pairs(&mut pairs, 40, |_, p| p.a_len() as usize), vec![true, false]);
        assert!(pairs[0].passages.is_empty());
        assert_eq!(pairs[1].passages[0].alternatives[0].reference, Some(1));
        assert_eq!(pairs[1].passages.len(), 2);
    }

    #[test]
    fn a_passage_found_whole_over_a_reordered_copy_keeps_a_sentence_it_holds_elsewhere() {
        // Reference 1's passage covers a reordered copy: the suspect's 400..460 is its
        // 100..160, not the 400..460 that the proportion says. Reference 2 holds that
        // sentence word for word too.
        let mut pairs = vec![
            pair(1, vec![Passage::copied((0, 1000), (0, 1000))]),
            pair(2, vec![Passage::copied((400, 460), (700, 760))]),
        ];
        let closeness = |i: usize, p: &Passage| {
            let found = if i == 0 { (100, 160) } else { (700, 760) };
            p.b_end.min(found.1).saturating_sub(p.b_start.max(found.0)) as usize
        };
        assert_eq!(fold_across_pairs(&mut pairs, 40, closeness), vec![false, true]);
        assert_eq!(pairs[0].passages.len(), 1);
        assert_eq!((pairs[0].passages[0].a_start, pairs[0].passages[0].a_end), (0, 1000));
        assert!(pairs[1].passages.is_empty());
        // Held nowhere in its reference side, the sentence goes to the other reference.
        let mut pairs = vec![
            pair(1, vec![Passage::copied((0, 1000), (0, 1000))]),
            pair(2, vec![Passage::copied((400, 460), (700, 760))]),
        ];
        let only_two = |i: usize, p: &Passage| {
            let the_sentence = p.a_start >= 400 && p.a_end <= 460;
            if i == 0 && the_sentence { 0 } else { p.a_len() as usize }
        };
        assert_eq!(fold_across_pairs(&mut pairs, 40, only_two), vec![true, false]);
        assert_eq!(pairs[0].passages.len(), 2);
    }

    #[test]
    fn of_equally_close_twins_the_source_of_the_copy_around_them_wins() {
        // A sentence both references hold word for word, in the middle of a copy of the
        // second one (its pieces around the sentence): the second takes it too, though the
        // first comes first by number.
        let mut pairs = vec![
            pair(1, vec![Passage::copied((100, 160), (500, 560))]),
            pair(2, vec![Passage::copied((0, 100), (0, 100)), Passage::copied((100, 160), (300, 360))]),
        ];
        let same = |_: usize, p: &Passage| p.a_len() as usize;
        assert_eq!(fold_across_pairs(&mut pairs, 40, same), vec![true, false]);
        assert!(pairs[0].passages.is_empty());
        assert_eq!(pairs[1].passages.len(), 2);
        assert_eq!(pairs[1].passages[1].alternatives[0].reference, Some(1));
    }

    #[test]
    fn a_span_in_two_references_is_shown_against_the_closer_one() {
        // The second reference's twin is longer (another word in it) but matches worse.
        let mut pairs = vec![
            pair(1, vec![Passage::copied((0, 125), (900, 1025))]),
            pair(2, vec![Passage::copied((0, 125), (300, 426))]),
        ];
        let closeness = |i: usize, _: &Passage| if i == 0 { 123 } else { 110 };
        assert_eq!(fold_across_pairs(&mut pairs, 40, closeness), vec![false, true]);
        assert_eq!(pairs[0].passages[0].alternatives[0].reference, Some(2));
        assert!(pairs[1].passages.is_empty());
        // Without rivals, closeness is never asked.
        let mut alone = vec![pair(1, vec![Passage::copied((0, 125), (900, 1025))])];
        let asked = std::cell::Cell::new(0);
        let count = |_: usize, _: &Passage| {
            asked.set(asked.get() + 1);
            0
        };
        assert_eq!(fold_across_pairs(&mut alone, 40, count), vec![false]);
        assert_eq!(asked.get(), 0);
    }

    #[test]
    fn a_piece_matched_clearly_closer_by_its_own_source_is_cut_out_of_a_longer_passage() {
        // Reference 1 holds near twins of pieces the suspect took from references 2 and 3;
        // its passage is the longest, but each source matches its piece exactly. Reference 4
        // matches its piece no better than reference 1 does.
        let mut pairs = vec![
            pair(1, vec![Passage::copied((0, 300), (1000, 1300))]),
            pair(2, vec![Passage::copied((0, 100), (50, 150))]),
            pair(3, vec![Passage::copied((100, 200), (500, 600))]),
            pair(4, vec![Passage::copied((200, 260), (70, 130))]),
        ];
        // Reference 1's text matches four in five of any span; the sources match all of it.
        let closeness =
            |i: usize, p: &Passage| if i == 0 || i == 3 { p.a_len() as usize * 4 / 5 } else { p.a_len() as usize };
        assert_eq!(fold_across_pairs(&mut pairs, 40, closeness), vec![true, false, false, true]);
        let spans = |p: &Pair| p.passages.iter().map(|p| (p.a_start, p.a_end)).collect::<Vec<_>>();
        assert_eq!(spans(&pairs[1]), vec![(0, 100)]);
        assert_eq!(spans(&pairs[2]), vec![(100, 200)]);
        // Reference 4's piece lies inside what reference 1 keeps, an alternative there.
        assert_eq!(spans(&pairs[0]), vec![(200, 300)]);
        assert_eq!((pairs[0].passages[0].b_start, pairs[0].passages[0].b_end), (1200, 1300));
        assert!(pairs[0].passages[0].alternatives.iter().any(|a| a.reference == Some(4)));
        assert!(pairs[1].passages[0].alternatives.iter().any(|a| a.reference == Some(1)));
        // A tie leaves the longer passage whole.
        let mut tie = vec![
            pair(1, vec![Passage::copied((0, 300), (1000, 1300))]),
            pair(2, vec![Passage::copied((0, 100), (50, 150))]),
        ];
        assert_eq!(fold_across_pairs(&mut tie, 40, |_, p| p.a_len() as usize), vec![false, true]);
        assert_eq!(spans(&tie[0]), vec![(0, 300)]);
    }
}

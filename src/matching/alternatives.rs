//! One suspect span, one passage: when a reference repeats itself, the same suspect text
//! aligns to several places of it. The best twin (the longest alignment) keeps the
//! passage; the other places become its alternatives, listed but never counted again.

use crate::model::{Alternative, Pair, Passage};

/// Folds passages of one pair whose suspect spans overlap: the one with the most
/// characters on both sides is kept, a passage mostly inside it becomes one of its
/// alternatives, and a passage that only touches it keeps the part of its suspect span
/// outside (its reference span cut in proportion) when that part still holds
/// `min_chars`. Returns passages sorted by suspect offset, no two overlapping on the
/// suspect side.
pub fn fold_alternatives(mut passages: Vec<Passage>, min_chars: usize) -> Vec<Passage> {
    if passages.len() < 2 {
        return passages;
    }
    passages.sort_by_key(|p| (std::cmp::Reverse(p.a_len() + p.b_len()), p.a_start, p.b_start));
    let mut kept: Vec<Passage> = Vec::with_capacity(passages.len());
    for mut p in passages {
        loop {
            let Some((i, overlap)) = kept
                .iter()
                .enumerate()
                .map(|(i, k)| (i, p.a_end.min(k.a_end).saturating_sub(p.a_start.max(k.a_start))))
                .filter(|&(_, o)| o > 0)
                .max_by_key(|&(i, o)| (o, std::cmp::Reverse(i)))
            else {
                kept.push(p);
                break;
            };
            let host = &kept[i];
            match trimmed(&p, (host.a_start, host.a_end), min_chars) {
                Some(rest) if overlap * 2 < p.a_len() => p = rest,
                _ => {
                    let alternative = Alternative {
                        a_start: p.a_start,
                        a_end: p.a_end,
                        b_start: p.b_start,
                        b_end: p.b_end,
                        reference: None,
                    };
                    kept[i].alternatives.push(alternative);
                    kept[i].alternatives.extend(p.alternatives);
                    break;
                }
            }
        }
    }
    for k in &mut kept {
        k.alternatives.sort_unstable();
        k.alternatives.dedup();
    }
    kept.sort_by_key(|p| (p.a_start, p.b_start));
    kept
}

/// Folds passages of different pairs of one suspect: a passage whose suspect side lies
/// at least half inside a closer passage of another pair becomes an alternative of that
/// passage (naming its reference). Where passages of different pairs overlap, the one
/// that matches its suspect text most closely (`closeness(pair index, passage)`, see
/// [`super::closeness`]) comes first; then the longer. Returns, per pair, whether its
/// passages changed.
pub fn fold_across_pairs(pairs: &mut [Pair], closeness: impl Fn(usize, &Passage) -> usize) -> Vec<bool> {
    let order = closest_first(pairs, closeness);
    let mut kept: Vec<(usize, usize)> = Vec::new();
    let mut moved: Vec<((usize, usize), (usize, usize))> = Vec::new();
    for (i, j) in order {
        let p = &pairs[i].passages[j];
        let host = kept.iter().copied().find(|&(ki, kj)| {
            let k = &pairs[ki].passages[kj];
            ki != i && 2 * p.a_end.min(k.a_end).saturating_sub(p.a_start.max(k.a_start)) >= p.a_len()
        });
        match host {
            Some(host) => moved.push(((i, j), host)),
            None => kept.push((i, j)),
        }
    }
    let mut changed = vec![false; pairs.len()];
    for &((i, j), (hi, hj)) in &moved {
        let p = &pairs[i].passages[j];
        let alternative = Alternative {
            a_start: p.a_start,
            a_end: p.a_end,
            b_start: p.b_start,
            b_end: p.b_end,
            reference: Some(pairs[i].b),
        };
        let mut more: Vec<Alternative> =
            p.alternatives.iter().map(|a| Alternative { reference: Some(pairs[i].b), ..*a }).collect();
        let host = &mut pairs[hi].passages[hj];
        host.alternatives.push(alternative);
        host.alternatives.append(&mut more);
        host.alternatives.sort_unstable();
        changed[i] = true;
    }
    let mut gone: Vec<(usize, usize)> = moved.iter().map(|m| m.0).collect();
    gone.sort_unstable();
    for &(i, j) in gone.iter().rev() {
        pairs[i].passages.remove(j);
    }
    changed
}

/// Every passage of `pairs` as (pair index, passage index): those whose suspect side
/// overlaps a passage of another pair by `closeness`, highest first, then by the
/// characters of both sides, most first. Closeness is asked only of those: the order of
/// a passage without a rival changes nothing.
fn closest_first(pairs: &[Pair], closeness: impl Fn(usize, &Passage) -> usize) -> Vec<(usize, usize)> {
    use std::cmp::Reverse;
    let rivalled = |i: usize, p: &Passage| {
        pairs
            .iter()
            .enumerate()
            .any(|(k, other)| k != i && other.passages.iter().any(|o| o.a_start < p.a_end && p.a_start < o.a_end))
    };
    let mut order: Vec<(usize, usize)> =
        pairs.iter().enumerate().flat_map(|(i, pair)| (0..pair.passages.len()).map(move |j| (i, j))).collect();
    order.sort_by_cached_key(|&(i, j)| {
        let p = &pairs[i].passages[j];
        let close = if rivalled(i, p) { closeness(i, p) } else { 0 };
        (Reverse(close), Reverse(p.a_len() + p.b_len()), pairs[i].b, p.a_start, j)
    });
    order
}

/// The part of `p` whose suspect side lies outside `taken`, its reference side cut in
/// the same proportion; `None` when that part is shorter than `min_chars` or lies on
/// both sides of `taken`.
fn trimmed(p: &Passage, taken: (u32, u32), min_chars: usize) -> Option<Passage> {
    let (a0, a1) = if p.a_start < taken.0 && p.a_end <= taken.1 {
        (p.a_start, taken.0)
    } else if p.a_end > taken.1 && p.a_start >= taken.0 {
        (taken.1, p.a_end)
    } else {
        return None;
    };
    if ((a1 - a0) as usize) < min_chars {
        return None;
    }
    let scale = |x: u32| -> u32 {
        let share = f64::from(x - p.a_start) / f64::from(p.a_len().max(1));
        p.b_start + (share * f64::from(p.b_len())).round() as u32
    };
    Some(Passage { a_start: a0, a_end: a1, b_start: scale(a0), b_end: scale(a1).max(scale(a0) + 1), ..p.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_aligned_twice_is_one_passage_with_an_alternative() {
        let best = Passage::copied((100, 200), (1000, 1100));
        let other = Passage::copied((110, 190), (5000, 5080));
        let apart = Passage::copied((400, 480), (2000, 2080));
        let folded = fold_alternatives(vec![other, apart.clone(), best], 40);
        assert_eq!(folded.len(), 2, "{folded:?}");
        assert_eq!((folded[0].a_start, folded[0].b_start), (100, 1000));
        assert_eq!(
            folded[0].alternatives,
            vec![Alternative { a_start: 110, a_end: 190, b_start: 5000, b_end: 5080, reference: None }]
        );
        assert_eq!(folded[1], apart);
    }

    #[test]
    fn text_found_in_two_references_is_shown_against_the_better_twin() {
        let pair = |b: usize, passages: Vec<Passage>| Pair {
            a: 0,
            b,
            score: 0.0,
            score_b: 0.0,
            simhash_distance: None,
            passages,
            longest: 0,
            shared_sentences: 0,
            near_duplicate: false,
        };
        let mut pairs = vec![
            pair(1, vec![Passage::copied((50, 120), (800, 870))]),
            pair(2, vec![Passage::copied((0, 2000), (0, 2000)), Passage::copied((3000, 3100), (3000, 3100))]),
        ];
        assert_eq!(fold_across_pairs(&mut pairs, |_, p| p.a_len() as usize), vec![true, false]);
        assert!(pairs[0].passages.is_empty());
        assert_eq!(pairs[1].passages[0].alternatives[0].reference, Some(1));
        assert_eq!(pairs[1].passages.len(), 2);
    }

    #[test]
    fn a_span_in_two_references_is_shown_against_the_closer_one() {
        let pair = |b, passages| Pair {
            a: 0,
            b,
            score: 0.0,
            score_b: 0.0,
            simhash_distance: None,
            passages,
            longest: 0,
            shared_sentences: 0,
            near_duplicate: false,
        };
        // The second reference's twin is longer (another word in it) but matches worse.
        let mut pairs = vec![
            pair(1, vec![Passage::copied((0, 125), (900, 1025))]),
            pair(2, vec![Passage::copied((0, 125), (300, 426))]),
        ];
        let closeness = |i: usize, _: &Passage| if i == 0 { 123 } else { 110 };
        assert_eq!(fold_across_pairs(&mut pairs, closeness), vec![false, true]);
        assert_eq!(pairs[0].passages[0].alternatives[0].reference, Some(2));
        assert!(pairs[1].passages.is_empty());
        // Without rivals, closeness is never asked.
        let mut alone = vec![pair(1, vec![Passage::copied((0, 125), (900, 1025))])];
        let asked = std::cell::Cell::new(0);
        let count = |_: usize, _: &Passage| {
            asked.set(asked.get() + 1);
            0
        };
        assert_eq!(fold_across_pairs(&mut alone, count), vec![false]);
        assert_eq!(asked.get(), 0);
    }

    #[test]
    fn a_passage_that_only_touches_keeps_its_own_part() {
        let first = Passage::copied((0, 200), (0, 200));
        let second = Passage::copied((180, 380), (900, 1100));
        let folded = fold_alternatives(vec![first, second], 40);
        assert_eq!(folded.len(), 2, "{folded:?}");
        assert_eq!((folded[1].a_start, folded[1].a_end), (200, 380));
        assert_eq!((folded[1].b_start, folded[1].b_end), (920, 1100));
        assert!(folded.windows(2).all(|w| w[0].a_end <= w[1].a_start));
    }
}

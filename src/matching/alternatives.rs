//! One suspect span, one passage: when a reference repeats itself, the same suspect text
//! aligns to several places of it. The best twin (the one matching the suspect's text
//! most closely, then the longest) keeps the passage; the other places become its
//! alternatives, listed but never counted again.

use crate::model::Passage;

/// Folds passages of one pair whose suspect spans overlap: the one that matches most
/// closely (`closeness`, see [`super::closeness`]; asked only of passages that overlap
/// another), then the one with the most characters on both sides, is kept (shown against
/// an equally close twin whose reference text no other passage took, if one is there); a passage
/// mostly inside it becomes one of its alternatives, and a passage that only touches it
/// keeps the part of its suspect span outside (its reference span cut in proportion)
/// when that part still holds `min_chars`. Returns passages sorted by suspect offset, no
/// two overlapping on the suspect side.
pub fn fold_alternatives(
    passages: Vec<Passage>,
    min_chars: usize,
    closeness: impl Fn(&Passage) -> usize,
) -> Vec<Passage> {
    use std::cmp::Reverse;
    if passages.len() < 2 {
        return passages;
    }
    let rivalled = |p: &Passage| passages.iter().any(|q| q != p && suspect_overlap(p, q) > 0);
    let close: Vec<usize> = passages.iter().map(|p| if rivalled(p) { closeness(p) } else { 0 }).collect();
    let mut ranked: Vec<(usize, Passage)> = close.into_iter().zip(passages).collect();
    ranked.sort_by_key(|(close, p)| (Reverse(*close), Reverse(p.a_len() + p.b_len()), p.a_start, p.b_start));
    let passages: Vec<Passage> = ranked.into_iter().map(|(_, p)| p).collect();
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
                    kept[i].alternatives.push(p.as_alternative(None));
                    kept[i].alternatives.extend(p.alternatives);
                    break;
                }
            }
        }
    }
    prefer_unclaimed_twins(&mut kept, &closeness);
    for k in &mut kept {
        k.alternatives.sort_unstable();
        k.alternatives.dedup();
    }
    kept.sort_by_key(|p| (p.a_start, p.b_start));
    kept
}

/// Where at least half of a kept passage's reference text is also the source of other
/// kept passages and a twin of it in the same reference, over the same suspect text and
/// as close, is the source of hardly any (a tenth at most), the twin is shown instead: a
/// reference that repeats an entry (a changelog) had each copy of it copied once.
fn prefer_unclaimed_twins(kept: &mut [Passage], closeness: &impl Fn(&Passage) -> usize) {
    for i in 0..kept.len() {
        let claimed_by_others = |p: &Passage| -> u32 {
            kept.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, q)| reference_overlap(p, q)).sum()
        };
        let claimed = claimed_by_others(&kept[i]);
        if claimed * 2 < kept[i].b_len() {
            continue;
        }
        let current = &kept[i];
        let close = closeness(current);
        let twin = current
            .alternatives
            .iter()
            .enumerate()
            .filter(|(_, a)| a.reference.is_none() && (a.a_start, a.a_end) == (current.a_start, current.a_end))
            .map(|(n, a)| {
                let twin = Passage { b_start: a.b_start, b_end: a.b_end, alternatives: Vec::new(), ..current.clone() };
                (n, claimed_by_others(&twin), twin)
            })
            .filter(|(_, taken, twin)| taken * 10 <= twin.b_len() && closeness(twin) >= close)
            .min_by_key(|(_, taken, twin)| (*taken, twin.b_start));
        if let Some((n, _, twin)) = twin {
            let host = &mut kept[i];
            let replaced = host.as_alternative(None);
            host.alternatives[n] = replaced;
            (host.b_start, host.b_end) = (twin.b_start, twin.b_end);
        }
    }
}

/// Reference characters that `p` and `q` both cover.
fn reference_overlap(p: &Passage, q: &Passage) -> u32 {
    p.b_end.min(q.b_end).saturating_sub(p.b_start.max(q.b_start))
}

/// Suspect characters that `p` and `q` both cover.
fn suspect_overlap(p: &Passage, q: &Passage) -> u32 {
    p.a_end.min(q.a_end).saturating_sub(p.a_start.max(q.a_start))
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
    Some(p.part((a0, a1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Alternative;

    #[test]
    fn a_span_aligned_twice_is_one_passage_with_an_alternative() {
        let best = Passage::copied((100, 200), (1000, 1100));
        let other = Passage::copied((110, 190), (5000, 5080));
        let apart = Passage::copied((400, 480), (2000, 2080));
        let folded = fold_alternatives(vec![other, apart.clone(), best], 40, |_| 0);
        assert_eq!(folded.len(), 2, "{folded:?}");
        assert_eq!((folded[0].a_start, folded[0].b_start), (100, 1000));
        assert_eq!(
            folded[0].alternatives,
            vec![Alternative { a_start: 110, a_end: 190, b_start: 5000, b_end: 5080, reference: None }]
        );
        assert_eq!(folded[1], apart);
    }

    #[test]
    fn the_closer_twin_wins_over_a_longer_one() {
        let exact = Passage::copied((100, 279), (1750, 1929));
        let longer = Passage::copied((100, 278), (1079, 1269));
        let closeness = |p: &Passage| if p.b_start == 1750 { 177 } else { 160 };
        let folded = fold_alternatives(vec![longer, exact], 40, closeness);
        assert_eq!(folded.len(), 1, "{folded:?}");
        assert_eq!((folded[0].b_start, folded[0].alternatives[0].b_start), (1750, 1079));
    }

    #[test]
    fn of_equal_twins_the_one_whose_reference_text_no_other_copy_took_wins() {
        // The reference holds an entry twice (651..922 and 1704..1976); another copy in
        // the suspect took 211..922.
        let other_copy = Passage::copied((3255, 3965), (211, 922));
        let first_twin = Passage::copied((2253, 2545), (651, 922));
        let second_twin = Passage::copied((2253, 2545), (1704, 1975));
        let folded = fold_alternatives(vec![first_twin, second_twin, other_copy], 40, |_| 290);
        assert_eq!(folded.len(), 2, "{folded:?}");
        assert_eq!((folded[0].b_start, folded[0].alternatives[0].b_start), (1704, 651));
    }

    #[test]
    fn a_passage_that_only_touches_keeps_its_own_part() {
        let first = Passage::copied((0, 200), (0, 200));
        let second = Passage::copied((180, 380), (900, 1100));
        let folded = fold_alternatives(vec![first, second], 40, |_| 0);
        assert_eq!(folded.len(), 2, "{folded:?}");
        assert_eq!((folded[1].a_start, folded[1].a_end), (200, 380));
        assert_eq!((folded[1].b_start, folded[1].b_end), (920, 1100));
        assert!(folded.windows(2).all(|w| w[0].a_end <= w[1].a_start));
    }
}

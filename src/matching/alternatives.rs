//! One suspect span, one passage: when a reference repeats itself, the same suspect text
//! aligns to several places of it. The best twin (the one matching the suspect's text
//! most closely, then the longest) keeps the passage; the other places become its
//! alternatives, listed but never counted again.

use crate::model::Passage;

/// Folds passages of one pair whose suspect spans overlap: the one that matches most
/// closely (`closeness`, see [`super::closeness`]; asked only of passages that overlap
/// another), then the one with the most characters on both sides, is kept; a passage
/// mostly inside it becomes one of its alternatives, and a passage that only touches it
/// keeps the part of its suspect span outside (its reference span cut in proportion)
/// when that part still holds `min_chars`. Returns passages sorted by suspect offset, no
/// two overlapping on the suspect side.
pub fn fold_alternatives(
    mut passages: Vec<Passage>,
    min_chars: usize,
    closeness: impl Fn(&Passage) -> usize,
) -> Vec<Passage> {
    use std::cmp::Reverse;
    if passages.len() < 2 {
        return passages;
    }
    let rivalled: Vec<bool> = passages
        .iter()
        .enumerate()
        .map(|(i, p)| passages.iter().enumerate().any(|(j, q)| j != i && p.a_start < q.a_end && q.a_start < p.a_end))
        .collect();
    let mut ranked: Vec<(usize, Passage)> = passages
        .into_iter()
        .zip(rivalled)
        .map(|(p, rivalled)| (if rivalled { closeness(&p) } else { 0 }, p))
        .collect();
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
    for k in &mut kept {
        k.alternatives.sort_unstable();
        k.alternatives.dedup();
    }
    kept.sort_by_key(|p| (p.a_start, p.b_start));
    kept
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

//! One suspect span, one passage: when a reference repeats itself, the same suspect text
//! aligns to several places of it. The best twin (the longest alignment) keeps the
//! passage; the other places become its alternatives, listed but never counted again.

use crate::model::Passage;

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

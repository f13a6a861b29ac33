//! Groups seeds that lie near each other on both sides: split the seeds wherever the
//! suspect side has a gap wider than allowed, then split each part wherever the reference
//! side has such a gap, and repeat until nothing splits. Sentences copied in another
//! order stay in one group because they stay close on both sides.

/// A rectangle of matched characters: `[a0, a1)` on the suspect side, `[b0, b1)` on the
/// reference side.
pub trait Spanned {
    fn a_span(&self) -> (u32, u32);
    fn b_span(&self) -> (u32, u32);
}

/// Splits `items` into groups in which no gap between neighbours exceeds `max_gap_a`
/// characters on the suspect side or `max_gap_b` on the reference side.
pub fn cluster<T: Spanned + Clone>(items: Vec<T>, max_gap_a: u32, max_gap_b: u32) -> Vec<Vec<T>> {
    let mut done: Vec<Vec<T>> = Vec::new();
    let mut pending: Vec<Vec<T>> = vec![items];
    while let Some(group) = pending.pop() {
        if group.is_empty() {
            continue;
        }
        let by_a = split_on_gaps(group, max_gap_a, |t| t.a_span());
        if by_a.len() > 1 {
            pending.extend(by_a);
            continue;
        }
        let Some(group) = by_a.into_iter().next() else {
            continue;
        };
        let by_b = split_on_gaps(group, max_gap_b, |t| t.b_span());
        if by_b.len() > 1 {
            pending.extend(by_b);
        } else {
            done.extend(by_b);
        }
    }
    done.sort_by_key(|g| g.iter().map(|t| t.a_span().0).min());
    done
}

fn split_on_gaps<T: Spanned>(mut group: Vec<T>, max_gap: u32, span: impl Fn(&T) -> (u32, u32)) -> Vec<Vec<T>> {
    group.sort_by_key(|t| span(t));
    let mut parts: Vec<Vec<T>> = Vec::new();
    let mut reach = 0u32;
    for item in group {
        let (start, end) = span(&item);
        match parts.last_mut() {
            Some(part) if start <= reach.saturating_add(max_gap) => {
                part.push(item);
                reach = reach.max(end);
            }
            _ => {
                parts.push(vec![item]);
                reach = end;
            }
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    struct R(u32, u32, u32, u32);
    impl Spanned for R {
        fn a_span(&self) -> (u32, u32) {
            (self.0, self.1)
        }
        fn b_span(&self) -> (u32, u32) {
            (self.2, self.3)
        }
    }

    #[test]
    fn reordered_neighbours_stay_together_and_far_ones_split() {
        let seeds = vec![
            R(0, 10, 110, 120),
            R(12, 22, 100, 110),
            R(24, 30, 121, 130),
            R(500, 510, 300, 310),
            R(31, 40, 900, 910),
        ];
        let groups = cluster(seeds, 20, 20);
        let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![3, 1, 1]);
        assert!(groups[0].contains(&R(12, 22, 100, 110)));
    }

    #[test]
    fn empty_input_gives_no_groups() {
        assert!(cluster(Vec::<R>::new(), 5, 5).is_empty());
    }
}

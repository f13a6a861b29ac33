//! Near-duplicate groups: the connected components of the near-duplicate pairs.

/// Groups of documents linked by near-duplicate pairs, each sorted, largest group first.
pub fn near_duplicate_groups(pairs: &[[usize; 2]]) -> Vec<Vec<usize>> {
    let n = pairs.iter().flatten().max().map_or(0, |m| m + 1);
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for &[a, b] in pairs {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra != rb {
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    let mut members: std::collections::BTreeMap<usize, Vec<usize>> = std::collections::BTreeMap::new();
    for &x in pairs.iter().flatten() {
        let r = root(&mut parent, x);
        members.entry(r).or_default().push(x);
    }
    let mut groups: Vec<Vec<usize>> = members
        .into_values()
        .map(|mut g| {
            g.sort_unstable();
            g.dedup();
            g
        })
        .collect();
    groups.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_join_into_one_group() {
        assert_eq!(near_duplicate_groups(&[[0, 5], [5, 2], [7, 8]]), vec![vec![0, 2, 5], vec![7, 8]]);
        assert!(near_duplicate_groups(&[]).is_empty());
    }
}

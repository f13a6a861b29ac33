//! How far apart the two sides of a short copy may be: edits counted by a banded
//! Levenshtein distance. A short passage found without long exact runs (the character
//! grams of Latin text, the dense pass over Chinese text) is a copy when few enough edits
//! set its sides apart, and long enough not to be a shared phrase.

/// A short copy's two sides may differ by at most this share of edits (edit distance over
/// the longer side): a typo every ten characters is 0.1, light edits less.
pub const MAX_EDIT_SHARE: f64 = 0.2;
/// A short copy found this way needs this many times the minimum passage length: host
/// text on the reference's subject shares commands and package lists of about the
/// minimum length, a copied sentence is longer.
pub const SHORT_COPY_LENGTH_FACTOR: f64 = 1.2;

/// The edits between `x` (suspect side) and `y` (reference side) when they are few
/// enough for a copy: at most [`MAX_EDIT_SHARE`] of the longer side.
#[expect(clippy::cast_possible_truncation, reason = "a share of a length held in memory; `as` saturates")]
pub fn copy_edits_between(x: &[char], y: &[char]) -> Option<usize> {
    let longer = x.len().max(y.len());
    edit_distance_within(x, y, (MAX_EDIT_SHARE * longer as f64) as usize)
}

/// The Levenshtein distance of `x` and `y` when it is at most `limit`, computed in a band
/// of `limit` diagonals; `None` beyond.
fn edit_distance_within(x: &[char], y: &[char], limit: usize) -> Option<usize> {
    if x.len().abs_diff(y.len()) > limit {
        return None;
    }
    const FAR: usize = usize::MAX / 2;
    let mut previous: Vec<usize> = (0..=y.len()).map(|j| if j <= limit { j } else { FAR }).collect();
    let mut row = vec![FAR; y.len() + 1];
    for i in 1..=x.len() {
        let lo = i.saturating_sub(limit);
        let hi = (i + limit).min(y.len());
        row.iter_mut().for_each(|c| *c = FAR);
        if lo == 0 {
            row[0] = i;
        }
        let mut best = row[0];
        for j in lo.max(1)..=hi {
            let substitute = previous[j - 1] + usize::from(x[i - 1] != y[j - 1]);
            let cell = substitute.min(previous[j] + 1).min(row[j - 1] + 1);
            row[j] = cell;
            best = best.min(cell);
        }
        if best > limit {
            return None;
        }
        std::mem::swap(&mut previous, &mut row);
    }
    Some(previous[y.len()]).filter(|&d| d <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn edit_distance_is_exact_within_its_limit() {
        assert_eq!(edit_distance_within(&chars("kitten"), &chars("sitting"), 3), Some(3));
        assert_eq!(edit_distance_within(&chars("kitten"), &chars("sitting"), 2), None);
        assert_eq!(edit_distance_within(&chars(""), &chars("ab"), 2), Some(2));
        assert_eq!(edit_distance_within(&chars("abcdefgh"), &chars("abcdefgh"), 0), Some(0));
    }

    #[test]
    fn a_copy_allows_an_edit_in_five_characters() {
        let copy = chars("程序会根据您的环境变量确定相应的手册路径");
        let edited = chars("程序会根您据的环境变量确定相的手册路径");
        assert_eq!(copy_edits_between(&edited, &copy), Some(3));
        assert_eq!(copy_edits_between(&chars("完全不同的一段文字内容"), &copy), None);
    }
}

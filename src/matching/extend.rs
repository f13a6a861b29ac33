//! Extends a passage beyond its last (or before its first) exact seed with a banded,
//! gapped X-drop alignment, so that edited words at a passage's ends still belong to it.
//! The alignment stops where the score falls `x_drop` below its best: in unrelated text
//! the score sinks at once, so a passage grows only over text that still aligns.

/// How many normalized characters an end may grow at most, as positions count them.
pub const MAX_EXTENSION_LEN: u32 = 400;
/// How many normalized characters an end may grow at most.
pub const MAX_EXTENSION: usize = MAX_EXTENSION_LEN as usize;
/// Diagonals the alignment may drift from the start (insertions minus deletions).
const BAND: usize = 6;
const MATCH: i32 = 1;
const MISMATCH: i32 = -1;
const GAP: i32 = -1;
/// An extension must gain at least this score: one or two characters that happen to
/// agree next to a passage are chance, not copying.
const MIN_GAIN: i32 = 4;

/// The best alignment of a prefix of `a` with a prefix of `b`: how many characters of
/// each it covers. `(0, 0)` when the best alignment gains less than `MIN_GAIN`.
pub fn extend(a: &[char], b: &[char], x_drop: i32) -> (usize, usize) {
    let (n, m) = (a.len().min(MAX_EXTENSION), b.len().min(MAX_EXTENSION));
    let width = 2 * BAND + 1;
    const NONE: i32 = i32::MIN / 4;
    // Row i holds the scores of cells (i, j) for j = i - BAND ..= i + BAND.
    let mut prev = vec![NONE; width];
    let mut row = vec![NONE; width];
    let col = |i: usize, k: usize| (i + k).checked_sub(BAND);
    let mut best = (0i32, 0usize, 0usize);
    for i in 0..=n {
        let mut alive = false;
        for k in 0..width {
            let Some(j) = col(i, k) else {
                row[k] = NONE;
                continue;
            };
            if j > m {
                row[k] = NONE;
                continue;
            }
            let mut score = if i == 0 && j == 0 { 0 } else { NONE };
            if i > 0 && j > 0 {
                // (i-1, j-1) sits at the same k in the previous row.
                let diag = prev[k];
                if diag > NONE {
                    score = score.max(diag + if a[i - 1] == b[j - 1] { MATCH } else { MISMATCH });
                }
            }
            if i > 0 && k + 1 < width && prev[k + 1] > NONE {
                // (i-1, j) is at k+1 in the previous row.
                score = score.max(prev[k + 1] + GAP);
            }
            if k > 0 && row[k - 1] > NONE {
                // (i, j-1) is at k-1 in this row.
                score = score.max(row[k - 1] + GAP);
            }
            if score > NONE && score >= best.0 - x_drop {
                row[k] = score;
                alive = true;
                if score > best.0 {
                    best = (score, i, j);
                }
            } else {
                row[k] = NONE;
            }
        }
        if !alive {
            break;
        }
        std::mem::swap(&mut prev, &mut row);
    }
    if best.0 < MIN_GAIN { (0, 0) } else { (best.1, best.2) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn grows_over_edited_text_and_stops_at_unrelated_text() {
        let a = chars("gbpimfportorg将上游完全不同的内容在这里继续");
        let b = chars("gbpimportorig将上游另外一些毫无关系的文字放在后面");
        let (da, db) = extend(&a, &b, 6);
        assert_eq!((da, db), (16, 16), "{:?}", (da, db));
    }

    #[test]
    fn nothing_aligns_nothing_grows() {
        assert_eq!(extend(&chars("abcdef"), &chars("uvwxyz"), 4), (0, 0));
        assert_eq!(extend(&[], &chars("abc"), 4), (0, 0));
        assert_eq!(extend(&chars("e course"), &chars("e language"), 6), (0, 0));
    }
}

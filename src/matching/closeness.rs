//! How closely the two sides of a passage match: the measure that chooses between twins
//! of one suspect span found in different references.

use rustc_hash::FxHashMap;

/// The character trigrams of `a` (a passage's suspect side, normalized) that `b` (its
/// reference side) holds too, each counted as often as both hold it. An exact copy of
/// n characters scores n − 2; every edit takes up to three trigrams away, and text the
/// suspect does not hold adds nothing, so the twin the suspect was copied from scores
/// higher than one that a few words set apart, whatever their lengths.
pub fn shared_trigrams(a: &[char], b: &[char]) -> usize {
    let mut held: FxHashMap<[char; 3], u32> = FxHashMap::default();
    for w in b.windows(3) {
        *held.entry([w[0], w[1], w[2]]).or_default() += 1;
    }
    a.windows(3)
        .filter(|w| match held.get_mut(&[w[0], w[1], w[2]]) {
            Some(count) if *count > 0 => {
                *count -= 1;
                true
            }
            _ => false,
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn the_copied_twin_scores_higher_than_a_longer_one_with_another_word() {
        let suspect = chars("请使用该选项直接向 whatis 提供一个区域字符串");
        let copied = chars("请使用该选项直接向 whatis 提供一个区域字符串");
        let other = chars("请使用该选项直接向 apropos 提供一个区域字符串");
        assert_eq!(shared_trigrams(&suspect, &copied), suspect.len() - 2);
        assert!(shared_trigrams(&suspect, &copied) > shared_trigrams(&suspect, &other));
    }

    #[test]
    fn a_trigram_counts_as_often_as_both_sides_hold_it() {
        assert_eq!(shared_trigrams(&chars("abcabcabc"), &chars("abc")), 1);
        assert_eq!(shared_trigrams(&chars("ab"), &chars("ab")), 0);
    }
}

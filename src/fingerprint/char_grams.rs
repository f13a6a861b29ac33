//! Character grams: runs of [`GRAM_CHARS`] normalized characters of Latin text, taken from
//! the character stream (letters and digits, spaces and punctuation left out). A short
//! English copy with a typo every ten characters or so keeps no run of five intact words,
//! so no word k-gram; it keeps many runs of six intact letters. A reference's grams are
//! winnowed ([`GRAM_WINDOW`]) like its k-grams; a suspect looks up all of its own.
//!
//! Grams holding a Han, Kana or Hangul character are left out: those scripts have their
//! own one-character tokens, and their k-grams already work at that scale.

use crate::hash::fmix64;
use super::winnow::{Fingerprint, winnow};
use crate::normalize::is_single_char_token;

/// Characters in a gram.
pub const GRAM_CHARS: usize = 6;
/// A reference keeps the smallest gram hash of every window of this many grams.
pub const GRAM_WINDOW: usize = 3;
/// A gram hash that is never kept: its gram is not Latin text.
const NO_GRAM: u64 = u64::MAX;

/// The hash of the gram starting at every index of `chars` ([`NO_GRAM`] where the gram
/// holds a character of another script); one entry per gram, `chars.len() - GRAM_CHARS + 1`.
pub fn gram_hashes(chars: &[char]) -> Vec<u64> {
    if chars.len() < GRAM_CHARS {
        return Vec::new();
    }
    // Index of the last character (so far) that no gram may hold.
    let mut blocked: Option<usize> = None;
    let mut out = Vec::with_capacity(chars.len() + 1 - GRAM_CHARS);
    for (end, &c) in chars.iter().enumerate() {
        if is_single_char_token(c) {
            blocked = Some(end);
        }
        let Some(start) = (end + 1).checked_sub(GRAM_CHARS) else { continue };
        if blocked.is_some_and(|b| b >= start) {
            out.push(NO_GRAM);
            continue;
        }
        let h = chars[start..=end].iter().fold(0x6368_6172_6772_616du64, |h, &c| fmix64(h ^ c as u64));
        out.push(if h == NO_GRAM { NO_GRAM - 1 } else { h });
    }
    out
}

/// Whether a gram hash stands for a gram of Latin text.
pub fn is_gram(hash: u64) -> bool {
    hash != NO_GRAM
}

/// The grams a reference keeps: hash and first stream index of each winnowed gram.
pub fn winnowed_grams(chars: &[char]) -> Vec<Fingerprint> {
    let mut kept = winnow(&gram_hashes(chars), GRAM_WINDOW);
    kept.retain(|f| is_gram(f.hash));
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn the_same_letters_make_the_same_grams_and_han_makes_none() {
        let a = gram_hashes(&chars("thepackagemaintainer"));
        let b = gram_hashes(&chars("xxthepackagemaintainer"));
        assert_eq!(a.len(), 15);
        assert_eq!(a[..], b[2..]);
        let mixed = gram_hashes(&chars("abcdef软件ghijkl"));
        assert!(is_gram(mixed[0]) && !is_gram(mixed[1]) && !is_gram(mixed[6]) && is_gram(mixed[8]));
        assert!(winnowed_grams(&chars("软件包管理系统可以帮助用户")).is_empty());
    }

    #[test]
    fn every_run_of_window_plus_gram_letters_is_kept_once_at_least() {
        let text = chars("configurationfilesarekeptacrossupgradesofthepackage");
        let kept = winnowed_grams(&text);
        let run = GRAM_WINDOW + GRAM_CHARS - 1;
        for start in 0..=text.len() - run {
            assert!(
                kept.iter()
                    .any(|f| (f.position as usize) >= start && (f.position as usize) + GRAM_CHARS <= start + run)
            );
        }
    }
}

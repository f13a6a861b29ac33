//! Character grams: runs of [`GRAM_CHARS`] normalized characters of Latin text, taken from
//! the character stream (letters and digits, spaces and punctuation left out). A short
//! English copy with a typo every ten characters or so keeps no run of five intact words,
//! so no word k-gram; it keeps many runs of six intact letters. A reference's grams are
//! winnowed ([`GRAM_WINDOW`]) like its k-grams; a suspect looks up all of its own.
//!
//! Grams holding a Han, Kana or Hangul character are left out: those scripts have their
//! own one-character tokens, and their k-grams already work at that scale.

use super::winnow::Fingerprint;
use crate::hash::fmix64;
use crate::model::saturating_u32;
use crate::normalize::{NormalizeOptions, StreamSink, is_single_char_token, tokenize_into};

/// Characters in a gram, as positions count them.
pub const GRAM_LEN: u32 = 6;
/// Characters in a gram.
pub const GRAM_CHARS: usize = GRAM_LEN as usize;
/// A reference keeps the smallest gram hash of every window of this many grams.
pub const GRAM_WINDOW: usize = 3;
/// A gram hash that is never kept: its gram is not Latin text.
const NO_GRAM: u64 = u64::MAX;

/// The hash of the gram starting at every index of `chars` ([`NO_GRAM`] where the gram
/// holds a character of another script); one entry per gram, `chars.len() - GRAM_CHARS + 1`.
pub fn gram_hashes(chars: &[char]) -> Vec<u64> {
    let mut grams = GramRoller::default();
    let mut out = Vec::with_capacity((chars.len() + 1).saturating_sub(GRAM_CHARS));
    out.extend(chars.iter().filter_map(|&c| grams.push(c)));
    out
}

/// Whether a gram hash stands for a gram of Latin text.
pub fn is_gram(hash: u64) -> bool {
    hash != NO_GRAM
}

/// The grams of a stream, one character at a time: the hash of each gram as its last
/// character comes.
#[derive(Debug, Default)]
struct GramRoller {
    /// The last [`GRAM_CHARS`] characters, the latest last.
    recent: [char; GRAM_CHARS],
    /// Characters seen so far.
    seen: usize,
    /// Characters seen since the last one that no gram may hold (or since the start).
    clear: usize,
}

impl GramRoller {
    /// Takes the next character: the hash of the gram it ends ([`NO_GRAM`] when the gram
    /// holds a character of another script), `None` while fewer than a gram were seen.
    #[inline]
    fn push(&mut self, c: char) -> Option<u64> {
        self.seen += 1;
        self.recent.copy_within(1.., 0);
        self.recent[GRAM_CHARS - 1] = c;
        self.clear = if is_single_char_token(c) { 0 } else { self.clear + 1 };
        if self.seen < GRAM_CHARS {
            return None;
        }
        if self.clear < GRAM_CHARS {
            return Some(NO_GRAM);
        }
        let h = self.recent.iter().fold(0x6368_6172_6772_616du64, |h, &c| fmix64(h ^ c as u64));
        Some(if h == NO_GRAM { NO_GRAM - 1 } else { h })
    }

    /// The index of the gram the last character ended.
    fn last_gram(&self) -> usize {
        self.seen - GRAM_CHARS
    }
}

/// The grams a reference keeps, from its text, in the pass that tokenizes it (what
/// [`crate::fingerprint::DocumentFingerprints::compute_with_char_grams`] keeps).
pub fn grams_of_text(text: &str, options: NormalizeOptions) -> Vec<Fingerprint> {
    let mut grams = GramWinnower::default();
    tokenize_into(text, options, &mut grams);
    grams.finish()
}

/// The grams a reference keeps, taken character by character as its text is scanned
/// ([`crate::normalize::tokenize_into`]): hash and first stream index of each gram left
/// by winnowing its gram hashes ([`winnow`](super::winnow::winnow), window [`GRAM_WINDOW`]), without building
/// the stream. A gram that is not Latin text never takes part: it is never the minimum of
/// a window that holds a Latin one, and never kept.
#[derive(Debug, Default)]
pub struct GramWinnower {
    grams: GramRoller,
    /// Candidate minima of the current window (gram index, hash), hashes strictly
    /// increasing from front to back, as in [`winnow`](super::winnow::winnow).
    window: Vec<(usize, u64)>,
    /// The gram last kept, so that none is kept twice.
    last: Option<usize>,
    kept: Vec<Fingerprint>,
}

impl StreamSink for GramWinnower {
    #[inline]
    fn push(&mut self, _offset: u32, c: char) {
        let Some(hash) = self.grams.push(c) else { return };
        let at = self.grams.last_gram();
        if is_gram(hash) {
            self.next_gram(at, hash);
        } else {
            self.pass_gram(at);
        }
    }
}

impl GramWinnower {
    /// A gram of Latin text at gram index `at`: one step of [`winnow`](super::winnow::winnow).
    fn next_gram(&mut self, at: usize, hash: u64) {
        while self.window.last().is_some_and(|&(_, h)| h >= hash) {
            self.window.pop();
        }
        self.window.push((at, hash));
        self.pass_gram(at);
    }

    /// One step of [`winnow`](super::winnow::winnow) at gram index `at`, past a gram that is not Latin text (or
    /// after a Latin one joined the window): the window moves on and keeps its minimum.
    fn pass_gram(&mut self, at: usize) {
        if self.window.first().is_some_and(|&(i, _)| i + GRAM_WINDOW <= at) {
            self.window.remove(0);
        }
        if at + 1 >= GRAM_WINDOW {
            self.keep_minimum();
        }
    }

    /// Keeps the minimum of the current window unless it was kept already.
    fn keep_minimum(&mut self) {
        if let Some(&(i, hash)) = self.window.first()
            && self.last != Some(i)
        {
            self.kept.push(Fingerprint { hash, position: saturating_u32(i) });
            self.last = Some(i);
        }
    }

    /// The grams kept, ascending by position. A stream of fewer grams than a window keeps
    /// the minimum of them, as [`winnow`](super::winnow::winnow) does.
    pub fn finish(mut self) -> Vec<Fingerprint> {
        let grams = (self.grams.seen + 1).saturating_sub(GRAM_CHARS);
        if grams > 0 && grams < GRAM_WINDOW {
            self.keep_minimum();
        }
        self.kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    /// What a reference keeps, by definition: the winnowing of all its gram hashes.
    fn winnowed_grams(chars: &[char]) -> Vec<Fingerprint> {
        let mut kept = crate::fingerprint::winnow(&gram_hashes(chars), GRAM_WINDOW);
        kept.retain(|f| is_gram(f.hash));
        kept
    }

    /// What the winnower keeps of `chars` handed to it one by one.
    fn streamed(chars: &[char]) -> Vec<Fingerprint> {
        let mut grams = GramWinnower::default();
        for (offset, &c) in (0u32..).zip(chars) {
            grams.push(offset, c);
        }
        grams.finish()
    }

    #[test]
    fn the_same_letters_make_the_same_grams_and_han_makes_none() {
        let a = gram_hashes(&chars("thepackagemaintainer"));
        let b = gram_hashes(&chars("xxthepackagemaintainer"));
        assert_eq!(a.len(), 15);
        assert_eq!(a[..], b[2..]);
        let mixed = gram_hashes(&chars("abcdef软件ghijkl"));
        assert!(is_gram(mixed[0]) && !is_gram(mixed[1]) && !is_gram(mixed[6]) && is_gram(mixed[8]));
        assert!(streamed(&chars("软件包管理系统可以帮助用户")).is_empty());
    }

    #[test]
    fn every_run_of_window_plus_gram_letters_is_kept_once_at_least() {
        let text = chars("configurationfilesarekeptacrossupgradesofthepackage");
        let kept = streamed(&text);
        let run = GRAM_WINDOW + GRAM_CHARS - 1;
        for start in 0..=text.len() - run {
            assert!(
                kept.iter()
                    .any(|f| (f.position as usize) >= start && (f.position as usize) + GRAM_CHARS <= start + run)
            );
        }
    }

    #[test]
    fn the_grams_taken_while_scanning_are_those_of_the_whole_stream() {
        let options = crate::normalize::NormalizeOptions::default();
        let texts = [
            "",
            "abc",
            "abcdefg",
            "Configuration files are kept across upgrades of the package.",
            "软件包 apt-get install 管理系统 dpkg --configure -a 帮助",
            "Ｈｅｌｌｏ wоrld, the pаckage mаnager (Cyrillic а and о) ﬁle ﬂow",
            "ab 软 cdefgh 件 ijklmnopq",
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut random: Vec<String> = Vec::new();
        for _ in 0..200 {
            let mut text = String::new();
            for _ in 0..(state % 90) {
                state = fmix64(state.wrapping_add(0x9e37_79b9_7f4a_7c15));
                text.push(['a', 'b', 'c', ' ', '软', 'X', '.', 'é', 'e'][(state % 9) as usize]);
            }
            random.push(text);
        }
        for text in texts.iter().copied().chain(random.iter().map(String::as_str)) {
            let stream = crate::normalize::char_stream(text, options);
            let mut winnower = GramWinnower::default();
            let tokens = crate::normalize::tokenize_into(text, options, &mut winnower);
            assert_eq!(winnower.finish(), winnowed_grams(&stream.chars), "{text:?}");
            assert_eq!(grams_of_text(text, options), winnowed_grams(&stream.chars), "{text:?}");
            assert_eq!(tokens.tokens, crate::normalize::tokenize(text, options).tokens);
        }
    }
}

//! The bilingual dictionary: Chinese words and English word forms mapped into one space,
//! the English lemma, so that a Chinese passage and its English original share keys.
//! Built once from `assets/meaning/dictionary.txt` (tools/meaning/dictionaries.py) and
//! shared by reference.

use std::ops::Range;
use std::path::Path;

use rustc_hash::FxHashMap;

use super::MeaningError;
use crate::model::saturating_u32;
use crate::normalize::to_simplified;

/// The first line of a dictionary file, before its format version.
const HEADER: &str = "# twinspot meaning dictionary ";

/// The dictionary format this build reads.
pub const DICTIONARY_VERSION: u32 = 1;

/// The dictionary's file name, beside the model.
pub const DICTIONARY_FILE: &str = "dictionary.txt";

/// The longest Chinese word looked up, in characters: longer entries are idioms and
/// names that forward maximum matching would rarely reach.
const MAX_WORD_CHARS: usize = 8;

/// A lemma's number: its place in the dictionary's lemma list.
pub type Lemma = u32;

/// A Chinese word's number: its place among the dictionary's Chinese words
/// ([`Dictionary::entry`] gives back its lemmas).
pub type Entry = u32;

/// One Chinese word found in a text: where it stands (code points of that text), its
/// entry and the lemmas it translates to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChineseWord<'d> {
    pub chars: Range<u32>,
    pub entry: Entry,
    pub lemmas: &'d [Lemma],
}

/// One English word found in a text: where it stands (code points) and its lemma.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnglishWord {
    pub start: u32,
    pub end: u32,
    pub lemma: Lemma,
}

/// The Chinese words and English forms of the dictionary file.
#[derive(Debug, Default)]
pub struct Dictionary {
    lemmas: FxHashMap<Box<str>, Lemma>,
    forms: FxHashMap<Box<str>, Lemma>,
    /// A Chinese word ([`pack`]ed) → its entry, a place in `entries`.
    chinese: FxHashMap<Packed, Entry>,
    /// The longest word (in characters) beginning with each pair of characters that some
    /// word of two or more begins with: the matching looks up no longer word there, and
    /// only a one-character word where no pair is listed.
    longest: FxHashMap<[u16; 2], u8>,
    /// Each Chinese word's lemmas (none for a function word).
    entries: Vec<Box<[Lemma]>>,
}

impl Dictionary {
    /// Reads the dictionary file at `path`.
    pub fn load(path: &Path) -> Result<Self, MeaningError> {
        let text =
            std::fs::read_to_string(path).map_err(|source| MeaningError::Read { path: path.to_path_buf(), source })?;
        Self::parse(&text, path)
    }

    /// Reads the text of a dictionary file; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Self, MeaningError> {
        let damaged = |line: usize, what: &str| MeaningError::Damaged {
            path: path.to_path_buf(),
            what: format!("line {}: {what}", line + 1),
        };
        let mut lines = text.lines().enumerate();
        let version = lines.next().and_then(|(_, first)| first.strip_prefix(HEADER));
        let Some(version) = version else { return Err(MeaningError::NotAModel { path: path.to_path_buf() }) };
        let found = version.trim().parse::<u32>().map_err(|_| damaged(0, "no format version"))?;
        if found != DICTIONARY_VERSION {
            return Err(MeaningError::WrongVersion { path: path.to_path_buf(), found, expected: DICTIONARY_VERSION });
        }
        let mut dictionary = Self::default();
        // room for the words, so that the table is not grown, and held twice, while it fills
        dictionary.chinese.reserve(text.matches("\nZ\t").count());
        let mut lemma_count: usize = 0;
        for (number, line) in lines {
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            let mut fields = line.split('\t');
            match fields.next() {
                Some("L") => {
                    for (place, lemma) in fields.enumerate() {
                        let id = Lemma::try_from(place).map_err(|_| damaged(number, "too many lemmas"))?;
                        dictionary.lemmas.insert(lemma.into(), id);
                    }
                    lemma_count = dictionary.lemmas.len();
                }
                Some("Z") => {
                    let (Some(word), Some(ids)) = (fields.next(), fields.next()) else {
                        return Err(damaged(number, "a Chinese word without its lemmas"));
                    };
                    let ids =
                        parse_ids(ids, lemma_count).ok_or_else(|| damaged(number, "a lemma number out of range"))?;
                    dictionary.add_chinese(word, ids).ok_or_else(|| damaged(number, "too many Chinese words"))?;
                }
                Some("E") => {
                    let (Some(form), Some(id)) = (fields.next(), fields.next()) else {
                        return Err(damaged(number, "an English form without its lemma"));
                    };
                    let ids =
                        parse_ids(id, lemma_count).ok_or_else(|| damaged(number, "a lemma number out of range"))?;
                    let [id] = *ids else { return Err(damaged(number, "an English form with several lemmas")) };
                    dictionary.forms.insert(form.into(), id);
                }
                _ => return Err(damaged(number, "a line of an unknown kind")),
            }
        }
        if dictionary.chinese.is_empty() || dictionary.lemmas.is_empty() {
            return Err(damaged(0, "no Chinese word or no lemma"));
        }
        Ok(dictionary)
    }

    /// Adds a Chinese word and its lemmas (a word listed again keeps its last lemmas; one
    /// the matching never meets, too long or not written in Han characters, is left out);
    /// `None` when there are more words than entry numbers.
    fn add_chinese(&mut self, word: &str, lemmas: Box<[Lemma]>) -> Option<()> {
        let chars: Vec<char> = word.chars().collect();
        let Some(key) = pack(&chars) else { return Some(()) };
        if let Some(&entry) = self.chinese.get(&key) {
            *self.entries.get_mut(usize::try_from(entry).ok()?)? = lemmas;
            return Some(());
        }
        let entry = Entry::try_from(self.entries.len()).ok()?;
        if let ([first, second, ..], Ok(length)) = (&key[..], u8::try_from(chars.len()))
            && chars.len() >= 2
        {
            let longest = self.longest.entry([*first, *second]).or_default();
            *longest = (*longest).max(length);
        }
        self.chinese.insert(key, entry);
        self.entries.push(lemmas);
        Some(())
    }

    /// The lemma of an English word written in lower case, if the dictionary knows it.
    pub fn english(&self, lower: &str) -> Option<Lemma> {
        self.forms.get(lower).or_else(|| self.lemmas.get(lower)).copied()
    }

    /// The lemmas of a simplified Chinese word, if the dictionary holds it.
    pub fn chinese(&self, word: &str) -> Option<&[Lemma]> {
        let word: Vec<char> = word.chars().collect();
        self.chinese.get(&pack(&word)?).map(|&entry| self.entry(entry))
    }

    /// The lemmas of the Chinese word numbered `entry` (none for a number it never gave).
    pub fn entry(&self, entry: Entry) -> &[Lemma] {
        usize::try_from(entry).ok().and_then(|e| self.entries.get(e)).map_or(&[], |ids| &ids[..])
    }

    /// The Chinese words of `text` that the dictionary translates, by forward maximum
    /// matching over each run of Han characters (traditional characters looked up as
    /// simplified ones). Offsets are code points of `text`. Function words are read (their
    /// characters are no other word's) but not given: they translate to nothing.
    pub fn chinese_words(&self, text: &str) -> Vec<ChineseWord<'_>> {
        let mut found = Vec::new();
        let mut run: Vec<char> = Vec::new();
        let mut run_start = 0u32;
        for (position, c) in (0u32..).zip(text.chars()) {
            if is_han(c) {
                if run.is_empty() {
                    run_start = position;
                }
                run.push(to_simplified(c));
            } else if !run.is_empty() {
                self.match_run(&run, run_start, &mut found);
                run.clear();
            }
        }
        if !run.is_empty() {
            self.match_run(&run, run_start, &mut found);
        }
        found
    }

    /// Forward maximum matching of one run of Han characters.
    fn match_run<'d>(&'d self, run: &[char], start: u32, found: &mut Vec<ChineseWord<'d>>) {
        let mut i = 0usize;
        while i < run.len() {
            let Some((length, entry)) = self.longest_word(&run[i..]) else {
                i += 1;
                continue;
            };
            let from = start + saturating_u32(i);
            let lemmas = self.entry(entry);
            if !lemmas.is_empty() {
                found.push(ChineseWord { chars: from..from + saturating_u32(length), entry, lemmas });
            }
            i += length;
        }
    }

    /// The longest word `chars` begins with (its length and entry), of at most
    /// [`MAX_WORD_CHARS`].
    fn longest_word(&self, chars: &[char]) -> Option<(usize, Entry)> {
        let pair = match chars {
            [first, second, ..] => packed_char(*first).zip(packed_char(*second)).map(|(a, b)| [a, b]),
            _ => None,
        };
        let longest = pair.and_then(|pair| self.longest.get(&pair)).map_or(1, |&l| usize::from(l).min(chars.len()));
        // no word holds a character that does not pack
        let longest = chars.iter().take(longest).take_while(|&&c| packed_char(c).is_some()).count();
        // the longest key first, then each shorter one by clearing its last character
        let mut key = pack(chars.get(..longest)?)?;
        for length in (1..=longest).rev() {
            if let Some(&entry) = self.chinese.get(&key) {
                return Some((length, entry));
            }
            key[length - 1] = 0;
        }
        None
    }

    /// The English words of `text` that the dictionary knows, with their lemmas.
    pub fn english_words(&self, text: &str) -> Vec<EnglishWord> {
        let mut found = Vec::new();
        let mut word = String::new();
        let mut start = 0u32;
        for (position, c) in (0u32..).zip(text.chars().chain(std::iter::once(' '))) {
            if c.is_ascii_alphabetic() || (c == '-' && !word.is_empty()) {
                if word.is_empty() {
                    start = position;
                }
                word.push(c.to_ascii_lowercase());
            } else if !word.is_empty() {
                let trimmed = word.trim_end_matches('-');
                if let Some(lemma) = self.english(trimmed) {
                    found.push(EnglishWord { start, end: start + saturating_u32(trimmed.chars().count()), lemma });
                }
                word.clear();
            }
        }
        found
    }
}

/// Parses a space-separated list of lemma numbers below `count` (empty for a Chinese
/// function word).
fn parse_ids(text: &str, count: usize) -> Option<Box<[Lemma]>> {
    if text.is_empty() {
        return Some(Box::default());
    }
    text.split(' ')
        .map(|id| id.parse::<Lemma>().ok().filter(|&id| usize::try_from(id).is_ok_and(|id| id < count)))
        .collect()
}

/// A Chinese word of at most [`MAX_WORD_CHARS`] characters held in place, 16 bits a
/// character and 0 after the last: a lookup hashes 16 bytes and follows no pointer. Every
/// Han character ([`is_han`]) fits in 16 bits, and none is 0, so two words never share a
/// key.
type Packed = [u16; MAX_WORD_CHARS];

/// The key of a word, `None` for one longer than [`MAX_WORD_CHARS`] or with a character
/// beyond 16 bits (no Han character, so never met by the matching).
fn pack(chars: &[char]) -> Option<Packed> {
    let mut key = [0; MAX_WORD_CHARS];
    for (slot, &c) in key.iter_mut().zip(chars) {
        *slot = packed_char(c)?;
    }
    (chars.len() <= MAX_WORD_CHARS).then_some(key)
}

/// A character as it is packed: its code point when that fits in 16 bits and is not 0.
fn packed_char(c: char) -> Option<u16> {
    u16::try_from(u32::from(c)).ok().filter(|&c| c != 0)
}

/// A CJK unified ideograph (the basic block and extension A), the characters the
/// dictionary's words are written in.
pub fn is_han(c: char) -> bool {
    matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}')
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# twinspot meaning dictionary 1\nL\tapple\tcomputer\tpackage\tinstall\nZ\t苹果\t0\nZ\t计算机\t1\nZ\t软件包\t2\nZ\t软件\t1\nZ\t安装\t3\nZ\t的\t\nE\tpackages\t2\nE\tinstalled\t3\n";

    #[test]
    fn chinese_words_take_the_longest_entry_and_fold_traditional() {
        let d = Dictionary::parse(SAMPLE, Path::new("sample")).unwrap();
        let words = d.chinese_words("安裝軟件包，x的苹果");
        let spans: Vec<_> = words.iter().map(|w| (w.chars.clone(), w.lemmas.to_vec())).collect();
        assert_eq!(spans, vec![(0..2, vec![3]), (2..5, vec![2]), (8..10, vec![0])]);
    }

    #[test]
    fn english_words_are_lemmatized() {
        let d = Dictionary::parse(SAMPLE, Path::new("sample")).unwrap();
        let words = d.english_words("Packages installed: the Apple.");
        let lemmas: Vec<_> = words.iter().map(|w| (w.start, w.end, w.lemma)).collect();
        assert_eq!(lemmas, vec![(0, 8, 2), (9, 18, 3), (24, 29, 0)]);
    }

    #[test]
    fn a_damaged_file_is_an_error_not_a_panic() {
        let x = Path::new("x");
        assert!(matches!(Dictionary::parse("", x), Err(MeaningError::NotAModel { .. })));
        let newer = "# twinspot meaning dictionary 2\nL\ta\nZ\t苹果\t0\n";
        assert!(matches!(Dictionary::parse(newer, x), Err(MeaningError::WrongVersion { found: 2, .. })));
        let bad = "# twinspot meaning dictionary 1\nL\ta\nZ\t苹果\t7\n";
        assert!(matches!(Dictionary::parse(bad, x), Err(MeaningError::Damaged { .. })));
        let unknown = "# twinspot meaning dictionary 1\nL\ta\nQ\tx\n";
        assert!(Dictionary::parse(unknown, x).is_err());
    }

    #[test]
    fn the_shipped_dictionary_reads() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/meaning/dictionary.txt");
        let d = Dictionary::load(Path::new(path)).unwrap();
        let computer = d.english("computers").unwrap();
        let words = d.chinese_words("计算机");
        assert!(words.iter().any(|w| w.lemmas.contains(&computer)));
    }
}

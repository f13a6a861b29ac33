//! The keyword fingerprint (seed system S5): a document's top-n keywords by TF-IDF
//! (jieba for Chinese, term frequency for Latin text), each folded to a representative,
//! sorted and hashed; with a Bloom filter of the keyword hashes for a quick rejection in
//! large collections. A third near-duplicate signal beside SimHash and coverage: a
//! reworded repost (洗稿) swaps common words for synonyms, but keeps most of what the
//! text is about — names, terms, code identifiers — and those are its top keywords.
//!
//! The fold needs no synonym table: Latin words lose their inflection (a light suffix
//! strip), Chinese words are compared by their characters (two words of which one holds
//! every character but one of the other count as one keyword in [`similarity`]). No
//! thesaurus ships with Twinspot.

use crate::hash::{fmix64, hash_str};
use crate::model::usize_from;
use crate::normalize::is_single_char_token;

/// Keywords kept per document.
pub const TOP_KEYWORDS: usize = 24;
/// Bits of the Bloom filter: 256, three hash functions; with 24 keywords about 3 % of a
/// foreign keyword's probes pass.
const BLOOM_WORDS: usize = 4;
const BLOOM_PROBES: u32 = 3;

/// The keyword fingerprint of one document.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeywordPrint {
    /// The representatives of the top keywords, heaviest first.
    pub keywords: Vec<String>,
    /// Their hashes, sorted.
    pub hashes: Vec<u64>,
    /// One hash of the sorted keyword hashes: equal keys, equal keyword sets.
    pub key: u64,
    /// Bloom filter of the keyword hashes.
    pub bloom: [u64; BLOOM_WORDS],
}

impl KeywordPrint {
    /// Keywords of the other print that the Bloom filter lets through: an upper bound of
    /// the keywords both share, read without looking at their lists.
    pub fn bloom_hits(&self, other: &KeywordPrint) -> usize {
        other.hashes.iter().filter(|&&h| self.may_contain(h)).count()
    }

    fn may_contain(&self, hash: u64) -> bool {
        probes(hash).all(|bit| self.bloom[bit / 64] >> (bit % 64) & 1 == 1)
    }
}

fn probes(hash: u64) -> impl Iterator<Item = usize> {
    (0..BLOOM_PROBES)
        .map(move |i| usize_from(fmix64(hash ^ u64::from(i).wrapping_mul(0x9E37_79B9)) % (BLOOM_WORDS as u64 * 64)))
}

/// The keyword fingerprint from a document's weighted words
/// ([`super::simhash::Dictionary::weighted_words`]): the `n` heaviest, folded, each representative
/// once.
pub fn keyword_print(words: &[(String, f64)], n: usize) -> KeywordPrint {
    let mut heaviest: Vec<&(String, f64)> = words.iter().filter(|(w, _)| is_keyword(w)).collect();
    heaviest.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut keywords: Vec<String> = Vec::with_capacity(n);
    for (word, _) in heaviest {
        let folded = representative(word);
        if !keywords.contains(&folded) {
            keywords.push(folded);
        }
        if keywords.len() == n {
            break;
        }
    }
    KeywordPrint::from_keywords(keywords)
}

impl KeywordPrint {
    /// The fingerprint of these keywords (representatives, heaviest first), as
    /// [`keyword_print`] made it: for a print kept as its keyword list.
    pub fn from_keywords(keywords: Vec<String>) -> Self {
        let mut hashes: Vec<u64> = keywords.iter().map(|k| hash_str(k)).collect();
        hashes.sort_unstable();
        let key = hashes.iter().fold(0x6b65_7977u64, |acc, &h| fmix64(acc ^ h));
        let mut bloom = [0u64; BLOOM_WORDS];
        for &h in &hashes {
            for bit in probes(h) {
                bloom[bit / 64] |= 1 << (bit % 64);
            }
        }
        KeywordPrint { keywords, hashes, key, bloom }
    }
}

/// A keyword is a word with a letter in it (numbers and symbols say little).
fn is_keyword(word: &str) -> bool {
    word.chars().any(char::is_alphabetic)
}

/// The representative of a keyword: Latin words without their inflectional ending
/// (`parsers` → `parser`, `settings` and `setting` → `sett`); other words as they are.
pub fn representative(word: &str) -> String {
    if word.chars().any(is_single_char_token) || !word.is_ascii() {
        return word.to_string();
    }
    let mut stem = word;
    if let Some(singular) = stem.strip_suffix('s')
        && singular.len() >= 4
        && !singular.ends_with('s')
    {
        stem = singular;
    }
    for suffix in ["ing", "ed"] {
        if let Some(bare) = stem.strip_suffix(suffix)
            && bare.len() >= 4
        {
            return bare.to_string();
        }
    }
    if stem.len() < word.len() {
        return stem.to_string();
    }
    word.to_string()
}

/// Quick rejection by the Bloom filters: false when [`similarity`] of the two prints is
/// surely below `threshold`. Exact keywords are counted through `a`'s Bloom filter;
/// Chinese keywords of `b`, which may match by their characters, are counted as matches.
pub fn may_reach(a: &KeywordPrint, b: &KeywordPrint, threshold: f64) -> bool {
    let smaller = a.keywords.len().min(b.keywords.len());
    if smaller == 0 {
        return false;
    }
    let soft = b.keywords.iter().filter(|k| k.chars().all(is_single_char_token)).count();
    (a.bloom_hits(b) + soft).min(smaller) as f64 >= threshold * smaller as f64
}

/// Share of keywords two documents have in common, from 0 to 1: matched keywords over
/// the smaller list. Two Chinese keywords of at least two characters match when one
/// holds all characters of the other but one (远远 / 邈远 do not; 名利客 / 名利 do);
/// other keywords match when equal.
pub fn similarity(a: &KeywordPrint, b: &KeywordPrint) -> f64 {
    let smaller = a.keywords.len().min(b.keywords.len());
    if smaller == 0 {
        return 0.0;
    }
    let mut used = vec![false; b.keywords.len()];
    let mut matched = 0;
    for x in &a.keywords {
        let hit = b.keywords.iter().enumerate().position(|(j, y)| !used[j] && keywords_match(x, y));
        if let Some(j) = hit {
            used[j] = true;
            matched += 1;
        }
    }
    matched as f64 / smaller as f64
}

fn keywords_match(x: &str, y: &str) -> bool {
    if x == y {
        return true;
    }
    let (cx, cy): (Vec<char>, Vec<char>) = (x.chars().collect(), y.chars().collect());
    if !cx.iter().chain(&cy).all(|&c| is_single_char_token(c)) {
        return false;
    }
    let (short, long) = if cx.len() <= cy.len() { (&cx, &cy) } else { (&cy, &cx) };
    let shared = short.iter().filter(|c| long.contains(c)).count();
    short.len() >= 2 && long.len() >= 3 && shared == short.len() && long.len() - shared <= 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[(&str, f64)]) -> Vec<(String, f64)> {
        list.iter().map(|(w, x)| (w.to_string(), *x)).collect()
    }

    #[test]
    fn heaviest_keywords_folded_once_and_hashed_in_order() {
        let print = keyword_print(&words(&[("parsers", 3.0), ("parser", 2.0), ("42", 9.0), ("debugger", 1.0)]), 2);
        assert_eq!(print.keywords, vec!["parser", "debugger"]);
        let again = keyword_print(&words(&[("debugger", 5.0), ("parser", 4.0)]), 2);
        assert_eq!(print.key, again.key);
        assert_eq!(print.bloom_hits(&again), 2);
    }

    #[test]
    fn similarity_counts_shared_keywords_and_close_chinese_words() {
        let a = keyword_print(&words(&[("名利客", 3.0), ("长安", 2.0), ("骑牛", 1.0)]), 10);
        let b = keyword_print(&words(&[("名利", 3.0), ("长安", 2.0), ("短笛", 1.0)]), 10);
        assert!((similarity(&a, &b) - 2.0 / 3.0).abs() < 1e-9);
        let far = keyword_print(&words(&[("远远", 1.0)]), 10);
        let near = keyword_print(&words(&[("邈远", 1.0)]), 10);
        assert_eq!(similarity(&far, &near), 0.0);
        assert!(may_reach(&a, &b, 0.6));
    }

    #[test]
    fn bloom_rejects_prints_without_shared_keywords() {
        let a = keyword_print(&words(&[("parser", 3.0), ("argument", 2.0), ("option", 1.0)]), 10);
        let b = keyword_print(&words(&[("socket", 3.0), ("transport", 2.0), ("protocol", 1.0)]), 10);
        assert!(!may_reach(&a, &b, 0.5));
        assert!(may_reach(&a, &a, 1.0));
    }
}

//! SimHash (Charikar 2002; Manku, Jain, Das Sarma 2007): 64 bits from a document's words,
//! each word's hash voting ±weight on every bit, weighted by TF-IDF.
//!
//! Chinese text is segmented with jieba-rs and weighted with jieba's IDF table
//! ([`super::idf`]); text without Han characters is split into words and weighted by term frequency. The jieba
//! dictionary is a value ([`Dictionary`]) its owner builds once and shares, as jieba-rs
//! itself shares its model: built lazily, the first time Chinese text needs it, and let
//! go when its owner says so or drops it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use jieba_rs::Jieba;

use super::idf::Idf;
use crate::hash::hash_str;
use crate::normalize::is_single_char_token;

/// Chinese function words dropped on top of jieba's English list (single characters are
/// dropped anyway: keywords have at least two characters).
const CHINESE_STOP_WORDS: &[&str] = &[
    "我们", "你们", "他们", "她们", "它们", "这个", "那个", "这些", "那些", "这样", "那样", "因为", "所以", "但是",
    "而且", "并且", "或者", "如果", "虽然", "然后", "可以", "已经", "没有", "不是", "就是", "还是", "一个", "什么",
    "怎么", "为了", "通过", "以及", "之后", "之前", "其中", "以上", "以下", "进行", "使用", "需要", "这里", "那里",
];

/// English function words dropped from Latin text.
const ENGLISH_STOP_WORDS: &[&str] = &[
    "a", "an", "the", "of", "is", "and", "to", "in", "that", "we", "for", "are", "by", "be", "as", "on", "with", "can",
    "if", "from", "which", "you", "it", "this", "then", "at", "have", "all", "not", "one", "has", "or", "was", "were",
    "will", "would", "there", "their", "they", "but", "so", "no", "do", "does", "its", "than", "these", "those", "i",
    "he", "she", "his", "her", "our", "your", "been", "being", "into", "also", "may", "such", "any",
];

struct Segmenter {
    jieba: Jieba,
    idf: Idf,
}

impl Segmenter {
    /// The dictionary and the IDF table, each read on a thread of its own when one can be
    /// started: whoever waits for them (every reading thread, at the first Chinese text)
    /// waits for the longer of the two rather than for both.
    fn build() -> Self {
        std::thread::scope(|scope| {
            let idf = std::thread::Builder::new().name("twinspot-idf".into()).spawn_scoped(scope, idf_table);
            let jieba = Jieba::new();
            // A thread that could not start or died leaves the table to be read here.
            let idf = idf.ok().and_then(|handle| handle.join().ok()).unwrap_or_else(idf_table);
            Segmenter { jieba, idf }
        })
    }
}

/// jieba's IDF table, with its stop words and ours.
fn idf_table() -> Idf {
    let ours = CHINESE_STOP_WORDS.iter().chain(ENGLISH_STOP_WORDS).map(|s| s.to_string());
    Idf::new(jieba_rs::DEFAULT_STOP_WORDS.iter().cloned().chain(ours))
}

/// The jieba dictionary and IDF table (about 70 MB, a few hundred milliseconds to
/// build), as a value: clones share one dictionary. Nothing is built until Chinese text
/// needs it (or [`Dictionary::prepare`]); [`Dictionary::release`] lets it go, and the next
/// use builds it again. A check owns one, the window keeps one across checks.
#[derive(Clone, Default)]
pub struct Dictionary(Arc<Mutex<Option<Arc<Segmenter>>>>);

impl std::fmt::Debug for Dictionary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let built = self.0.lock().unwrap_or_else(PoisonError::into_inner).is_some();
        f.debug_struct("Dictionary").field("built", &built).finish()
    }
}

impl Dictionary {
    /// A dictionary not built yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The built segmenter, built now if it is not (other users wait for it).
    fn segmenter(&self) -> Arc<Segmenter> {
        let mut built = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        built.get_or_insert_with(|| Arc::new(Segmenter::build())).clone()
    }

    /// Builds the dictionary now, so that its first user does not wait.
    pub fn prepare(&self) {
        self.segmenter();
    }

    /// Lets the built dictionary go: its memory goes back once no running use holds it,
    /// and the next use builds it again. A one-shot check does this after its SimHash pass.
    pub fn release(&self) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// The words of `text` as jieba cuts it (dictionary words only, no HMM), each with
    /// its first and one-past-last character offset in `text`.
    pub fn words<'t>(&self, text: &'t str) -> Vec<(&'t str, usize, usize)> {
        self.segmenter().jieba.cut(text, false).into_iter().map(|t| (t.word, t.start, t.end)).collect()
    }

    /// The weighted words of a normalized text (see [`crate::normalize::folded_text`]).
    pub fn weighted_words(&self, folded: &str) -> Vec<(String, f64)> {
        if folded.chars().any(is_single_char_token) {
            let segmenter = self.segmenter();
            // The whole document at once: term frequencies over the document, times IDF.
            return segmenter.idf.weighted_words(&segmenter.jieba, folded);
        }
        latin_weighted_words(folded)
    }

    /// SimHash of a normalized text.
    pub fn simhash(&self, folded: &str) -> u64 {
        simhash_of_words(&self.weighted_words(folded))
    }

    /// SimHash of extracted text: normalized with `options`, then segmented and weighted.
    pub fn text_simhash(&self, text: &str, options: crate::normalize::NormalizeOptions) -> u64 {
        self.simhash(&crate::normalize::folded_text(text, options))
    }
}

/// The words of a text without Han characters, weighted by term frequency.
fn latin_weighted_words(folded: &str) -> Vec<(String, f64)> {
    let mut counts: HashMap<&str, f64> = HashMap::new();
    for word in folded.split_whitespace() {
        if word.chars().count() >= 2 && !ENGLISH_STOP_WORDS.contains(&word) {
            *counts.entry(word).or_default() += 1.0;
        }
    }
    let mut words: Vec<(String, f64)> = counts.into_iter().map(|(w, c)| (w.to_string(), c)).collect();
    words.sort_by(|a, b| a.0.cmp(&b.0));
    words
}

/// 64-bit SimHash of weighted words. 0 for a document with no words.
pub fn simhash_of_words(words: &[(String, f64)]) -> u64 {
    let mut votes = [0f64; 64];
    for (word, weight) in words {
        let h = hash_str(word);
        for (bit, vote) in votes.iter_mut().enumerate() {
            if h >> bit & 1 == 1 {
                *vote += weight;
            } else {
                *vote -= weight;
            }
        }
    }
    votes.iter().enumerate().filter(|(_, v)| **v > 0.0).fold(0u64, |acc, (bit, _)| acc | 1 << bit)
}

/// Number of differing bits.
#[inline]
pub fn hamming(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::NormalizeOptions;

    fn sh(text: &str) -> u64 {
        Dictionary::new().text_simhash(text, NormalizeOptions::default())
    }

    const ZH: &str = "Debian 是一个自由的操作系统，它使用 Linux 内核和大量的自由软件工具。\
        软件包管理系统可以帮助用户安装、升级和删除软件包。维护者负责打包上游软件，\
        并确保它符合 Debian 政策手册的要求。每个发行版都会经过测试和冻结阶段，然后才正式发布。";

    #[test]
    fn near_identical_documents_are_close_and_different_ones_far() {
        let edited = ZH.replace("大量的", "许多").replace("正式", "");
        let other = "今天天气很好，我们去公园散步，看见很多孩子在放风筝，老人在下棋，湖面上有小船慢慢划过。";
        assert!(hamming(sh(ZH), sh(&edited)) <= 8, "{}", hamming(sh(ZH), sh(&edited)));
        assert!(hamming(sh(ZH), sh(other)) > 10, "{}", hamming(sh(ZH), sh(other)));
    }

    #[test]
    fn traditional_text_hashes_like_simplified() {
        let traditional = "Debian 是一個自由的作業系統，軟體包管理系統可以幫助使用者安裝、升級和刪除軟體包。";
        let simplified = "Debian 是一个自由的作业系统，软体包管理系统可以帮助使用者安装、升级和删除软体包。";
        assert_eq!(sh(traditional), sh(simplified));
    }

    #[test]
    fn the_dictionary_is_built_once_until_released() {
        let dictionary = Dictionary::new();
        let shared = dictionary.clone();
        let first = dictionary.segmenter();
        assert!(Arc::ptr_eq(&first, &shared.segmenter()), "clones share one dictionary");
        assert!(!Arc::ptr_eq(&first, &Dictionary::new().segmenter()), "another value builds its own");
        shared.release();
        // A segmenter in use stays valid; the next use builds a new one.
        assert!(!Arc::ptr_eq(&first, &dictionary.segmenter()));
        assert_eq!(dictionary.weighted_words("软件包 管理").len(), shared.weighted_words("软件包 管理").len());
    }

    #[test]
    fn latin_text_and_empty_text() {
        assert_eq!(sh(""), 0);
        let a = sh("The package manager installs, upgrades and removes software packages on the system.");
        let b = sh("The package manager installs, upgrades and removes software packages on a system!");
        assert_eq!(a, b);
        assert_eq!(hamming(a, a), 0);
    }
}

//! TF-IDF weights of the words of a Chinese text, as jieba-rs's `TfIdf::extract_keywords`
//! gives them when asked for every word: jieba's words (no HMM) of at least two
//! characters that are not stop words, each weighted by its count times its IDF, over the
//! count of all such words; a word the table lacks takes the table's median IDF.
//!
//! The same words and weights, bit for bit (a test holds them to jieba-rs's), without
//! what a top-k extraction spends on top of segmenting: a part-of-speech tag looked up
//! for every word, a heap over every distinct word, and two strings made for each. That
//! was a third of the time SimHash spent in jieba-rs.
//!
//! The table is jieba's own (`assets/jieba/idf.txt`, the file jieba-rs 0.11 embeds), read
//! as jieba-rs reads it.

use jieba_rs::Jieba;
use rustc_hash::{FxHashMap, FxHashSet};

/// jieba's IDF table: a word and its IDF a line.
const TABLE: &str = include_str!("../../assets/jieba/idf.txt");

/// Words of fewer characters are no keywords (jieba-rs's default).
const MIN_KEYWORD_CHARS: usize = 2;

/// The IDF table and the stop words: built once, shared by every SimHash.
pub struct Idf {
    table: FxHashMap<&'static str, f64>,
    /// The IDF of a word the table lacks.
    median: f64,
    stop_words: FxHashSet<String>,
}

impl Idf {
    /// The table, with `stop_words` dropped from every text.
    pub fn new(stop_words: impl IntoIterator<Item = String>) -> Self {
        let mut table = FxHashMap::default();
        let mut idfs = Vec::new();
        for line in TABLE.lines() {
            let mut parts = line.split_whitespace();
            if let Some(word) = parts.next()
                && let Some(idf) = parts.next().and_then(|x| x.parse::<f64>().ok())
            {
                table.insert(word, idf);
                idfs.push(idf);
            }
        }
        Self { table, median: lower_median(idfs), stop_words: stop_words.into_iter().collect() }
    }

    /// The keywords of `text` as `jieba` cuts it, each with its TF-IDF weight, by word.
    pub fn weighted_words(&self, jieba: &Jieba, text: &str) -> Vec<(String, f64)> {
        let mut counts: FxHashMap<&str, u64> = FxHashMap::default();
        // Line by line: jieba cuts no word across a line break (nor a carriage return from
        // the line feed after it), and the tokens of a line are few, where those of a
        // whole document took a large buffer each time (48 bytes a token).
        for line in text.split_inclusive('\n') {
            for token in jieba.cut(line, false) {
                if self.is_keyword(token.word) {
                    *counts.entry(token.word).or_default() += 1;
                }
            }
        }
        let total: u64 = counts.values().sum();
        let mut counted: Vec<(&str, u64)> = counts.into_iter().collect();
        counted.sort_unstable_by(|a, b| a.0.cmp(b.0));
        counted
            .into_iter()
            .map(|(word, count)| {
                let idf = self.table.get(word).copied().unwrap_or(self.median);
                (word.to_owned(), count as f64 * idf / total as f64)
            })
            .collect()
    }

    /// Whether `word` can be a keyword: long enough, and neither it nor (when it has
    /// capitals) its lower case a stop word.
    fn is_keyword(&self, word: &str) -> bool {
        if word.chars().nth(MIN_KEYWORD_CHARS - 1).is_none() || self.stop_words.contains(word) {
            return false;
        }
        !word.chars().any(is_uppercase) || !self.stop_words.contains(&word.to_lowercase())
    }
}

/// Whether `c` is an upper-case letter; Chinese characters, the bulk of the words, are
/// not, and are known so without looking them up.
#[inline]
fn is_uppercase(c: char) -> bool {
    if c.is_ascii() { c.is_ascii_uppercase() } else { !('\u{4E00}'..='\u{9FFF}').contains(&c) && c.is_uppercase() }
}

/// The lower median of `values` (the one with `len / 2` values above it), as jieba-rs
/// takes it over the lines of its table, repeated words included; 0 for none.
fn lower_median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mid = (values.len() - 1) / 2;
    let (_, median, _) = values.select_nth_unstable_by(mid, f64::total_cmp);
    *median
}

#[cfg(test)]
mod tests {
    use jieba_rs::{KeywordExtract, KeywordExtractConfig, TfIdf};

    use super::*;

    /// jieba-rs's answer, as the SimHash took it before: every keyword, by word.
    fn jieba_rs_words(jieba: &Jieba, stop_words: &[&str], text: &str) -> Vec<(String, f64)> {
        let mut tfidf = TfIdf::default();
        let mut config = KeywordExtractConfig::builder();
        for word in stop_words {
            config = config.add_stop_word(word.to_string());
        }
        *tfidf.config_mut() = config.build();
        let mut words: Vec<(String, f64)> = tfidf
            .extract_keywords(jieba, text, usize::MAX, Vec::new())
            .into_iter()
            .map(|kw| (kw.keyword, kw.weight))
            .collect();
        words.sort_by(|a, b| a.0.cmp(&b.0));
        words
    }

    #[test]
    fn the_same_words_and_weights_as_jieba_rs() {
        let jieba = Jieba::new();
        let ours = ["我们", "进行"];
        let mut stop_words: Vec<String> = jieba_rs::DEFAULT_STOP_WORDS.iter().cloned().collect();
        stop_words.extend(ours.iter().map(|s| s.to_string()));
        let idf = Idf::new(stop_words);
        let fixtures = [
            include_str!("../../tests/fixtures/reference/zh_debian.txt"),
            include_str!("../../tests/fixtures/suspect/zh_copy.txt"),
            include_str!("../../tests/fixtures/reference/en_python.txt"),
            "我们进行了测试，测试通过了。软件包管理系统可以帮助用户安装、升级和删除软件包。\
             Debian Linux 和 GNU 工具 THE The the 生化学 光化学 不是 光化学 奥萨贝尔。",
            "一 二 三。 ，。！ 12 ab",
            "软件包\r\n管理\n\n系统 可以\r\n\r\nab\ncd\r\n",
            "",
        ];
        for text in fixtures {
            let expected = jieba_rs_words(&jieba, &ours, text);
            let got = idf.weighted_words(&jieba, text);
            assert_eq!(got.len(), expected.len(), "{text}");
            for ((word, weight), (expected_word, expected_weight)) in got.iter().zip(&expected) {
                assert_eq!(word, expected_word);
                assert_eq!(weight.to_bits(), expected_weight.to_bits(), "{word}");
            }
        }
        assert!(!idf.weighted_words(&jieba, fixtures[0]).is_empty());
    }

    #[test]
    fn a_word_the_table_lacks_takes_the_median() {
        let idf = Idf::new(Vec::new());
        assert_eq!(lower_median(vec![3.0, 1.0, 2.0, 4.0]), 2.0);
        assert_eq!(lower_median(Vec::new()), 0.0);
        assert!(idf.median > 0.0);
        let words = idf.weighted_words(&Jieba::new(), "zzqxv zzqxv");
        assert_eq!(words, vec![("zzqxv".to_string(), idf.median)]);
    }

    #[test]
    fn short_words_and_stop_words_in_any_case_are_no_keywords() {
        let idf = Idf::new(["the".to_string()]);
        assert!(!idf.is_keyword("a"));
        assert!(!idf.is_keyword("the"));
        assert!(!idf.is_keyword("The"));
        assert!(idf.is_keyword("then"));
        assert!(idf.is_keyword("软件"));
        assert!(!idf.is_keyword("软"));
        for c in ['A', 'Ä', 'Σ', 'Ｚ'] {
            assert!(is_uppercase(c), "{c}");
        }
        for c in ['a', 'ä', 'σ', '软', '1', ' '] {
            assert!(!is_uppercase(c), "{c}");
        }
    }
}

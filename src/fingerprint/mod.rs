//! Fingerprints of one document: winnowed k-grams with positions, sentence hashes with
//! the nshash key, the 64-bit SimHash ([`simhash`]), the keyword fingerprint
//! ([`keywords`]) and the token keys an archive keeps ([`token_keys`]), and the
//! [`FingerprintedDoc`] matching reads. Built from the tokens of [`crate::normalize`].

pub mod char_grams;
mod document;
mod idf;
pub mod keywords;
pub mod sentence;
pub mod simhash;
pub mod token_keys;
pub mod winnow;

pub use document::FingerprintedDoc;
pub use sentence::{SentenceFingerprint, nshash, sentence_fingerprints};
pub use token_keys::{GlancedKeys, TokenKeys};
pub use winnow::{Fingerprint, winnow};

use crate::normalize::{Tokenized, tokenize, tokenize_folded, tokenize_into};
use crate::settings::Settings;

/// Everything the index and the matcher need to know about one document.
#[derive(Clone, Debug, Default)]
pub struct DocumentFingerprints {
    /// Tokens with their character offsets and sentence starts.
    pub tokenized: Tokenized,
    /// Winnowed k-gram fingerprints, ascending by position. A check moves the references'
    /// into its index and drops the others': matching rolls a suspect's k-grams again.
    pub kgrams: Vec<Fingerprint>,
    /// Sentence hashes, in text order.
    pub sentences: Vec<SentenceFingerprint>,
    /// Whole-document repost key; `None` for documents with few sentences.
    pub nshash: Option<u64>,
    /// The winnowed character grams of a check's reference ([`char_grams`]), taken in the
    /// pass that tokenizes it; `None` when not asked for. A check moves them into its index.
    pub char_grams: Option<Vec<Fingerprint>>,
}

impl DocumentFingerprints {
    /// Tokenizes, winnows and hashes sentences. The SimHash is apart
    /// ([`simhash::Dictionary::text_simhash`]): it costs word segmentation, and a check takes it in a
    /// pass of its own, after the jieba dictionary is built.
    pub fn compute(text: &str, settings: &Settings) -> Self {
        Self::with_kgrams(tokenize(text, settings.normalize), settings)
    }

    /// [`Self::compute`], with the character grams a check indexes for its references
    /// ([`char_grams`]) taken in the same pass over the text.
    pub fn compute_with_char_grams(text: &str, settings: &Settings) -> Self {
        let mut grams = char_grams::GramWinnower::default();
        let tokenized = tokenize_into(text, settings.normalize, &mut grams);
        Self { char_grams: Some(grams.finish()), ..Self::with_kgrams(tokenized, settings) }
    }

    /// [`Self::compute`], and the folded text the SimHash and keywords segment
    /// ([`crate::normalize::folded_text`]), taken in the same pass over the text: what an
    /// archive's add needs of every document at once.
    pub fn compute_folded(text: &str, settings: &Settings) -> (Self, String) {
        let (tokenized, folded) = tokenize_folded(text, settings.normalize);
        (Self::with_kgrams(tokenized, settings), folded)
    }

    /// Tokens and sentences only: what matching reads of a reference whose k-grams are
    /// already in an index.
    pub fn without_kgrams(text: &str, settings: &Settings) -> Self {
        Self::of_tokens(tokenize(text, settings.normalize), settings)
    }

    /// The fingerprints of `tokenized`, its winnowed k-grams included.
    fn with_kgrams(tokenized: Tokenized, settings: &Settings) -> Self {
        let mut prints = Self::of_tokens(tokenized, settings);
        let kgram_hashes = crate::hash::kgram_hashes(prints.tokenized.tokens.iter().map(|t| t.hash), settings.k.max(1));
        prints.kgrams = winnow(&kgram_hashes, settings.w);
        prints
    }

    /// The sentence hashes and repost key of `tokenized`, without k-grams.
    fn of_tokens(tokenized: Tokenized, settings: &Settings) -> Self {
        let sentences =
            sentence_fingerprints(&tokenized.tokens, &tokenized.sentence_starts, settings.min_sentence_tokens);
        let nshash = nshash(&sentences);
        Self { tokenized, kgrams: Vec::new(), sentences, nshash, char_grams: None }
    }

    /// Number of tokens.
    pub fn token_count(&self) -> usize {
        self.tokenized.tokens.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_have_positions_inside_the_token_list() {
        let settings = Settings::default();
        let text = "软件包管理系统可以帮助用户安装、升级和删除软件包。The quick brown fox jumps over the lazy dog.";
        let f = DocumentFingerprints::compute(text, &settings);
        assert!(!f.kgrams.is_empty());
        for fp in &f.kgrams {
            assert!((fp.position as usize) + settings.k <= f.token_count());
        }
        assert!(f.kgrams.windows(2).all(|p| p[0].position < p[1].position));
        assert_eq!(f.sentences.len(), 2);
    }
}

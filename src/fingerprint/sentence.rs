//! Sentence fingerprints: one hash per sentence of normalized tokens, so reordered or
//! re-punctuated sentences still match, and the "nshash" key — the hashes of the n
//! longest sentences — as a cheap whole-document repost key.

use crate::hash::fmix64;
use crate::model::saturating_u32;
use crate::normalize::Token;

/// How many of the longest sentences make up the nshash key.
pub const NSHASH_SENTENCES: usize = 5;

/// A hashed sentence and the tokens it spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SentenceFingerprint {
    pub hash: u64,
    /// First token of the sentence.
    pub start: u32,
    /// One past its last token.
    pub end: u32,
}

/// Hashes every sentence with at least `min_tokens` tokens.
pub fn sentence_fingerprints(tokens: &[Token], sentence_starts: &[u32], min_tokens: usize) -> Vec<SentenceFingerprint> {
    let ends = sentence_starts.iter().skip(1).copied().chain(std::iter::once(saturating_u32(tokens.len())));
    sentence_starts
        .iter()
        .zip(ends)
        .filter(|&(&start, end)| (end - start) as usize >= min_tokens.max(1))
        .map(|(&start, end)| {
            let hash = tokens[start as usize..end as usize]
                .iter()
                .fold(0x5345_4e54u64, |h, t| fmix64(h.rotate_left(17) ^ t.hash));
            SentenceFingerprint { hash, start, end }
        })
        .collect()
}

/// The nshash key: the hashes of the [`NSHASH_SENTENCES`] longest sentences (longest
/// first, earlier first on ties), sorted and combined. `None` for documents with fewer
/// sentences than that.
pub fn nshash(sentences: &[SentenceFingerprint]) -> Option<u64> {
    if sentences.len() < NSHASH_SENTENCES {
        return None;
    }
    let mut by_length: Vec<&SentenceFingerprint> = sentences.iter().collect();
    by_length.sort_by_key(|s| (std::cmp::Reverse(s.end - s.start), s.start));
    let mut top: Vec<u64> = by_length.iter().take(NSHASH_SENTENCES).map(|s| s.hash).collect();
    top.sort_unstable();
    Some(top.iter().fold(0x4e53_4841_5348u64, |h, &x| fmix64(h ^ x)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::{NormalizeOptions, tokenize};

    fn sentences(text: &str) -> Vec<SentenceFingerprint> {
        let t = tokenize(text, NormalizeOptions::default());
        sentence_fingerprints(&t.tokens, &t.sentence_starts, 3)
    }

    #[test]
    fn reordered_and_repunctuated_sentences_keep_their_hashes() {
        let a = sentences("第一个句子在这里。第二个句子也在。The third sentence is here.");
        let b = sentences("The third sentence, is here!第二个句子也在；第一个句子在这里");
        let mut ha: Vec<u64> = a.iter().map(|s| s.hash).collect();
        let mut hb: Vec<u64> = b.iter().map(|s| s.hash).collect();
        ha.sort_unstable();
        hb.sort_unstable();
        assert_eq!(ha.len(), 3);
        assert_eq!(ha, hb);
    }

    #[test]
    fn short_sentences_are_skipped() {
        assert!(sentences("短。也短。Tiny.").is_empty());
    }

    #[test]
    fn nshash_ignores_order_and_short_documents() {
        let text =
            "一二三四五六。七八九十一二三。四五六七八九十一。二三四五六七八九十。一二三四五六七八九十一二。短句子。";
        let a = sentences(text);
        let reordered =
            "短句子。二三四五六七八九十。一二三四五六七八九十一二。一二三四五六。七八九十一二三。四五六七八九十一。";
        assert_eq!(nshash(&a), nshash(&sentences(reordered)));
        assert!(nshash(&a).is_some());
        assert_eq!(nshash(&sentences("一二三四。五六七八。")), None);
    }
}

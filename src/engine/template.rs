//! Template text: every k-gram of the template documents is masked out of the other
//! documents, so text the teacher gave everyone is never matched nor counted in a score.

use rustc_hash::FxHashSet;

use crate::hash::kgram_hashes;
use crate::normalize::Token;

/// Every k-gram hash of the template documents.
pub fn template_kgrams<'a>(templates: impl Iterator<Item = &'a [Token]>, k: usize) -> FxHashSet<u64> {
    templates.flat_map(|tokens| kgram_hashes(tokens.iter().map(|t| t.hash), k)).collect()
}

/// Masked tokens (one flag per token) and the sorted, disjoint character ranges they span.
pub type Masked = (Vec<bool>, Vec<(u32, u32)>);

/// Which tokens of `tokens` lie inside a k-gram that the templates contain, and the
/// character ranges those tokens span (sorted, disjoint). `None` when nothing is masked.
pub fn mask(tokens: &[Token], template: &FxHashSet<u64>, k: usize) -> Option<Masked> {
    if template.is_empty() {
        return None;
    }
    let mut masked = vec![false; tokens.len()];
    let mut any = false;
    for (i, h) in kgram_hashes(tokens.iter().map(|t| t.hash), k).iter().enumerate() {
        if template.contains(h) {
            masked[i..i + k].iter_mut().for_each(|m| *m = true);
            any = true;
        }
    }
    if !any {
        return None;
    }
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for (token, _) in tokens.iter().zip(&masked).filter(|(_, m)| **m) {
        match ranges.last_mut() {
            // Tokens of one masked run: extend across the punctuation between them.
            Some(last) if last.1 >= token.start || is_adjacent(tokens, last.1, token.start) => last.1 = token.end,
            _ => ranges.push((token.start, token.end)),
        }
    }
    Some((masked, ranges))
}

/// True when no token lies between character offsets `end` and `start`.
fn is_adjacent(tokens: &[Token], end: u32, start: u32) -> bool {
    let next = tokens.partition_point(|t| t.start < end);
    tokens.get(next).is_some_and(|t| t.start >= start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::{NormalizeOptions, tokenize};

    #[test]
    fn template_text_is_masked_with_the_punctuation_inside_it() {
        let template = tokenize("请回答下列问题，并写出理由。", NormalizeOptions::default());
        let doc = "姓名张三。请回答下列问题，并写出理由。我的答案是这样的。";
        let tokens = tokenize(doc, NormalizeOptions::default()).tokens;
        let set = template_kgrams(std::iter::once(template.tokens.as_slice()), 5);
        let (masked, ranges) = mask(&tokens, &set, 5).unwrap();
        assert_eq!(masked.iter().filter(|m| **m).count(), 12);
        let chars: Vec<char> = doc.chars().collect();
        let text: String = chars[ranges[0].0 as usize..ranges[0].1 as usize].iter().collect();
        assert_eq!(ranges.len(), 1);
        assert_eq!(text, "请回答下列问题，并写出理由");
    }
}

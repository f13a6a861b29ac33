//! The encoder's SentencePiece unigram tokenizer, as the wheel's pure-Python port runs it:
//! the `nmt_nfkc` normalizer walked over the precompiled darts-clone charsmap, whitespace
//! escaped to U+2581 with a dummy prefix, then a Viterbi segmentation over the pieces
//! (one unknown id for a character no piece starts with).

use super::asset::Piece;
use crate::model::saturating_u32;

/// The id of `<unk>`, `<s>` and `</s>`.
pub const UNK: u32 = 0;
pub const BOS: u32 = 1;
pub const EOS: u32 = 2;
/// What a whitespace becomes: U+2581 LOWER ONE EIGHTH BLOCK.
const SPACE: &[u8] = "\u{2581}".as_bytes();
/// Sentencepiece's penalty of an unknown piece below the lowest score.
const UNK_PENALTY: f64 = 10.0;

/// The tokenizer: built once with the [`super::Model`].
pub struct Tokenizer {
    normalizer: Normalizer,
    trie: Trie,
    scores: Vec<f32>,
    unk_score: f64,
}

impl Tokenizer {
    pub(crate) fn new(pieces: &[Piece], charsmap: &[u8]) -> Tokenizer {
        let scores: Vec<f32> = pieces.iter().map(|p| p.score).collect();
        let min = scores.iter().copied().fold(f32::INFINITY, f32::min);
        let min = if min.is_finite() { f64::from(min) } else { 0.0 };
        Tokenizer {
            normalizer: Normalizer::new(charsmap),
            trie: Trie::new(pieces),
            scores,
            unk_score: min - UNK_PENALTY,
        }
    }

    /// The piece ids of `text`, between `<s>` and `</s>`; an empty text is `<unk>`.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let normalized = self.normalizer.normalize(text);
        let mut ids = vec![BOS];
        if normalized.is_empty() {
            ids.push(UNK);
        } else {
            ids.extend(self.viterbi(&normalized));
        }
        ids.push(EOS);
        ids
    }

    /// The text as the model sees it (normalized, spaces as U+2581).
    pub fn normalize(&self, text: &str) -> String {
        String::from_utf8_lossy(&self.normalizer.normalize(text)).into_owned()
    }

    /// The best segmentation: for each position the best path ending there, ties to the
    /// earliest (strictly greater wins, as sentencepiece's lattice does).
    fn viterbi(&self, s: &[u8]) -> Vec<u32> {
        let len = s.len();
        let mut best = vec![-1e38f64; len + 1];
        let mut start_of = vec![0usize; len + 1];
        let mut piece_of = vec![UNK; len + 1];
        best[0] = 0.0;
        let mut i = 0;
        while i < len {
            let base = best[i];
            let char_end = (i + utf8_len(s, i)).min(len);
            let mut has_single = false;
            let mut node = Trie::ROOT;
            for (j, &byte) in s.iter().enumerate().skip(i) {
                let Some(next) = self.trie.child(node, byte) else { break };
                node = next;
                let Some(id) = self.trie.piece(node) else { continue };
                let end = j + 1;
                let score = base + f64::from(self.scores.get(id as usize).copied().unwrap_or(0.0));
                if score > best[end] {
                    best[end] = score;
                    start_of[end] = i;
                    piece_of[end] = id;
                }
                has_single |= end == char_end;
            }
            if !has_single {
                let score = base + self.unk_score;
                if score > best[char_end] {
                    best[char_end] = score;
                    start_of[char_end] = i;
                    piece_of[char_end] = UNK;
                }
            }
            i = char_end;
        }
        let mut ids = Vec::new();
        let mut p = len;
        while p > 0 {
            ids.push(piece_of[p]);
            p = start_of[p];
        }
        if ids.is_empty() {
            ids.push(UNK);
        }
        ids.reverse();
        ids
    }
}

/// The length of the UTF-8 sequence starting at `s[i]` (1 for a stray byte).
fn utf8_len(s: &[u8], i: usize) -> usize {
    let first = s[i];
    let n = match first {
        0x00..=0x7f => 1,
        _ if first >> 5 == 0b110 => 2,
        _ if first >> 4 == 0b1110 => 3,
        _ if first >> 3 == 0b11110 => 4,
        _ => 1,
    };
    if (1..n).all(|k| s.get(i + k).is_some_and(|b| b & 0xc0 == 0x80)) { n } else { 1 }
}

/// The pieces as a byte trie in compressed rows: each node's children sorted by byte.
struct Trie {
    first: Vec<u32>,
    labels: Vec<u8>,
    targets: Vec<u32>,
    /// Piece id + 1 of the piece ending at each node, 0 for none.
    piece: Vec<u32>,
}

impl Trie {
    const ROOT: u32 = 0;

    fn new(pieces: &[Piece]) -> Trie {
        // a growing trie of sorted child lists, frozen into rows at the end
        let mut children: Vec<Vec<(u8, u32)>> = vec![Vec::new()];
        let mut piece = vec![0u32];
        for (id, p) in pieces.iter().enumerate() {
            let mut node = 0usize;
            for &byte in p.text.as_bytes() {
                let list = &children[node];
                node = match list.binary_search_by_key(&byte, |&(b, _)| b) {
                    Ok(k) => list[k].1 as usize,
                    Err(k) => {
                        let new = children.len();
                        children[node].insert(k, (byte, saturating_u32(new)));
                        children.push(Vec::new());
                        piece.push(0);
                        new
                    }
                };
            }
            // a text two pieces share keeps the later id, as the wheel's dictionary does
            if node != 0 {
                piece[node] = u32::try_from(id + 1).unwrap_or(0);
            }
        }
        let mut first = Vec::with_capacity(children.len() + 1);
        let mut labels = Vec::new();
        let mut targets = Vec::new();
        for list in &children {
            first.push(saturating_u32(labels.len()));
            for &(b, t) in list {
                labels.push(b);
                targets.push(t);
            }
        }
        first.push(saturating_u32(labels.len()));
        Trie { first, labels, targets, piece }
    }

    fn child(&self, node: u32, byte: u8) -> Option<u32> {
        let n = node as usize;
        let (lo, hi) = (*self.first.get(n)? as usize, *self.first.get(n + 1)? as usize);
        let k = self.labels.get(lo..hi)?.binary_search(&byte).ok()?;
        self.targets.get(lo + k).copied()
    }

    fn piece(&self, node: u32) -> Option<u32> {
        self.piece.get(node as usize).copied().filter(|&p| p != 0).map(|p| p - 1)
    }
}

/// The `nmt_nfkc` normalizer over sentencepiece's precompiled charsmap.
struct Normalizer {
    units: Vec<u32>,
    normalized: Vec<u8>,
}

impl Normalizer {
    fn new(charsmap: &[u8]) -> Normalizer {
        let Some(size) = charsmap.get(..4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize) else {
            return Normalizer { units: Vec::new(), normalized: Vec::new() };
        };
        let trie = charsmap.get(4..4 + size).unwrap_or(&[]);
        let units = trie.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let normalized = charsmap.get(4 + size..).unwrap_or(&[]).to_vec();
        Normalizer { units, normalized }
    }

    fn offset(unit: u32) -> usize {
        ((unit >> 10) << ((unit & 0x200) >> 6)) as usize
    }

    /// What `data[pos..]` begins with once normalized, and how many bytes that consumed
    /// (the longest match of the charsmap, else one character unchanged).
    fn prefix<'a>(&'a self, data: &'a [u8], pos: usize) -> (&'a [u8], usize) {
        let mut best_len = 0;
        let mut best_value = 0usize;
        if let Some(&root) = self.units.first() {
            let mut node = Self::offset(root);
            for (i, &c) in data.iter().enumerate().skip(pos) {
                node ^= usize::from(c);
                let Some(&unit) = self.units.get(node) else { break };
                if unit & 0x8000_00ff != u32::from(c) {
                    break;
                }
                node ^= Self::offset(unit);
                if unit & 0x100 != 0 {
                    let Some(&leaf) = self.units.get(node) else { break };
                    best_len = i + 1 - pos;
                    best_value = (leaf & 0x7fff_ffff) as usize;
                }
            }
        }
        if best_len == 0 || best_value >= self.normalized.len() {
            let n = utf8_len(data, pos);
            return (&data[pos..pos + n], n);
        }
        let tail = &self.normalized[best_value..];
        let end = tail.iter().position(|&b| b == 0).unwrap_or(tail.len());
        (&tail[..end], best_len)
    }

    /// Normalized text: extra whitespace removed, a dummy prefix, spaces as U+2581.
    fn normalize(&self, text: &str) -> Vec<u8> {
        let raw = text.as_bytes();
        let n = raw.len();
        let mut pos = 0;
        while pos < n {
            let (p, adv) = self.prefix(raw, pos);
            if p != b" " {
                break;
            }
            pos += adv;
        }
        let mut out = Vec::with_capacity(n + 8);
        if pos >= n {
            return out;
        }
        out.extend_from_slice(SPACE);
        let mut prev_space = true;
        while pos < n {
            let (mut p, adv) = self.prefix(raw, pos);
            pos += adv;
            if prev_space {
                while let [b' ', rest @ ..] = p {
                    p = rest;
                }
            }
            if p.is_empty() {
                continue;
            }
            if p.contains(&b' ') {
                for &b in p {
                    if b == b' ' { out.extend_from_slice(SPACE) } else { out.push(b) }
                }
                prev_space = p.last() == Some(&b' ');
            } else {
                out.extend_from_slice(p);
                prev_space = false;
            }
        }
        while out.ends_with(SPACE) {
            out.truncate(out.len() - SPACE.len());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::utf8_len;

    #[test]
    fn stray_bytes_are_one_character() {
        assert_eq!(utf8_len("中".as_bytes(), 0), 3);
        assert_eq!(utf8_len(&[0xe4, 0x41], 0), 1);
        assert_eq!(utf8_len(&[0xff], 0), 1);
    }
}

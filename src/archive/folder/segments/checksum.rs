//! A segment's checksum, kept as its bytes are written or read in chunks of any size:
//! FNV-1a over its bytes for the segments of archive formats 1 to 4 (`TWSEG01`,
//! `TWSEG02`), and over its little-endian 64-bit words for those of formats 5 and 6
//! (`TWSEG03`, `TWSEG04`), eight times fewer multiplications; the bytes of an incomplete
//! last word (a packed segment need not be a whole number of words long) are taken one
//! by one.

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;

/// A checksum being taken.
pub(in crate::archive) struct Checksum {
    state: u64,
    /// Over words (`TWSEG03`), not bytes.
    words: bool,
    /// Bytes of a word not yet complete.
    pending: [u8; 8],
    filled: usize,
}

impl Checksum {
    /// A checksum over words (`words`, segments written now) or over bytes.
    pub(in crate::archive) fn new(words: bool) -> Self {
        Self { state: OFFSET, words, pending: [0; 8], filled: 0 }
    }

    /// Takes the next `bytes`.
    pub(in crate::archive) fn update(&mut self, mut bytes: &[u8]) {
        if !self.words {
            self.state = bytewise(self.state, bytes);
            return;
        }
        if self.filled > 0 {
            let take = (8 - self.filled).min(bytes.len());
            self.pending[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled < 8 {
                return;
            }
            self.word(u64::from_le_bytes(self.pending));
            self.filled = 0;
        }
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut w = [0u8; 8];
            w.copy_from_slice(word);
            self.word(u64::from_le_bytes(w));
        }
        let rest = words.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    /// One word: FNV-1a's step on 64 bits, turned so that high bits reach low ones.
    #[inline]
    fn word(&mut self, w: u64) {
        self.state = (self.state ^ w).wrapping_mul(PRIME).rotate_left(29);
    }

    /// The checksum of everything taken (an incomplete last word by its bytes).
    pub(in crate::archive) fn finish(self) -> u64 {
        bytewise(self.state, &self.pending[..self.filled])
    }
}

/// FNV-1a's steps over `bytes` from `state`.
fn bytewise(mut state: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        state ^= u64::from(b);
        state = state.wrapping_mul(PRIME);
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(words: bool, chunks: &[&[u8]]) -> u64 {
        let mut sum = Checksum::new(words);
        for chunk in chunks {
            sum.update(chunk);
        }
        sum.finish()
    }

    #[test]
    fn the_checksum_does_not_depend_on_how_the_bytes_are_cut_and_sees_every_flip() {
        let bytes: Vec<u8> = (0..200u32).map(|i| (i * 37 % 251) as u8).collect();
        for words in [true, false] {
            let whole = of(words, &[&bytes]);
            for cuts in [[1, 9], [7, 8], [8, 16], [3, 190], [0, 200]] {
                let [a, b] = cuts;
                assert_eq!(of(words, &[&bytes[..a], &bytes[a..b], &bytes[b..]]), whole, "{words} {cuts:?}");
            }
            for at in [0, 7, 8, 100, 199] {
                let mut flipped = bytes.clone();
                flipped[at] ^= 0x01;
                assert_ne!(of(words, &[&flipped]), whole, "{words} byte {at}");
            }
        }
        // Formats 1 to 4 keep FNV-1a over bytes, as they were written.
        assert_eq!(of(false, &[b"a"]), 0xaf63_dc4c_8601_ec8c);
    }
}

//! Stable 64-bit hashes for tokens, k-grams and words. Stable means the same on every
//! machine and every run, so fingerprints can be cached and compared across runs.

/// MurmurHash3's 64-bit finalizer: a bijective mix of all input bits.
#[inline]
pub const fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    h
}

/// Hash of a one-character token.
#[inline]
pub const fn hash_char(c: char) -> u64 {
    fmix64(c as u64 ^ 0x6368_6172_0000_0000)
}

/// FNV-1a over the characters of a word, finished with [`fmix64`].
#[derive(Clone, Copy, Debug)]
pub struct WordHasher(u64);

impl WordHasher {
    #[inline]
    pub const fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    #[inline]
    pub fn push(&mut self, c: char) {
        self.0 = (self.0 ^ c as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }

    #[inline]
    pub fn finish(&self) -> u64 {
        fmix64(self.0)
    }
}

impl Default for WordHasher {
    fn default() -> Self {
        Self::new()
    }
}

/// Hash of a string (a word for SimHash, a sentence key).
pub fn hash_str(s: &str) -> u64 {
    let mut h = WordHasher::new();
    s.chars().for_each(|c| h.push(c));
    h.finish()
}

const BASE: u64 = 0x9E37_79B9_7F4A_7C15 | 1;

/// Hashes of every run of `k` consecutive token hashes (a polynomial rolling hash, then
/// mixed). Returns `tokens.len() − k + 1` values, or none when there are fewer than `k`.
pub fn kgram_hashes(token_hashes: impl ExactSizeIterator<Item = u64> + Clone, k: usize) -> Vec<u64> {
    let n = token_hashes.len();
    if k == 0 || n < k {
        return Vec::new();
    }
    let top = (1..k).fold(1u64, |p, _| p.wrapping_mul(BASE));
    let mut out = Vec::with_capacity(n - k + 1);
    let mut rolling = 0u64;
    let mut leaving = token_hashes.clone();
    for (i, h) in token_hashes.enumerate() {
        if i >= k {
            let old = leaving.next().unwrap_or(0);
            rolling = rolling.wrapping_sub(old.wrapping_mul(top));
        }
        rolling = rolling.wrapping_mul(BASE).wrapping_add(h);
        if i + 1 >= k {
            out.push(fmix64(rolling));
        }
    }
    out
}

/// The tests' fixed pseudo-random 64-bit values: a xorshift generator from `state` (not
/// zero).
#[cfg(test)]
pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolling_kgram_hash_equals_direct_hash() {
        let tokens: Vec<u64> = (0..50u64).map(|i| fmix64(i % 7)).collect();
        let rolled = kgram_hashes(tokens.iter().copied(), 5);
        assert_eq!(rolled.len(), 46);
        for (i, h) in rolled.iter().enumerate() {
            let direct = kgram_hashes(tokens[i..i + 5].iter().copied(), 5);
            assert_eq!(direct, vec![*h]);
        }
        // Equal k-grams (period 7) hash equally.
        assert_eq!(rolled[0], rolled[7]);
        assert_ne!(rolled[0], rolled[1]);
    }

    #[test]
    fn too_few_tokens_give_no_kgrams() {
        assert!(kgram_hashes([1u64, 2].into_iter(), 3).is_empty());
        assert!(kgram_hashes([1u64, 2].into_iter(), 0).is_empty());
    }
}

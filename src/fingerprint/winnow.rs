//! Winnowing (Schleimer, Wilkerson, Aiken 2003): in every window of `w` consecutive
//! k-gram hashes keep the minimum — the rightmost one on ties — and record each kept
//! (hash, position) once.
//!
//! Guarantee: two texts sharing a run of at least `t = w + k − 1` tokens share at least
//! one fingerprint, because that run holds a whole window of identical k-gram hashes.

use crate::model::saturating_u32;
use std::collections::VecDeque;

/// A selected k-gram: its hash and the position (token index) of its first token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fingerprint {
    pub hash: u64,
    pub position: u32,
}

/// Winnows `hashes` with window `w`. With fewer hashes than `w`, the minimum of all of
/// them is kept (a short document still gets a fingerprint).
pub fn winnow(hashes: &[u64], w: usize) -> Vec<Fingerprint> {
    let w = w.max(1);
    let mut out = Vec::with_capacity(hashes.len() * 2 / (w + 1) + 1);
    // Indices of candidate minima, their hashes strictly increasing from front to back;
    // popping equal values from the back keeps the rightmost minimum in front.
    let mut deque: VecDeque<usize> = VecDeque::with_capacity(w + 1);
    let mut last: Option<usize> = None;
    for (i, &h) in hashes.iter().enumerate() {
        while deque.back().is_some_and(|&j| hashes[j] >= h) {
            deque.pop_back();
        }
        deque.push_back(i);
        if deque.front().is_some_and(|&j| j + w <= i) {
            deque.pop_front();
        }
        let window_full = i + 1 >= w;
        if (window_full || i + 1 == hashes.len())
            && let Some(&min) = deque.front()
            && last != Some(min)
        {
            out.push(Fingerprint { hash: hashes[min], position: saturating_u32(min) });
            last = Some(min);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::kgram_hashes;
    use proptest::prelude::*;

    /// Schleimer, Wilkerson, Aiken (SIGMOD 2003), Figure 2: "A do run run run, a do run
    /// run", k = 5, w = 4, with the paper's k-gram hashes injected.
    #[test]
    fn reproduces_the_paper_example() {
        let text: String =
            "A do run run run, a do run run".chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase();
        assert_eq!(text, "adorunrunrunadorunrun");
        assert_eq!(text.chars().count() - 5 + 1, 17);
        let hashes = [77, 74, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 74, 42, 17, 98];
        let got: Vec<(u64, u32)> = winnow(&hashes, 4).iter().map(|f| (f.hash, f.position)).collect();
        assert_eq!(got, vec![(17, 3), (17, 6), (8, 8), (39, 11), (17, 15)]);
    }

    #[test]
    fn short_input_keeps_its_minimum() {
        assert_eq!(winnow(&[5, 3, 9], 8), vec![Fingerprint { hash: 3, position: 1 }]);
        assert!(winnow(&[], 4).is_empty());
    }

    fn tokens_of(seed: &[u16]) -> Vec<u64> {
        seed.iter().map(|&x| crate::hash::fmix64(x as u64)).collect()
    }

    proptest! {
        /// Two random texts that share a planted run of t = w + k − 1 tokens always share
        /// a fingerprint.
        #[test]
        fn planted_run_of_t_tokens_always_shares_a_fingerprint(
            k in 1usize..12, w in 1usize..12,
            a in proptest::collection::vec(0u16..5000, 0..200),
            b in proptest::collection::vec(0u16..5000, 0..200),
            planted in proptest::collection::vec(5000u16..10000, 40),
            at_a in 0usize..200, at_b in 0usize..200,
        ) {
            let t = w + k - 1;
            let run = &planted[..t];
            let mut ta = tokens_of(&a);
            let mut tb = tokens_of(&b);
            let ia = at_a.min(ta.len());
            let ib = at_b.min(tb.len());
            ta.splice(ia..ia, tokens_of(run));
            tb.splice(ib..ib, tokens_of(run));
            let fa = winnow(&kgram_hashes(ta.iter().copied(), k), w);
            let fb = winnow(&kgram_hashes(tb.iter().copied(), k), w);
            let hb: std::collections::HashSet<u64> = fb.iter().map(|f| f.hash).collect();
            prop_assert!(fa.iter().any(|f| hb.contains(&f.hash)));
        }
    }
}

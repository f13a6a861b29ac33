//! How the catalog encodes what it stores beside the rows: texts compressed with zstd,
//! and a SimHash cut into the keys its near ones are found by (the folder catalog's two
//! 32-bit halves, the shared archive's four 16-bit bands). A leaf: adding, reading,
//! grouping and verifying all use it, and it uses none of them.

use std::cell::RefCell;

/// zstd level of stored texts.
const TEXT_LEVEL: i32 = 3;

/// Width of one SimHash block of the catalog's pigeonhole index (four blocks: any two
/// values within 3 bits agree on one whole block).
pub(super) const BAND_BITS: u32 = 16;

/// A text as stored. Each thread keeps one compression context: making one for every
/// text cost an add about 2 % of its time.
pub(super) fn compress(text: &str) -> Result<Vec<u8>, std::io::Error> {
    thread_local! {
        static COMPRESSOR: RefCell<Option<zstd::bulk::Compressor<'static>>> = const { RefCell::new(None) };
    }
    COMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        let compressor = match slot.as_mut() {
            Some(compressor) => compressor,
            None => slot.insert(zstd::bulk::Compressor::new(TEXT_LEVEL)?),
        };
        compressor.compress(text.as_bytes())
    })
}

/// A stored text read back.
pub(super) fn decompress(bytes: &[u8]) -> Result<String, String> {
    let raw = zstd::stream::decode_all(bytes).map_err(|e| e.to_string())?;
    String::from_utf8(raw).map_err(|e| e.to_string())
}

/// The four 16-bit blocks of a SimHash, as the shared archive stores them.
pub(super) fn bands(h: u64) -> [i64; 4] {
    [0, 1, 2, 3].map(|i| ((h >> (i * BAND_BITS)) & 0xffff) as i64)
}

/// The two 32-bit halves of a SimHash, high first, as the folder catalog stores them
/// (`h0`, `h1`).
pub(super) fn halves(h: u64) -> [i64; 2] {
    [(h >> 32) as i64, (h & 0xffff_ffff) as i64]
}

/// The halves a SimHash within 3 bits of `h` may have: each half of `h` and the 32 that
/// differ from it in one bit. Two SimHashes within 3 bits differ in at most one bit in
/// one of their halves, so one of these keys finds each of them; a half shared by
/// thousands of topical documents (as a 16-bit band was, 7,000 of a million) is shared
/// by a handful.
pub(super) fn half_probes(h: u64) -> [[i64; 33]; 2] {
    halves(h).map(|half| {
        let mut keys = [half; 33];
        for (bit, key) in keys.iter_mut().skip(1).enumerate() {
            *key = half ^ (1 << bit);
        }
        keys
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_simhash_within_3_bits_shares_a_probed_half() {
        let mut next = crate::hash::xorshift(0x2545_f491_4f6c_dd1du64);
        for _ in 0..2_000 {
            let h = next();
            let probes = half_probes(h);
            let flips = (next() % 4) as usize;
            let mut other = h;
            for _ in 0..flips {
                other ^= 1 << (next() % 64);
            }
            let [high, low] = halves(other);
            assert!(probes[0].contains(&high) || probes[1].contains(&low), "{h:x} {other:x}");
        }
        assert_eq!(halves(0xffff_ffff_0000_0001), [0xffff_ffff, 1]);
        // Four bits apart, two in each half: no probe need find it.
        let far = 0b11 | (0b11 << 32);
        let [high, low] = halves(far);
        assert!(!half_probes(0)[0].contains(&high) && !half_probes(0)[1].contains(&low));
    }

    #[test]
    fn texts_come_back_and_a_reused_context_gives_the_bytes_a_fresh_one_gives() {
        for text in ["", "一段中文文本，和 some English words.", &"long text ".repeat(10_000)] {
            let stored = compress(text).unwrap();
            assert_eq!(stored, zstd::bulk::compress(text.as_bytes(), TEXT_LEVEL).unwrap());
            assert_eq!(decompress(&stored).unwrap(), text);
        }
    }
}

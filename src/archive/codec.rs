//! How the catalog encodes what it stores beside the rows: texts compressed with zstd,
//! and a SimHash cut into the four 16-bit bands of the pigeonhole index. A leaf: adding,
//! reading, grouping and verifying all use it, and it uses none of them.

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

/// The four 16-bit blocks of a SimHash, as stored in the catalog.
pub(super) fn bands(h: u64) -> [i64; 4] {
    [0, 1, 2, 3].map(|i| ((h >> (i * BAND_BITS)) & 0xffff) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_come_back_and_a_reused_context_gives_the_bytes_a_fresh_one_gives() {
        for text in ["", "一段中文文本，和 some English words.", &"long text ".repeat(10_000)] {
            let stored = compress(text).unwrap();
            assert_eq!(stored, zstd::bulk::compress(text.as_bytes(), TEXT_LEVEL).unwrap());
            assert_eq!(decompress(&stored).unwrap(), text);
        }
    }
}

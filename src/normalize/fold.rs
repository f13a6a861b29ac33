//! Traditional → simplified Chinese as a character fold: a context-free, many-to-one map
//! built once from the `fast2s` crate's table (generated from OpenCC's data).

use std::sync::LazyLock;

/// The CJK blocks the fold covers: Extension A + Unified Ideographs, and the
/// compatibility ideographs (NFKC usually maps those first).
const BLOCKS: [(u32, u32); 2] = [(0x3400, 0xA000), (0xF900, 0xFB00)];

/// For every code point in [`BLOCKS`], its simplified form (the same code point when
/// there is none). Dense arrays make the fold one indexed load per character.
static TABLES: LazyLock<[Vec<char>; 2]> = LazyLock::new(|| BLOCKS.map(|(lo, hi)| build_block(lo, hi)));

fn build_block(lo: u32, hi: u32) -> Vec<char> {
    let mut buf = [0u8; 4];
    (lo..hi)
        .map(|cp| {
            let Some(c) = char::from_u32(cp) else {
                return '\u{FFFD}';
            };
            let converted = fast2s::convert(c.encode_utf8(&mut buf));
            let mut chars = converted.chars();
            match (chars.next(), chars.next()) {
                (Some(s), None) => s,
                _ => c,
            }
        })
        .collect()
}

/// Folds one character from traditional to simplified Chinese; every other character is
/// returned unchanged.
#[inline]
pub fn to_simplified(c: char) -> char {
    let cp = c as u32;
    for (table, (lo, hi)) in TABLES.iter().zip(BLOCKS) {
        if (lo..hi).contains(&cp) {
            return table.get((cp - lo) as usize).copied().unwrap_or(c);
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_common_traditional_characters() {
        let traditional = "軟體套件說明與維護檔案開發這個們會為麼";
        let simplified: String = traditional.chars().map(to_simplified).collect();
        assert_eq!(simplified, "软体套件说明与维护档案开发这个们会为么");
    }

    #[test]
    fn leaves_simplified_and_latin_alone() {
        for c in "软件包 debian ASCII 123 ひらがな".chars() {
            assert_eq!(to_simplified(c), c);
        }
    }
}

//! Character classes the tokenizer needs: which characters are one token each (Han, Kana,
//! Hangul), which end a sentence.

/// Han ideographs (with CJK radicals and the iteration marks), Kana and Hangul: scripts
/// written without spaces, where one character is one token.
#[inline]
pub fn is_single_char_token(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF        // CJK Unified Ideographs
        | 0x3400..=0x4DBF      // Extension A
        | 0x20000..=0x323AF    // Extensions B–H
        | 0xF900..=0xFAFF      // Compatibility Ideographs
        | 0x2E80..=0x2FDF      // radicals
        | 0x3005 | 0x3007 | 0x3021..=0x3029 | 0x3038..=0x303B
        | 0x3040..=0x30FF      // Hiragana, Katakana
        | 0x31F0..=0x31FF      // Katakana extension
        | 0xFF66..=0xFF9F      // half-width Katakana
        | 0x1100..=0x11FF      // Hangul Jamo
        | 0x3130..=0x318F      // Hangul compatibility Jamo
        | 0xAC00..=0xD7AF      // Hangul syllables
    ) && c != '\u{30FB}' // Katakana middle dot is punctuation
}

/// Characters that end a sentence by themselves (after NFKC, so full-width forms are
/// already half-width where they have one). A Latin `.` only ends a sentence before
/// white space; the tokenizer checks that.
#[inline]
pub fn is_sentence_terminator(c: char) -> bool {
    matches!(c, '。' | '！' | '？' | '；' | '!' | '?' | ';' | '\n' | '\r' | '\u{2029}' | '\u{2028}' | '｡')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn han_kana_hangul_are_single_tokens() {
        for c in "中文字ひらカナ한국".chars() {
            assert!(is_single_char_token(c), "{c}");
        }
        for c in "aZ09,。 ・".chars() {
            assert!(!is_single_char_token(c), "{c}");
        }
    }
}

//! Plain text in any common encoding: BOMs first (UTF-8, UTF-16), then UTF-16 without
//! BOM by its NUL pattern, then strict UTF-8, then chardetng's guess (GB18030/GBK, Big5,
//! Shift-JIS, …). A leading BOM is removed; nothing else is changed.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

use super::error::Failure;
use super::sniff::control_bytes;
use crate::model::Notice;

/// Decodes `bytes` to text, with warnings (e.g. replaced malformed sequences).
/// Binary data (NULs, control bytes) is refused rather than decoded.
pub(crate) fn decode(bytes: &[u8]) -> Result<(String, Vec<Notice>), Failure> {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        return finish(encoding, &bytes[bom_len..]);
    }
    if let Some(encoding) = utf16_by_nul_pattern(bytes) {
        return finish(encoding, bytes);
    }
    if bytes.contains(&0) || control_bytes(bytes) * 100 > bytes.len() {
        return Err(Failure::Binary("binary data: NUL or control bytes where text was expected".into()));
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Ok((s.to_string(), Vec::new()));
    }
    finish(guess(bytes), bytes)
}

/// chardetng's guess for bytes that are not UTF-8, from their first 64 KB.
pub(crate) fn guess(bytes: &[u8]) -> &'static Encoding {
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    // 64 KB tell the encoding as well as the whole file, at a fraction of the time.
    let sample = &bytes[..bytes.len().min(64 * 1024)];
    detector.feed(sample, sample.len() == bytes.len());
    detector.guess(None, chardetng::Utf8Detection::Allow)
}

/// Decodes with a known encoding; refuses text that is mostly malformed or control
/// characters.
pub(crate) fn finish(encoding: &'static Encoding, bytes: &[u8]) -> Result<(String, Vec<Notice>), Failure> {
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    let total = text.chars().count().max(1);
    let controls =
        text.chars().filter(|&c| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c' | '\x1b')).count();
    if controls * 100 > total {
        return Err(Failure::Binary(format!(
            "binary data: {controls} of {total} characters are control characters as {}",
            encoding.name()
        )));
    }
    let mut warnings = Vec::new();
    if had_errors {
        let replaced = text.chars().filter(|&c| c == '\u{FFFD}').count();
        if replaced * 20 > total {
            return Err(Failure::Undecodable(format!(
                "{} of {} characters are not valid {}",
                replaced,
                total,
                encoding.name()
            )));
        }
        warnings.push(Notice::BytesReplaced { count: replaced, encoding: encoding.name().to_string() });
    } else if encoding != UTF_8 {
        warnings.push(Notice::DecodedAs { encoding: encoding.name().to_string() });
    }
    Ok((text.into_owned(), warnings))
}

/// UTF-16 without a BOM: ASCII-heavy text has a NUL in every other byte.
fn utf16_by_nul_pattern(bytes: &[u8]) -> Option<&'static Encoding> {
    let sample = &bytes[..bytes.len().min(4096) & !1];
    if sample.len() < 4 {
        return None;
    }
    let pairs = sample.len() / 2;
    let even_nul = sample.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd_nul = sample.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    if odd_nul * 10 > pairs * 4 && even_nul * 10 < pairs {
        Some(UTF_16LE)
    } else if even_nul * 10 > pairs * 4 && odd_nul * 10 < pairs {
        Some(UTF_16BE)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_with_and_without_bom() {
        assert_eq!(decode("\u{FEFF}软件".as_bytes()).map(|r| r.0), Ok("软件".to_string()));
        assert!(matches!(decode(b"\x01\x02\x03\x04abc"), Err(Failure::Binary(_))));
        assert_eq!(decode("plain".as_bytes()).map(|r| r.0), Ok("plain".to_string()));
    }

    #[test]
    fn gbk_big5_and_utf16() {
        let text = "这是一个用于测试编码检测的中文句子，软件包管理系统可以帮助用户安装和删除软件。";
        let (gbk, _, _) = encoding_rs::GBK.encode(text);
        assert_eq!(decode(&gbk).map(|r| r.0), Ok(text.to_string()));
        let trad = "這是一個用於測試編碼偵測的中文句子，軟體套件管理系統可以幫助使用者安裝和移除軟體。";
        let (big5, _, _) = encoding_rs::BIG5.encode(trad);
        assert_eq!(decode(&big5).map(|r| r.0), Ok(trad.to_string()));
        let utf16le: Vec<u8> = "hello world, plain text".encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        assert_eq!(decode(&utf16le).map(|r| r.0), Ok("hello world, plain text".to_string()));
    }
}

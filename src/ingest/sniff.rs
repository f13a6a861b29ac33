//! Chooses how to read a file: by its content first (magic numbers, markup), by its
//! extension second. Knows the common binary formats so it can say what a file is.

use super::Format;
use super::error::Failure;

/// What the content of a file looks like.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Sniffed {
    /// Read it with this format's extractor.
    Format(Format),
    /// A ZIP archive: a .docx or .odt, told apart by its entries.
    Zip,
    /// Not something Twinspot reads.
    Refuse(Failure),
}

/// Signatures of binary formats that are certainly not documents Twinspot reads.
const BINARY_MAGIC: &[(&[u8], &str)] = &[
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"BM", "a BMP image"),
    (b"II*\0", "a TIFF image"),
    (b"MM\0*", "a TIFF image"),
    (b"\x7fELF", "an ELF executable"),
    (b"MZ", "a Windows executable"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"BZh", "a bzip2 archive"),
    (b"\xfd7zXZ\0", "an xz archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"\x28\xb5\x2f\xfd", "a zstd archive"),
    (b"OggS", "an Ogg media file"),
    (b"ID3", "an MP3 audio file"),
    (b"fLaC", "a FLAC audio file"),
    (b"\0asm", "a WebAssembly module"),
    (b"SQLite format 3\0", "an SQLite database"),
];

/// Decides how to read `bytes`; `ext` is the lower-case file extension, if any.
pub(crate) fn sniff(bytes: &[u8], ext: &str) -> Sniffed {
    let by_ext = format_by_extension(ext);
    if is_pdf(bytes) {
        return Sniffed::Format(Format::Pdf);
    }
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        return Sniffed::Zip;
    }
    if bytes.starts_with(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1") {
        // Password-protected .docx files are stored in this container too.
        return Sniffed::Refuse(if by_ext == Some(Format::Docx) {
            Failure::Encrypted(Format::Docx)
        } else {
            Failure::Unsupported("a legacy Microsoft Office file (.doc/.xls/.ppt): save it as .docx".into())
        });
    }
    if bytes.starts_with(b"{\\rtf") {
        return Sniffed::Refuse(Failure::Unsupported("an RTF document: save it as .docx or .txt".into()));
    }
    if let Some((_, what)) = BINARY_MAGIC.iter().find(|(magic, _)| bytes.starts_with(magic)) {
        let what = (*what).to_string();
        return Sniffed::Refuse(match by_ext {
            Some(f @ (Format::Pdf | Format::Docx | Format::Odt)) => {
                Failure::Corrupt(f, format!("the content is {what}"))
            }
            _ => Failure::Binary(what),
        });
    }
    if looks_like_html(bytes, by_ext) {
        return Sniffed::Format(Format::Html);
    }
    match by_ext {
        // Claimed a binary document format, but has neither its signature nor plainly
        // text (Unicode: a mis-named legacy-encoded text file is too unlikely).
        Some(f @ (Format::Pdf | Format::Docx | Format::Odt)) if !is_unicode_text(bytes) => {
            let reason = match f {
                Format::Pdf => "no %PDF header",
                _ => "not a ZIP archive",
            };
            Sniffed::Refuse(Failure::Corrupt(f, reason.into()))
        }
        _ => Sniffed::Format(Format::Text),
    }
}

/// The format an extension names (`None` for unknown ones).
pub(crate) fn format_by_extension(ext: &str) -> Option<Format> {
    match ext {
        "txt" | "md" | "markdown" | "text" | "csv" => Some(Format::Text),
        "docx" | "docm" | "dotx" => Some(Format::Docx),
        "odt" | "ott" => Some(Format::Odt),
        "pdf" => Some(Format::Pdf),
        "html" | "htm" | "xhtml" | "shtml" => Some(Format::Html),
        _ => None,
    }
}

/// `%PDF-` at the start, or (as readers allow) within the first kilobyte.
fn is_pdf(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    head.windows(5).any(|w| w == b"%PDF-")
}

/// An HTML document: by extension, or by a doctype / `<html>` near the start.
fn looks_like_html(bytes: &[u8], by_ext: Option<Format>) -> bool {
    if by_ext == Some(Format::Html) {
        return true;
    }
    let head = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let head = &head[..head.len().min(1024)];
    let start = head.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(head.len());
    let lower: Vec<u8> = head[start..].to_ascii_lowercase();
    if lower.starts_with(b"<!doctype html") || lower.starts_with(b"<html") {
        return true;
    }
    // A page that starts with a comment or an XML declaration.
    by_ext != Some(Format::Text)
        && (lower.starts_with(b"<!--") || lower.starts_with(b"<?xml"))
        && lower.windows(5).any(|w| w == b"<html")
}

/// Mostly printable: no NUL and few control bytes in the first 4 KB (UTF-16 has
/// NULs, so a BOM counts as textual too).
pub(crate) fn looks_textual(bytes: &[u8]) -> bool {
    if bytes.starts_with(b"\xff\xfe") || bytes.starts_with(b"\xfe\xff") {
        return true;
    }
    let head = &bytes[..bytes.len().min(4096)];
    !head.contains(&0) && control_bytes(head) * 100 <= head.len()
}

/// Valid UTF-8 or UTF-16 with a BOM, and textual.
fn is_unicode_text(bytes: &[u8]) -> bool {
    let unicode =
        bytes.starts_with(b"\xff\xfe") || bytes.starts_with(b"\xfe\xff") || std::str::from_utf8(bytes).is_ok();
    unicode && looks_textual(bytes)
}

/// Bytes that never occur in text: C0 controls other than tab, line feed, form feed,
/// carriage return and escape.
pub(crate) fn control_bytes(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | 0x1b)) || b == 0x7f).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_first_extension_second() {
        assert_eq!(sniff(b"%PDF-1.7\n...", "txt"), Sniffed::Format(Format::Pdf));
        assert_eq!(sniff(b"PK\x03\x04rest", "pdf"), Sniffed::Zip);
        assert_eq!(sniff(b"<!DOCTYPE html><p>x", "txt"), Sniffed::Format(Format::Html));
        assert_eq!(sniff(b"plain words", "pdf"), Sniffed::Format(Format::Text));
        assert_eq!(sniff(b"plain words", ""), Sniffed::Format(Format::Text));
        assert!(matches!(sniff(b"\x00\x01\x02\x03garbage", "pdf"), Sniffed::Refuse(Failure::Corrupt(Format::Pdf, _))));
        assert!(matches!(sniff(b"\x89PNG\r\n\x1a\n....", "txt"), Sniffed::Refuse(Failure::Binary(_))));
        assert!(matches!(
            sniff(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1....", "docx"),
            Sniffed::Refuse(Failure::Encrypted(Format::Docx))
        ));
    }
}

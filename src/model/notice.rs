//! What a report says about one document besides its pairs, typed: the remarks made while
//! reading and checking it ([`Notice`]) and why it could not be read ([`DocError`]). Their
//! `Display` is the English text reports write; front ends may say them in another language.

use serde::{Deserialize, Serialize};

use super::{Format, IngestError, Language};

/// A remark about a document that did not stop the check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Notice {
    /// Text decoded from a legacy encoding (GBK, Big5, UTF-16, …).
    DecodedAs { encoding: String },
    /// Malformed byte sequences replaced while decoding.
    BytesReplaced { count: usize, encoding: String },
    /// The file holds no text.
    NoText,
    /// A PDF without a text layer.
    NoTextInPdf,
    /// PDF pages that are scans with an invisible text layer (OCR): their text is compared.
    ScannedPdf { pages: u32 },
    /// Text without words: only punctuation, symbols or spaces.
    NoWords,
    /// The extension names another format than the content.
    NamedOtherwise { ext: String, format: Format },
    /// One PDF page read with the fallback extractor.
    PdfPageFallback { page: u32, why: String },
    /// A part of a document (footnotes, …) skipped because it is malformed.
    PartSkipped { part: String, reason: String },
    /// The same bytes as an earlier document; `through` when it is compared through it.
    IdenticalTo { path: String, through: bool },
    /// A giant document compared up to a prefix.
    PrefixCompared { compared: usize, chars: usize, max: usize },
    /// The stored references (an archive's) of which `documents` are longer than a check
    /// compares (`max` characters): text copied from past their first part is not found.
    StoredCut { documents: usize, max: usize },
    /// Pairs beyond the report's bound left out.
    PairsLeftOut { left_out: usize, max: usize, kept: usize },
    /// A suspect that shares no text with any document was compared with references in
    /// other scripts than its own, where copying (a translation) cannot be seen: how many
    /// references are in each script.
    OtherLanguages { references: Vec<(Language, usize)> },
    /// What the file does to hide text (hidden runs, pages of images), found by ingest;
    /// the check moves it to the document's flags.
    Flag(super::Flag),
    /// The meaning layer could not be loaded: text in another language than the
    /// suspect's was not compared with it.
    MeaningOff { reason: String },
    /// The document is longer than the meaning layer reads: translated passages were
    /// looked for in its first `max` characters only.
    MeaningCut { max: usize },
    /// Any other remark, as written.
    Other(String),
}

impl std::fmt::Display for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::DecodedAs { encoding } => write!(f, "decoded as {encoding}"),
            Self::BytesReplaced { count, encoding } => {
                write!(f, "{count} malformed byte sequences replaced while decoding as {encoding}")
            }
            Self::NoText => f.write_str("no text found"),
            Self::NoTextInPdf => f.write_str("no text found (a scanned PDF? Twinspot does no OCR)"),
            Self::ScannedPdf { pages } => {
                let s = if *pages == 1 { "" } else { "s" };
                write!(f, "{pages} scanned page{s} with a text layer (OCR): the text layer is compared")
            }
            Self::NoWords => f.write_str("no words to compare (only punctuation, symbols or spaces)"),
            Self::NamedOtherwise { ext, format } => {
                write!(f, "named .{ext} but the content is {format}; read as {format}")
            }
            Self::PdfPageFallback { page, why } => {
                write!(f, "page {page}: pdf-extract failed ({why}); used the simpler lopdf extractor")
            }
            Self::PartSkipped { part, reason } => write!(f, "{part} skipped (malformed XML: {reason})"),
            Self::IdenticalTo { path, through: true } => {
                write!(f, "identical to {path} (same bytes): compared once, through it")
            }
            Self::IdenticalTo { path, through: false } => write!(f, "identical to {path} (same bytes)"),
            Self::PrefixCompared { compared, chars, max } => write!(
                f,
                "only the first {compared} of its {chars} characters are compared: a document may take at most \
                 {max} normalized characters"
            ),
            Self::StoredCut { documents, max } => {
                let (s, is) = if *documents == 1 { ("", "is") } else { ("s", "are") };
                write!(
                    f,
                    "{documents} archived document{s} {is} longer than {max} characters and compared by that first \
                     part only: text copied from past it is not found"
                )
            }
            Self::PairsLeftOut { left_out, max, kept } => write!(
                f,
                "{left_out} more pairs with shared text were left out: a report keeps at most {max} pairs, the \
                 {kept} closest of each document"
            ),
            Self::OtherLanguages { references } => {
                f.write_str("compared within one language only: ")?;
                for (n, (language, count)) in references.iter().enumerate() {
                    let (s, are) = if *count == 1 { ("", "is") } else { ("s", "are") };
                    let what = match language {
                        Language::Chinese => "in Chinese",
                        Language::Latin => "in Latin script",
                        Language::Other => "in another script",
                    };
                    if n == 0 {
                        write!(f, "{count} reference{s} {are} {what}")?;
                    } else {
                        write!(f, ", {count} {what}")?;
                    }
                }
                f.write_str("; copying across languages is not found")
            }
            Self::Flag(flag) => flag.fmt(f),
            Self::MeaningOff { reason } => {
                write!(f, "not compared across languages: the meaning layer is off ({reason})")
            }
            Self::MeaningCut { max } => {
                write!(f, "translated passages were looked for in its first {max} characters only")
            }
            Self::Other(text) => f.write_str(text),
        }
    }
}

impl From<String> for Notice {
    fn from(text: String) -> Self {
        Self::Other(text)
    }
}

impl From<&str> for Notice {
    fn from(text: &str) -> Self {
        Self::Other(text.to_string())
    }
}

/// Why a document could not be read. Displays as "what is wrong: path".
#[derive(Clone, Debug, thiserror::Error)]
pub enum DocError {
    /// Reading the file failed.
    #[error(transparent)]
    Read(#[from] IngestError),
    /// Any other cause (a damaged archive entry, …), as written.
    #[error("{0}")]
    Other(String),
}

impl From<String> for DocError {
    fn from(message: String) -> Self {
        Self::Other(message)
    }
}

impl From<&str> for DocError {
    fn from(message: &str) -> Self {
        Self::Other(message.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_english_text_is_the_one_reports_always_wrote() {
        let named = Notice::NamedOtherwise { ext: "txt".into(), format: Format::Pdf };
        assert_eq!(named.to_string(), "named .txt but the content is PDF; read as PDF");
        let through = Notice::IdenticalTo { path: "a/b.txt".into(), through: true };
        assert_eq!(through.to_string(), "identical to a/b.txt (same bytes): compared once, through it");
        assert_eq!(Notice::NoText.to_string(), "no text found");
        let other = Notice::OtherLanguages { references: vec![(Language::Chinese, 4), (Language::Other, 1)] };
        assert_eq!(
            other.to_string(),
            "compared within one language only: 4 references are in Chinese, 1 in another script; copying across \
             languages is not found"
        );
        let empty = DocError::from(IngestError::Empty { path: "x/e.txt".into() });
        assert_eq!(empty.to_string(), "empty file (0 bytes): x/e.txt");
    }
}

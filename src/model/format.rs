//! The document formats Twinspot reads, named in messages and notices.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The formats ingest reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Text,
    Docx,
    Pdf,
    Html,
    Odt,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Text => "text",
            Self::Docx => "DOCX",
            Self::Pdf => "PDF",
            Self::Html => "HTML",
            Self::Odt => "ODT",
        })
    }
}

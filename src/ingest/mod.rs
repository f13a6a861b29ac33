//! Ingest: a path becomes one `String` of extracted text (plus warnings), or a typed,
//! per-file error. The format is chosen by sniffing the content first, the extension
//! second. Input files are only ever read; every extractor runs contained — in a helper
//! process under resource limits when the front end supplies one ([`Isolation`]), else on
//! a thread with panics caught and time bounded — so no file can take a run down.

mod archive;
mod contain;
mod dates;
mod docx;
mod error;
mod hidden;
mod html;
#[cfg(target_os = "linux")]
mod isolate;
mod layout;
mod limits;
mod lms;
mod odt;
mod open_zips;
mod pdf;
mod pdf_hidden;
mod sniff;
mod text;
mod xml;
mod zip_members;

pub use crate::model::{Format, IngestError};
pub use dates::{FileDates, a_came_first, file_dates};
pub use limits::{HELPER_ENV, IngestLimits, Isolation, is_link_loop, open_regular};
pub use lms::{Handed, Lms};
pub use zip_members::{ZipMember, list_zip};

use std::path::Path;

use contain::{Budget, Escape};
use error::Failure;
use sniff::Sniffed;

use crate::model::Notice;

/// The text of one file.
#[derive(Clone, Debug, PartialEq)]
pub struct Extracted {
    /// The extracted text: every offset the engine reports counts characters of it.
    pub text: String,
    /// What the file was read as.
    pub format: Format,
    /// Things worth telling the user that did not stop the extraction.
    pub warnings: Vec<Notice>,
    /// SHA-256 of the file's bytes, lowercase hex: the file's identity, whatever its name.
    pub sha256: String,
}

/// SHA-256 of `bytes` as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    lowercase_hex(&sha2::Sha256::digest(bytes))
}

/// `digest` written as lowercase hex, as a file's SHA-256 is kept.
pub fn lowercase_hex(digest: &[u8]) -> String {
    use std::fmt::Write;
    digest.iter().fold(String::with_capacity(2 * digest.len()), |mut hex, byte| {
        write!(hex, "{byte:02x}").ok();
        hex
    })
}

/// Reads the text of the file at `path`, with extractors running where
/// `limits.isolation` says. Starts helper processes for this one file if needed: to read
/// many files, keep an [`Extractor`].
///
/// ```no_run
/// use twinspot::ingest::{extract, IngestLimits};
/// match extract("essay.docx".as_ref(), &IngestLimits::default()) {
///     Ok(doc) => println!("{} characters", doc.text.chars().count()),
///     Err(e) => eprintln!("{e:#}"),
/// }
/// ```
pub fn extract(path: &Path, limits: &IngestLimits) -> Result<Extracted, IngestError> {
    Extractor::new(limits.isolation.as_ref()).extract(path, limits)
}

/// Reads files, keeping its extraction helper processes (if any) for the next file.
pub struct Extractor {
    #[cfg(target_os = "linux")]
    pool: Option<isolate::Pool>,
    /// The zips of submissions being read, each directory parsed once.
    zips: open_zips::OpenZips,
}

impl Extractor {
    /// Extractors run in helper processes started as `isolation` says; with `None` (and on
    /// systems other than Linux) they run in this process, on contained threads.
    pub fn new(isolation: Option<&Isolation>) -> Self {
        #[cfg(target_os = "linux")]
        {
            Self { pool: isolation.cloned().map(isolate::Pool::new), zips: open_zips::OpenZips::default() }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = isolation;
            Self { zips: open_zips::OpenZips::default() }
        }
    }

    /// Reads the text of the file at `path`.
    ///
    /// Never panics and returns within about `limits.timeout_secs` (plus the time to read
    /// the file). Plain text, decoded in one linear pass, is decoded on the calling
    /// thread, its panics caught. Other formats run in a helper process when there is
    /// one (a crash, a stack overflow or running out of memory ends only the helper), or
    /// else on a helper thread, whose panics are caught and which is abandoned when the
    /// time is up.
    ///
    /// A `.zip` is not a document: it is refused with the reason it cannot be read as a
    /// zip of submissions (its entries are read by [`Extractor::extract_member`]).
    pub fn extract(&self, path: &Path, limits: &IngestLimits) -> Result<Extracted, IngestError> {
        if extension_of(path) == "zip" {
            return Err(zip_refusal(path, limits));
        }
        let bytes = limits::read_bounded(path, limits)?;
        self.extract_read(path, bytes, limits)
    }

    /// Reads the text of `member` of the zip at `zip`, as [`Extractor::extract`] reads a
    /// file: its bytes are inflated in memory (at most `limits.max_file_bytes`), and every
    /// error names the entry as `zip/name`.
    pub fn extract_member(
        &self,
        zip: &Path,
        member: &ZipMember,
        limits: &IngestLimits,
    ) -> Result<Extracted, IngestError> {
        let bytes = zip_members::read_member(&self.zips, zip, member, limits)?;
        self.extract_read(&member.path_in(zip), bytes, limits)
    }

    /// The text of `bytes`, the content of the file named `path`.
    fn extract_read(&self, path: &Path, bytes: Vec<u8>, limits: &IngestLimits) -> Result<Extracted, IngestError> {
        let timeout = limits.effective_timeout_secs();
        let ext = extension_of(path);
        let sha256 = sha256_hex(&bytes);
        let label = format_label(&bytes, &ext);
        let fail = |f: Failure| f.at(path, timeout);
        let format = sniff::format_by_extension(label).unwrap_or(Format::Text);
        let crashed = |message: String| IngestError::Panicked { path: path.to_path_buf(), format, message };
        let result = if label == TEXT_LABEL {
            // Plain text is decoded in one linear pass that cannot hang, with memory bounded
            // by the file size: a helper would cost more than the decoding of an essay.
            let budget = Budget::new(timeout);
            contain::run_inline(&budget, |budget| extract_bytes(&bytes, &ext, limits, budget))
        } else {
            #[cfg(target_os = "linux")]
            if let Some(pool) = &self.pool {
                return match pool.extract(&bytes, &ext, limits) {
                    Ok(extraction) => finish(extraction.map_err(fail)?, limits, sha256, &fail),
                    Err(isolate::Death::OutOfMemory { limit_mb }) => {
                        Err(IngestError::OutOfMemory { path: path.to_path_buf(), format, limit_mb })
                    }
                    Err(isolate::Death::TimedOut) => Err(fail(Failure::TimedOut)),
                    Err(isolate::Death::Crashed(message)) => Err(crashed(message)),
                };
            }
            let budget = Budget::new(timeout);
            let job_limits = limits.clone();
            contain::run_contained(label, &budget, move |budget| extract_bytes(&bytes, &ext, &job_limits, budget))
        };
        match result {
            Ok(done) => finish(done.map_err(fail)?, limits, sha256, &fail),
            Err(Escape::TimedOut) => Err(fail(Failure::TimedOut)),
            Err(Escape::Panicked(message)) => Err(crashed(message)),
        }
    }
}

/// Serves extraction requests on standard input until it ends: the whole body of the
/// hidden subcommand a front end names in its [`Isolation`]. Only on Linux.
pub fn serve_helper() -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        isolate::serve_helper()
    }
    #[cfg(not(target_os = "linux"))]
    {
        Err(std::io::ErrorKind::Unsupported.into())
    }
}

/// The lower-case extension of `path` ("" for none).
fn extension_of(path: &Path) -> String {
    path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase()
}

/// Why the zip at `path` is not read as one document: why it cannot be listed, or that
/// its entries are the documents.
fn zip_refusal(path: &Path, limits: &IngestLimits) -> IngestError {
    match list_zip(path, limits) {
        Err(e) => e,
        Ok(_) => IngestError::BadZip {
            path: path.to_path_buf(),
            reason: "a zip is read entry by entry only by `compare` and the window's check".into(),
        },
    }
}

/// The extracted text of a file, once its size is checked.
fn finish(
    (text, format, warnings): (String, Format, Vec<Notice>),
    limits: &IngestLimits,
    sha256: String,
    fail: &dyn Fn(Failure) -> IngestError,
) -> Result<Extracted, IngestError> {
    // Never more than a position counts (`model::saturating_u32`), whatever the limit says.
    let most = limits.max_text_bytes.min(u64::from(u32::MAX));
    if text.len() as u64 > most {
        return Err(fail(Failure::Corrupt(format, format!("more than {most} bytes of text"))));
    }
    Ok(Extracted { text, format, warnings, sha256 })
}

/// Extracts text from the bytes of a file whose lower-case extension is `ext`.
fn extract_bytes(
    bytes: &[u8],
    ext: &str,
    limits: &IngestLimits,
    budget: &Budget,
) -> Result<(String, Format, Vec<Notice>), Failure> {
    let by_ext = sniff::format_by_extension(ext);
    let format = match sniff::sniff(bytes, ext) {
        Sniffed::Format(f) => f,
        Sniffed::Zip => archive::kind(bytes, by_ext, limits)?,
        Sniffed::Refuse(failure) => return Err(failure),
    };
    let (text, mut warnings) = match format {
        Format::Text => text::decode(bytes)?,
        Format::Html => html::extract(bytes, budget)?,
        Format::Docx => docx::extract(bytes, limits, budget)?,
        Format::Odt => odt::extract(bytes, limits, budget)?,
        Format::Pdf => pdf::extract(bytes, limits, budget)?,
    };
    if text.trim().is_empty() && warnings.is_empty() {
        warnings.push(Notice::NoText);
    }
    if let Some(claimed) = by_ext
        && claimed != format
    {
        warnings.push(Notice::NamedOtherwise { ext: ext.to_string(), format });
    }
    Ok((text, format, warnings))
}

/// The label of plain text (and of anything not sniffed as another format).
const TEXT_LABEL: &str = "txt";

/// A short name for the helper thread (and the format a crash is blamed on).
fn format_label(bytes: &[u8], ext: &str) -> &'static str {
    match sniff::sniff(bytes, ext) {
        Sniffed::Format(Format::Pdf) => "pdf",
        Sniffed::Format(Format::Html) => "html",
        Sniffed::Zip if ext == "odt" => "odt",
        Sniffed::Zip => "docx",
        _ => TEXT_LABEL,
    }
}

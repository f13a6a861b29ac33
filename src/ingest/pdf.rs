//! .pdf: glyphs with their positions from pdf-extract, page by page, then laid out
//! into lines and paragraphs by [`super::layout`]. A page the extractor fails on falls
//! back to lopdf's simpler text extraction. Text the page does not show (invisible,
//! white, off the page, too small) is left out and flagged as hidden text
//! ([`super::pdf_hidden`]).
//!
//! A Kangxi radical, radical-supplement form or compatibility ideograph that a font's map
//! names is read as the ideograph it stands for ([`font_text`]): the font's artefact, not
//! the writer's (see the function).

use std::panic::{self, AssertUnwindSafe};

use pdf_extract::{Document, MediaBox, OutputDev, OutputError, Transform};

use super::contain::Budget;
use super::error::Failure;
use super::layout::{self, Glyph, Page};
use super::pdf_hidden::{RAISED_BEYOND, raise_unseen_text};
use super::{Format, IngestLimits};
use crate::model::{Flag, FlagKind, Notice, saturating_u32};
use crate::normalize::lookalike::unified_ideograph;

/// Extracts the text of the PDF held in `bytes`.
pub(crate) fn extract(bytes: &[u8], limits: &IngestLimits, budget: &Budget) -> Result<(String, Vec<Notice>), Failure> {
    let mut doc = Document::load_mem(bytes).map_err(|e| Failure::Corrupt(Format::Pdf, e.to_string()))?;
    if doc.is_encrypted() && doc.decrypt("").is_err() {
        return Err(Failure::Encrypted(Format::Pdf));
    }
    check_page_tree(&doc)?;
    let numbers: Vec<u32> = doc.get_pages().keys().copied().collect();
    if numbers.is_empty() {
        return Err(Failure::Corrupt(Format::Pdf, "no pages".into()));
    }
    let mut warnings = Vec::new();
    let mut pages = Vec::with_capacity(numbers.len());
    let mut collector = Collector {
        pages: Vec::new(),
        budget: budget.clone(),
        text_bytes: 0,
        glyphs: 0,
        max_text_bytes: limits.max_text_bytes,
        over: None,
        media: (0.0, 0.0, 0.0, 0.0),
        hidden: 0,
    };
    let mut image_pages: u32 = 0;
    let mut scanned_pages: u32 = 0;
    let page_ids = doc.get_pages();
    for &number in &numbers {
        if budget.exhausted() {
            return Err(Failure::TimedOut);
        }
        let draws_images = has_images(&doc, number);
        if let Some(&id) = page_ids.get(&number) {
            let found = panic::catch_unwind(AssertUnwindSafe(|| raise_unseen_text(&mut doc, id, draws_images)));
            scanned_pages += u32::from(found.is_ok_and(|f| f.scan_with_text_layer));
        }
        let outcome =
            panic::catch_unwind(AssertUnwindSafe(|| pdf_extract::output_doc_page(&doc, &mut collector, number)));
        if let Some(over) = collector.over.take() {
            return Err(over);
        }
        let page = collector.pages.pop().unwrap_or_default();
        if matches!(outcome, Ok(Ok(()))) && page.glyphs.is_empty() && draws_images {
            image_pages += 1;
        }
        match outcome {
            Ok(Ok(())) => pages.push(page),
            Ok(Err(e)) => pages.push(fallback(&doc, number, &e.to_string(), &mut warnings)),
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panic".into());
                pages.push(fallback(&doc, number, &message, &mut warnings));
            }
        }
        collector.pages.clear();
    }
    let text = layout::reflow(&pages);
    if text.trim().is_empty() {
        warnings.push(Notice::NoTextInPdf);
    }
    if collector.hidden > 0 {
        let mut flag = Flag::new(FlagKind::HiddenText, None);
        flag.count = collector.hidden;
        warnings.push(Notice::Flag(flag));
    }
    if scanned_pages > 0 {
        warnings.push(Notice::ScannedPdf { pages: scanned_pages });
    }
    if image_pages > 0 {
        let mut flag = Flag::new(FlagKind::TextAsImages, None);
        flag.count = image_pages;
        warnings.push(Notice::Flag(flag));
    }
    Ok((text, warnings))
}

/// Whether page `number` draws images (a scan, or words as pictures).
fn has_images(doc: &Document, number: u32) -> bool {
    let Some(&id) = doc.get_pages().get(&number) else {
        return false;
    };
    panic::catch_unwind(AssertUnwindSafe(|| doc.get_page_images(id).is_ok_and(|images| !images.is_empty())))
        .unwrap_or(false)
}

/// Glyphs smaller than this (points) cannot be read: hidden text.
const MIN_GLYPH_SIZE: f64 = 1.0;

/// A page tree deeper than this is refused (real ones are a few levels deep).
const MAX_PAGE_TREE_DEPTH: usize = 256;

/// Refuses a page tree that loops: a node among its own descendants (`/Kids`) or among
/// its own ancestors (`/Parent`, which the extractor follows up from every page for
/// inherited attributes and would follow forever). Found at once, not after the timeout.
fn check_page_tree(doc: &Document) -> Result<(), Failure> {
    use pdf_extract::Object;
    let corrupt = |why: &str| Failure::Corrupt(Format::Pdf, why.to_string());
    let root = doc.catalog().ok().and_then(|c| c.get(b"Pages").ok()).and_then(|o| o.as_reference().ok());
    let Some(root) = root else {
        // No page tree: reported as "no pages" below.
        return Ok(());
    };
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            return Err(corrupt("its page tree loops back on itself"));
        }
        let Ok(node) = doc.get_dictionary(id) else {
            continue;
        };
        match node.get(b"Kids").and_then(Object::as_array) {
            Ok(kids) => stack.extend(kids.iter().filter_map(|k| k.as_reference().ok())),
            Err(_) => {
                // A page: walk up to the root as the extractor will.
                let mut ancestors = vec![id];
                let mut at = node;
                while let Ok(parent) = at.get(b"Parent").and_then(Object::as_reference) {
                    if ancestors.contains(&parent) {
                        return Err(corrupt("its page tree loops back on itself: a page is its own ancestor"));
                    }
                    if ancestors.len() > MAX_PAGE_TREE_DEPTH {
                        return Err(corrupt(&format!("its page tree is more than {MAX_PAGE_TREE_DEPTH} levels deep")));
                    }
                    ancestors.push(parent);
                    let Ok(next) = doc.get_dictionary(parent) else {
                        break;
                    };
                    at = next;
                }
            }
        }
    }
    Ok(())
}

/// lopdf's own text extraction for a page pdf-extract failed on, as unpositioned lines.
fn fallback(doc: &Document, number: u32, why: &str, warnings: &mut Vec<Notice>) -> Page {
    let text = panic::catch_unwind(AssertUnwindSafe(|| doc.extract_text(&[number])))
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default();
    let text = font_text(&text);
    warnings.push(Notice::PdfPageFallback { page: number, why: why.to_string() });
    Page { glyphs: Vec::new(), width: 0.0, plain: Some(text) }
}

/// The text a font's map gives for a glyph, with each Han look-alike (Kangxi radical,
/// radical-supplement form, compatibility ideograph) read as the ideograph it stands for,
/// one character for one so that offsets keep their meaning.
///
/// A CJK font draws a radical and its ideograph with one glyph (⼤ and 大), and producers
/// that build the map from the font's own table name the lowest code point, the radical:
/// Chromium's "Save as PDF" with Noto CJK does, and marks each such glyph with an
/// `/ActualText` span naming the ideograph, which poppler's `pdftotext` reads (this
/// extractor does not see those spans); wkhtmltopdf and PDFBox write the radical with no
/// span at all. Read as written, an honest essay would be flagged for look-alike
/// characters; a PDF cannot tell a typed radical from the font's, so none is taken as
/// the writer's.
fn font_text(text: &str) -> String {
    if text.is_ascii() {
        return text.to_string();
    }
    text.chars().map(|c| unified_ideograph(c).unwrap_or(c)).collect()
}

/// Receives pdf-extract's glyphs; stops the extractor when time or size runs out.
struct Collector {
    pages: Vec<Page>,
    budget: Budget,
    text_bytes: u64,
    glyphs: u64,
    max_text_bytes: u64,
    over: Option<Failure>,
    /// The current page's media box: lower-left x, y, upper-right x, y.
    media: (f64, f64, f64, f64),
    /// Characters left out as out of sight: invisible, white, outside the page or too
    /// small to read.
    hidden: u32,
}

impl Collector {
    fn stop(&mut self, failure: Failure) -> Result<(), OutputError> {
        self.over = Some(failure);
        Err(OutputError::FormatError(std::fmt::Error))
    }
}

impl OutputDev for Collector {
    fn begin_page(
        &mut self,
        _page_num: u32,
        media_box: &MediaBox,
        _art_box: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        self.pages.push(Page { glyphs: Vec::new(), width: media_box.urx - media_box.llx, plain: None });
        self.media = (media_box.llx, media_box.lly, media_box.urx, media_box.ury);
        Ok(())
    }

    fn end_page(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        _spacing: f64,
        font_size: f64,
        text: &str,
    ) -> Result<(), OutputError> {
        self.text_bytes += text.len() as u64;
        if self.text_bytes > self.max_text_bytes {
            let limit = self.max_text_bytes;
            return self.stop(Failure::Corrupt(Format::Pdf, format!("more than {limit} bytes of text")));
        }
        self.glyphs += 1;
        if self.glyphs.is_multiple_of(256) && self.budget.exhausted() {
            return self.stop(Failure::TimedOut);
        }
        let scale = (trm.m11 * trm.m22 - trm.m12 * trm.m21).abs().sqrt();
        let size = font_size * scale;
        let (x, y) = (trm.m31, trm.m32);
        if !(x.is_finite() && y.is_finite() && size.is_finite()) {
            return Ok(());
        }
        let (llx, lly, urx, ury) = self.media;
        let outside = x > urx + size || x + width * size < llx - size || y > ury + size || y + size < lly - size;
        let has_box = urx > llx && ury > lly;
        // Text the page does not show was raised out of sight before extraction.
        let raised = y.abs() > RAISED_BEYOND;
        if size < MIN_GLYPH_SIZE || raised || (has_box && outside) {
            if !text.trim().is_empty() {
                self.hidden = self.hidden.saturating_add(saturating_u32(text.chars().count()));
            }
            return Ok(());
        }
        let Some(page) = self.pages.last_mut() else {
            return Ok(());
        };
        page.glyphs.push(Glyph {
            x,
            // Top-down, like reading.
            y: -y,
            end: x + width * size,
            size,
            text: font_text(text),
        });
        Ok(())
    }

    fn begin_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn end_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn end_line(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
}

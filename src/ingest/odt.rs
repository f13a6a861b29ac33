//! .odt (OpenDocument text): the paragraphs and headings of content.xml in order, one
//! per line; footnotes and endnotes after the body; tracked deletions and comments skipped.

use super::archive;
use super::contain::Budget;
use super::error::Failure;
use super::xml::{self, Node, WalkError};
use super::{Format, IngestLimits};

/// Extracts the text of an .odt held in `bytes`.
pub(crate) fn extract(
    bytes: &[u8],
    limits: &IngestLimits,
    budget: &Budget,
) -> Result<(String, Vec<crate::model::Notice>), Failure> {
    let parts = archive::read_parts(bytes, Format::Odt, limits, budget, |n| n == "content.xml" || n == "mimetype")?;
    if let Some(mime) = parts.get("mimetype") {
        let mime = String::from_utf8_lossy(mime);
        if !mime.trim().starts_with("application/vnd.oasis.opendocument.text") {
            return Err(Failure::Unsupported(format!(
                "an OpenDocument file of type {}, not a text document",
                mime.trim()
            )));
        }
    }
    let Some(content) = parts.get("content.xml") else {
        return Err(Failure::Corrupt(Format::Odt, "no content.xml in the archive".into()));
    };
    let text = body_text(&xml::part_text(content), budget).map_err(|e| match e {
        WalkError::TimedOut => Failure::TimedOut,
        WalkError::Malformed(e) => Failure::Corrupt(Format::Odt, format!("malformed content.xml: {e}")),
    })?;
    Ok((text, Vec::new()))
}

/// Elements whose whole content is not part of the text.
fn skipped(name: &str) -> bool {
    matches!(name, "tracked-changes" | "annotation" | "note-citation" | "sequence-decls" | "forms")
}

fn body_text(xml: &str, budget: &Budget) -> Result<String, WalkError> {
    let mut body = String::new();
    let mut notes = String::new();
    let mut in_body = false;
    let mut note_depth: usize = 0;
    let mut skip_depth: usize = 0;
    let mut para_depth: usize = 0;
    xml::walk(xml, budget, |node| {
        let out = if note_depth > 0 { &mut notes } else { &mut body };
        match node {
            Node::Open(name, e) => {
                if name == "body" {
                    in_body = true;
                } else if skip_depth > 0 || skipped(name) {
                    skip_depth += 1;
                } else if name == "note" {
                    note_depth += 1;
                } else if in_body {
                    match name {
                        "p" | "h" => para_depth += 1,
                        "s" => {
                            let n = xml::attr(e, "c").and_then(|c| c.parse::<usize>().ok()).unwrap_or(1).min(1000);
                            out.extend(std::iter::repeat_n(' ', n));
                        }
                        "tab" => out.push('\t'),
                        "line-break" => out.push('\n'),
                        _ => {}
                    }
                }
            }
            Node::Close(name) => {
                if name == "body" {
                    in_body = false;
                } else if skip_depth > 0 {
                    skip_depth -= 1;
                } else if name == "note" {
                    note_depth = note_depth.saturating_sub(1);
                } else if in_body && matches!(name, "p" | "h") {
                    para_depth = para_depth.saturating_sub(1);
                    out.push('\n');
                }
            }
            Node::Text(t) => {
                if in_body && skip_depth == 0 && para_depth > 0 {
                    push_collapsed(out, t);
                }
            }
        }
    })?;
    body.push_str(&notes);
    Ok(body)
}

/// ODF collapses runs of white space in paragraph text to one space (`text:s` and
/// `text:tab` carry the deliberate ones).
fn push_collapsed(out: &mut String, text: &str) {
    for c in text.chars() {
        if matches!(c, ' ' | '\t' | '\r' | '\n') {
            if !out.ends_with(' ') {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
}

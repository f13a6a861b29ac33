//! .docx: `word/document.xml` walked in document order (paragraphs one per line, tables
//! cell by cell, deleted and moved-away text, field codes, drawings and text boxes left
//! out), with the page headers and footers of the last section, found through the
//! document's relationships; then footnotes and endnotes. One XML walker for every part
//! ([`super::xml`]), the one .odt uses.

use std::collections::HashMap;

use super::archive;
use super::contain::Budget;
use super::error::Failure;
use super::hidden::{self, MARK_CLOSE, MARK_OPEN};
use super::xml::{self, Node, WalkError};
use super::{Format, IngestLimits};
use crate::model::{Flag, FlagKind, Notice, saturating_u32};

/// Extracts the text of a .docx held in `bytes`.
pub(crate) fn extract(bytes: &[u8], limits: &IngestLimits, budget: &Budget) -> Result<(String, Vec<Notice>), Failure> {
    let mut parts = archive::read_parts(bytes, Format::Docx, limits, budget, is_xml_part)?;
    if parts.get("word/document.xml").is_none() {
        return Err(Failure::Corrupt(Format::Docx, "no word/document.xml in the archive".into()));
    }
    // Hidden runs lose their text to markers, read back as hidden-text findings.
    if let Some(document) = parts.get("word/document.xml") {
        match hidden::strip_hidden(document, parts.get("word/styles.xml"), budget) {
            Ok(Some(stripped)) => {
                parts.parts.insert("word/document.xml".to_string(), stripped);
            }
            Ok(None) | Err(WalkError::Malformed(_)) => {}
            Err(WalkError::TimedOut) => return Err(Failure::TimedOut),
        }
    }
    let told = |e: WalkError| match e {
        WalkError::TimedOut => Failure::TimedOut,
        WalkError::Malformed(why) => Failure::Corrupt(Format::Docx, format!("unreadable document: {why}")),
    };
    let document = parts.get("word/document.xml").unwrap_or_default();
    let body = body(document, budget).map_err(told)?;
    let rels = parts.get("word/_rels/document.xml.rels");
    let targets = rels.map(|data| relationships(data, budget)).transpose().map_err(told)?;
    let part_of = |id: &str| targets.as_ref().and_then(|t| t.get(id)).and_then(|target| parts.get(&part_name(target)));
    let mut out = String::new();
    let mut warnings = Vec::new();
    out.push_str(&blocks(body.headers.iter().filter_map(|id| part_of(id)), budget).map_err(told)?);
    out.push_str(&body.text.0);
    if body.text.1.count > 0 {
        warnings.push(Notice::Flag(body.text.1.clone()));
    }
    for part in ["word/footnotes.xml", "word/endnotes.xml"] {
        if let Some(data) = parts.get(part) {
            match notes(data, budget) {
                Ok(text) => out.push_str(&text),
                Err(WalkError::TimedOut) => return Err(Failure::TimedOut),
                Err(WalkError::Malformed(e)) => {
                    warnings.push(Notice::PartSkipped { part: part.to_string(), reason: e.to_string() });
                }
            }
        }
    }
    out.push_str(&blocks(body.footers.iter().filter_map(|id| part_of(id)), budget).map_err(told)?);
    Ok((out, warnings))
}

fn is_xml_part(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".xml") || lower.ends_with(".rels")
}

/// The part a relationship of `word/document.xml` targets (relative to `word/`, or
/// absolute from the package's root).
fn part_name(target: &str) -> String {
    match target.strip_prefix('/') {
        Some(absolute) => absolute.to_string(),
        None => format!("word/{}", target.trim_start_matches("./")),
    }
}

/// Each relationship's id and target, of a `.rels` part.
fn relationships(data: &[u8], budget: &Budget) -> Result<HashMap<String, String>, WalkError> {
    let mut out = HashMap::new();
    xml::walk(&xml::part_text(data), budget, |node| {
        if let Node::Open("Relationship", e) = node
            && let (Some(id), Some(target)) = (xml::attr(e, "Id"), xml::attr(e, "Target"))
        {
            out.insert(id, target);
        }
    })?;
    Ok(out)
}

/// The text of header or footer `parts`, in order, each block once (a document that
/// gives its first page the header of the others shows it once).
fn blocks<'p>(parts: impl Iterator<Item = &'p [u8]>, budget: &Budget) -> Result<String, WalkError> {
    let mut seen: Vec<String> = Vec::new();
    for data in parts {
        let block = content(data, budget)?.0;
        if !block.is_empty() && !seen.contains(&block) {
            seen.push(block);
        }
    }
    Ok(seen.concat())
}

/// What the document part holds: its text, and the header and footer relationships of its
/// last section (default, first page, even pages: in that order).
struct Body {
    text: Text,
    headers: Vec<String>,
    footers: Vec<String>,
}

/// Walks the document part.
fn body(data: &[u8], budget: &Budget) -> Result<Body, WalkError> {
    let mut walker = Walker::default();
    let mut references: Vec<(bool, String, String)> = Vec::new();
    let mut depth = 0usize;
    let mut in_section = false;
    xml::walk(&xml::part_text(data), budget, |node| {
        match &node {
            Node::Open(name, e) => {
                depth += 1;
                // The body's own section properties (a direct child of `w:body`) name
                // the headers and footers docx readers show; one in a paragraph's
                // properties ends an earlier section.
                if *name == "sectPr" && depth == 3 {
                    in_section = true;
                    references.clear();
                } else if in_section && matches!(*name, "headerReference" | "footerReference") {
                    let kind = xml::attr(e, "type").unwrap_or_else(|| "default".to_string());
                    if let Some(id) = xml::attr(e, "id") {
                        references.push((*name == "headerReference", kind, id));
                    }
                }
            }
            Node::Close(name) => {
                if *name == "sectPr" && depth == 3 {
                    in_section = false;
                }
                depth = depth.saturating_sub(1);
            }
            Node::Text(_) => {}
        }
        walker.visit(node);
    })?;
    let of = |header: bool| -> Vec<String> {
        ["default", "first", "even"]
            .iter()
            .filter_map(|kind| {
                references.iter().find(|(h, k, _)| *h == header && k == kind).map(|(_, _, id)| id.clone())
            })
            .collect()
    };
    Ok(Body { headers: of(true), footers: of(false), text: walker.text })
}

/// The text of a header, a footer or any part of paragraphs and tables.
fn content(data: &[u8], budget: &Budget) -> Result<Text, WalkError> {
    let mut walker = Walker::default();
    xml::walk(&xml::part_text(data), budget, |node| walker.visit(node))?;
    Ok(walker.text)
}

/// The text being built (every paragraph ends with a line break) and the hidden text
/// taken out of it.
struct Text(String, Flag);

impl Default for Text {
    fn default() -> Self {
        Self(String::new(), Flag::new(FlagKind::HiddenText, None))
    }
}

impl Text {
    /// Text of a run, holding hidden-run markers or not: the rest is kept, each marker
    /// counted as hidden text where it stood. Line breaks inside a text element are not
    /// text (Word writes none; a breaking line is `w:br`).
    fn push_run_text(&mut self, text: &str) {
        let text = text.replace('\n', "");
        let mut rest = text.as_str();
        while let Some(open) = rest.find(MARK_OPEN) {
            self.0.push_str(&rest[..open]);
            let after = &rest[open + MARK_OPEN.len_utf8()..];
            let close = after.find(MARK_CLOSE).unwrap_or(after.len());
            let hidden: u32 = after[..close].parse().unwrap_or(0);
            let at = saturating_u32(self.0.chars().count());
            self.1.add(at, at, hidden);
            rest = after.get(close + MARK_CLOSE.len_utf8()..).unwrap_or("");
        }
        self.0.push_str(rest);
    }
}

/// Elements whose whole content is never text of the document: deleted or moved-away
/// text, field codes, drawings and shapes (their text boxes too), run and paragraph
/// properties.
const SKIPPED: [&str; 11] =
    ["del", "moveFrom", "delText", "instrText", "drawing", "pict", "object", "Fallback", "rPr", "pPr", "sectPr"];

/// The walk of one part: where it stands, and what it kept.
#[derive(Default)]
struct Walker {
    text: Text,
    /// Depth inside skipped elements.
    skipped: usize,
    /// Depth inside runs and text elements.
    runs: usize,
    in_text: bool,
    /// Open paragraphs and content controls, innermost last.
    blocks: Vec<Block>,
}

/// A paragraph, or a content control with whether a run stood directly in it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    Paragraph,
    Control { direct_run: bool },
}

impl Walker {
    fn visit(&mut self, node: Node<'_, '_>) {
        match node {
            Node::Open(name, _) if self.skipped > 0 || SKIPPED.contains(&name) => self.skipped += 1,
            Node::Close(_) if self.skipped > 0 => self.skipped -= 1,
            Node::Open(name, _) => self.open(name),
            Node::Close(name) => self.close(name),
            Node::Text(t) if self.in_text && self.runs > 0 && self.skipped == 0 => self.text.push_run_text(t),
            Node::Text(_) => {}
        }
    }

    fn open(&mut self, name: &str) {
        match name {
            "p" => self.blocks.push(Block::Paragraph),
            "sdt" => self.blocks.push(Block::Control { direct_run: false }),
            "r" => {
                self.runs += 1;
                // A control inside a paragraph is inline: its runs are the paragraph's.
                let inline = self.blocks.contains(&Block::Paragraph);
                if let Some(Block::Control { direct_run }) = self.blocks.last_mut()
                    && !inline
                {
                    *direct_run = true;
                }
            }
            "t" if self.runs > 0 => self.in_text = true,
            "tab" | "ptab" if self.runs > 0 => self.text.0.push('\t'),
            "br" | "cr" if self.runs > 0 => self.text.0.push('\n'),
            _ => {}
        }
    }

    fn close(&mut self, name: &str) {
        match name {
            "p" => {
                // A content control left open inside the paragraph ends with it.
                while self.blocks.pop().is_some_and(|open| open != Block::Paragraph) {}
                self.text.0.push('\n');
            }
            "sdt" => {
                if let Some(Block::Control { direct_run: true }) = self.blocks.last() {
                    self.text.0.push('\n');
                }
                self.blocks.pop();
            }
            "r" => self.runs = self.runs.saturating_sub(1),
            "t" => self.in_text = false,
            _ => {}
        }
    }
}

/// Footnotes or endnotes: each note's paragraphs, one per line; the separator
/// pseudo-notes are skipped.
fn notes(data: &[u8], budget: &Budget) -> Result<String, WalkError> {
    let xml = xml::part_text(data);
    let mut out = String::new();
    let mut in_note = false;
    let mut skip_note = false;
    let mut in_text = false;
    let mut skip_depth: usize = 0;
    xml::walk(&xml, budget, |node| match node {
        Node::Open(name, e) => match name {
            "footnote" | "endnote" => {
                in_note = true;
                skip_note = matches!(
                    xml::attr(e, "type").as_deref(),
                    Some("separator" | "continuationSeparator" | "continuationNotice")
                );
            }
            "del" | "moveFrom" | "instrText" | "delText" => skip_depth += 1,
            "t" => in_text = true,
            "tab" if in_note && !skip_note && skip_depth == 0 => out.push('\t'),
            "br" | "cr" if in_note && !skip_note && skip_depth == 0 => out.push('\n'),
            _ => {}
        },
        Node::Close(name) => match name {
            "footnote" | "endnote" => in_note = false,
            "del" | "moveFrom" | "instrText" | "delText" => skip_depth = skip_depth.saturating_sub(1),
            "t" => in_text = false,
            "p" if in_note && !skip_note => out.push('\n'),
            _ => {}
        },
        Node::Text(t) => {
            if in_note && !skip_note && in_text && skip_depth == 0 {
                out.push_str(t);
            }
        }
    })?;
    Ok(out)
}

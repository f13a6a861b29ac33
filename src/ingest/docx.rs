//! .docx: the body walked in document order with docx-rs (paragraphs one per line,
//! tables cell by cell, deleted text skipped), then footnotes, endnotes and footers.

use docx_rs::{
    DocumentChild, Footer, FooterChild, Header, HeaderChild, Paragraph, ParagraphChild, Run, RunChild,
    StructuredDataTag, StructuredDataTagChild, Table, TableCellContent, TableChild, TableRowChild, TocContent,
};

use super::archive;
use super::contain::Budget;
use super::error::Failure;
use super::hidden::{self, MARK_CLOSE, MARK_OPEN};
use super::xml::{self, Node, WalkError};
use super::{Format, IngestLimits};
use crate::model::{Flag, FlagKind};

/// Extracts the text of a .docx held in `bytes`.
pub(crate) fn extract(
    bytes: &[u8],
    limits: &IngestLimits,
    budget: &Budget,
) -> Result<(String, Vec<crate::model::Notice>), Failure> {
    let mut parts = archive::read_parts(bytes, Format::Docx, limits, budget, is_xml_part)?;
    if parts.get("word/document.xml").is_none() && parts.get("[Content_Types].xml").is_none() {
        return Err(Failure::Corrupt(Format::Docx, "no word/document.xml in the archive".into()));
    }
    // docx-rs refuses a package without these bookkeeping parts; Word does not.
    for (name, content) in [
        ("[Content_Types].xml", MINIMAL_TYPES),
        ("_rels/.rels", MINIMAL_RELS),
        ("word/_rels/document.xml.rels", EMPTY_RELS),
    ] {
        parts.parts.entry(name.to_string()).or_insert_with(|| content.as_bytes().to_vec());
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
    // docx-rs is handed a clean copy: only XML parts, sizes all true.
    let clean = archive::repack(&parts, Format::Docx)?;
    let docx =
        docx_rs::read_docx(&clean).map_err(|e| Failure::Corrupt(Format::Docx, format!("unreadable document: {e}")))?;
    let section = &docx.document.section_property;
    let mut out = Text::default();

    let mut seen = Vec::new();
    for header in [&section.header, &section.first_header, &section.even_header].into_iter().flatten() {
        let mut block = Text::default();
        block.header(&header.1);
        if !block.0.is_empty() && !seen.contains(&block.0) {
            out.0.push_str(&block.0);
            seen.push(block.0);
        }
    }
    for child in &docx.document.children {
        if budget.exhausted() {
            return Err(Failure::TimedOut);
        }
        out.document_child(child);
    }
    let mut warnings = Vec::new();
    if out.1.count > 0 {
        warnings.push(crate::model::Notice::Flag(out.1.clone()));
    }
    for part in ["word/footnotes.xml", "word/endnotes.xml"] {
        if let Some(data) = parts.get(part) {
            match notes(data, budget) {
                Ok(text) => out.0.push_str(&text),
                Err(WalkError::TimedOut) => return Err(Failure::TimedOut),
                Err(WalkError::Malformed(e)) => {
                    warnings.push(crate::model::Notice::PartSkipped { part: part.to_string(), reason: e.to_string() });
                }
            }
        }
    }
    let mut seen = Vec::new();
    for footer in [&section.footer, &section.first_footer, &section.even_footer].into_iter().flatten() {
        let mut block = Text::default();
        block.footer(&footer.1);
        if !block.0.is_empty() && !seen.contains(&block.0) {
            out.0.push_str(&block.0);
            seen.push(block.0);
        }
    }
    Ok((out.0, warnings))
}

const MINIMAL_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>"#;
const MINIMAL_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;
const EMPTY_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>"#;

fn is_xml_part(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".xml") || lower.ends_with(".rels")
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
    fn document_child(&mut self, child: &DocumentChild) {
        match child {
            DocumentChild::Paragraph(p) => self.paragraph(p),
            DocumentChild::Table(t) => self.table(t),
            DocumentChild::StructuredDataTag(s) => self.sdt(s),
            DocumentChild::TableOfContents(toc) => {
                for c in toc.before_contents.iter().chain(&toc.after_contents) {
                    match c {
                        TocContent::Paragraph(p) => self.paragraph(p),
                        TocContent::Table(t) => self.table(t),
                    }
                }
            }
            _ => {}
        }
    }

    fn header(&mut self, header: &Header) {
        for child in &header.children {
            match child {
                HeaderChild::Paragraph(p) => self.paragraph(p),
                HeaderChild::Table(t) => self.table(t),
                HeaderChild::StructuredDataTag(s) => self.sdt(s),
            }
        }
    }

    fn footer(&mut self, footer: &Footer) {
        for child in &footer.children {
            match child {
                FooterChild::Paragraph(p) => self.paragraph(p),
                FooterChild::Table(t) => self.table(t),
                FooterChild::StructuredDataTag(s) => self.sdt(s),
            }
        }
    }

    fn paragraph(&mut self, p: &Paragraph) {
        self.inline(&p.children);
        self.0.push('\n');
    }

    fn inline(&mut self, children: &[ParagraphChild]) {
        for child in children {
            match child {
                ParagraphChild::Run(r) => self.run(r),
                ParagraphChild::Insert(ins) => {
                    for c in &ins.children {
                        if let docx_rs::InsertChild::Run(r) = c {
                            self.run(r);
                        }
                    }
                }
                ParagraphChild::MoveTo(m) => {
                    for c in &m.children {
                        if let docx_rs::MoveToChild::Run(r) = c {
                            self.run(r);
                        }
                    }
                }
                ParagraphChild::Hyperlink(h) => self.inline(&h.children),
                ParagraphChild::StructuredDataTag(s) => self.sdt_inline(s),
                _ => {}
            }
        }
    }

    fn run(&mut self, run: &Run) {
        for child in &run.children {
            match child {
                RunChild::Text(t) if t.text.contains(MARK_OPEN) => self.text_with_marks(&t.text),
                RunChild::Text(t) => self.0.push_str(&t.text),
                RunChild::Tab(_) | RunChild::PTab(_) => self.0.push('\t'),
                RunChild::Break(_) | RunChild::CarriageReturn(_) => self.0.push('\n'),
                _ => {}
            }
        }
    }

    /// Text holding hidden-run markers: the rest is kept, each marker counted as hidden
    /// text where it stood.
    fn text_with_marks(&mut self, text: &str) {
        let mut rest = text;
        while let Some(open) = rest.find(MARK_OPEN) {
            self.0.push_str(&rest[..open]);
            let after = &rest[open + MARK_OPEN.len_utf8()..];
            let close = after.find(MARK_CLOSE).unwrap_or(after.len());
            let hidden: u32 = after[..close].parse().unwrap_or(0);
            let at = self.0.chars().count() as u32;
            self.1.add(at, at, hidden);
            rest = after.get(close + MARK_CLOSE.len_utf8()..).unwrap_or("");
        }
        self.0.push_str(rest);
    }

    /// A block-level content control: its paragraphs and tables.
    fn sdt(&mut self, s: &StructuredDataTag) {
        let mut open_line = false;
        for child in &s.children {
            match child {
                StructuredDataTagChild::Run(r) => {
                    self.run(r);
                    open_line = true;
                }
                StructuredDataTagChild::Paragraph(p) => self.paragraph(p),
                StructuredDataTagChild::Table(t) => self.table(t),
                StructuredDataTagChild::StructuredDataTag(inner) => self.sdt(inner),
                _ => {}
            }
        }
        if open_line {
            self.0.push('\n');
        }
    }

    /// An inline content control: its runs, within the current paragraph.
    fn sdt_inline(&mut self, s: &StructuredDataTag) {
        for child in &s.children {
            match child {
                StructuredDataTagChild::Run(r) => self.run(r),
                StructuredDataTagChild::StructuredDataTag(inner) => self.sdt_inline(inner),
                _ => {}
            }
        }
    }

    /// Tables row by row, each cell's paragraphs on their own lines.
    fn table(&mut self, t: &Table) {
        for TableChild::TableRow(row) in &t.rows {
            for TableRowChild::TableCell(cell) in &row.cells {
                for content in &cell.children {
                    match content {
                        TableCellContent::Paragraph(p) => self.paragraph(p),
                        TableCellContent::Table(inner) => self.table(inner),
                        TableCellContent::StructuredDataTag(s) => self.sdt(s),
                        TableCellContent::TableOfContents(_) => {}
                    }
                }
            }
        }
    }
}

/// Footnotes or endnotes (docx-rs does not read them): each note's paragraphs, one
/// per line; the separator pseudo-notes are skipped.
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

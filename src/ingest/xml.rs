//! A small pull walker over XML parts of office files (quick-xml): element starts and
//! ends by local name, and text with entity and character references resolved.

use std::borrow::Cow;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::contain::Budget;

/// One step of the walk.
pub(crate) enum Node<'a, 'e> {
    /// An element opens (empty elements open and close at once).
    Open(&'a str, &'a BytesStart<'e>),
    /// An element closes.
    Close(&'a str),
    /// Character data, references resolved.
    Text(&'a str),
}

/// Why a walk stopped early.
pub(crate) enum WalkError {
    Malformed(String),
    TimedOut,
}

/// Decodes an XML part to a string: UTF-8 (a BOM dropped), or UTF-16 with a BOM.
pub(crate) fn part_text(bytes: &[u8]) -> Cow<'_, str> {
    if let Some((encoding, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom..]);
        return text;
    }
    String::from_utf8_lossy(bytes)
}

/// Walks `xml`, calling `visit` for each node, checking `budget` as it goes.
pub(crate) fn walk(xml: &str, budget: &Budget, mut visit: impl FnMut(Node<'_, '_>)) -> Result<(), WalkError> {
    let mut reader = Reader::from_str(xml);
    let config = reader.config_mut();
    config.expand_empty_elements = true;
    config.check_end_names = false;
    config.allow_unmatched_ends = true;
    config.allow_dangling_amp = true;
    let mut count: u32 = 0;
    loop {
        count = count.wrapping_add(1);
        if count.is_multiple_of(4096) && budget.exhausted() {
            return Err(WalkError::TimedOut);
        }
        let event = reader
            .read_event()
            .map_err(|e| WalkError::Malformed(format!("{e} at byte {}", reader.error_position())))?;
        match event {
            Event::Start(e) => {
                let name = e.local_name();
                visit(Node::Open(name.into_inner(), &e));
            }
            Event::End(e) => {
                let name = e.local_name();
                visit(Node::Close(name.into_inner()));
            }
            Event::Text(t) => visit(Node::Text(&t.xml10_content())),
            Event::CData(t) => visit(Node::Text(&t.xml10_content())),
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref() {
                    Ok(Some(c)) => Some(Cow::Owned(c.to_string())),
                    Ok(None) => quick_xml::escape::resolve_xml_entity(&r).map(Cow::Borrowed),
                    Err(_) => None,
                };
                if let Some(s) = resolved {
                    visit(Node::Text(&s));
                }
            }
            Event::Eof => return Ok(()),
            Event::Empty(_) | Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
        }
    }
}

/// The value of attribute `local` (namespace prefix ignored) of `e`, if present.
pub(crate) fn attr(e: &BytesStart<'_>, local: &str) -> Option<String> {
    e.attributes().with_checks(false).flatten().find_map(|a| {
        (a.key.local_name().into_inner() == local)
            .then(|| a.normalized_value(quick_xml::XmlVersion::Implicit1_0).map(|v| v.into_owned()).ok())
            .flatten()
    })
}

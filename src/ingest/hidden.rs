//! Hidden text in a .docx: runs the page does not show. A run is hidden when it is marked
//! hidden (`w:vanish`, `w:specVanish`, directly or through its paragraph or character
//! style and their `w:basedOn` chains, or the document defaults), white or in the colour
//! of its shading, under 2 pt (`w:sz` < 4 half-points), or pushed out of sight (character
//! spacing hugely negative, scaling tiny, raised or lowered far off the line).
//!
//! The text of such runs is taken out of `word/document.xml` before the body is read: each
//! hidden run keeps only a marker, [`MARK_OPEN`], the number of hidden characters in
//! decimal, [`MARK_CLOSE`]. The body reader turns a marker into a hidden-text finding at
//! that place of the visible text. Field codes (`w:instrText`) are never text, hidden or not.

use std::borrow::Cow;

use quick_xml::events::{BytesStart, BytesText, Event};
use quick_xml::{Reader, Writer};
use rustc_hash::FxHashMap;

use super::contain::Budget;
use super::xml::{self, Node, WalkError};
use crate::model::saturating_u32;

/// Opens a hidden-run marker (a noncharacter: never in a document's text).
pub(crate) const MARK_OPEN: char = '\u{FDD0}';
/// Closes a hidden-run marker.
pub(crate) const MARK_CLOSE: char = '\u{FDD1}';

/// Character spacing at or below this (twentieths of a point: −5 pt) squeezes letters out
/// of sight.
const MIN_SPACING: i32 = -100;
/// Scaling below this percentage makes letters too thin to see.
const MIN_SCALE: i32 = 20;
/// A run raised or lowered this far (half-points: 100 pt) is off its line.
const MAX_POSITION: i32 = 200;
/// Font sizes under this (half-points: 2 pt) cannot be read.
const MIN_SIZE: u32 = 4;

/// The run properties that can hide text; `None` where a level says nothing.
#[derive(Clone, Debug, Default)]
struct Props {
    vanish: Option<bool>,
    color: Option<String>,
    fill: Option<String>,
    size: Option<u32>,
    spacing: Option<i32>,
    scale: Option<i32>,
    position: Option<i32>,
}

impl Props {
    /// `self` overridden by what `over` says.
    fn then(&self, over: &Props) -> Props {
        Props {
            vanish: over.vanish.or(self.vanish),
            color: over.color.clone().or_else(|| self.color.clone()),
            fill: over.fill.clone().or_else(|| self.fill.clone()),
            size: over.size.or(self.size),
            spacing: over.spacing.or(self.spacing),
            scale: over.scale.or(self.scale),
            position: over.position.or(self.position),
        }
    }

    /// Reads one child element of a `w:rPr`.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a run's size, spacing and scale as the document writes them; `as` saturates"
    )]
    fn read(&mut self, name: &str, e: &BytesStart<'_>) {
        let val = || xml::attr(e, "val");
        let number = || val().and_then(|v| v.trim().parse::<f64>().ok());
        match name {
            "vanish" | "specVanish" => self.vanish = Some(!matches!(val().as_deref(), Some("0" | "false" | "off"))),
            "color" => self.color = val().map(|v| v.to_ascii_uppercase()),
            "shd" => self.fill = xml::attr(e, "fill").map(|v| v.to_ascii_uppercase()),
            "highlight" => {
                self.fill = val().map(|v| if v == "white" { "FFFFFF".to_string() } else { v.to_ascii_uppercase() });
            }
            "sz" => self.size = number().map(|n| n.max(0.0) as u32),
            "spacing" => self.spacing = number().map(|n| n as i32),
            "w" => self.scale = number().map(|n| n as i32),
            "position" => self.position = number().map(|n| n as i32),
            _ => {}
        }
    }

    /// Whether text with these properties is out of sight.
    fn hides(&self) -> bool {
        let white = |c: &str| c.len() == 6 && c.as_bytes().chunks(2).all(|ch| ch >= b"F0".as_slice());
        let fill = self.fill.as_deref().filter(|f| *f != "AUTO" && *f != "NONE");
        let invisible_colour = match (self.color.as_deref(), fill) {
            (Some(c), Some(f)) => c == f || (white(c) && white(f)),
            (Some(c), None) => white(c),
            _ => false,
        };
        self.vanish == Some(true)
            || invisible_colour
            || self.size.is_some_and(|s| s < MIN_SIZE)
            || self.spacing.is_some_and(|s| s <= MIN_SPACING)
            || self.scale.is_some_and(|s| s < MIN_SCALE)
            || self.position.is_some_and(|p| p.abs() >= MAX_POSITION)
    }
}

/// The styles of `styles.xml`: each style's own run properties and what it is based on,
/// the document defaults, and the default paragraph style.
#[derive(Default)]
struct Styles {
    own: FxHashMap<String, (Props, Option<String>)>,
    defaults: Props,
    default_paragraph: Option<String>,
}

impl Styles {
    fn read(data: &[u8], budget: &Budget) -> Result<Self, WalkError> {
        let text = xml::part_text(data);
        let mut styles = Styles::default();
        let mut current: Option<(String, Props, Option<String>)> = None;
        let (mut in_rpr, mut in_defaults) = (false, false);
        xml::walk(&text, budget, |node| match node {
            Node::Open("style", e) => {
                let id = xml::attr(e, "styleId").unwrap_or_default();
                let paragraph = xml::attr(e, "type").as_deref() == Some("paragraph");
                if paragraph && matches!(xml::attr(e, "default").as_deref(), Some("1" | "true")) {
                    styles.default_paragraph = Some(id.clone());
                }
                current = Some((id, Props::default(), None));
            }
            Node::Open("rPrDefault", _) => in_defaults = true,
            Node::Open("basedOn", e) => {
                if let Some(style) = current.as_mut() {
                    style.2 = xml::attr(e, "val");
                }
            }
            Node::Open("rPr", _) => in_rpr = true,
            Node::Open(name, e) if in_rpr => {
                if let Some(style) = current.as_mut() {
                    style.1.read(name, e);
                } else if in_defaults {
                    styles.defaults.read(name, e);
                }
            }
            Node::Close("rPr") => in_rpr = false,
            Node::Close("rPrDefault") => in_defaults = false,
            Node::Close("style") => {
                if let Some((id, props, based_on)) = current.take() {
                    styles.own.insert(id, (props, based_on));
                }
            }
            _ => {}
        })?;
        Ok(styles)
    }

    /// The run properties style `id` gives, through its `basedOn` chain.
    fn resolve(&self, id: &str) -> Props {
        let mut chain = Vec::new();
        let mut next = Some(id);
        while let Some(id) = next {
            // A cycle or a very long chain ends the walk.
            if chain.len() >= 16 {
                break;
            }
            let Some((props, based_on)) = self.own.get(id) else {
                break;
            };
            chain.push(props);
            next = based_on.as_deref();
        }
        chain.iter().rev().fold(Props::default(), |acc, p| acc.then(p))
    }
}

/// `document.xml` with the text of hidden runs replaced by markers, or `None` when no run
/// is hidden (the part is then read as it is).
pub(crate) fn strip_hidden(
    document: &[u8],
    styles: Option<&[u8]>,
    budget: &Budget,
) -> Result<Option<Vec<u8>>, WalkError> {
    let styles = match styles {
        Some(data) => Styles::read(data, budget)?,
        None => Styles::default(),
    };
    let text = xml::part_text(document);
    let mut reader = Reader::from_str(&text);
    reader.config_mut().check_end_names = false;
    reader.config_mut().allow_unmatched_ends = true;
    let mut writer = Writer::new(Vec::with_capacity(text.len()));
    let mut paragraph = styles.defaults.then(&paragraph_style(&styles, None));
    let mut run: Vec<Event<'_>> = Vec::new();
    let mut in_ppr = false;
    let mut any = false;
    let mut count: u32 = 0;
    loop {
        count = count.wrapping_add(1);
        if count.is_multiple_of(4096) && budget.exhausted() {
            return Err(WalkError::TimedOut);
        }
        let event = reader.read_event().map_err(|e| WalkError::Malformed(e.to_string()))?;
        let name = match &event {
            Event::Start(e) | Event::Empty(e) => Some(local(e.local_name().into_inner()).into_owned()),
            _ => None,
        };
        match (&event, name.as_deref()) {
            (Event::Start(_), Some("p")) => paragraph = styles.defaults.then(&paragraph_style(&styles, None)),
            (Event::Start(_), Some("pPr")) => in_ppr = true,
            (Event::End(e), _) if local(e.local_name().into_inner()) == "pPr" => in_ppr = false,
            (Event::Start(e) | Event::Empty(e), Some("pStyle")) if in_ppr && run.is_empty() => {
                let id = xml::attr(e, "val");
                paragraph = styles.defaults.then(&paragraph_style(&styles, id.as_deref()));
            }
            _ => {}
        }
        if matches!(event, Event::Eof) {
            break;
        }
        let opens_run = matches!(&event, Event::Start(_)) && name.as_deref() == Some("r");
        if opens_run || !run.is_empty() {
            let closes_run = matches!(&event, Event::End(e) if local(e.local_name().into_inner()) == "r");
            run.push(event);
            if closes_run {
                any |= write_run(&mut writer, std::mem::take(&mut run), &paragraph, &styles)?;
            }
            continue;
        }
        writer.write_event(event).map_err(|e| WalkError::Malformed(e.to_string()))?;
    }
    for event in run {
        writer.write_event(event).map_err(|e| WalkError::Malformed(e.to_string()))?;
    }
    Ok(any.then(|| writer.into_inner()))
}

fn local(name: &str) -> Cow<'_, str> {
    Cow::Borrowed(name)
}

/// The run properties of paragraph style `id` (the default paragraph style when `None`).
fn paragraph_style(styles: &Styles, id: Option<&str>) -> Props {
    match id.or(styles.default_paragraph.as_deref()) {
        Some(id) => styles.resolve(id),
        None => Props::default(),
    }
}

/// Writes one run (all its events, from `<w:r>` to `</w:r>`); a hidden one loses its text
/// to a marker. Returns whether it was hidden text.
fn write_run(
    writer: &mut Writer<Vec<u8>>,
    run: Vec<Event<'_>>,
    paragraph: &Props,
    styles: &Styles,
) -> Result<bool, WalkError> {
    let (props, hidden_chars) = run_props(&run, paragraph, styles);
    let hidden = props.hides() && hidden_chars > 0;
    let mut in_text = false;
    let mut marked = false;
    for event in run {
        let name = match &event {
            Event::Start(e) => Some(local(e.local_name().into_inner()).into_owned()),
            Event::End(e) => Some(format!("/{}", local(e.local_name().into_inner()))),
            _ => None,
        };
        if hidden {
            match name.as_deref() {
                Some("t") => in_text = true,
                Some("/t") => {
                    in_text = false;
                    if !marked {
                        marked = true;
                        let mark = format!("{MARK_OPEN}{hidden_chars}{MARK_CLOSE}");
                        writer
                            .write_event(Event::Text(BytesText::from_escaped(mark)))
                            .map_err(|e| WalkError::Malformed(e.to_string()))?;
                    }
                }
                _ if in_text => continue,
                _ => {}
            }
        }
        writer.write_event(event).map_err(|e| WalkError::Malformed(e.to_string()))?;
    }
    Ok(hidden)
}

/// The effective properties of a run and how many characters of text it holds.
fn run_props(run: &[Event<'_>], paragraph: &Props, styles: &Styles) -> (Props, u32) {
    let mut direct = Props::default();
    let mut char_style = Props::default();
    let (mut in_rpr, mut in_text) = (false, false);
    let mut chars: u32 = 0;
    for event in run {
        match event {
            Event::Start(e) | Event::Empty(e) => {
                let name = local(e.local_name().into_inner());
                match name.as_ref() {
                    "rPr" => in_rpr = matches!(event, Event::Start(_)),
                    "t" => in_text = matches!(event, Event::Start(_)),
                    "rStyle" if in_rpr => {
                        if let Some(id) = xml::attr(e, "val") {
                            char_style = styles.resolve(&id);
                        }
                    }
                    other if in_rpr => direct.read(other, e),
                    _ => {}
                }
            }
            Event::End(e) => match local(e.local_name().into_inner()).as_ref() {
                "rPr" => in_rpr = false,
                "t" => in_text = false,
                _ => {}
            },
            Event::Text(t) if in_text => {
                chars = chars.saturating_add(saturating_u32(t.xml10_content().chars().count()));
            }
            Event::GeneralRef(_) | Event::CData(_) if in_text => chars = chars.saturating_add(1),
            _ => {}
        }
    }
    (paragraph.then(&char_style).then(&direct), chars)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(document: &str, styles: Option<&str>) -> Option<String> {
        let budget = Budget::new(10.0);
        let out = strip_hidden(document.as_bytes(), styles.map(str::as_bytes), &budget).ok()?;
        out.map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
    }

    fn body(runs: &str) -> String {
        format!(r#"<w:document xmlns:w="w"><w:body><w:p>{runs}</w:p></w:body></w:document>"#)
    }

    #[test]
    fn hidden_runs_lose_their_text_to_a_marker() {
        let visible = r#"<w:r><w:t>seen</w:t></w:r>"#;
        for props in [
            "<w:vanish/>",
            "<w:specVanish/>",
            r#"<w:color w:val="FFFFFF"/>"#,
            r#"<w:color w:val="336699"/><w:shd w:val="clear" w:fill="336699"/>"#,
            r#"<w:sz w:val="2"/>"#,
            r#"<w:spacing w:val="-400"/>"#,
            r#"<w:w w:val="5"/>"#,
            r#"<w:position w:val="-800"/>"#,
        ] {
            let doc = body(&format!(r#"{visible}<w:r><w:rPr>{props}</w:rPr><w:t>junk &amp; more</w:t></w:r>"#));
            let out = strip(&doc, None).unwrap_or_default();
            assert!(out.contains("seen"), "{props}");
            assert!(!out.contains("junk"), "{props}: {out}");
            assert!(out.contains("\u{FDD0}11\u{FDD1}"), "{props}: {out}");
        }
    }

    #[test]
    fn ordinary_runs_and_field_codes_are_left_alone() {
        let plain = body(r#"<w:r><w:rPr><w:color w:val="FF0000"/><w:sz w:val="24"/></w:rPr><w:t>red</w:t></w:r>"#);
        assert_eq!(strip(&plain, None), None);
        let field = body(
            r#"<w:r><w:rPr><w:vanish/></w:rPr><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:instrText> XE "term" </w:instrText></w:r>"#,
        );
        assert_eq!(strip(&field, None), None);
        let unhidden = body(r#"<w:r><w:rPr><w:vanish w:val="0"/></w:rPr><w:t>shown</w:t></w:r>"#);
        assert_eq!(strip(&unhidden, None), None);
    }

    #[test]
    fn hidden_through_the_style_chain() {
        let styles = r#"<w:styles xmlns:w="w">
            <w:style w:type="character" w:styleId="Base"><w:rPr><w:vanish/></w:rPr></w:style>
            <w:style w:type="character" w:styleId="Derived"><w:basedOn w:val="Base"/></w:style>
            <w:style w:type="paragraph" w:styleId="Ghost"><w:rPr><w:color w:val="FFFFFF"/></w:rPr></w:style>
        </w:styles>"#;
        let by_run = body(r#"<w:r><w:rPr><w:rStyle w:val="Derived"/></w:rPr><w:t>junk</w:t></w:r>"#);
        assert!(strip(&by_run, Some(styles)).is_some_and(|o| !o.contains("junk")));
        let by_paragraph = r#"<w:document xmlns:w="w"><w:body><w:p><w:pPr><w:pStyle w:val="Ghost"/></w:pPr><w:r><w:t>junk</w:t></w:r></w:p><w:p><w:r><w:t>fine</w:t></w:r></w:p></w:body></w:document>"#;
        let out = strip(by_paragraph, Some(styles)).unwrap_or_default();
        assert!(!out.contains("junk") && out.contains("fine"), "{out}");
    }
}

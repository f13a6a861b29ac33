//! Text a PDF page draws but does not show: invisible text (render mode 3 or 7) and white
//! text on a page that has painted nothing yet that it could stand on. Before extraction,
//! each such text-showing operator in the page's content is raised far off the page (text
//! rise, `Ts`, put back right after it), where the collector leaves its glyphs out and
//! counts them as hidden text; the glyphs still advance the line as before.
//!
//! A page that draws an image and invisible text is a scan with a text layer (OCR): its
//! invisible text is what the page shows, so it stays, and the page counts as a scan.
//!
//! Text inside a form XObject (a `Do` of a reusable piece of content) is extracted as the
//! page's own, so each form a page calls is rewritten the same way, from the state the
//! page is in where it calls it, and so are the forms it calls in turn.

use std::collections::HashSet;

use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Object, ObjectId};
use pdf_extract::Document;

/// The text rise given to text the page does not show: far beyond any page.
pub(crate) const HIDDEN_RISE: f64 = 1.0e9;
/// A glyph this far from the page's origin was raised by [`HIDDEN_RISE`].
pub(crate) const RAISED_BEYOND: f64 = 1.0e6;

/// What the rewrite of one page found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PageText {
    /// Text-showing operators raised out of sight.
    pub hidden_operators: usize,
    /// The page draws an image under invisible text: a scan with a text layer.
    pub scan_with_text_layer: bool,
}

/// Forms calling forms deeper than this are not followed.
const MAX_FORM_DEPTH: usize = 8;

/// Raises the text page `page` does not show out of sight (see the module's text), in its
/// content and in the forms it calls; `draws_images` says whether the page draws an
/// image. Content that cannot be decoded is left as it is.
pub(crate) fn raise_unseen_text(doc: &mut Document, page: ObjectId, draws_images: bool) -> PageText {
    let Ok(bytes) = doc.get_page_content(page) else {
        return PageText::default();
    };
    let Ok(content) = Content::decode(&bytes) else {
        return PageText::default();
    };
    if draws_images && has_invisible_text(&content.operations) {
        return PageText { hidden_operators: 0, scan_with_text_layer: true };
    }
    let rewritten = rewrite(content.operations, Start::PAGE);
    let calls = resolve_calls(doc, &page_resources(doc, page), &rewritten.calls);
    let mut found = PageText::default();
    if rewritten.hidden > 0 {
        let changed = Content { operations: rewritten.operations }
            .encode()
            .ok()
            .and_then(|b| doc.change_page_content(page, b).ok());
        found.hidden_operators = if changed.is_some() { rewritten.hidden } else { 0 };
    }
    let mut seen = HashSet::new();
    let forms = raise_in_forms(doc, calls, draws_images, 0, &mut seen);
    PageText {
        hidden_operators: found.hidden_operators + forms.hidden_operators,
        scan_with_text_layer: forms.scan_with_text_layer,
    }
}

/// Whether `operations` set a render mode that shows nothing.
fn has_invisible_text(operations: &[Operation]) -> bool {
    operations.iter().any(|op| op.operator == "Tr" && number(op, 0).is_some_and(invisible_mode))
}

/// Rewrites the forms `calls` names (each with the state it is called in), then the forms
/// they call, each form once; what they hid, and whether one is a scan's text layer.
fn raise_in_forms(
    doc: &mut Document,
    calls: Vec<(ObjectId, Start)>,
    draws_images: bool,
    depth: usize,
    seen: &mut HashSet<ObjectId>,
) -> PageText {
    let mut found = PageText::default();
    if depth >= MAX_FORM_DEPTH {
        return found;
    }
    for (id, start) in calls {
        if !seen.insert(id) {
            continue;
        }
        let Some((operations, own_resources)) = form_content(doc, id) else {
            continue;
        };
        if draws_images && has_invisible_text(&operations) {
            found.scan_with_text_layer = true;
            continue;
        }
        let rewritten = rewrite(operations, start);
        let nested = resolve_calls(doc, &own_resources, &rewritten.calls);
        if rewritten.hidden > 0
            && let Ok(bytes) = (Content { operations: rewritten.operations }).encode()
            && let Ok(Object::Stream(stream)) = doc.get_object_mut(id)
        {
            stream.set_plain_content(bytes);
            found.hidden_operators += rewritten.hidden;
        }
        let deeper = raise_in_forms(doc, nested, draws_images, depth + 1, seen);
        found.hidden_operators += deeper.hidden_operators;
        found.scan_with_text_layer |= deeper.scan_with_text_layer;
    }
    found
}

/// The operations of form XObject `id` and its resource dictionaries (its own, when it
/// has them); `None` when `id` is not a form or its content cannot be decoded.
fn form_content(doc: &Document, id: ObjectId) -> Option<(Vec<Operation>, Vec<Dictionary>)> {
    let stream = doc.get_object(id).ok()?.as_stream().ok()?;
    if stream.dict.get(b"Subtype").and_then(Object::as_name).ok()? != b"Form" {
        return None;
    }
    let bytes = stream.decompressed_content().ok()?;
    let operations = Content::decode(&bytes).ok()?.operations;
    let resources = stream
        .dict
        .get(b"Resources")
        .ok()
        .and_then(|r| doc.dereference(r).ok())
        .and_then(|(_, r)| r.as_dict().ok())
        .cloned();
    Some((operations, resources.into_iter().collect()))
}

/// The resource dictionaries of `page`, nearest first (its own, then inherited ones).
fn page_resources(doc: &Document, page: ObjectId) -> Vec<Dictionary> {
    let Ok((inline, ids)) = doc.get_page_resources(page) else {
        return Vec::new();
    };
    let inherited = ids.iter().filter_map(|id| doc.get_dictionary(*id).ok());
    inline.into_iter().chain(inherited).cloned().collect()
}

/// The objects the `Do` calls name in `resources`, each with the state it is called in.
fn resolve_calls(doc: &Document, resources: &[Dictionary], calls: &[(Vec<u8>, Start)]) -> Vec<(ObjectId, Start)> {
    calls.iter().filter_map(|(name, start)| Some((xobject_id(doc, resources, name)?, *start))).collect()
}

/// The object of the XObject named `name` in the first of `resources` that has one.
fn xobject_id(doc: &Document, resources: &[Dictionary], name: &[u8]) -> Option<ObjectId> {
    resources.iter().find_map(|dict| {
        let (_, xobjects) = doc.dereference(dict.get(b"XObject").ok()?).ok()?;
        xobjects.as_dict().ok()?.get(name).and_then(Object::as_reference).ok()
    })
}

/// Render modes that neither fill nor stroke the glyphs.
fn invisible_mode(mode: f64) -> bool {
    mode == 3.0 || mode == 7.0
}

/// The graphics state the rewrite follows.
#[derive(Clone, Copy, Debug)]
struct State {
    /// Text render mode (`Tr`).
    mode: f64,
    /// Text rise (`Ts`).
    rise: f64,
    fill_white: bool,
    stroke_white: bool,
}

impl State {
    /// Whether text shown now cannot be seen; `painted` says whether the page has painted
    /// anything (an image, a filled shape that is not white) that text could stand on.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a PDF's text mode and rise, small numbers as the file writes them"
    )]
    fn unseen(&self, painted: bool) -> bool {
        if invisible_mode(self.mode) {
            return true;
        }
        if painted {
            return false;
        }
        match self.mode as i64 % 4 {
            0 => self.fill_white,
            1 => self.stroke_white,
            _ => self.fill_white && self.stroke_white,
        }
    }
}

/// Where a content stream starts: the state, and whether anything was painted before.
#[derive(Clone, Copy, Debug)]
struct Start {
    state: State,
    painted: bool,
}

impl Start {
    /// A page's own content.
    const PAGE: Start =
        Start { state: State { mode: 0.0, rise: 0.0, fill_white: false, stroke_white: false }, painted: false };
}

/// A content stream rewritten: its operations, how many were raised, and the XObjects it
/// calls (by name) with the state at each call.
struct Rewritten {
    operations: Vec<Operation>,
    hidden: usize,
    calls: Vec<(Vec<u8>, Start)>,
}

/// `operations` with every text-showing operator the page does not show wrapped in a
/// raised text rise, from `start`.
fn rewrite(operations: Vec<Operation>, start: Start) -> Rewritten {
    let Start { mut state, mut painted } = start;
    let mut saved: Vec<State> = Vec::new();
    let mut hidden = 0;
    let mut calls = Vec::new();
    let mut out = Vec::with_capacity(operations.len());
    for op in operations {
        if op.operator == "Do"
            && let Some(Ok(name)) = op.operands.first().map(Object::as_name)
        {
            calls.push((name.to_vec(), Start { state, painted }));
        }
        match op.operator.as_str() {
            "q" => saved.push(state),
            "Q" => state = saved.pop().unwrap_or(state),
            "Tr" => state.mode = number(&op, 0).unwrap_or(0.0),
            "Ts" => state.rise = number(&op, 0).unwrap_or(0.0),
            "g" | "rg" | "k" | "sc" | "scn" => state.fill_white = is_white(&op),
            "G" | "RG" | "K" | "SC" | "SCN" => state.stroke_white = is_white(&op),
            // A new colour space starts in its initial colour: black.
            "cs" => state.fill_white = false,
            "CS" => state.stroke_white = false,
            "f" | "F" | "f*" | "B" | "B*" | "b" | "b*" if !state.fill_white => painted = true,
            "Do" | "BI" | "sh" => painted = true,
            "Tj" | "TJ" | "'" | "\"" if state.unseen(painted) => {
                hidden += 1;
                out.push(Operation::new("Ts", vec![real(HIDDEN_RISE)]));
                out.push(op);
                out.push(Operation::new("Ts", vec![real(state.rise)]));
                continue;
            }
            _ => {}
        }
        out.push(op);
    }
    Rewritten { operations: out, hidden, calls }
}

/// Operand `at` of `op` as a number.
fn number(op: &Operation, at: usize) -> Option<f64> {
    match op.operands.get(at)? {
        Object::Integer(i) => Some(*i as f64),
        Object::Real(r) => Some(f64::from(*r)),
        _ => None,
    }
}

/// Whether a colour operator sets white: one component (grey) at 1, three (RGB) at 1,
/// four (CMYK) at 0. A pattern or a named colour is not white.
fn is_white(op: &Operation) -> bool {
    let values: Option<Vec<f64>> = (0..op.operands.len()).map(|i| number(op, i)).collect();
    match values.as_deref() {
        Some([grey]) => *grey >= 0.99,
        Some([r, g, b]) => [r, g, b].iter().all(|v| **v >= 0.99),
        Some([c, m, y, k]) => [c, m, y, k].iter().all(|v| **v <= 0.01),
        _ => false,
    }
}

/// A PDF number as lopdf writes it (single precision).
#[expect(clippy::cast_possible_truncation, reason = "a text rise of a few points")]
fn real(x: f64) -> Object {
    Object::Real(x as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(content: &str) -> Vec<Operation> {
        Content::decode(content.as_bytes()).map(|c| c.operations).unwrap_or_default()
    }

    fn raised(content: &str) -> usize {
        rewrite(ops(content), Start::PAGE).hidden
    }

    #[test]
    fn invisible_and_white_text_is_raised_and_the_rise_put_back() {
        assert_eq!(raised("BT /F1 12 Tf (seen) Tj 3 Tr (unseen) Tj 0 Tr (seen) Tj ET"), 1);
        assert_eq!(raised("BT 1 1 1 rg (white) Tj 0 g (black) Tj 1 g (white) Tj ET"), 2);
        assert_eq!(raised("0 0 0 0 k BT (white) Tj ET"), 1);
        assert_eq!(raised("q 3 Tr Q BT (seen again) Tj ET"), 0);
        let out = rewrite(ops("BT 2 Ts 7 Tr [(a) 5 (b)] TJ ET"), Start::PAGE).operations;
        let names: Vec<&str> = out.iter().map(|o| o.operator.as_str()).collect();
        assert_eq!(names, ["BT", "Ts", "Tr", "Ts", "TJ", "Ts", "ET"]);
        assert_eq!(number(&out[5], 0), Some(2.0));
    }

    #[test]
    fn white_text_on_something_painted_is_seen() {
        assert_eq!(raised("0 0 1 rg 0 0 100 100 re f 1 g BT (on blue) Tj ET"), 0);
        assert_eq!(raised("q /Im1 Do Q 1 1 1 rg BT (on a picture) Tj ET"), 0);
        // A white rectangle is no background for white text.
        assert_eq!(raised("1 g 0 0 100 100 re f BT (white on white) Tj ET"), 1);
    }
}

//! Passage colours shared by the window and the HTML report, and the split of a text into
//! runs, each lit by the passage that covers it — so both show a pair the same way.

use super::PassageKind;
use crate::model::Passage;
use crate::model::saturating_u32;

/// Light background colours for passages (black text stays readable on each), in order:
/// passage `i` of a pair gets `PASSAGE_COLOURS[i % len]` on both sides.
pub const PASSAGE_COLOURS: [[u8; 3]; 12] = [
    [0xff, 0xd6, 0xa5],
    [0xa0, 0xe7, 0xa0],
    [0x9b, 0xe3, 0xff],
    [0xd0, 0xc4, 0xff],
    [0xff, 0xc6, 0xf0],
    [0xf6, 0xf0, 0x8a],
    [0xb0, 0xcc, 0xff],
    [0xff, 0xb3, 0xb3],
    [0xb5, 0xea, 0xd7],
    [0xff, 0xe0, 0xc8],
    [0xdc, 0xf0, 0xb0],
    [0xe0, 0xc8, 0xe8],
];

/// The colour of a translated passage's dictionary word pairs: a dark blue underline and
/// text, readable on every passage colour.
pub const WORD_COLOUR: [u8; 3] = [0x1a, 0x3f, 0xa8];

/// The dictionary word pairs of translated passages on one side (`first`: the suspect's),
/// as `(passage, start, end)` in code points, sorted.
pub fn word_ranges<'p>(passages: impl IntoIterator<Item = &'p Passage>, first: bool) -> Vec<(usize, u32, u32)> {
    let mut out: Vec<(usize, u32, u32)> = passages
        .into_iter()
        .enumerate()
        .filter_map(|(i, p)| p.translated.as_ref().map(|t| (i, t)))
        .flat_map(|(i, t)| {
            t.words.iter().map(move |w| if first { (i, w.a_start, w.a_end) } else { (i, w.b_start, w.b_end) })
        })
        .filter(|&(_, s, e)| s < e)
        .collect();
    out.sort_unstable_by_key(|&(i, s, e)| (s, e, i));
    out
}

/// The colour of passage `index`, as RGB.
pub fn passage_colour(index: usize) -> [u8; 3] {
    PASSAGE_COLOURS[index % PASSAGE_COLOURS.len()]
}

/// The colour of passage `index` as a CSS hex colour (`#rrggbb`).
pub fn css_colour(index: usize) -> String {
    let [r, g, b] = passage_colour(index);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// How a passage of a kind is drawn, in the window and in the HTML report alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindStyle {
    /// Background colour (RGB).
    pub background: [u8; 3],
    /// Text colour (RGB).
    pub text: [u8; 3],
    pub italic: bool,
    pub underline: bool,
}

/// The style of passage `index` of kind `kind`: copied passages take their own colour,
/// the kinds that do not count share one muted style each.
pub fn kind_style(kind: PassageKind, index: usize) -> KindStyle {
    match kind {
        PassageKind::Copied => {
            KindStyle { background: passage_colour(index), text: [0, 0, 0], italic: false, underline: false }
        }
        PassageKind::Quoted => {
            KindStyle { background: [0xdd, 0xe8, 0xf7], text: [0x1a, 0x3d, 0x6e], italic: true, underline: false }
        }
        PassageKind::Common => {
            KindStyle { background: [0xe4, 0xe4, 0xe4], text: [0x33, 0x33, 0x33], italic: false, underline: true }
        }
        PassageKind::Template => {
            KindStyle { background: [0xf2, 0xf2, 0xf2], text: [0x80, 0x80, 0x80], italic: false, underline: false }
        }
    }
}

/// The style as inline CSS.
pub fn kind_css(kind: PassageKind, index: usize) -> String {
    let s = kind_style(kind, index);
    let hex = |[r, g, b]: [u8; 3]| format!("#{r:02x}{g:02x}{b:02x}");
    let mut css = format!("background:{};color:{}", hex(s.background), hex(s.text));
    if s.italic {
        css.push_str(";font-style:italic");
    }
    if s.underline {
        css.push_str(";text-decoration:underline dotted");
    }
    css
}

/// A run of characters `[start, end)` of a text and the passage that lights it, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub start: u32,
    pub end: u32,
    pub passage: Option<usize>,
}

/// Splits a text of `chars` characters into runs: where passages overlap, the one listed
/// first wins. `ranges[i]` is passage `i`'s `[start, end)` on this side; ranges past the
/// end of the text are clipped. The runs cover the whole text, in order.
///
/// ```
/// use twinspot::report::palette::{runs, Run};
/// let r = runs(10, &[(2, 5)]);
/// assert_eq!(r[1], Run { start: 2, end: 5, passage: Some(0) });
/// assert_eq!(r.len(), 3);
/// ```
pub fn runs(chars: u32, ranges: &[(u32, u32)]) -> Vec<Run> {
    const NONE: u32 = u32::MAX;
    let mut owner = vec![NONE; chars as usize];
    for (i, &(start, end)) in ranges.iter().enumerate().rev() {
        let (start, end) = (start.min(chars) as usize, end.min(chars) as usize);
        if start < end {
            owner[start..end].fill(saturating_u32(i));
        }
    }
    let mut out: Vec<Run> = Vec::new();
    for (pos, &o) in owner.iter().enumerate() {
        let passage = (o != NONE).then_some(o as usize);
        match out.last_mut() {
            Some(last) if last.passage == passage => last.end = saturating_u32(pos) + 1,
            _ => out.push(Run { start: saturating_u32(pos), end: saturating_u32(pos) + 1, passage }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_passages_go_to_the_first_and_runs_cover_the_text() {
        let r = runs(10, &[(4, 8), (2, 6), (9, 40)]);
        assert_eq!(
            r,
            vec![
                Run { start: 0, end: 2, passage: None },
                Run { start: 2, end: 4, passage: Some(1) },
                Run { start: 4, end: 8, passage: Some(0) },
                Run { start: 8, end: 9, passage: None },
                Run { start: 9, end: 10, passage: Some(2) },
            ]
        );
        assert!(runs(0, &[(0, 3)]).is_empty());
    }

    #[test]
    fn colours_cycle() {
        assert_eq!(passage_colour(0), passage_colour(PASSAGE_COLOURS.len()));
        assert_eq!(css_colour(0), "#ffd6a5");
    }
}

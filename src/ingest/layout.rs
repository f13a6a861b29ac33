//! PDF text layout: positioned glyphs become lines, lines that the PDF wrapped are
//! joined back into paragraphs, and page headers/footers repeated on every page dropped.

/// One glyph as pdf-extract placed it (y grows downwards).
#[derive(Clone, Debug)]
pub(crate) struct Glyph {
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) end: f64,
    pub(crate) size: f64,
    pub(crate) text: String,
}

/// One page: its glyphs, or plain text from the fallback extractor.
#[derive(Clone, Debug, Default)]
pub(crate) struct Page {
    pub(crate) glyphs: Vec<Glyph>,
    pub(crate) plain: Option<String>,
}

/// A line of text on a page.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    pub(crate) text: String,
    pub(crate) x0: f64,
    pub(crate) x1: f64,
    pub(crate) y: f64,
    pub(crate) size: f64,
    /// Width of the first breakable unit (a Latin word, one CJK character).
    pub(crate) head_width: f64,
}

/// Lays the pages out as text: one paragraph per line, ending with a line break.
pub(crate) fn reflow(pages: &[Page]) -> String {
    let mut out = String::new();
    for page in pages {
        if let Some(plain) = &page.plain {
            out.push_str(plain);
            continue;
        }
        for line in lines(&page.glyphs) {
            out.push_str(&line.text);
            out.push('\n');
        }
    }
    out
}

/// Groups glyphs into lines, in content order; spaces from gaps between glyphs.
pub(crate) fn lines(glyphs: &[Glyph]) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let mut current: Vec<&Glyph> = Vec::new();
    for g in glyphs {
        if let Some(last) = current.last() {
            let tolerance = 0.5 * last.size.max(g.size).max(1e-3);
            let moved_down = (g.y - last.y).abs() > tolerance;
            let moved_back = g.x < last.end - 2.0 * last.size.max(1e-3);
            if moved_down || (moved_back && (g.y - last.y).abs() > 0.2 * tolerance) {
                out.push(build(&current));
                current.clear();
            }
        }
        current.push(g);
    }
    if !current.is_empty() {
        out.push(build(&current));
    }
    out.retain(|l| !l.text.is_empty());
    out
}

fn build(glyphs: &[&Glyph]) -> Line {
    let mut text = String::new();
    let mut prev: Option<&Glyph> = None;
    for g in glyphs {
        if let Some(p) = prev {
            let gap = g.x - p.end;
            let blank = g.text.trim().is_empty() || p.text.trim().is_empty();
            if !blank && gap > 0.15 * p.size {
                let unit = 0.5 * p.size.max(1e-3);
                let n = ((gap / unit).round() as usize).clamp(1, 64);
                text.extend(std::iter::repeat_n(' ', n));
            }
        }
        for c in g.text.chars() {
            if !is_private_use(c) && !c.is_control() {
                text.push(c);
            }
        }
        prev = Some(g);
    }
    let first = glyphs.first().copied();
    let last = glyphs.last().copied();
    Line {
        text: text.trim_end().to_string(),
        x0: first.map_or(0.0, |g| g.x),
        x1: glyphs.iter().map(|g| g.end).fold(f64::MIN, f64::max),
        y: last.map_or(0.0, |g| g.y),
        size: glyphs.iter().map(|g| g.size).fold(0.0, f64::max),
        head_width: 0.0,
    }
}

/// Private-use code points: list bullets and symbol fonts come out as these.
fn is_private_use(c: char) -> bool {
    matches!(c as u32, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

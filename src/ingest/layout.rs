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
    /// Width of the page's media box (0 when unknown).
    pub(crate) width: f64,
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

/// Lays the pages out as text: lines the PDF wrapped are joined, every paragraph ends
/// with a line break, repeated page headers/footers are dropped.
pub(crate) fn reflow(pages: &[Page]) -> String {
    let mut laid: Vec<Vec<Line>> = pages.iter().map(|p| lines(&p.glyphs)).collect();
    drop_running_lines(&mut laid);
    let all: Vec<&Line> = laid.iter().flatten().collect();
    let left = all.iter().map(|l| l.x0).fold(f64::MAX, f64::min);
    // Text wraps at the right margin, taken as wide as the left one; a line running
    // past it (an overlong word) must not move it.
    let widest = all.iter().map(|l| l.x1).fold(f64::MIN, f64::max);
    let page_width = pages.iter().map(|p| p.width).fold(0.0, f64::max);
    let right = if page_width > left && page_width - left > left { widest.min(page_width - left) } else { widest };
    let corpus: String = all.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join("\n");

    let mut out = String::new();
    let mut prev: Option<&Line> = None;
    for (page, lines) in pages.iter().zip(&laid) {
        if let Some(plain) = &page.plain {
            if prev.is_some() {
                out.push('\n');
            }
            out.push_str(plain.trim_end());
            out.push('\n');
            prev = None;
            continue;
        }
        for (i, line) in lines.iter().enumerate() {
            match prev {
                Some(p) if wrapped(p, line, i == 0, left, right) => {
                    join(&mut out, line, &corpus);
                }
                Some(_) => {
                    out.push('\n');
                    out.push_str(&line.text);
                }
                None => out.push_str(&line.text),
            }
            prev = Some(line);
        }
    }
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Did the PDF wrap `prev` onto `next`? Yes when `next` continues at the left margin,
/// right below (or at the top of the next page), and its first word would not have
/// fitted at the end of `prev`.
fn wrapped(prev: &Line, next: &Line, new_page: bool, left: f64, right: f64) -> bool {
    let em = prev.size.max(next.size).max(1e-3);
    let below = new_page || (next.y > prev.y && next.y - prev.y < 2.2 * em);
    let at_margin = next.x0 < left + 0.5 * em;
    // Between Latin words the break took a space too.
    let latin_break = match (prev.text.chars().last(), next.text.chars().next()) {
        (Some(a), Some(b)) => !(is_cjk(a) && is_cjk(b)),
        _ => false,
    };
    let space = if latin_break { 0.3 * em } else { 0.0 };
    let full = prev.x1 + space + next.head_width > right - 0.5 * em;
    below && at_margin && full && !prev.text.is_empty()
}

/// Appends `line` to the paragraph in `out` that the PDF wrapped.
fn join(out: &mut String, line: &Line, corpus: &str) {
    let last = out.chars().last();
    let first = line.text.chars().next();
    let (Some(last), Some(first)) = (last, first) else {
        out.push_str(&line.text);
        return;
    };
    if last == '\u{ad}' {
        out.pop();
    } else if last == '-' && first.is_lowercase() {
        let before: String = {
            let mut w: Vec<char> = out.chars().rev().skip(1).take_while(|c| c.is_alphabetic()).collect();
            w.reverse();
            w.into_iter().collect()
        };
        let after: String = line.text.chars().take_while(|c| c.is_alphabetic()).collect();
        let compound = format!("{before}-{after}");
        // A hyphen the author wrote (it appears unbroken elsewhere) stays.
        if before.chars().count() > 1 && !corpus.contains(&compound) {
            out.pop();
        }
    } else if !(last.is_whitespace() || (is_cjk(last) && is_cjk(first))) {
        out.push(' ');
    }
    out.push_str(&line.text);
}

/// Drops page headers and footers: a first or last line that repeats (digits aside)
/// on most pages (at least two) of the document.
fn drop_running_lines(pages: &mut [Vec<Line>]) {
    let with_text = pages.iter().filter(|p| !p.is_empty()).count();
    if with_text < 2 {
        return;
    }
    let key = |l: &Line| -> String {
        l.text.chars().map(|c| if c.is_ascii_digit() { '#' } else { c }).filter(|c| !c.is_whitespace()).collect()
    };
    for top in [true, false] {
        let mut counts: std::collections::HashMap<String, usize> = Default::default();
        for page in pages.iter() {
            let line = if top { page.first() } else { page.last() };
            if let Some(l) = line {
                *counts.entry(key(l)).or_default() += 1;
            }
        }
        for page in pages.iter_mut() {
            let line = if top { page.first() } else { page.last() };
            let Some(l) = line else { continue };
            let n = counts.get(&key(l)).copied().unwrap_or(0);
            if n >= 2 && n * 5 >= with_text * 3 {
                if top {
                    page.remove(0);
                } else {
                    page.pop();
                }
            }
        }
    }
}

/// Groups glyphs into lines, in content order; spaces from gaps between glyphs where
/// the PDF has no space glyphs of its own.
pub(crate) fn lines(glyphs: &[Glyph]) -> Vec<Line> {
    let has_spaces = glyphs.iter().any(|g| g.text == " ");
    let mut out: Vec<Line> = Vec::new();
    let mut current: Vec<&Glyph> = Vec::new();
    for g in glyphs {
        if let Some(last) = current.last() {
            let tolerance = 0.5 * last.size.max(g.size).max(1e-3);
            let moved_down = (g.y - last.y).abs() > tolerance;
            let moved_back = g.x < last.end - 2.0 * last.size.max(1e-3);
            if moved_down || (moved_back && (g.y - last.y).abs() > 0.2 * tolerance) {
                out.push(build(&current, has_spaces));
                current.clear();
            }
        }
        current.push(g);
    }
    if !current.is_empty() {
        out.push(build(&current, has_spaces));
    }
    out.retain(|l| !l.text.is_empty());
    out
}

#[expect(clippy::cast_possible_truncation, reason = "a count of spaces from a float, clamped after; `as` saturates")]
fn build(glyphs: &[&Glyph], has_spaces: bool) -> Line {
    let mut text = String::new();
    let mut prev: Option<&Glyph> = None;
    // With space glyphs in the PDF, small gaps are just kerning or CJK/Latin spacing.
    let threshold = if has_spaces { 0.8 } else { 0.15 };
    for g in glyphs {
        if let Some(p) = prev {
            let gap = g.x - p.end;
            let blank = g.text.trim().is_empty() || p.text.trim().is_empty();
            if !blank && gap > threshold * p.size {
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
    let x0 = glyphs.first().map_or(0.0, |g| g.x);
    Line {
        text: text.trim_end().to_string(),
        x0,
        x1: glyphs.iter().filter(|g| !g.text.trim().is_empty()).map(|g| g.end).fold(x0, f64::max),
        y: glyphs.last().map_or(0.0, |g| g.y),
        size: glyphs.iter().map(|g| g.size).fold(0.0, f64::max),
        head_width: head_width(glyphs),
    }
}

/// Width of the first unit a line could have been broken before: one CJK character
/// with the closing punctuation that may not start a line, or one Latin word.
fn head_width(glyphs: &[&Glyph]) -> f64 {
    let Some(first) = glyphs.first() else {
        return 0.0;
    };
    let starts_cjk = first.text.chars().next().is_some_and(is_cjk);
    let mut end = first.end;
    for g in &glyphs[1..] {
        let c = g.text.chars().next().unwrap_or(' ');
        let more = if starts_cjk {
            is_closing_punct(c)
        } else {
            !c.is_whitespace() && !is_cjk(c) && g.x - end < 0.15 * g.size
        };
        if !more {
            break;
        }
        end = g.end;
    }
    end - first.x
}

/// Han, Kana, Hangul and CJK punctuation: text written without spaces.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF | 0x2E80..=0x2FDF | 0x3000..=0x303F | 0x3040..=0x30FF
        | 0x3100..=0x31FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF
        | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6
        | 0x20000..=0x3FFFF)
}

/// Punctuation that may not begin a line (kinsoku): it drags the character before
/// it onto the next line.
fn is_closing_punct(c: char) -> bool {
    "，。、；：！？）」』》〉】〕”’…—·%,.;:!?)]}".contains(c)
}

/// Private-use code points: list bullets and symbol fonts come out as these.
fn is_private_use(c: char) -> bool {
    matches!(c as u32, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of monospace glyphs (0.6 em Latin, 1 em CJK) at `y`, from x = 50.
    fn line(text: &str, y: f64) -> Vec<Glyph> {
        let mut x = 50.0;
        text.chars()
            .map(|c| {
                let w = if is_cjk(c) { 10.0 } else { 6.0 };
                let g = Glyph { x, y, end: x + w, size: 10.0, text: c.to_string() };
                x += w;
                g
            })
            .collect()
    }

    fn page(lines: &[&str]) -> Page {
        Page {
            glyphs: lines.iter().enumerate().flat_map(|(i, t)| line(t, 100.0 + 14.0 * i as f64)).collect(),
            width: 0.0,
            plain: None,
        }
    }

    #[test]
    fn wrapped_lines_are_joined_by_script() {
        // 40 characters: the widest line sets the right margin.
        let full = "aaaa bbbb cccc dddd eeee ffff gggg hhhh";
        let p = page(&[
            full,
            "iiii",
            "一二三四五六七八九十一二三四五六七八九十一二三四",
            "七八",
            "word word word word word word word compu-",
            "tation and",
            "well-known",
            "the end of a line  word word word well-",
            "known end",
        ]);
        assert_eq!(
            reflow(&[p]),
            format!(
                "{full} iiii\n一二三四五六七八九十一二三四五六七八九十一二三四七八\n\
                 word word word word word word word computation and\nwell-known\n\
                 the end of a line  word word word well-known end\n"
            )
        );
    }

    #[test]
    fn running_headers_and_page_numbers_are_dropped() {
        let pages: Vec<Page> = (1..=3)
            .map(|n| page(&["Running head", "first line of body text", &format!("page {n} ends here"), &n.to_string()]))
            .collect();
        let text = reflow(&pages);
        assert!(!text.contains("Running head"), "{text}");
        assert!(!text.lines().any(|l| l.trim().parse::<u32>().is_ok()), "{text}");
        assert!(text.contains("page 2 ends here"), "{text}");
    }
}

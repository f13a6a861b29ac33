//! .html/.htm: the visible text of a page. The encoding comes from a BOM, the meta tag
//! or detection; script/style are dropped, entities decoded, blocks become line breaks.

use encoding_rs::Encoding;

use super::contain::Budget;
use super::error::Failure;
use super::text;

/// Elements whose content is never shown as text.
const HIDDEN: &[&str] = &["script", "style", "template", "title", "noscript", "svg", "math", "iframe", "object"];

/// Elements that start and end a line of text.
const BLOCKS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "caption",
    "center",
    "dd",
    "details",
    "dialog",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "html",
    "legend",
    "li",
    "main",
    "nav",
    "ol",
    "option",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "tbody",
    "tfoot",
    "thead",
    "tr",
    "ul",
];

/// Extracts the visible text of the page in `bytes`.
pub(crate) fn extract(bytes: &[u8], budget: &Budget) -> Result<(String, Vec<crate::model::Notice>), Failure> {
    let (source, warnings) = decode(bytes)?;
    let text = visible_text(&source, budget)?;
    Ok((text, warnings))
}

/// BOM first, then `<meta charset>` / `http-equiv` in the first 4 KB, then UTF-8,
/// then detection.
fn decode(bytes: &[u8]) -> Result<(String, Vec<crate::model::Notice>), Failure> {
    if Encoding::for_bom(bytes).is_some() {
        return text::decode(bytes);
    }
    if let Some(encoding) = meta_charset(bytes) {
        // A page saved as UTF-8 often keeps its old meta tag: trust valid UTF-8.
        if encoding != encoding_rs::UTF_8 && std::str::from_utf8(bytes).is_ok() {
            return text::decode(bytes);
        }
        return text::finish(encoding, bytes);
    }
    text::decode(bytes)
}

fn meta_charset(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = bytes[..bytes.len().min(4096)].to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = find(&head[from..], b"<meta") {
        let start = from + at;
        let end = head[start..].iter().position(|&b| b == b'>').map_or(head.len(), |e| start + e);
        let tag = &head[start..end];
        if let Some(c) = find(tag, b"charset") {
            let rest = &tag[c + 7..];
            let rest = rest.iter().position(|&b| b != b' ' && b != b'=').map_or(&rest[rest.len()..], |s| &rest[s..]);
            let rest = rest.strip_prefix(b"\"").or_else(|| rest.strip_prefix(b"'")).unwrap_or(rest);
            let label_end =
                rest.iter().position(|&b| matches!(b, b'"' | b'\'' | b' ' | b';' | b'/' | b'>')).unwrap_or(rest.len());
            if let Some(encoding) = Encoding::for_label(&rest[..label_end]) {
                // UTF-16 declared in a meta tag of an ASCII-readable file is wrong.
                return Some(if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
                    encoding_rs::UTF_8
                } else {
                    encoding
                });
            }
        }
        from = end;
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Builds lines of text: white space collapsed (except in `<pre>`), one line per
/// block, cells separated by tabs.
struct Lines {
    out: String,
    pending_break: bool,
    pending_space: bool,
    pre_depth: usize,
}

impl Lines {
    fn text(&mut self, s: &str) {
        for c in s.chars() {
            if self.pre_depth == 0 && c.is_whitespace() && c != '\u{a0}' {
                self.pending_space = true;
                continue;
            }
            if self.pre_depth > 0 && c == '\n' {
                self.hard_break();
                continue;
            }
            if self.pending_break {
                if !self.out.is_empty() && !self.out.ends_with('\n') {
                    self.out.push('\n');
                }
                self.pending_break = false;
                self.pending_space = false;
            }
            if self.pending_space {
                if !self.out.is_empty() && !self.out.ends_with(['\n', ' ', '\t']) {
                    self.out.push(' ');
                }
                self.pending_space = false;
            }
            self.out.push(c);
        }
    }

    fn block(&mut self) {
        self.pending_break = true;
        self.pending_space = false;
    }

    fn hard_break(&mut self) {
        self.out.push('\n');
        self.pending_break = false;
        self.pending_space = false;
    }

    fn cell(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with(['\n', '\t']) && !self.pending_break {
            self.out.push('\t');
        }
        self.pending_space = false;
    }

    fn finish(mut self) -> String {
        let trimmed = self.out.trim_end().len();
        self.out.truncate(trimmed);
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        self.out
    }
}

fn visible_text(src: &str, budget: &Budget) -> Result<String, Failure> {
    let mut lines =
        Lines { out: String::with_capacity(src.len() / 2), pending_break: false, pending_space: false, pre_depth: 0 };
    let mut rest = src;
    let mut steps: u32 = 0;
    while !rest.is_empty() {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(4096) && budget.exhausted() {
            return Err(Failure::TimedOut);
        }
        let Some(lt) = rest.find('<') else {
            lines.text(&decode_entities(rest));
            break;
        };
        lines.text(&decode_entities(&rest[..lt]));
        rest = &rest[lt..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |e| &after[e + 3..]);
            continue;
        }
        if rest.starts_with("<!") || rest.starts_with("<?") {
            rest = rest.find('>').map_or("", |e| &rest[e + 1..]);
            continue;
        }
        let Some((name, closing, tag_len)) = tag(rest) else {
            // A lone '<' is text.
            lines.text("<");
            rest = &rest[1..];
            continue;
        };
        rest = &rest[tag_len..];
        if !closing && HIDDEN.contains(&name.as_str()) {
            rest = skip_element(rest, &name);
            continue;
        }
        match name.as_str() {
            "br" => lines.hard_break(),
            "td" | "th" if !closing => lines.cell(),
            "pre" | "textarea" | "listing" | "plaintext" => {
                lines.block();
                if closing {
                    lines.pre_depth = lines.pre_depth.saturating_sub(1);
                } else {
                    lines.pre_depth += 1;
                }
            }
            n if BLOCKS.contains(&n) => lines.block(),
            _ => {}
        }
    }
    Ok(lines.finish())
}

/// Parses the tag at the start of `s` (which starts with `<`): its lower-case name,
/// whether it closes, and its length in bytes. `None` when it is not a tag.
fn tag(s: &str) -> Option<(String, bool, usize)> {
    let body = &s[1..];
    let (closing, body) = match body.strip_prefix('/') {
        Some(b) => (true, b),
        None => (false, body),
    };
    let name_len = body.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == ':')).unwrap_or(body.len());
    if name_len == 0 || !body.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let name = body[..name_len].to_ascii_lowercase();
    // Find the closing '>' outside quoted attribute values.
    let mut quote: Option<char> = None;
    for (i, c) in body[name_len..].char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => {
                let len = 1 + usize::from(closing) + name_len + i + 1;
                return Some((name, closing, len));
            }
            _ => {}
        }
    }
    Some((name, closing, s.len()))
}

/// Skips past the end tag of a raw/hidden element called `name`.
fn skip_element<'a>(s: &'a str, name: &str) -> &'a str {
    let bytes = s.as_bytes();
    let mut from = 0;
    while let Some(at) = s[from..].find("</") {
        let start = from + at + 2;
        let end = start + name.len();
        if bytes.get(start..end).is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes())) {
            let after = &s[end..];
            return after.find('>').map_or("", |e| &after[e + 1..]);
        }
        from = start;
    }
    ""
}

/// Decodes character references: named (all of HTML5), decimal and hexadecimal.
fn decode_entities(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('&') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest[1..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '#')).map_or(rest.len(), |e| e + 1);
        let name = &rest[1..end];
        let has_semicolon = rest[end..].starts_with(';');
        let resolved = if let Some(num) = name.strip_prefix('#') {
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => num.parse::<u32>().ok(),
            };
            code.map(|c| char::from_u32(c).filter(|&c| c != '\0').unwrap_or('\u{FFFD}').to_string())
        } else if has_semicolon {
            quick_xml::escape::resolve_html5_entity(name).map(str::to_string)
        } else {
            // Legacy entities written without a semicolon.
            match name {
                "amp" => Some("&".into()),
                "lt" => Some("<".into()),
                "gt" => Some(">".into()),
                "quot" => Some("\"".into()),
                "nbsp" => Some("\u{a0}".into()),
                _ => None,
            }
        };
        match resolved {
            Some(text) => {
                out.push_str(&text);
                rest = &rest[end + usize::from(has_semicolon)..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(html: &str) -> String {
        extract(html.as_bytes(), &Budget::unlimited()).map(|r| r.0).unwrap_or_default()
    }

    #[test]
    fn visible_text_blocks_and_entities() {
        let page = "<!DOCTYPE html><html><head><title>T</title><style>p{}</style></head>\
                    <body><h1>Title &amp; more</h1><p>One\n  two&nbsp;<b>three</b></p>\
                    <script>var x = '<p>no</p>';</script><ul><li>a</li><li>b&#x4E2D;&#25991;</li></ul>\
                    <table><tr><td>c1</td><td>c2</td></tr></table>x<br>y</body></html>";
        assert_eq!(run(page), "Title & more\nOne two\u{a0}three\na\nb中文\nc1\tc2\nx\ny\n");
    }

    #[test]
    fn meta_charset_gbk() {
        let body = "<html><head><meta charset=\"gbk\"></head><body><p>中文网页</p></body></html>";
        let (bytes, _, _) = encoding_rs::GBK.encode(body);
        assert_eq!(run_bytes(&bytes), "中文网页\n");
    }

    fn run_bytes(b: &[u8]) -> String {
        extract(b, &Budget::unlimited()).map(|r| r.0).unwrap_or_default()
    }
}

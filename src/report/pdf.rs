//! The HTML report printed to PDF by a headless Chromium (or Chrome) found on the
//! machine: the page is written to a private temporary folder, printed without header or
//! footer on A4 or Letter — the optional appendix (full texts, SHA-256) only when asked
//! for —, and the PDF's bytes come back. Chinese prints without a
//! system CJK font: the bundled Noto Sans SC subset is embedded in the page that is
//! printed (not in the HTML report itself).

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The bundled CJK font (a subset of Noto Sans SC, OFL), also the window's.
pub static CJK_FONT: &[u8] = include_bytes!("../../assets/NotoSansSC-subset.otf");

/// The environment variable that names the browser to print with.
pub const CHROMIUM_VAR: &str = "TWINSPOT_CHROMIUM";

/// The browsers looked for on the `PATH`, in order.
const BROWSERS: [&str; 5] = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"];

/// How long printing may take.
const TIMEOUT: Duration = Duration::from_secs(120);

/// A paper size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Paper {
    #[default]
    A4,
    Letter,
}

impl Paper {
    /// Letter where the locale's paper is Letter (the United States, Canada, Mexico, …),
    /// else A4.
    pub fn from_locale() -> Self {
        let locale = ["LC_ALL", "LC_PAPER", "LANG"]
            .iter()
            .filter_map(|v| std::env::var(v).ok())
            .find(|v| !v.is_empty())
            .unwrap_or_default();
        let letter = ["_US", "_CA", "_MX", "_PH", "_CL", "_CO", "_VE"];
        if letter.iter().any(|r| locale.contains(r)) { Paper::Letter } else { Paper::A4 }
    }

    fn css(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "letter",
        }
    }
}

/// How a report is printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    pub paper: Paper,
    /// Also print the report's optional appendix: the full texts side by side and every
    /// input with its SHA-256. Off by default: the printed report lists each passage once.
    pub appendix: bool,
}

/// Why no PDF was made.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    #[error(
        "no Chromium or Chrome was found to print the PDF (looked for {} on the PATH, and {})",
        BROWSERS.join(", "),
        CHROMIUM_VAR
    )]
    NoBrowser,
    #[error("cannot prepare the page to print: {0}")]
    Io(#[from] std::io::Error),
    #[error("{browser} did not print the PDF: {detail}")]
    Failed { browser: String, detail: String },
    #[error("printing was stopped")]
    Stopped,
}

/// The browser to print with: `TWINSPOT_CHROMIUM` when set, else the first of
/// [`BROWSERS`] on the `PATH`.
pub fn find_browser() -> Option<PathBuf> {
    if let Some(named) = std::env::var_os(CHROMIUM_VAR).filter(|v| !v.is_empty()) {
        let path = PathBuf::from(named);
        return path.is_file().then_some(path);
    }
    let path = std::env::var_os("PATH")?;
    let dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    BROWSERS.iter().flat_map(|name| dirs.iter().map(move |d| d.join(name))).find(|p| p.is_file())
}

/// `html` printed to PDF by `browser` on `paper`, without the optional appendix.
pub fn print_pdf(browser: &Path, html: &str, paper: Paper) -> Result<Vec<u8>, PdfError> {
    print_pdf_with(browser, html, PrintOptions { paper, appendix: false })
}

/// `html` printed to PDF by `browser` as `options` say.
pub fn print_pdf_with(browser: &Path, html: &str, options: PrintOptions) -> Result<Vec<u8>, PdfError> {
    print_pdf_unless(browser, html, options, &|| false)
}

/// `html` printed to PDF by `browser` as `options` say, unless `stopped` turns true while
/// the browser runs: it is then killed at once and [`PdfError::Stopped`] returned.
pub fn print_pdf_unless(
    browser: &Path,
    html: &str,
    options: PrintOptions,
    stopped: &dyn Fn() -> bool,
) -> Result<Vec<u8>, PdfError> {
    let dir = tempfile::tempdir()?;
    let page = dir.path().join("report.html");
    let pdf = dir.path().join("report.pdf");
    std::fs::write(&page, printable(html, options))?;
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--no-pdf-header-footer",
        ])
        .arg(format!("--user-data-dir={}", dir.path().join("profile").display()))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    let failed = |detail: String| PdfError::Failed { browser: browser.display().to_string(), detail };
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if stopped() {
            end(&mut child);
            return Err(PdfError::Stopped);
        }
        if start.elapsed() > TIMEOUT {
            end(&mut child);
            return Err(failed(format!("no PDF after {} seconds", TIMEOUT.as_secs())));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    if let Some(mut err) = child.stderr.take() {
        err.read_to_string(&mut stderr).ok();
    }
    match std::fs::read(&pdf) {
        Ok(bytes) if bytes.starts_with(b"%PDF") => Ok(bytes),
        _ => Err(failed(format!("{status}; {}", last_line(&stderr)))),
    }
}

/// Kills the browser and waits for it, so no process is left behind. A browser that has
/// just ended on its own cannot be killed: that error is of no use, and the wait reaps it.
fn end(child: &mut std::process::Child) {
    let _killed = child.kill();
    let _reaped = child.wait();
}

fn last_line(text: &str) -> &str {
    text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no message").trim()
}

/// The page as it is printed: the paper size, the optional appendix when asked for, and,
/// when the report holds Han, Kana or Hangul, the bundled CJK font as the last fallback.
fn printable(html: &str, options: PrintOptions) -> String {
    let mut extra = format!("<style>@page{{size:{}}}</style>", options.paper.css());
    if options.appendix {
        extra.push_str("<style>@media print{.optional{display:block!important}}</style>");
    }
    if html.chars().any(is_cjk) {
        extra.push_str("<style>@font-face{font-family:'Twinspot SC';src:url(data:font/otf;base64,");
        extra.push_str(&base64(CJK_FONT));
        extra.push_str(") format('opentype')}</style>");
    }
    match html.find("</head>") {
        Some(at) => format!("{}{extra}{}", &html[..at], &html[at..]),
        None => format!("{extra}{html}"),
    }
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x2E80..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF | 0x20000..=0x3134F)
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_pads() {
        assert_eq!(base64(b"Man"), "TWFu");
        assert_eq!(base64(b"Ma"), "TWE=");
        assert_eq!(base64(b"M"), "TQ==");
        assert_eq!(base64(b""), "");
    }

    #[test]
    fn the_printed_page_gets_a_paper_size_and_the_font_only_for_cjk() {
        let letter = PrintOptions { paper: Paper::Letter, appendix: false };
        let en = printable("<html><head></head><body>x</body></html>", letter);
        assert!(en.contains("@page{size:letter}</style></head>"));
        assert!(!en.contains("font-face") && !en.contains(".optional"));
        let all = printable("<html><head></head><body>x</body></html>", PrintOptions { appendix: true, ..letter });
        assert!(all.contains(".optional{display:block!important}"));
        let zh = printable("<html><head></head><body>软件</body></html>", PrintOptions::default());
        assert!(zh.contains("@font-face{font-family:'Twinspot SC'") && zh.contains("size:A4"));
    }

    #[test]
    fn a_stopped_print_kills_the_browser_at_once() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let browser = dir.path().join("slow-browser");
        std::fs::write(&browser, format!("#!/bin/sh\necho $$ > '{}'\nexec sleep 60\n", pid_file.display())).unwrap();
        std::fs::set_permissions(&browser, std::fs::Permissions::from_mode(0o755)).unwrap();
        let start = Instant::now();
        let stopped = || pid_file.exists() && start.elapsed() > Duration::from_millis(200);
        let result = print_pdf_unless(&browser, "<html></html>", PrintOptions::default(), &stopped);
        assert!(matches!(result, Err(PdfError::Stopped)), "{result:?}");
        assert!(start.elapsed() < Duration::from_secs(30), "the browser was waited for instead of killed");
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        assert!(!Path::new(&format!("/proc/{}", pid.trim())).exists(), "the browser is still running");
    }

    #[test]
    fn a_missing_browser_named_by_the_variable_is_not_found() {
        let dir = tempfile::tempdir().unwrap();
        let none = dir.path().join("no-such-browser");
        assert!(!none.exists());
        let err = print_pdf(&none, "<html></html>", Paper::A4).unwrap_err();
        assert!(matches!(err, PdfError::Io(_)), "{err}");
    }
}

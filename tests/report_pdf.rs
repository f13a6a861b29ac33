//! The HTML report printed to PDF by headless Chromium (installed by `.ci/setup`), on A4
//! and on Letter: every word of every page lies inside the page, and the report's long
//! parts (paths, SHA-256, the settings, the last passage) are all there. Needs `chromium`
//! and `pdftotext` (poppler-utils): the test fails, naming what is missing, without them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use twinspot::report::html::{HtmlOptions, Scope, render};
use twinspot::report::words::ReportLang;
use twinspot::{DocumentEntry, Mode, Pair, Passage, Report, Role, Settings};

fn tool(name: &str) -> PathBuf {
    let found = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|dir| dir.join(name))
        .find(|p| p.is_file());
    found
        .unwrap_or_else(|| panic!("`{name}` is not installed: run .ci/setup (Debian packages chromium, poppler-utils)"))
}

fn doc(id: usize, path: &str, role: Role, text: &str) -> DocumentEntry {
    let chars = text.chars().count();
    DocumentEntry {
        id,
        path: path.into(),
        source: PathBuf::from(path),
        role,
        chars,
        countable_chars: chars,
        simhash: None,
        sha256: Some(format!("{:064x}", id + 0xfeed)),
        error: None,
        warnings: vec!["decoded as GBK".into()],
        flags: vec![],
        text: Arc::from(text),
    }
}

/// A pair with long texts, an unbroken 300-character token and a very long path.
fn report() -> Report {
    let long_path = format!("class-2026/{}/submission_with_a_rather_long_file_name.txt", "folder".repeat(20));
    let unbroken = "x".repeat(300);
    let shared = "软件工程是一门研究用工程化方法构建和维护有效的、实用的和高质量的软件的学科。".repeat(6);
    let a = format!("{}\n{shared}\n{unbroken}\nThe end of the suspect text, LASTWORDA.", "Opening words. ".repeat(200));
    let b = format!("{shared}\n{}\nThe end of the reference text, LASTWORDB.", "Other words here. ".repeat(150));
    let span = |text: &str, part: &str| {
        let byte = text.find(part).unwrap();
        let start = text[..byte].chars().count() as u32;
        (start, start + part.chars().count() as u32)
    };
    Report {
        settings: Settings::default(),
        mode: Mode::SuspectsVsReferences,
        documents: vec![doc(0, &long_path, Role::Suspect, &a), doc(1, "reference.txt", Role::Reference, &b)],
        pairs: vec![Pair {
            a: 0,
            b: 1,
            score: 0.3,
            score_b: 0.4,
            simhash_distance: Some(20),
            passages: vec![Passage::copied(span(&a, &shared), span(&b, &shared))],
            longest: 240,
            shared_sentences: 6,
            near_duplicate: false,
        }],
        near_duplicates: vec![],
        groups: vec![],
        skipped: vec![],
    }
}

fn print(html: &Path, pdf: &Path) {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(tool("chromium"))
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-pdf-header-footer",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(format!("file://{}", html.display()))
        .output()
        .unwrap();
    assert!(pdf.is_file(), "chromium printed nothing: {}", String::from_utf8_lossy(&out.stderr));
}

/// Every word box of the PDF (pdftotext -bbox): page width, height and the word's box.
fn words(pdf: &Path) -> Vec<(f64, f64, [f64; 4], String)> {
    let out = Command::new(tool("pdftotext")).arg("-bbox").arg(pdf).arg("-").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let attr = |line: &str, name: &str| -> f64 {
        let at = line.find(&format!("{name}=\"")).map(|i| i + name.len() + 2).unwrap();
        line[at..].split('"').next().unwrap().parse().unwrap()
    };
    let mut page = (0.0, 0.0);
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("<page ") {
            page = (attr(line, "width"), attr(line, "height"));
        } else if line.starts_with("<word ") {
            let word = line.split('>').nth(1).unwrap_or("").split('<').next().unwrap_or("").to_string();
            let bbox = [attr(line, "xMin"), attr(line, "yMin"), attr(line, "xMax"), attr(line, "yMax")];
            out.push((page.0, page.1, bbox, word));
        }
    }
    out
}

#[test]
fn the_html_report_prints_on_a4_and_letter_with_nothing_cut_at_the_edge() {
    let dir = tempfile::tempdir().unwrap();
    let report = report();
    for (lang, paper, width) in [(ReportLang::En, "A4", 595.0), (ReportLang::Zh, "letter", 612.0)] {
        for scope in [Scope::Run, Scope::Pair(0)] {
            let options = HtmlOptions { scope, lang, date: "2026-11-22 08:00 UTC".into(), marks: None };
            // The paper size as a browser's print dialog would set it.
            let html =
                render(&report, &options).replace("@page{margin:14mm}", &format!("@page{{margin:14mm;size:{paper}}}"));
            let html_path = dir.path().join(format!("r-{paper}.html"));
            let pdf_path = dir.path().join(format!("r-{paper}-{scope:?}.pdf"));
            std::fs::write(&html_path, html).unwrap();
            print(&html_path, &pdf_path);
            let words = words(&pdf_path);
            assert!(!words.is_empty(), "no text in the PDF");
            for (page_w, page_h, [x0, y0, x1, y1], word) in &words {
                assert!((page_w - width).abs() < 2.0, "{paper}: page width {page_w}");
                assert!(
                    *x0 >= 0.0 && *x1 <= *page_w + 0.5,
                    "{paper} {scope:?}: '{word}' cut at the side ({x0}–{x1} of {page_w})"
                );
                assert!(*y0 >= 0.0 && *y1 <= *page_h + 0.5, "{paper} {scope:?}: '{word}' cut at the bottom");
            }
            let all: String = words.iter().map(|w| w.3.as_str()).collect();
            for needle in
                ["LASTWORDA", "LASTWORDB", "twinspot", &format!("{:064x}", 0xfeed), "submission_with_a_rather_long"]
            {
                assert!(all.contains(needle), "{paper} {scope:?}: '{needle}' missing from the printed report");
            }
            assert!(all.contains(&"x".repeat(300)), "{paper} {scope:?}: the unbroken token is cut");
            let settings = if lang == ReportLang::En { "winnowing" } else { "筛选窗口" };
            assert!(all.contains(settings), "{paper}: the settings are printed");
        }
    }
}

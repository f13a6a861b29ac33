//! The HTML report printed to PDF by headless Chromium (installed by `.ci/setup`) through
//! the program's own printing (`report::pdf`), on A4 and on Letter, in English and
//! Chinese, for the class, one student and one pair: every word of every page lies inside
//! the page, no table heading is broken inside a word, page 1 of a student's report holds
//! the summary (name, overall similarity, sources, verdict and note), and the report's
//! long parts (paths, SHA-256, the settings, the last passage) are all there when the
//! appendix is printed. A class of 30 (`report_fixture`) prints each passage once: a
//! student with four sources on at most 6 pages, the class on at most 40; a student's
//! anonymised hand-out prints nothing of a classmate but the shared passages. Needs
//! `chromium` and `pdftotext` (poppler-utils): the test fails, naming what is missing,
//! without them. `compare --pdf` writes a PDF, or without a browser the HTML and says so.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use twinspot::report::html::{HtmlOptions, Scope, render};
use twinspot::report::marks::{Mark, Marks};
use twinspot::report::pdf::{Paper, PrintOptions, print_pdf_with};
use twinspot::report::words::ReportLang;
use twinspot::{DocumentEntry, Mode, Pair, Passage, Report, Role, Settings};

use super::report_fixture::{STUDENTS, class, student_path};
use super::util::{command, fixtures};

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

fn span(text: &str, part: &str) -> (u32, u32) {
    let byte = text.find(part).unwrap();
    let start = text[..byte].chars().count() as u32;
    (start, start + part.chars().count() as u32)
}

/// A class: a student with long texts, an unbroken 300-character token and a very long
/// path, who shares text with a reference and a classmate; a student with 0 %.
fn report() -> Report {
    let long_path =
        format!("/home/teacher/class-2026/{}/submission_with_a_rather_long_file_name.txt", "folder".repeat(20));
    let unbroken = "x".repeat(300);
    let shared = "软件工程是一门研究用工程化方法构建和维护有效的、实用的和高质量的软件的学科。".repeat(6);
    let template = "Name: ______ Class: ______ Teacher: ______ Date: ______";
    let a = format!(
        "{template}\n{}\n{shared}\n{unbroken}\nThe end of the suspect text, LASTWORDA.",
        "Opening words. ".repeat(200)
    );
    let b = format!("{shared}\n{}\nThe end of the reference text, LASTWORDB.", "Other words here. ".repeat(150));
    let c = format!("{template}\n{}", "A classmate's own words. ".repeat(40));
    let mut report = Report {
        settings: Settings::default(),
        mode: Mode::AllVsAll,
        documents: vec![
            doc(0, &long_path, Role::Suspect, &a),
            doc(1, "reference.txt", Role::Reference, &b),
            doc(2, "/home/teacher/class-2026/bob.txt", Role::Suspect, &c),
            doc(3, "/home/teacher/class-2026/zoe.txt", Role::Suspect, "Nothing shared at all here."),
        ],
        pairs: vec![
            Pair {
                a: 0,
                b: 1,
                score: 0.3,
                score_b: 0.4,
                simhash_distance: Some(20),
                passages: vec![Passage::copied(span(&a, &shared), span(&b, &shared))],
                longest: 240,
                shared_sentences: 6,
                near_duplicate: false,
            },
            Pair {
                a: 0,
                b: 2,
                score: 0.02,
                score_b: 0.05,
                simhash_distance: Some(30),
                passages: vec![Passage::copied(span(&a, template), span(&c, template))],
                longest: 55,
                shared_sentences: 0,
                near_duplicate: false,
            },
        ],
        near_duplicates: vec![],
        groups: vec![],
        skipped: vec![],
    };
    report.documents[0].warnings.clear();
    report
}

/// The reviewer confirmed the copy from the reference (with a note) and dismissed the
/// template text shared with the classmate.
fn marks(report: &Report) -> Marks {
    let mut marks = Marks::default();
    marks.set_pair(report, &report.pairs[0], Some(Mark::Confirmed));
    marks.set_note(report, &report.pairs[0], "NOTEWORD copied");
    marks.set_passage(report, &report.pairs[1], &report.pairs[1].passages[0], Some(Mark::Dismissed));
    marks
}

/// Every word box of the PDF (pdftotext -bbox): page number, page width, height, box, word.
fn words(pdf: &Path) -> Vec<(usize, f64, f64, [f64; 4], String)> {
    let out = Command::new(tool("pdftotext")).arg("-bbox").arg(pdf).arg("-").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let attr = |line: &str, name: &str| -> f64 {
        let at = line.find(&format!("{name}=\"")).map(|i| i + name.len() + 2).unwrap();
        line[at..].split('"').next().unwrap().parse().unwrap()
    };
    let mut page = (0, 0.0, 0.0);
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("<page ") {
            page = (page.0 + 1, attr(line, "width"), attr(line, "height"));
        } else if line.starts_with("<word ") {
            let word = line.split('>').nth(1).unwrap_or("").split('<').next().unwrap_or("").to_string();
            let word = word.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"");
            let bbox = [attr(line, "xMin"), attr(line, "yMin"), attr(line, "xMax"), attr(line, "yMax")];
            out.push((page.0, page.1, page.2, bbox, word));
        }
    }
    out
}

/// The words of every table heading and cell of the page, but for cells of names and
/// hashes (which may wrap anywhere) and excerpts of the texts.
fn heading_words(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (open, close) in [("<th", "</th>"), ("<td", "</td>")] {
        for part in html.split(open).skip(1) {
            let Some((tag, inner)) = part.split_once('>') else { continue };
            if ["tok", "sha", "excerpt"].iter().any(|c| tag.contains(c)) || !(tag.is_empty() || tag.starts_with(' ')) {
                continue;
            }
            let text = inner.split(close).next().unwrap_or("");
            let plain: String = text.split('<').map(|s| s.split_once('>').map_or(s, |(_, t)| t)).collect();
            let words =
                plain.split_whitespace().filter(|w| w.chars().count() >= 2 && w.chars().all(char::is_alphabetic));
            out.extend(words.map(str::to_string));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// A heading word printed in two pieces: two words in a row, the second on a later line,
/// that join into it (also with a hyphen at the break).
fn broken_headings(words: &[(usize, f64, f64, [f64; 4], String)], headings: &[String]) -> Vec<String> {
    let mut broken = Vec::new();
    for pair in words.windows(2) {
        let next_line = pair[1].0 != pair[0].0 || pair[1].3[1] >= pair[0].3[3] - 1.0;
        if !next_line {
            continue;
        }
        let (x, y) = (&pair[0].4, &pair[1].4);
        let joined = [format!("{x}{y}"), format!("{}{y}", x.trim_end_matches('-'))];
        if joined.iter().any(|j| headings.contains(j)) && !headings.contains(x) {
            broken.push(format!("'{x}' + '{y}'"));
        }
    }
    broken
}

#[test]
fn a_heading_printed_in_two_pieces_is_found() {
    // Each word on a line of its own, 12 points lower than the one before.
    let printed: Vec<_> = ["Lengt", "h", "SimHa", "sh", "Share"]
        .iter()
        .enumerate()
        .map(|(i, word)| (1, 0.0, 0.0, [0.0, 12.0 * i as f64, 10.0, 12.0 * i as f64 + 10.0], word.to_string()))
        .collect();
    let headings = ["Length".to_string(), "SimHash".to_string(), "Share".to_string()];
    assert_eq!(broken_headings(&printed, &headings).len(), 2);
}

fn check_pdf(pdf: &Path, html: &str, what: &str, width: f64) -> String {
    let words = words(pdf);
    assert!(!words.is_empty(), "{what}: no text in the PDF");
    for (_, page_w, page_h, [x0, y0, x1, y1], word) in &words {
        assert!((page_w - width).abs() < 2.0, "{what}: page width {page_w}");
        assert!(*x0 >= 0.0 && *x1 <= *page_w + 0.5, "{what}: '{word}' cut at the side ({x0}–{x1} of {page_w})");
        assert!(*y0 >= 0.0 && *y1 <= *page_h + 0.5, "{what}: '{word}' cut at the bottom");
    }
    let broken = broken_headings(&words, &heading_words(html));
    assert!(broken.is_empty(), "{what}: table cells broken inside a word: {broken:?}");
    let all: String = words.iter().map(|w| w.4.as_str()).collect();
    for needle in ["LASTWORDA", "LASTWORDB", "twinspot", &format!("{:064x}", 0xfeed), "submission_with_a_rather_long"] {
        assert!(all.contains(needle), "{what}: '{needle}' missing from the printed report");
    }
    assert!(all.contains(&"x".repeat(300)), "{what}: the unbroken token is cut");
    assert!(!all.contains("/home/teacher"), "{what}: a folder of the teacher's disk is printed");
    words.iter().filter(|w| w.0 == 1).map(|w| w.4.as_str()).collect::<Vec<_>>().join(" ")
}

#[test]
fn the_report_prints_on_a4_and_letter_with_nothing_cut_no_heading_broken_and_the_summary_on_page_1() {
    let dir = tempfile::tempdir().unwrap();
    let report = report();
    let marks = marks(&report);
    let browser = tool("chromium");
    for (lang, paper, width) in [(ReportLang::En, Paper::A4, 595.0), (ReportLang::Zh, Paper::Letter, 612.0)] {
        for scope in [Scope::Run, Scope::Suspect(0), Scope::Pair(0)] {
            let options = HtmlOptions {
                scope,
                lang,
                date: "2026-11-22 08:00 UTC".into(),
                marks: Some(&marks),
                ..Default::default()
            };
            let html = render(&report, &options);
            let pdf = print_pdf_with(&browser, &html, PrintOptions { paper, appendix: true }).unwrap();
            let what = format!("{lang:?} {paper:?} {scope:?}");
            let pdf_path = dir.path().join(format!("r-{lang:?}-{paper:?}-{scope:?}.pdf"));
            std::fs::write(&pdf_path, pdf).unwrap();
            let page1 = check_pdf(&pdf_path, &html, &what, width);
            let (overall, confirmed, settings) = match lang {
                ReportLang::En => ("Overall similarity", "confirmed", "winnowing"),
                ReportLang::Zh => ("总相似度", "已确认", "筛选窗口"),
            };
            let all: String = words(&pdf_path).iter().map(|w| w.4.clone()).collect();
            assert!(all.contains(settings), "{what}: the settings are printed");
            if scope == Scope::Run {
                assert!(page1.contains("zoe.txt"), "{what}: the 0 % student on page 1");
                continue;
            }
            let squeezed: String = page1.split_whitespace().collect();
            for needle in
                ["submission_with_a_rather_long_file_name.txt", overall, "reference.txt", confirmed, "NOTEWORD"]
            {
                let needle_squeezed: String = needle.split_whitespace().collect();
                assert!(squeezed.contains(&needle_squeezed), "{what}: '{needle}' not on page 1:\n{page1}");
            }
            if scope == Scope::Suspect(0) {
                assert!(squeezed.contains("bob.txt"), "{what}: the classmate on page 1");
                assert!(squeezed.contains("30.0%"), "{what}: the counted overall on page 1:\n{page1}");
            }
        }
    }
}

#[test]
fn compare_writes_a_pdf_or_without_a_browser_the_html_and_says_so() {
    let out = tempfile::tempdir().unwrap();
    let pdf = out.path().join("zh_copy.pdf");
    let args = |lang: &str| {
        vec![
            "compare".to_string(),
            "-r".into(),
            "reference".into(),
            "-s".into(),
            "suspect".into(),
            "-q".into(),
            "--pdf".into(),
            pdf.to_string_lossy().into_owned(),
            "--html-suspect".into(),
            "suspect/zh_copy.txt".into(),
            "--anonymize".into(),
            "--lang".into(),
            lang.into(),
        ]
    };
    let done =
        command().current_dir(fixtures()).args(args("zh")).env("TWINSPOT_CHROMIUM", tool("chromium")).output().unwrap();
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF"));
    let printed: String = words(&pdf).iter().map(|w| w.4.clone()).collect();
    assert!(printed.contains("zh_copy.txt") && printed.contains("总相似度"), "{printed}");
    assert!(!printed.contains("en_reordered") && !printed.contains("clean.txt"), "classmates are not named");
    std::fs::remove_file(&pdf).unwrap();

    let none = out.path().join("no-browser");
    let missing = command().current_dir(fixtures()).args(args("en")).env("TWINSPOT_CHROMIUM", &none).output().unwrap();
    assert_eq!(missing.status.code(), Some(1));
    let said = String::from_utf8_lossy(&missing.stderr);
    assert!(said.contains("no Chromium or Chrome") && said.contains("zh_copy.html"), "{said}");
    assert!(!pdf.exists());
    let html = std::fs::read_to_string(out.path().join("zh_copy.html")).unwrap();
    assert!(html.contains("Overall similarity"));
}

/// The number of pages of a PDF (pdfinfo).
fn pages(pdf: &Path) -> usize {
    let out = Command::new(tool("pdfinfo")).arg(pdf).output().unwrap();
    let info = String::from_utf8_lossy(&out.stdout);
    let line = info.lines().find(|l| l.starts_with("Pages:")).unwrap_or_else(|| panic!("no page count:\n{info}"));
    line["Pages:".len()..].trim().parse().unwrap()
}

/// `html` printed on A4 to `dir/name`, with or without the appendix.
fn print_to(dir: &Path, name: &str, html: &str, appendix: bool) -> PathBuf {
    let pdf = print_pdf_with(&tool("chromium"), html, PrintOptions { paper: Paper::A4, appendix }).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, pdf).unwrap();
    path
}

fn squeezed(words: &[(usize, f64, f64, [f64; 4], String)]) -> String {
    words.iter().map(|w| w.4.as_str()).collect()
}

#[test]
fn a_student_with_four_sources_prints_on_6_pages_at_most_and_a_class_of_30_on_40() {
    let dir = tempfile::tempdir().unwrap();
    let report = class();
    let sources = report.pairs.iter().filter(|p| p.a == 0 || p.b == 0).count();
    assert_eq!(sources, 4, "the fixture's student 0 has four sources");
    for lang in [ReportLang::En, ReportLang::Zh] {
        let options = |scope| HtmlOptions { scope, lang, date: "2026-12-02 08:00 UTC".into(), ..Default::default() };
        let html = render(&report, &options(Scope::Suspect(0)));
        let student = print_to(dir.path(), &format!("student-{lang:?}.pdf"), &html, false);
        let n = pages(&student);
        eprintln!("{lang:?}: one student with four sources: {n} pages");
        assert!(n <= 6, "{lang:?}: one student with four sources on {n} pages");
        let printed: String = squeezed(&words(&student));
        // Each passage once: the copied passage of reference 1 (the same words on both
        // sides) is printed once, and no SHA-256 without the appendix.
        let copied = &report.pairs.iter().find(|p| p.a == 0 && p.b == STUDENTS + 1).unwrap().passages[0];
        let text = &report.documents[0].text;
        let passage: String =
            text.chars().skip(copied.a_start as usize).take(120).filter(|c| !c.is_whitespace()).collect();
        assert_eq!(printed.matches(&passage).count(), 1, "{lang:?}: the passage printed once");
        assert!(!printed.contains(&format!("{:064x}", 0x5eed_0000)), "{lang:?}: the hashes are in the appendix");
        let broken = broken_headings(&words(&student), &heading_words(&html));
        assert!(broken.is_empty(), "{lang:?}: table cells broken inside a word: {broken:?}");

        let html = render(&report, &options(Scope::Run));
        let whole = print_to(dir.path(), &format!("class-{lang:?}.pdf"), &html, false);
        let n = pages(&whole);
        eprintln!("{lang:?}: a class of {STUDENTS}: {n} pages");
        assert!(n <= 40, "{lang:?}: a class of {STUDENTS} on {n} pages");
        let broken = broken_headings(&words(&whole), &heading_words(&html));
        assert!(broken.is_empty(), "{lang:?}: table cells broken inside a word: {broken:?}");
        if lang == ReportLang::En {
            let all = print_to(dir.path(), "student-appendix.pdf", &render(&report, &options(Scope::Suspect(0))), true);
            let printed = squeezed(&words(&all));
            eprintln!("one student with the appendix: {} pages", pages(&all));
            assert!(pages(&all) > pages(&student), "the appendix adds pages");
            assert!(printed.contains(&format!("{:064x}", 0x5eed_0000)), "the appendix lists the hashes");
            assert!(printed.contains("MARKER00"), "the appendix holds the student's full text");
        }
    }
}

#[test]
fn an_anonymised_hand_out_prints_nothing_of_a_classmate_but_the_shared_passages() {
    let dir = tempfile::tempdir().unwrap();
    let report = class();
    let classmate = report.pairs.iter().find(|p| p.a == 0 && p.b == 1).unwrap();
    let shared = &report.documents[1].text;
    let shared: String = shared.chars().skip(classmate.passages[0].b_start as usize).take(60).collect();
    let file = "student-01";
    let hash = format!("{:064x}", 0x5eed_0001);
    let options = |anonymize| HtmlOptions {
        scope: Scope::Suspect(0),
        date: "2026-12-02 08:00 UTC".into(),
        anonymize,
        ..Default::default()
    };
    let teacher = render(&report, &options(false));
    for needle in ["MARKER01", file, &hash] {
        assert!(teacher.contains(needle), "the teacher's report holds '{needle}'");
    }
    let hand_out = render(&report, &options(true));
    for needle in ["MARKER01", file, &hash, &student_path(1)] {
        assert!(!hand_out.contains(needle), "the hand-out holds '{needle}'");
    }
    assert!(hand_out.contains("Student A") && hand_out.contains(&shared), "the classmate's passage, by letter");
    let pdf = print_to(dir.path(), "hand-out.pdf", &hand_out, true);
    let printed = squeezed(&words(&pdf));
    assert!(!printed.contains("MARKER01") && !printed.contains(file), "the printed hand-out leaks the classmate");
    let shared: String = shared.split_whitespace().collect();
    assert!(printed.contains(&shared), "the shared passage is printed");
}

#[test]
fn compare_prints_the_appendix_of_full_texts_and_hashes_only_when_asked() {
    let out = tempfile::tempdir().unwrap();
    let print = |name: &str, extra: &[&str]| {
        let pdf = out.path().join(name);
        let mut args = vec!["compare", "-r", "reference", "-s", "suspect", "-q", "--pdf", pdf.to_str().unwrap()];
        args.extend_from_slice(extra);
        let done =
            command().current_dir(fixtures()).args(&args).env("TWINSPOT_CHROMIUM", tool("chromium")).output().unwrap();
        assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
        pdf
    };
    let plain = print("plain.pdf", &[]);
    let all = print("all.pdf", &["--pdf-appendix"]);
    let (plain_words, all_words) = (squeezed(&words(&plain)), squeezed(&words(&all)));
    assert!(!plain_words.contains("SHA-256") && all_words.contains("SHA-256"), "the hashes only with the appendix");
    assert!(pages(&all) > pages(&plain), "{} pages with the appendix, {} without", pages(&all), pages(&plain));
}

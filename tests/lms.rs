//! A class's submissions as one zip from the LMS (`compare --suspect submissions.zip`):
//! Moodle, Canvas and Blackboard namings, each document named by its student, a student's
//! several files, Blackboard receipts left out, a plain zip, and bad zips refused one by one.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::util::{compare_json, pair};

pub(crate) const ZH_COPIED: &str = "软件工程是一门研究用工程化方法构建和维护有效的、实用的和高质量的软件的学科。它涉及程序设计语言、数据库、软件开发工具、系统平台、标准、设计模式等方面。在现代社会中，软件应用于多个方面。";
pub(crate) const EN_COPIED: &str = "The library opens at nine in the morning and closes at six in the evening every weekday, while on weekends the reading rooms stay closed and only the self-service desk on the ground floor can be used to return borrowed books.";
const ZH_OWN: &str =
    "今天天气很好，我们一起去公园散步。湖边的柳树发出了新芽，孩子们在草地上放风筝，老人们坐在长椅上聊天。";
const EN_OWN: &str =
    "My grandmother grew tomatoes, beans and sunflowers in a narrow garden behind the railway station for forty years.";

/// A .docx whose body is one paragraph per line of `text`.
pub(crate) fn docx(text: &str) -> Vec<u8> {
    let paragraphs: String = text.lines().map(|l| format!("<w:p><w:r><w:t>{l}</w:t></w:r></w:p>")).collect();
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{paragraphs}</w:body></w:document>"#
    );
    zip_of(&[("word/document.xml", document.as_bytes())])
}

/// A zip of `entries`, each stamped 2026-03-01 12:30:46, with a folder entry first.
pub(crate) fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stamp = zip::DateTime::from_date_and_time(2026, 3, 1, 12, 30, 46).unwrap();
    let options = zip::write::SimpleFileOptions::default().last_modified_time(stamp);
    for (name, data) in entries {
        w.start_file(*name, options).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// A folder with `reference/` (a Chinese and an English source) and `submissions.zip`.
pub(crate) fn class(entries: &[(&str, &[u8])]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("reference")).unwrap();
    std::fs::write(dir.path().join("reference/zh.txt"), format!("{ZH_COPIED}\n")).unwrap();
    std::fs::write(dir.path().join("reference/en.txt"), format!("{EN_COPIED}\n")).unwrap();
    let zip = dir.path().join("submissions.zip");
    std::fs::write(&zip, zip_of(entries)).unwrap();
    (dir, zip)
}

fn copied_zh() -> Vec<u8> {
    docx(&format!("{ZH_OWN}\n{ZH_COPIED}"))
}

fn copied_en() -> Vec<u8> {
    docx(&format!("{EN_OWN}\n{EN_COPIED}"))
}

fn paths(report: &serde_json::Value) -> Vec<String> {
    let docs = report["documents"].as_array().unwrap();
    docs.iter().map(|d| d["path"].as_str().unwrap().to_string()).collect()
}

fn suspects(report: &serde_json::Value) -> Vec<String> {
    let docs = report["documents"].as_array().unwrap();
    docs.iter().filter(|d| d["role"] == "suspect").map(|d| d["path"].as_str().unwrap().to_string()).collect()
}

fn compare_zip(dir: &Path) -> serde_json::Value {
    compare_json(dir, &["--reference", "reference", "--suspect", "submissions.zip", "--no-cache"])
}

/// The files of `dir` and below, sorted, with their sizes.
fn listing(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let meta = entry.metadata().unwrap();
        if meta.is_dir() {
            out.extend(listing(&entry.path()));
        } else {
            out.push((entry.path(), meta.len()));
        }
    }
    out.sort();
    out
}

#[test]
fn a_moodle_zip_names_each_document_by_its_student_and_groups_a_student_s_files() {
    let (dir, zip) = class(&[
        ("王芳_101_assignsubmission_file_论文.docx", &copied_zh()),
        ("Oliver Smith_102_assignsubmission_file/essay.docx", &copied_en()),
        ("Oliver Smith_102_assignsubmission_file/sources.txt", EN_OWN.as_bytes()),
        ("Oliver Smith_102_assignsubmission_file/photo.png", b"\x89PNG\r\n"),
    ]);
    let before = listing(dir.path());
    let bytes = std::fs::read(&zip).unwrap();
    let report = compare_zip(dir.path());
    assert_eq!(suspects(&report), ["Oliver Smith — essay.docx", "Oliver Smith — sources.txt", "王芳"], "{report:#}");
    let zh = pair(&report, "王芳", "reference/zh.txt").expect("王芳 copied the Chinese source");
    assert!(zh["score"].as_f64().unwrap() > 0.4, "{zh:#}");
    assert!(pair(&report, "Oliver Smith — essay.docx", "reference/en.txt").is_some(), "{report:#}");
    assert!(pair(&report, "Oliver Smith — sources.txt", "reference/en.txt").is_none(), "{report:#}");
    let skipped = report["skipped"].to_string();
    assert!(skipped.contains("1 file(s)"), "the picture is said: {skipped}");
    // The zip is only read: nothing unpacked beside it, nothing changed.
    assert_eq!(listing(dir.path()), before);
    assert_eq!(std::fs::read(&zip).unwrap(), bytes);
}

#[test]
fn a_canvas_zip_names_late_and_on_time_submissions_by_their_student() {
    let (dir, _) = class(&[
        ("wangfang_LATE_101_9001_论文.docx", &copied_zh()),
        ("smitholiver_102_9002_my_essay.docx", &copied_en()),
    ]);
    let report = compare_zip(dir.path());
    assert_eq!(suspects(&report), ["smitholiver", "wangfang"], "{report:#}");
    assert!(pair(&report, "wangfang", "reference/zh.txt").is_some(), "{report:#}");
    assert!(pair(&report, "smitholiver", "reference/en.txt").is_some(), "{report:#}");
}

#[test]
fn a_blackboard_zip_leaves_the_receipts_out_and_names_by_username() {
    let first = "Essay 1_wfang_attempt_2026-03-01-12-30-45";
    let second = "Essay 1_osmith_attempt_2026-03-02-09-00-00";
    let (dir, _) = class(&[
        (&format!("{first}.txt"), b"Name: Wang Fang\nAssignment: Essay 1\n"),
        (&format!("{first}_论文.docx"), &copied_zh()),
        (&format!("{second}.txt"), b"Name: Oliver Smith\nAssignment: Essay 1\n"),
        (&format!("{second}_essay.docx"), &copied_en()),
    ]);
    let report = compare_zip(dir.path());
    assert_eq!(suspects(&report), ["osmith", "wfang"], "{report:#}");
    assert!(pair(&report, "wfang", "reference/zh.txt").is_some(), "{report:#}");
    let skipped = report["skipped"].to_string();
    assert!(skipped.contains("2 Blackboard receipt(s)"), "{skipped}");
}

#[test]
fn a_plain_zip_is_a_folder_of_files_named_by_their_path_in_it() {
    let (dir, _) = class(&[("class/zhang.docx", &copied_zh()), ("class/li.txt", ZH_OWN.as_bytes())]);
    let report = compare_zip(dir.path());
    assert_eq!(suspects(&report), ["class/li.txt", "class/zhang.docx"], "{report:#}");
    assert!(pair(&report, "class/zhang.docx", "reference/zh.txt").is_some(), "{report:#}");
}

/// `zip` with every entry marked encrypted (general purpose bit 0), as a password
/// protected export is.
fn encrypted(mut zip: Vec<u8>) -> Vec<u8> {
    for (signature, flags) in [(&b"PK\x03\x04"[..], 6), (&b"PK\x01\x02"[..], 8)] {
        let starts: Vec<usize> = zip.windows(4).enumerate().filter(|(_, w)| *w == signature).map(|(i, _)| i).collect();
        for start in starts {
            zip[start + flags] |= 1;
        }
    }
    zip
}

#[test]
fn a_damaged_or_password_protected_zip_is_one_clear_error_and_the_check_goes_on() {
    let (dir, _) = class(&[("王芳_101_assignsubmission_file_论文.docx", &copied_zh())]);
    let mut damaged = zip_of(&[("Oliver Smith_102_assignsubmission_file_essay.docx", &copied_en())]);
    damaged.truncate(damaged.len() - 30);
    std::fs::write(dir.path().join("damaged.zip"), damaged).unwrap();
    let locked = encrypted(zip_of(&[("Li Lei_103_assignsubmission_file_essay.docx", &copied_en())]));
    std::fs::write(dir.path().join("locked.zip"), locked).unwrap();
    let args = ["--reference", "reference", "--suspect", "submissions.zip", "damaged.zip", "locked.zip", "--no-cache"];
    let report = compare_json(dir.path(), &args);
    assert_eq!(paths(&report).iter().filter(|p| p.ends_with(".zip")).count(), 2, "{report:#}");
    let error = |name: &str| {
        let docs = report["documents"].as_array().unwrap();
        let doc = docs.iter().find(|d| d["path"] == name).unwrap_or_else(|| panic!("no {name}: {report:#}"));
        doc["error"].as_str().unwrap_or_default().to_string()
    };
    assert!(error("damaged.zip").starts_with("not a readable zip of submissions (damaged or not a zip"), "{report:#}");
    assert!(error("locked.zip").starts_with("not a readable zip of submissions (password protected"), "{report:#}");
    assert!(pair(&report, "王芳", "reference/zh.txt").is_some(), "the good zip is checked: {report:#}");
}

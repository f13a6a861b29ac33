//! The command line on small Chinese and English fixtures: passages found on both sides,
//! the golden JSON, templates, all-vs-all, extract, simhash, bad input and bad arguments.

use crate::util::{compare_json, doc_id, fixtures, pair, slice, success, twinspot};

#[test]
fn traditional_chinese_copy_is_found_with_offsets_on_both_sides() {
    let dir = fixtures();
    let report = compare_json(&dir, &["--reference", "reference", "--suspect", "suspect"]);
    let p = pair(&report, "suspect/zh_copy.txt", "reference/zh_debian.txt").expect("the copied pair");
    let passages = p["passages"].as_array().unwrap();
    assert_eq!(passages.len(), 1, "{p:#}");
    let q = &passages[0];
    let a = slice(&dir, "suspect/zh_copy.txt", q["a_start"].as_u64().unwrap(), q["a_end"].as_u64().unwrap());
    let b = slice(&dir, "reference/zh_debian.txt", q["b_start"].as_u64().unwrap(), q["b_end"].as_u64().unwrap());
    assert!(a.starts_with("軟件包管理") && a.ends_with("凍結階段"), "suspect side: {a}");
    assert!(b.starts_with("软件包管理") && b.ends_with("冻结阶段"), "reference side: {b}");
    assert!(p["score"].as_f64().unwrap() > 0.4, "{p:#}");
}

#[test]
fn reordered_english_sentences_are_one_passage() {
    let dir = fixtures();
    let report = compare_json(&dir, &["--reference", "reference", "--suspect", "suspect"]);
    let p = pair(&report, "suspect/en_reordered.txt", "reference/en_python.txt").expect("the copied pair");
    let passages = p["passages"].as_array().unwrap();
    assert_eq!(passages.len(), 1, "{p:#}");
    let q = &passages[0];
    let a = slice(&dir, "suspect/en_reordered.txt", q["a_start"].as_u64().unwrap(), q["a_end"].as_u64().unwrap());
    assert!(a.starts_with("Different applications") && a.ends_with("version 2.0"), "{a}");
}

#[test]
fn clean_document_has_no_pairs_and_every_document_is_listed_once() {
    let dir = fixtures();
    let report = compare_json(&dir, &["--reference", "reference", "--suspect", "suspect"]);
    let clean = doc_id(&report, "suspect/clean.txt");
    assert!(report["pairs"].as_array().unwrap().iter().all(|p| p["a"] != clean && p["b"] != clean));
    let mut paths: Vec<&str> =
        report["documents"].as_array().unwrap().iter().map(|d| d["path"].as_str().unwrap()).collect();
    paths.sort_unstable();
    assert_eq!(
        paths,
        [
            "reference/en_python.txt",
            "reference/zh_debian.txt",
            "suspect/clean.txt",
            "suspect/en_reordered.txt",
            "suspect/zh_copy.txt"
        ]
    );
}

#[test]
fn json_matches_the_golden_file() {
    let dir = fixtures();
    let got = success(&twinspot(
        &dir,
        &["compare", "-r", "reference", "-s", "suspect", "-t", "template", "--json", "-", "-q"],
    ));
    let golden_path = dir.join("golden.json");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden_path, &got).unwrap();
    }
    let golden = std::fs::read_to_string(&golden_path).unwrap();
    assert_eq!(got, golden, "JSON changed; if that is intended, run with UPDATE_GOLDEN=1 and review the diff");
}

#[test]
fn template_text_is_neither_matched_nor_counted() {
    let dir = fixtures();
    let without = compare_json(&dir, &["-r", "reference", "-s", "suspect"]);
    let with = compare_json(&dir, &["-r", "reference", "-s", "suspect", "-t", "template"]);
    let score = |r: &serde_json::Value| {
        pair(r, "suspect/zh_copy.txt", "reference/zh_debian.txt").unwrap()["score"].as_f64().unwrap()
    };
    assert!(score(&with) > score(&without), "the template's characters leave the denominator");
    let template = doc_id(&with, "template/assignment.txt");
    assert_eq!(with["documents"][template as usize]["role"], "template");
    assert!(with["pairs"].as_array().unwrap().iter().all(|p| p["a"] != template && p["b"] != template));
}

#[test]
fn all_vs_all_reports_each_pair_once_with_the_smaller_id_first() {
    let dir = fixtures();
    let report = compare_json(&dir, &["--all", "."]);
    let pairs = report["pairs"].as_array().unwrap();
    assert!(pairs.len() >= 2, "{report:#}");
    for p in pairs {
        assert!(p["a"].as_u64() < p["b"].as_u64(), "{p}");
    }
}

#[test]
fn a_file_that_cannot_be_read_is_reported_and_the_run_goes_on() {
    let dir = fixtures();
    let output = twinspot(
        &dir,
        &["compare", "-r", "reference", "-s", "suspect/zh_copy.txt", "../data/encrypted.pdf", "--json", "-", "-q"],
    );
    let stdout = success(&output);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let unreadable = doc_id(&report, "../data/encrypted.pdf");
    let error = report["documents"][unreadable as usize]["error"].as_str().unwrap();
    assert!(error.contains("../data/encrypted.pdf"), "{error}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("../data/encrypted.pdf"));
    assert!(pair(&report, "suspect/zh_copy.txt", "reference/zh_debian.txt").is_some());
}

#[test]
fn bad_arguments_exit_with_two() {
    let dir = fixtures();
    assert_eq!(twinspot(&dir, &["compare", "--suspect", "suspect"]).status.code(), Some(2));
    assert_eq!(twinspot(&dir, &["compare", "--no-such-flag"]).status.code(), Some(2));
    // A path that does not exist is refused before any work, named in the message.
    let missing = twinspot(&dir, &["compare", "-r", "reference", "-s", "suspect/missing.txt"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("suspect/missing.txt"));
}

#[test]
fn extract_prints_the_text_offsets_count() {
    let dir = fixtures();
    let text = success(&twinspot(&dir, &["extract", "reference/zh_debian.txt"]));
    assert_eq!(text, std::fs::read_to_string(dir.join("reference/zh_debian.txt")).unwrap());
}

#[test]
fn simhash_prints_one_hex_line_per_file_and_traditional_equals_simplified() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.txt"), "软件包管理系统可以帮助用户安装和删除软件包。").unwrap();
    std::fs::write(dir.path().join("t.txt"), "軟件包管理系統可以幫助用戶安裝和刪除軟件包。").unwrap();
    let out = success(&twinspot(dir.path(), &["simhash", "s.txt", "t.txt"]));
    let hashes: Vec<&str> = out.lines().map(|l| l.split_whitespace().next().unwrap()).collect();
    assert_eq!(hashes.len(), 2);
    assert!(hashes.iter().all(|h| h.len() == 16 && h.chars().all(|c| c.is_ascii_hexdigit())));
    assert_eq!(hashes[0], hashes[1]);
}

#[test]
fn summary_table_and_csv() {
    let dir = fixtures();
    let out = success(&twinspot(&dir, &["compare", "-r", "reference", "-s", "suspect"]));
    assert!(out.contains("suspect/zh_copy.txt ⇐ reference/zh_debian.txt"), "{out}");
    let csv = success(&twinspot(&dir, &["compare", "-r", "reference", "-s", "suspect", "--csv", "-", "-q"]));
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().starts_with("suspect,reference,percent_of_suspect"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 3, "{csv}");
    // A student with no shared text is listed too, at 0 %, with no source.
    assert!(rows[2].starts_with("suspect/clean.txt,,0.0,"), "{csv}");
}

#[test]
fn the_html_report_follows_lang_and_states_the_tool_and_every_sha256() {
    let dir = fixtures();
    let out = tempfile::tempdir().unwrap();
    let html_path = out.path().join("r.html");
    let html_arg = html_path.to_string_lossy().into_owned();
    success(&twinspot(
        &dir,
        &["compare", "-r", "reference", "-s", "suspect", "--html", &html_arg, "--lang", "zh", "-q"],
    ));
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(html.contains("lang=\"zh-CN\"") && html.contains("<h2>设置</h2>"), "the report is in Chinese");
    assert!(html.contains(twinspot::report::TOOL));
    let json = compare_json(&dir, &["-r", "reference", "-s", "suspect"]);
    for doc in json["documents"].as_array().unwrap() {
        if let Some(sha) = doc["sha256"].as_str() {
            assert!(html.contains(sha), "{sha} missing");
        }
    }
    let bad = twinspot(&dir, &["compare", "-r", "reference", "-s", "suspect", "--html", &html_arg, "--lang", "fr"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn timings_say_where_the_matching_spent_its_time_and_change_nothing_else() {
    let dir = fixtures();
    let args = ["compare", "--reference", "reference", "--suspect", "suspect", "--json", "-", "-q", "--no-cache"];
    let plain = twinspot(&dir, &args);
    let timed = twinspot(&dir, &[&args[..], &["--timings"]].concat());
    assert_eq!(success(&plain), success(&timed), "the report is the same");
    let said = String::from_utf8_lossy(&timed.stderr);
    let line = said
        .lines()
        .find(|l| l.starts_with("twinspot: timings (summed over suspects): finding candidates"))
        .unwrap_or_else(|| {
            panic!("no timings line: {said}");
        });
    let report: serde_json::Value = serde_json::from_str(&success(&timed)).unwrap();
    let suspects = report["documents"].as_array().unwrap().iter().filter(|d| d["role"] == "suspect").count();
    let pairs = report["pairs"].as_array().unwrap().len();
    assert!(line.contains(&format!("for {suspects} suspects")), "{line}");
    assert!(line.contains(&format!(", {pairs} pairs kept")), "{line}");
    assert!(!String::from_utf8_lossy(&plain.stderr).contains("timings"), "only when asked for");
}

/// Each shared flag is bounded once, for every command that takes it: `-k 0`, `-w 0`, a
/// `--min-chars` of 0 and a coverage above 1 are refused by `compare`, `fingerprint`,
/// `archive check` and `align` alike, before any work; `align` also refuses a SimHash
/// threshold its candidate pairs cannot find.
#[test]
fn shared_flags_are_bounded_alike_in_every_command() {
    let dir = fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out").display().to_string();
    let commands: [Vec<&str>; 4] = [
        vec!["compare", "-r", "reference", "-s", "suspect", "-q"],
        vec!["fingerprint", "--parquet", &out, "suspect", "-q"],
        vec!["archive", "check", &out, "suspect", "-q"],
        vec!["align", "--pairs", "p.parquet", "--common", "c.parquet", "--documents", &out, "-q"],
    ];
    for command in &commands {
        let takes_passages = command[0] != "fingerprint";
        let takes_shape = command[0] != "align";
        let mut bad: Vec<[&str; 2]> = Vec::new();
        if takes_shape {
            bad.extend([["-k", "0"], ["-k", "65"], ["-w", "0"]]);
        }
        if takes_passages {
            bad.extend([["--min-chars", "0"], ["--simhash-threshold", "33"], ["--near-duplicate-coverage", "1.5"]]);
        }
        for flag in bad {
            let run = twinspot(&dir, &[&command[..], &flag[..]].concat());
            assert_eq!(run.status.code(), Some(2), "{command:?} {flag:?} was taken");
            let said = String::from_utf8_lossy(&run.stderr);
            assert!(said.contains(flag[0]), "{command:?} {flag:?}: the message names the flag: {said}");
        }
    }
    let wide = twinspot(&dir, &[&commands[3][..], &["--simhash-threshold", "4"]].concat());
    assert_eq!(wide.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wide.stderr).contains("at most"), "{}", String::from_utf8_lossy(&wide.stderr));
    assert!(!tmp.path().join("out").exists(), "nothing was written");
}

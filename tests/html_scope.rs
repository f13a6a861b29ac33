//! `compare --html` in its three scopes from the command line: the whole run, one
//! suspect (`--html-suspect`), one pair (`--html-pair`), and the refusals of names that
//! are no document of the run, before any work.

use super::util::{fixtures, success, twinspot};

fn html(args: &[&str]) -> String {
    let out = tempfile::tempdir().expect("tempdir");
    let path = out.path().join("r.html");
    let path_s = path.to_str().expect("utf-8 path");
    let mut all = vec!["compare", "-r", "reference", "-s", "suspect", "-q", "--html", path_s];
    all.extend_from_slice(args);
    success(&twinspot(&fixtures(), &all));
    std::fs::read_to_string(&path).expect("report written")
}

#[test]
fn the_html_report_narrows_to_one_suspect_or_one_pair() {
    let run = html(&[]);
    assert!(run.contains(">en_reordered.txt<") && run.contains(">zh_copy.txt<"));

    let suspect = html(&["--html-suspect", "suspect/zh_copy.txt"]);
    assert!(suspect.contains(">zh_copy.txt<") && suspect.contains(">zh_debian.txt<"));
    assert!(!suspect.contains(">en_reordered.txt<"), "another suspect leaked into its report");

    let pair = html(&["--html-pair", "suspect/en_reordered.txt", "reference/en_python.txt"]);
    assert!(pair.contains(">en_reordered.txt<") && pair.contains(">en_python.txt<"));
    assert!(!pair.contains(">zh_copy.txt<") && !pair.contains(">zh_debian.txt<"));
    assert!(pair.len() < run.len());
}

#[test]
fn a_name_that_is_no_suspect_of_the_run_is_refused_before_any_work() {
    let out = tempfile::tempdir().expect("tempdir");
    let path = out.path().join("r.html");
    let path_s = path.to_str().expect("utf-8 path");
    let base = ["compare", "-r", "reference", "-s", "suspect", "-q", "--html", path_s];
    for extra in [
        vec!["--html-suspect", "suspect/none.txt"],
        vec!["--html-suspect", "reference/en_python.txt"],
        vec!["--html-pair", "suspect/zh_copy.txt", "suspect/clean.txt"],
    ] {
        let args: Vec<&str> = base.iter().copied().chain(extra.iter().copied()).collect();
        let output = twinspot(&fixtures(), &args);
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("of this run"), "{extra:?}");
        assert!(!path.exists(), "a report was written for {extra:?}");
    }
}

#[test]
fn a_pair_without_shared_text_is_said_and_nothing_is_written() {
    let out = tempfile::tempdir().expect("tempdir");
    let path = out.path().join("r.html");
    let path_s = path.to_str().expect("utf-8 path");
    let args = [
        "compare",
        "-r",
        "reference",
        "-s",
        "suspect",
        "-q",
        "--html",
        path_s,
        "--html-pair",
        "suspect/clean.txt",
        "reference/en_python.txt",
    ];
    let output = twinspot(&fixtures(), &args);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("share no text"));
    assert!(!path.exists());
}

#[test]
fn a_chinese_html_report_gives_the_engine_notices_in_chinese() {
    let dir = tempfile::tempdir().expect("tempdir");
    let zh = "这是一个用于测试编码检测的中文句子，软件包管理系统可以帮助用户安装和删除软件。\n";
    for folder in ["reference", "suspect"] {
        std::fs::create_dir(dir.path().join(folder)).expect("folder");
    }
    std::fs::write(dir.path().join("reference/r.txt"), zh).expect("write");
    std::fs::write(dir.path().join("suspect/gbk.txt"), encoding_rs::GBK.encode(zh).0).expect("write");
    std::fs::write(dir.path().join("suspect/empty.txt"), b"").expect("write");
    let report = |lang: &str| {
        let path = dir.path().join(format!("{lang}.html"));
        let path_s = path.to_str().expect("utf-8 path");
        let args = ["compare", "-r", "reference", "-s", "suspect", "-q", "--html", path_s, "--lang", lang];
        success(&twinspot(dir.path(), &args));
        std::fs::read_to_string(&path).expect("report written")
    };
    let zh = report("zh");
    assert!(zh.contains("编码解码"), "the GBK notice in Chinese:\n{zh}");
    assert!(zh.contains("空文件（0 字节）"), "the empty file's error in Chinese:\n{zh}");
    assert!(!zh.contains("decoded as") && !zh.contains("empty file"), "English left in:\n{zh}");
    let en = report("en");
    assert!(en.contains("decoded as") && en.contains("empty file (0 bytes)"), "the English report changed:\n{en}");
}

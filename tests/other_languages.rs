//! A suspect whose references are in another script: nothing is found, and the report
//! says the check could not see across languages instead of "no shared text found", in
//! the JSON's warnings and in the HTML report, in English and in Chinese. With the meaning
//! layer on (the default) English and Chinese were compared across languages, and only a
//! suspect in another language (German against Chinese) is told.

use crate::util::{compare_json, success, twinspot};

const ZH: [&str; 4] = [
    "软件包管理系统可以帮助用户安装、升级和删除软件。每个软件包都带有它所依赖的其他软件包的列表。",
    "发行版每两年发布一次稳定版本，在冻结阶段只修复严重的错误，不再加入新的功能。",
    "安全团队跟踪每一个漏洞，为稳定版本提供更新，并在公告中说明受影响的软件包。",
    "翻译团队把文档译成几十种语言，志愿者在网页上校对译文并讨论术语的用法。",
];

const EN: &str = "The package manager installs, upgrades and removes software. Each package lists the \
                  other packages it depends on, so that installing one brings in everything it needs.\n";

/// A check of one English suspect against four Chinese references and one unrelated
/// English one, in a scratch folder.
pub(crate) fn folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("scratch folder");
    std::fs::create_dir_all(dir.path().join("reference")).expect("mkdir");
    std::fs::create_dir_all(dir.path().join("suspect")).expect("mkdir");
    for (i, text) in ZH.iter().enumerate() {
        std::fs::write(dir.path().join(format!("reference/zh{i}.txt")), format!("{text}\n")).expect("write");
    }
    let other = "Gardening in spring starts with the soil: turn it over, add compost and wait for rain.\n";
    std::fs::write(dir.path().join("reference/garden.txt"), other).expect("write");
    std::fs::write(dir.path().join("suspect/essay.txt"), EN).expect("write");
    dir
}

fn doc<'a>(report: &'a serde_json::Value, path: &str) -> &'a serde_json::Value {
    let doc = report["documents"].as_array().and_then(|d| d.iter().find(|d| d["path"] == path));
    doc.unwrap_or_else(|| panic!("no {path} in {report:#}"))
}

fn warnings(report: &serde_json::Value, path: &str) -> Vec<String> {
    doc(report, path)["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|w| w.as_str().map(str::to_string))
        .collect()
}

pub(crate) const SAID: &str =
    "compared within one language only: 4 references are in Chinese; copying across languages is not found";

pub(crate) const SAID_ZH: &str = "只在同一语言内比较：4 个参考文档是中文；跨语言的抄袭（翻译）无法发现";

#[test]
fn the_json_says_a_suspect_was_compared_within_its_language_only() {
    let dir = folder();
    let report = compare_json(dir.path(), &["--no-meaning", "-r", "reference", "-s", "suspect"]);
    assert_eq!(doc(&report, "suspect/essay.txt")["overall"], 0.0, "{report:#}");
    assert_eq!(warnings(&report, "suspect/essay.txt"), vec![SAID.to_string()], "{report:#}");
    for i in 0..4 {
        assert!(warnings(&report, &format!("reference/zh{i}.txt")).is_empty(), "references are not told");
    }
}

#[test]
fn a_suspect_with_references_in_its_own_language_only_is_not_told() {
    let dir = folder();
    for i in 0..4 {
        std::fs::remove_file(dir.path().join(format!("reference/zh{i}.txt"))).expect("rm");
    }
    let report = compare_json(dir.path(), &["-r", "reference", "-s", "suspect"]);
    assert!(warnings(&report, "suspect/essay.txt").is_empty(), "{report:#}");
}

#[test]
fn the_html_report_says_so_instead_of_no_shared_text_in_both_languages() {
    let dir = folder();
    for (lang, said, not) in [("en", SAID, "No shared text found."), ("zh", SAID_ZH, "未发现共同文字。")] {
        let html = dir.path().join(format!("report-{lang}.html"));
        let html_arg = html.display().to_string();
        success(&twinspot(
            dir.path(),
            &["compare", "--no-meaning", "-r", "reference", "-s", "suspect", "--html", &html_arg, "--lang", lang, "-q"],
        ));
        let page = std::fs::read_to_string(&html).expect("the HTML report");
        assert!(page.contains(said), "{lang}: the report does not say {said:?}");
        assert!(!page.contains(not), "{lang}: the report still says {not:?}");
    }
}

#[test]
fn with_the_meaning_layer_english_is_compared_with_chinese_and_german_is_told() {
    let dir = folder();
    let report = compare_json(dir.path(), &["-r", "reference", "-s", "suspect"]);
    assert!(warnings(&report, "suspect/essay.txt").is_empty(), "compared by meaning: {report:#}");
    let german = "Der Paketverwalter installiert, aktualisiert und entfernt Software. Jedes Paket nennt \
                  die anderen Pakete, von denen es abhängt, damit mit einem alles kommt, was es braucht.\n";
    std::fs::write(dir.path().join("suspect/essay.txt"), german).expect("write");
    let report = compare_json(dir.path(), &["-r", "reference", "-s", "suspect"]);
    assert_eq!(warnings(&report, "suspect/essay.txt"), vec![SAID.to_string()], "{report:#}");
}

//! `compare --meaning` as a user runs it: a Chinese essay holding two paragraphs
//! translated from an English reference is found, with the evidence, and its own
//! paragraphs are not; without the flag nothing crosses languages; a German text (a
//! language the layer does not align) gets no translated passage.

use serde_json::Value;

use crate::util::{compare_json, fixtures, slice};

/// The pairs of the report whose suspect is `suspect` (a path ending).
fn pairs_of<'r>(report: &'r Value, suspect: &str) -> Vec<&'r Value> {
    let docs = report["documents"].as_array().unwrap();
    let id = docs.iter().find(|d| d["path"].as_str().unwrap().ends_with(suspect)).unwrap()["id"].clone();
    report["pairs"].as_array().unwrap().iter().filter(|p| p["a"] == id).collect()
}

#[test]
fn a_translated_paragraph_pair_is_found_with_its_evidence() {
    let dir = fixtures().join("meaning");
    let args = ["--meaning", "--no-cache", "-r", "reference", "-s", "suspect"];
    let report = compare_json(&dir, &args);
    assert_eq!(report["settings"]["meaning"], true, "the settings record the layer");
    let pairs = pairs_of(&report, "essay.txt");
    assert_eq!(pairs.len(), 1, "{report:#}");
    let passages = pairs[0]["passages"].as_array().unwrap();
    assert_eq!(passages.len(), 1, "{passages:#?}");
    let passage = &passages[0];
    let translated = &passage["translated"];
    assert_eq!(translated["from"], "en");
    assert!(translated["aligned"].as_array().unwrap().len() >= 2, "{translated:#}");
    assert!(!translated["words"].as_array().unwrap().is_empty(), "the dictionary matched words: {translated:#}");
    let range = |p: &Value, s: &str, e: &str| (p[s].as_u64().unwrap(), p[e].as_u64().unwrap());
    let (a0, a1) = range(passage, "a_start", "a_end");
    let suspect_side = slice(&dir, "suspect/essay.txt", a0, a1);
    assert!(suspect_side.starts_with("当两个文档几乎相同时"), "{suspect_side}");
    assert!(suspect_side.ends_with("同时运行。"), "{suspect_side}");
    let (b0, b1) = range(passage, "b_start", "b_end");
    let reference_side = slice(&dir, "reference/archive-guide.txt", b0, b1);
    assert!(reference_side.starts_with("When two documents are near duplicates"), "{reference_side}");
    assert!(reference_side.contains("Compacting rewrites the segments"), "{reference_side}");
    assert!(pairs_of(&report, "german.txt").is_empty(), "no translation from a third language: {report:#}");
}

#[test]
fn without_the_flag_nothing_crosses_languages() {
    let dir = fixtures().join("meaning");
    let report = compare_json(&dir, &["--no-cache", "-r", "reference", "-s", "suspect"]);
    assert!(report["pairs"].as_array().unwrap().is_empty(), "{report:#}");
    assert!(report["settings"].get("meaning").is_none(), "off is not recorded: the report is as before");
}

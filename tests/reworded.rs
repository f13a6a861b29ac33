//! Reworded copies in one language as a user meets them: a student's report copies one
//! sentence of a reference word for word and goes on with the next four in other words;
//! the passage reaches over the reworded sentences, says so, and stops where the
//! student's own text begins. With `--no-meaning` only the sentence that kept its words
//! is found.

use serde_json::Value;

use crate::util::{compare_json, fixtures, slice};

/// The one passage of the report's one pair, and the two texts it spans.
fn the_passage(report: &Value) -> (Value, String, String) {
    let dir = fixtures().join("reworded");
    let pairs = report["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1, "{report:#}");
    let passages = pairs[0]["passages"].as_array().unwrap();
    assert_eq!(passages.len(), 1, "{passages:#?}");
    let p = passages[0].clone();
    let at = |k: &str| p[k].as_u64().unwrap();
    let a = slice(&dir, "suspect/report.txt", at("a_start"), at("a_end"));
    let b = slice(&dir, "reference/field-notes.txt", at("b_start"), at("b_end"));
    (p, a, b)
}

#[test]
fn a_copy_that_goes_on_in_other_words_is_found_to_its_end() {
    let dir = fixtures().join("reworded");
    let report = compare_json(&dir, &["--no-cache", "-r", "reference", "-s", "suspect"]);
    let (passage, a, b) = the_passage(&report);
    assert!(a.starts_with("We recorded the number of trout"), "{a}");
    assert!(a.ends_with("with their roots uncovered."), "the reworded sentences are taken in: {a}");
    assert!(b.starts_with("We recorded the number of trout"), "{b}");
    assert!(b.ends_with("with their roots exposed."), "and their sources: {b}");
    let sentences = passage["reworded"]["sentences"].as_array().unwrap();
    assert!(sentences.len() >= 3, "the evidence lists the reworded sentences: {passage:#}");
    assert!(!a.contains("grandfather"), "the student's own text is not: {a}");

    let off = compare_json(&dir, &["--no-meaning", "--no-cache", "-r", "reference", "-s", "suspect"]);
    let (passage, a, _) = the_passage(&off);
    assert!(passage.get("reworded").is_none(), "{passage:#}");
    assert!(!a.contains("uncovered"), "without the layer only the words are found: {a}");
}

#[test]
fn a_copy_is_never_carried_over_template_text() {
    let dir = fixtures().join("reworded-template");
    let args = ["--no-cache", "-r", "reference", "-s", "suspect", "-t", "template"];
    let report = compare_json(&dir, &args);
    let pairs = report["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1, "{report:#}");
    for passage in pairs[0]["passages"].as_array().unwrap() {
        let at = |k: &str| passage[k].as_u64().unwrap();
        let a = slice(&dir, "suspect/report.txt", at("a_start"), at("a_end"));
        assert!(!a.contains("safety form"), "the assignment sheet's sentence is no copy: {a}");
        assert!(passage.get("reworded").is_none(), "{passage:#}");
    }
}

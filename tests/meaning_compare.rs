//! `compare --meaning` as a user runs it: a Chinese essay holding two paragraphs
//! translated from an English reference is found, with the evidence, and its own
//! paragraphs are not; the layer is on by default, and with `--no-meaning` nothing
//! crosses languages; a German text (a
//! language the layer does not align) gets no translated passage; the reference cache
//! keeps the references' embeddings, and the next check uses them.

use serde_json::Value;

use crate::util::{command, compare_json, fixtures, slice, success};

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
fn the_layer_is_on_by_default_and_no_meaning_turns_it_off() {
    let dir = fixtures().join("meaning");
    let default = compare_json(&dir, &["--no-cache", "-r", "reference", "-s", "suspect"]);
    let asked = compare_json(&dir, &["--meaning", "--no-cache", "-r", "reference", "-s", "suspect"]);
    assert_eq!(default["pairs"], asked["pairs"], "on by default: --meaning asks for what is done anyway");
    assert!(default["settings"].get("meaning").is_none(), "on is not recorded: the default");
    let off = compare_json(&dir, &["--no-meaning", "--no-cache", "-r", "reference", "-s", "suspect"]);
    assert!(off["pairs"].as_array().unwrap().is_empty(), "{off:#}");
    assert_eq!(off["settings"]["meaning"], false, "off is recorded");
}

/// The JSON report of `compare --meaning -r reference -s suspect` in the meaning fixture,
/// with the reference cache in `cache`.
fn cached_check(cache: &std::path::Path) -> Value {
    let dir = fixtures().join("meaning");
    let args = ["compare", "--meaning", "--json", "-", "-q", "-r", "reference", "-s", "suspect"];
    let output = command().current_dir(&dir).env("TWINSPOT_CACHE_DIR", cache).args(args).output().unwrap();
    serde_json::from_str(&success(&output)).unwrap()
}

/// The one cache file in `cache`, open.
fn cache_file(cache: &std::path::Path) -> rusqlite::Connection {
    let files: Vec<_> = std::fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sqlite"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    rusqlite::Connection::open(&files[0]).unwrap()
}

#[test]
fn the_reference_cache_keeps_the_references_embeddings_and_the_next_check_uses_them() {
    let cache = tempfile::tempdir().unwrap();
    let first = cached_check(cache.path());
    let plain =
        compare_json(&fixtures().join("meaning"), &["--meaning", "--no-cache", "-r", "reference", "-s", "suspect"]);
    let passages = |r: &Value| r["pairs"].clone();
    assert_eq!(passages(&first), passages(&plain), "a check that keeps embeddings finds what one that does not finds");
    let kept: i64 = cache_file(cache.path()).query_row("SELECT count(*) FROM embeddings", [], |r| r.get(0)).unwrap();
    assert!(kept > 0, "the reference's units are kept");
    assert_eq!(passages(&cached_check(cache.path())), passages(&plain), "and so does the next, served from them");
    // Kept vectors of nothing: a check that uses them can align nothing.
    cache_file(cache.path()).execute("UPDATE embeddings SET vector = zeroblob(2048)", []).unwrap();
    let served = cached_check(cache.path());
    let translated = |r: &Value| {
        r["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|p| p["passages"].as_array().unwrap().clone())
            .filter(|q| q.get("translated").is_some())
            .count()
    };
    assert!(translated(&plain) > 0, "{plain:#}");
    assert_eq!(translated(&served), 0, "the check took the kept embeddings: {served:#}");
}

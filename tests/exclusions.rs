//! Exclusions and alternatives through the command line: common text (held by many
//! references), stop passages, attributed quotations, a reference that repeats itself,
//! and the keyword fingerprint command.

use std::path::Path;

use crate::util::{compare_json, success, twinspot};

/// Deterministic filler: `n` made-up words that no other call of another `seed` shares.
fn filler(seed: u64, n: usize) -> String {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut words = Vec::with_capacity(n);
    for _ in 0..n {
        let mut word = String::new();
        for _ in 0..6 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            word.push((b'a' + (x % 26) as u8) as char);
        }
        words.push(word);
    }
    words.join(" ") + ".\n"
}

const STOCK: &str =
    "This program is free software and comes with absolutely no warranty to the extent permitted by law.\n";
const QUOTE: &str =
    "the quality of mercy is not strained it droppeth as the gentle rain from heaven upon the place beneath";

fn write(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Eight references (six hold the stock sentence, one repeats a paragraph, one holds the
/// quotation) and a suspect that takes a bit of each.
fn corpus() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let repeated = filler(100, 30);
    for i in 0..8u64 {
        let mut text = filler(i, 60);
        if i < 6 {
            text += STOCK;
        }
        if i == 6 {
            text += &format!("{repeated}{}{repeated}", filler(200, 40));
        }
        if i == 7 {
            text += &format!("{QUOTE}.\n");
        }
        text += &filler(i + 50, 60);
        write(dir.path(), &format!("reference/r{i}.txt"), &text);
    }
    let own = filler(300, 40);
    let suspect = format!(
        "{own}{STOCK}{}{repeated}{}As the poet wrote, \"{QUOTE}\" and so on.\n{}",
        filler(301, 40),
        filler(302, 40),
        filler(303, 40)
    );
    write(dir.path(), "suspect/s.txt", &suspect);
    (dir, suspect)
}

fn kinds(pair: &serde_json::Value, list: &str) -> Vec<String> {
    pair[list].as_array().map_or(Vec::new(), |l| l.iter().map(|p| p["kind"].as_str().unwrap().to_string()).collect())
}

#[test]
fn common_quoted_and_repeated_text_is_shown_by_kind_and_not_counted() {
    let (dir, suspect) = corpus();
    let report = compare_json(dir.path(), &["-r", "reference", "-s", "suspect"]);
    let pairs = report["pairs"].as_array().unwrap();
    // The stock sentence: shown once as common, its other places as alternatives.
    let common: Vec<&serde_json::Value> = pairs
        .iter()
        .flat_map(|p| p["excluded"].as_array().into_iter().flatten())
        .filter(|p| p["kind"] == "common")
        .collect();
    assert_eq!(common.len(), 1, "{report:#}");
    assert!(!common[0]["alternatives"].as_array().unwrap().is_empty(), "{report:#}");
    let start = suspect.chars().count() - suspect[suspect.find("This program").unwrap()..].chars().count();
    assert!(common[0]["a_start"].as_u64().unwrap() <= start as u64 + 5, "{report:#}");
    // The repeated paragraph: one copied passage with one alternative.
    let repeated = pairs.iter().find(|p| kinds(p, "passages") == ["copied"]).expect("the repeated paragraph");
    assert_eq!(repeated["passages"][0]["alternatives"].as_array().map(Vec::len), Some(1), "{repeated:#}");
    // The quotation: quoted, out of the score.
    let quoted = pairs.iter().find(|p| kinds(p, "excluded") == ["quoted"]).expect("the quotation");
    assert_eq!(quoted["score"], 0.0, "{quoted:#}");
    assert!(kinds(quoted, "passages").is_empty());
    // Only copied text counts in the suspect's overall similarity.
    let overall = report["documents"][0]["overall"].as_f64().unwrap();
    assert!(overall > 0.05 && overall < 0.2, "{overall}");

    let counted = compare_json(dir.path(), &["-r", "reference", "-s", "suspect", "--count-quoted"]);
    let counted_quote = counted["pairs"].as_array().unwrap().iter().find(|p| kinds(p, "passages") == ["quoted"]);
    assert!(counted_quote.is_some_and(|p| p["score"].as_f64().unwrap() > 0.0), "{counted:#}");
}

#[test]
fn stop_passages_are_common_and_a_missing_file_is_an_error() {
    let (dir, _) = corpus();
    write(dir.path(), "stop.txt", &format!("\n{QUOTE}\n"));
    let report = compare_json(dir.path(), &["-r", "reference", "-s", "suspect", "--stop-passages", "stop.txt"]);
    let pairs = report["pairs"].as_array().unwrap();
    assert!(pairs.iter().all(|p| kinds(p, "excluded").iter().all(|k| k != "quoted")), "{report:#}");
    let commons = pairs.iter().map(|p| kinds(p, "excluded").iter().filter(|k| *k == "common").count()).sum::<usize>();
    assert_eq!(commons, 2, "{report:#}");
    let missing = twinspot(dir.path(), &["compare", "-r", "reference", "-s", "suspect", "--stop-passages", "nope.txt"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("nope.txt"));
}

#[test]
fn keywords_prints_a_key_and_the_top_keywords_per_file() {
    let (dir, _) = corpus();
    write(
        dir.path(),
        "kw.txt",
        "The debugger stops at breakpoints. A breakpoint is set in the editor; the debugger shows the stack. \
         Debugger windows list every breakpoint.",
    );
    let out = success(&twinspot(dir.path(), &["keywords", "kw.txt", "reference/r7.txt"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].split_whitespace().next().is_some_and(|key| key.len() == 16), "{out}");
    assert!(lines[0].contains("kw.txt  debugger breakpoint "), "{out}");
    assert!(lines[1].contains("reference/r7.txt"), "{out}");
}

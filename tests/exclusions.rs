//! Exclusions and alternatives through the command line: common text (held by many
//! references), stop passages, attributed quotations, a reference that repeats itself,
//! and the keyword fingerprint command.

use std::path::Path;

use twinspot::fingerprint::simhash::Dictionary;

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

/// How often the quoted-text rule would exclude a copy of the development sets, whose
/// copies and host text are technical documentation that quotes nothing (commands,
/// options, strings in code, Chinese terms in quotes): the copies excluded (a passage
/// takes the kind of an exclusion covering half of it) and the share of all text taken
/// for quotations. No copy may be excluded.
#[test]
fn no_copy_of_technical_text_is_taken_for_a_quotation() {
    use twinspot::exclusions::quoted::quoted_spans;
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    for set in ["devset", "devset-reword"] {
        let dir = shared.join(set);
        let Ok(truth) = std::fs::read_to_string(dir.join("truth.json")) else {
            assert!(std::env::var_os("CI").is_none(), "CI must have ../shared/{set}");
            continue;
        };
        let truth: serde_json::Value = serde_json::from_str(&truth).unwrap();
        let documents = truth["documents"].as_array().unwrap();
        let dictionary = Dictionary::new();
        let spans: Vec<Vec<(u32, u32)>> = documents
            .iter()
            .map(|d| {
                quoted_spans(&std::fs::read_to_string(dir.join(d["path"].as_str().unwrap())).unwrap(), &dictionary)
            })
            .collect();
        let total: u64 = documents.iter().map(|d| d["chars"].as_u64().unwrap()).sum();
        let quoted: u64 = spans.iter().flatten().map(|&(s, e)| u64::from(e - s)).sum();
        let (mut copies, mut excluded) = (0, Vec::new());
        for pair in truth["pairs"].as_array().unwrap() {
            let a = pair["a"].as_u64().unwrap() as usize;
            for p in pair["passages"].as_array().unwrap() {
                let (start, end) = (p["a_start"].as_u64().unwrap() as u32, p["a_end"].as_u64().unwrap() as u32);
                let inside: u32 = spans[a].iter().map(|&(s, e)| e.min(end).saturating_sub(s.max(start))).sum();
                copies += 1;
                if 2 * inside >= end - start {
                    excluded.push((documents[a]["path"].clone(), start, end));
                }
            }
        }
        println!(
            "{set}: {} of {copies} copies excluded as quoted; {quoted} of {total} characters quoted",
            excluded.len()
        );
        assert!(excluded.is_empty(), "{set}: copies taken for quotations: {excluded:?}");
    }
}

/// The quoted share of every 120-character stretch of `text` (starting at each line):
/// how many such would-be copies the rule would exclude, of how many.
fn excluded_stretches(text: &str) -> (usize, usize) {
    let spans = twinspot::exclusions::quoted::quoted_spans(text, &Dictionary::new());
    let chars: Vec<char> = text.chars().collect();
    let mut starts = vec![0u32];
    starts.extend(chars.iter().enumerate().filter(|(_, c)| **c == '\n').map(|(i, _)| i as u32 + 1));
    let mut excluded = 0;
    let mut total = 0;
    for start in starts.into_iter().filter(|&s| (s as usize) < chars.len()) {
        let end = (start + 120).min(chars.len() as u32);
        let inside: u32 = spans.iter().map(|&(s, e)| e.min(end).saturating_sub(s.max(start))).sum();
        total += 1;
        if 2 * inside >= end - start {
            excluded += 1;
        }
    }
    (excluded, total)
}

/// Command lines with straight quotes, option dashes, strings in code, Chinese terms in
/// quotes next to 数据, 名称, 简称 or 根据: nothing here is a quotation, so no stretch of it
/// copied is excluded. Set TWINSPOT_QUOTE_TEXT to a folder of text files to measure
/// the same on other text.
#[test]
fn technical_text_that_quotes_nothing_loses_no_copy_to_the_quoted_rule() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/technical-quotes.txt");
    let (excluded, total) = excluded_stretches(&std::fs::read_to_string(fixture).unwrap());
    assert_eq!(excluded, 0, "{excluded} of {total} stretches excluded");
    let Some(dir) = std::env::var_os("TWINSPOT_QUOTE_TEXT") else { return };
    let (mut excluded, mut total) = (0, 0);
    for entry in std::fs::read_dir(dir).unwrap() {
        let Ok(text) = std::fs::read_to_string(entry.unwrap().path()) else { continue };
        let (e, t) = excluded_stretches(&text);
        excluded += e;
        total += t;
    }
    println!("{excluded} of {total} stretches excluded as quoted");
}

/// Two references hold nearly the same paragraph, one word apart ("whatis" and "apropos"
/// in man-db's pages): a suspect that copies one of them is shown against that one, with
/// the other listed as an alternative, though the other's twin is the longer.
#[test]
fn text_in_two_references_is_shown_against_the_one_it_matches_closely() {
    let dir = tempfile::tempdir().unwrap();
    let paragraph = |name: &str| {
        format!(
            "要临时覆盖检测到的值，请使用该选项直接向 {name} 提供一个区域字符串。注意，在搜索页面实际开始前它不会生效。帮助消息总是以请求的语言显示。\n"
        )
    };
    write(dir.path(), "reference/apropos.txt", &format!("{}{}{}", filler(1, 40), paragraph("apropos"), filler(2, 40)));
    write(dir.path(), "reference/whatis.txt", &format!("{}{}{}", filler(3, 40), paragraph("whatis"), filler(4, 40)));
    write(dir.path(), "suspect/s.txt", &format!("{}{}{}", filler(5, 40), paragraph("whatis"), filler(6, 40)));
    let report = compare_json(dir.path(), &["-r", "reference", "-s", "suspect"]);
    let pairs = report["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1, "{report:#}");
    let whatis = crate::util::doc_id(&report, "reference/whatis.txt");
    let apropos = crate::util::doc_id(&report, "reference/apropos.txt");
    let other = |p: &serde_json::Value| p["a"].as_u64().unwrap() + p["b"].as_u64().unwrap();
    let suspect = crate::util::doc_id(&report, "suspect/s.txt");
    assert_eq!(other(&pairs[0]) - suspect, whatis, "{report:#}");
    let alternatives = pairs[0]["passages"][0]["alternatives"].as_array().unwrap();
    assert!(alternatives.iter().any(|a| a["reference"].as_u64() == Some(apropos)), "{report:#}");
}

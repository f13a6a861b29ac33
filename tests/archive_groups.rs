//! One meaning of "near duplicate": the archive's groups follow the rule of a check
//! (SimHash, coverage or keywords), and `archive check` reports the near duplicates
//! `compare --reference` reports. The set is made here, not taken from the development
//! sets: articles, and reposts of each whole article with other text around it, which
//! moves the repost's SimHash away from the article's while the article still covers most
//! of it.

use std::collections::BTreeSet;
use std::path::Path;

use crate::util::{success, twinspot};

/// A small generator of made-up English-like words, one stream per seed.
struct Words(u64);

impl Words {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn word(&mut self) -> String {
        const SYLLABLES: [&str; 24] = [
            "ka", "lo", "mi", "ter", "sun", "da", "vel", "ro", "qui", "pan", "sel", "tor", "ba", "ne", "fi", "gam",
            "ho", "jul", "ve", "xen", "zo", "wat", "pri", "cal",
        ];
        let n = 2 + self.next() % 2;
        (0..n).map(|_| SYLLABLES[(self.next() % 24) as usize]).collect()
    }

    /// `count` sentences of 8–15 words.
    fn sentences(&mut self, count: usize) -> String {
        let mut text = String::new();
        for _ in 0..count {
            let len = 8 + self.next() % 8;
            let words: Vec<String> = (0..len).map(|_| self.word()).collect();
            text.push_str(&words.join(" "));
            text.push_str(". ");
        }
        text
    }
}

/// Writes `n` articles to `dir/articles` and a repost of each to `dir/reposts`: other
/// text before (a third as long as the article) and after (a fifth), the article whole
/// in between.
fn write_set(dir: &Path, n: usize) {
    std::fs::create_dir_all(dir.join("articles")).unwrap();
    std::fs::create_dir_all(dir.join("reposts")).unwrap();
    for i in 0..n {
        let article = Words(1000 + i as u64).sentences(45);
        let mut other = Words(9000 + i as u64);
        let repost = format!("{}\n{article}\n{}", other.sentences(15), other.sentences(9));
        std::fs::write(dir.join(format!("articles/a{i:02}.txt")), &article).unwrap();
        std::fs::write(dir.join(format!("reposts/r{i:02}.txt")), repost).unwrap();
    }
}

fn json(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = success(&twinspot(dir, args));
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("bad JSON ({e}):\n{out}"))
}

/// (suspect file name, reference file name) of each near duplicate of a report.
fn near_duplicates(report: &serde_json::Value) -> BTreeSet<(String, String)> {
    let docs = report["documents"].as_array().unwrap();
    let name = |id: &serde_json::Value| {
        let path = docs[id.as_u64().unwrap() as usize]["path"].as_str().unwrap();
        Path::new(path).file_name().unwrap().to_string_lossy().into_owned()
    };
    report["near_duplicates"].as_array().unwrap().iter().map(|p| (name(&p[0]), name(&p[1]))).collect()
}

#[test]
fn reposts_inside_other_text_are_grouped_as_a_check_calls_them_near_duplicates() {
    const N: usize = 6;
    let tmp = tempfile::tempdir().unwrap();
    write_set(tmp.path(), N);
    let expected: BTreeSet<(String, String)> =
        (0..N).map(|i| (format!("r{i:02}.txt"), format!("a{i:02}.txt"))).collect();

    // The check calls every repost a near duplicate of its article, most of them not by
    // SimHash (which is all the archive's groups used to follow).
    let compare =
        json(tmp.path(), &["compare", "--suspect", "reposts", "--reference", "articles", "--json", "-", "-q"]);
    assert_eq!(near_duplicates(&compare), expected, "{compare:#}");
    // None of them by SimHash: the other text around each article moves the repost's
    // SimHash 9–12 bits away (the threshold is 3), and the coverage of both makes them
    // near duplicates. Groups by SimHash or nshash alone missed every one.
    let pairs = compare["pairs"].as_array().unwrap();
    let far: Vec<u64> = pairs.iter().filter_map(|p| p["simhash_distance"].as_u64()).filter(|&d| d > 3).collect();
    assert_eq!(far.len(), N, "every repost lies beyond the SimHash threshold: {compare:#}");

    // `archive check` of the reposts against the articles says the same.
    success(&twinspot(tmp.path(), &["archive", "add", "arc", "articles", "-q"]));
    let check = json(tmp.path(), &["archive", "check", "arc", "reposts", "--json", "-", "-q"]);
    assert_eq!(near_duplicates(&check), expected, "{check:#}");

    // Added to the archive, each repost joins its article's group, and nothing else.
    success(&twinspot(tmp.path(), &["archive", "add", "arc", "reposts", "-q"]));
    let list = success(&twinspot(tmp.path(), &["archive", "list", "arc"]));
    let group_of = |name: &str| -> String {
        let line = list.lines().find(|l| l.ends_with(name)).unwrap_or_else(|| panic!("{name} listed: {list}"));
        line.split_whitespace().nth(1).unwrap().to_string()
    };
    for i in 0..N {
        let (article, repost) = (format!("a{i:02}.txt"), format!("r{i:02}.txt"));
        assert_eq!(group_of(&article), group_of(&repost), "{repost} in the group of {article}:\n{list}");
        for j in (0..N).filter(|&j| j != i) {
            assert_ne!(group_of(&article), group_of(&format!("a{j:02}.txt")), "{list}");
        }
    }
    let groups = success(&twinspot(tmp.path(), &["archive", "groups", "arc"]));
    assert_eq!(groups.lines().filter(|l| l.starts_with("group ")).count(), N, "{groups}");
}

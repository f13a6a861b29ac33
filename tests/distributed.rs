//! Beyond one machine: fingerprint → the SQL files on DataFusion (and on Spark in local
//! mode) → align gives what `compare --all` gives; partial reports merge; shards with
//! missing files, mixed settings and unknown ids are refused clearly. The SQL engines run
//! through `sql/run.py`: their Python packages must be installed (.ci/setup).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use twinspot::distributed::align::write_pairs;
use twinspot::distributed::read::{read_fingerprints, read_pairs, read_spreads};

use crate::util::{fixtures, success, twinspot};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn devset_parent() -> Option<PathBuf> {
    let dir = std::env::var_os("TWINSPOT_DEVSET").map(PathBuf::from).unwrap_or_else(|| repo().join("../shared/devset"));
    if dir.join("truth.json").exists() {
        return Some(dir);
    }
    assert!(std::env::var_os("CI").is_none(), "CI must have ../shared/devset");
    eprintln!("NOTE: ../shared/devset not found (set TWINSPOT_DEVSET): same-answer test not run");
    None
}

/// The Python that has the SQL engines: `$TWINSPOT_SQL_PYTHON`, else the virtual
/// environment `.ci/setup` makes in the checkout (`.venv-sql`), else `python3`.
fn sql_python() -> PathBuf {
    if let Some(python) = std::env::var_os("TWINSPOT_SQL_PYTHON") {
        return PathBuf::from(python);
    }
    let venv = repo().join(".venv-sql/bin/python3");
    if venv.exists() { venv } else { PathBuf::from("python3") }
}

/// Runs the project's SQL on `engine` over the fingerprints in `prints`, into `out`
/// (on DataFusion one bucket of the postings at a time, or all at once with `--whole`).
fn run_sql(engine: &str, prints: &Path, out: &Path) {
    run_sql_with(engine, prints, out, &[]);
}

fn run_sql_with(engine: &str, prints: &Path, out: &Path, options: &[&str]) {
    let output = Command::new(sql_python())
        .arg(repo().join("sql/run.py"))
        .arg(engine)
        .arg(prints)
        .arg(out)
        .args(options)
        .output()
        .expect("python3 must be installed to run the SQL engines");
    assert!(
        output.status.success(),
        "the SQL did not run on {engine} (install its Python package with .ci/setup):\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON {}: {e}", path.display()))
}

/// A report's pairs keyed by the paths of both documents, each with scores and passages.
fn pairs_by_path(report: &Value) -> BTreeMap<(String, String), Value> {
    let path = |id: &Value| report["documents"][id.as_u64().unwrap() as usize]["path"].as_str().unwrap().to_string();
    report["pairs"].as_array().unwrap().iter().map(|p| ((path(&p["a"]), path(&p["b"])), p.clone())).collect()
}

fn near_duplicates_by_path(report: &Value) -> Vec<(String, String)> {
    let path = |id: &Value| report["documents"][id.as_u64().unwrap() as usize]["path"].as_str().unwrap().to_string();
    let mut near: Vec<(String, String)> =
        report["near_duplicates"].as_array().unwrap().iter().map(|p| (path(&p[0]), path(&p[1]))).collect();
    near.sort();
    near
}

fn paths(report: &Value) -> Vec<String> {
    report["documents"].as_array().unwrap().iter().map(|d| d["path"].as_str().unwrap().to_string()).collect()
}

/// Connected components of the near-duplicate edges, each sorted, the list sorted.
fn groups(near: &[(String, String)]) -> Vec<Vec<String>> {
    let mut group_of: BTreeMap<String, usize> = BTreeMap::new();
    let mut members: Vec<Vec<String>> = Vec::new();
    for (a, b) in near {
        match (group_of.get(a).copied(), group_of.get(b).copied()) {
            (Some(x), Some(y)) if x != y => {
                let moved = std::mem::take(&mut members[y]);
                for m in &moved {
                    group_of.insert(m.clone(), x);
                }
                members[x].extend(moved);
            }
            (Some(_), Some(_)) => {}
            (Some(x), None) | (None, Some(x)) => {
                for m in [a, b] {
                    if group_of.insert(m.clone(), x).is_none() {
                        members[x].push(m.clone());
                    }
                }
            }
            (None, None) => {
                group_of.insert(a.clone(), members.len());
                group_of.insert(b.clone(), members.len());
                members.push(vec![a.clone(), b.clone()]);
            }
        }
    }
    let mut out: Vec<Vec<String>> = members.into_iter().filter(|m| !m.is_empty()).collect();
    out.iter_mut().for_each(|m| m.sort());
    out.sort();
    out
}

#[test]
fn datafusion_join_then_align_gives_what_compare_all_gives_on_the_devset() {
    let Some(devset) = devset_parent() else { return };
    let shared = devset.parent().unwrap().to_path_buf();
    let tmp = tempfile::tempdir().unwrap();
    let t = |name: &str| tmp.path().join(name).to_string_lossy().into_owned();

    success(&twinspot(&shared, &["compare", "--all", "devset", "--no-meaning", "--json", &t("compare.json"), "-q"]));
    success(&twinspot(&shared, &["fingerprint", "--parquet", &t("prints"), "devset", "-q"]));
    run_sql("datafusion", &tmp.path().join("prints"), &tmp.path().join("sql"));
    let align = |extra: &[&str], out: &str| {
        let out = t(out);
        let mut args: Vec<String> = vec!["align".into(), "--pairs".into(), t("sql/pairs.parquet")];
        args.extend(["--common".into(), t("sql/common.parquet"), "--documents".into(), t("prints")]);
        args.extend(["-q".into(), "--json".into(), out.clone()]);
        args.extend(extra.iter().map(|e| e.to_string()));
        success(&twinspot(&shared, &args.iter().map(String::as_str).collect::<Vec<_>>()));
        read_json(Path::new(&out))
    };
    let aligned = align(&[], "align.json");
    let compared = read_json(&tmp.path().join("compare.json"));

    assert_eq!(paths(&aligned), paths(&compared), "the same documents in the same order");
    let (got, want) = (pairs_by_path(&aligned), pairs_by_path(&compared));
    assert!(want.len() > 10, "the devset has pairs to find: {}", want.len());
    let missing: Vec<_> = want.keys().filter(|k| !got.contains_key(*k)).collect();
    let extra: Vec<_> = got.keys().filter(|k| !want.contains_key(*k)).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing pairs {missing:?}\nextra pairs {extra:?}");
    for (key, p) in &want {
        for field in ["passages", "score", "score_b", "simhash_distance"] {
            assert_eq!(got[key][field], p[field], "{field} of {key:?}");
        }
    }
    let near = near_duplicates_by_path(&compared);
    assert!(!near.is_empty(), "the devset has near duplicates");
    assert_eq!(near_duplicates_by_path(&aligned), near);
    assert_eq!(groups(&near_duplicates_by_path(&aligned)), groups(&near));

    // Two slices aligned apart and merged give the whole answer.
    align(&["--slice", "0/2"], "part0.json");
    align(&["--slice", "1/2"], "part1.json");
    success(&twinspot(&shared, &["merge", &t("part0.json"), &t("part1.json"), "--json", &t("merged.json"), "-q"]));
    let merged = read_json(&tmp.path().join("merged.json"));
    assert_eq!(pairs_by_path(&merged).keys().collect::<Vec<_>>(), want.keys().collect::<Vec<_>>());
    assert_eq!(near_duplicates_by_path(&merged), near);
}

/// Fingerprints the fixtures as two shards (references, suspects) into `prints`.
fn two_shards(prints: &Path) {
    let p = prints.to_string_lossy();
    success(&twinspot(&fixtures(), &["fingerprint", "--parquet", &p, "--shard", "0", "reference", "-q"]));
    success(&twinspot(&fixtures(), &["fingerprint", "--parquet", &p, "--shard", "1", "suspect", "-q"]));
}

#[test]
fn spark_runs_the_same_sql_files_and_finds_the_same_candidate_pairs() {
    let tmp = tempfile::tempdir().unwrap();
    let prints = tmp.path().join("prints");
    two_shards(&prints);
    // DataFusion one bucket at a time (one machine), DataFusion and Spark over all
    // postings at once (as on a cluster): the same spreads and the same pairs.
    run_sql("datafusion", &prints, &tmp.path().join("datafusion"));
    run_sql_with("datafusion", &prints, &tmp.path().join("whole"), &["--whole"]);
    run_sql("spark", &prints, &tmp.path().join("spark"));
    let datafusion = read_pairs(&tmp.path().join("datafusion/pairs.parquet")).unwrap();
    assert!(!datafusion.is_empty());
    let spreads = |engine: &str| {
        let mut spreads = read_spreads(&tmp.path().join(engine).join("common.parquet")).unwrap();
        spreads.sort();
        spreads
    };
    for other in ["whole", "spark"] {
        assert_eq!(read_pairs(&tmp.path().join(other).join("pairs.parquet")).unwrap(), datafusion, "{other}");
        assert_eq!(spreads(other), spreads("datafusion"), "{other}");
    }
    // Ids carry their shard: the copied pair joins shard 0 (reference) and shard 1.
    assert!(datafusion.iter().any(|&(a, b)| a >> 32 == 0 && b >> 32 == 1), "{datafusion:?}");
}

#[test]
fn a_shard_with_a_missing_file_is_refused_clearly() {
    let tmp = tempfile::tempdir().unwrap();
    let prints = tmp.path().join("prints");
    two_shards(&prints);
    let pairs = tmp.path().join("pairs.parquet");
    write_pairs(&pairs, &[(0, 1 << 32)]).unwrap();
    std::fs::remove_file(prints.join("postings/bucket=3/shard-00001.parquet")).unwrap();
    let p = |x: &Path| x.to_string_lossy().into_owned();
    let out =
        twinspot(tmp.path(), &["align", "--pairs", &p(&pairs), "--common", &p(&pairs), "--documents", &p(&prints)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("shard 1 is incomplete") && stderr.contains("bucket=3"), "{stderr}");
}

#[test]
fn shards_with_other_settings_are_refused_when_written_and_when_read() {
    let tmp = tempfile::tempdir().unwrap();
    let prints = tmp.path().join("prints");
    let p = prints.to_string_lossy().into_owned();
    success(&twinspot(&fixtures(), &["fingerprint", "--parquet", &p, "--shard", "0", "reference", "-q"]));
    let out = twinspot(&fixtures(), &["fingerprint", "--parquet", &p, "--shard", "1", "-k", "6", "suspect", "-q"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("mixed settings"), "{stderr}");
    let out = twinspot(&fixtures(), &["fingerprint", "--parquet", &p, "--shard", "1", "--buckets", "8", "suspect"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("--buckets 16"), "{stderr}");

    // Written apart and copied together: align refuses the mix.
    let other = tmp.path().join("other");
    let o = other.to_string_lossy().into_owned();
    success(&twinspot(&fixtures(), &["fingerprint", "--parquet", &o, "--shard", "1", "--no-t2s", "suspect", "-q"]));
    std::fs::copy(other.join("documents/shard-00001.parquet"), prints.join("documents/shard-00001.parquet")).unwrap();
    std::fs::copy(other.join("sentences/shard-00001.parquet"), prints.join("sentences/shard-00001.parquet")).unwrap();
    for b in 0..16 {
        let name = format!("postings/bucket={b}/shard-00001.parquet");
        std::fs::copy(other.join(&name), prints.join(&name)).unwrap();
    }
    let pairs = tmp.path().join("pairs.parquet");
    write_pairs(&pairs, &[(0, 1)]).unwrap();
    let pp = pairs.to_string_lossy().into_owned();
    let out = twinspot(tmp.path(), &["align", "--pairs", &pp, "--common", &pp, "--documents", &p]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("mixed settings"), "{stderr}");
}

#[test]
fn a_pairs_file_naming_an_unknown_document_is_refused_clearly() {
    let tmp = tempfile::tempdir().unwrap();
    let prints = tmp.path().join("prints");
    two_shards(&prints);
    let pairs = tmp.path().join("pairs.parquet");
    write_pairs(&pairs, &[(0, (7 << 32) | 3)]).unwrap();
    let none = tmp.path().join("no-common-hashes");
    std::fs::create_dir(&none).unwrap();
    let p = |x: &Path| x.to_string_lossy().into_owned();
    let out =
        twinspot(&fixtures(), &["align", "--pairs", &p(&pairs), "--common", &p(&none), "--documents", &p(&prints)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("shard 7, document 3") && stderr.contains("no documents file holds"), "{stderr}");

    // The known pair aligns across the two shards.
    write_pairs(&pairs, &[(1, (1 << 32) | 2)]).unwrap();
    let json = tmp.path().join("out.json");
    success(&twinspot(
        &fixtures(),
        &["align", "--pairs", &p(&pairs), "--common", &p(&none), "--documents", &p(&prints), "--json", &p(&json), "-q"],
    ));
    let report = read_json(&json);
    assert_eq!(report["pairs"].as_array().unwrap().len(), 1, "{report:#}");
}

/// `count` characters of made-up Chinese text, the same for the same `seed`.
fn made_up_text(seed: u64, count: usize) -> String {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..count)
        .map(|i| {
            if i % 30 == 29 {
                return '。';
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from_u32(0x4E00 + (state % 3000) as u32).unwrap()
        })
        .collect()
}

/// `count` made-up English words (512 of them, three syllables each).
fn made_up_words(seed: u64, count: usize) -> Vec<String> {
    const SYLLABLES: [&str; 8] = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "shi"];
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..count)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let n = (state % 512) as usize;
            format!("{}{}{}", SYLLABLES[n % 8], SYLLABLES[n / 8 % 8], SYLLABLES[n / 64])
        })
        .collect()
}

#[test]
fn a_lone_chance_hit_of_chinese_makes_no_candidate_pair_but_a_lone_english_one_does() {
    let tmp = tempfile::tempdir().unwrap();
    let docs = tmp.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    for i in 0..10u64 {
        // One run of five characters in common: one k-gram, a hit wherever the second
        // document's winnowing kept it, which can never grow into a passage.
        let a = made_up_text(100 + 2 * i, 400);
        let b = made_up_text(101 + 2 * i, 400);
        let run: String = a.chars().skip(200).take(5).collect();
        let b: String = b.chars().take(200).chain(run.chars()).chain(b.chars().skip(200)).collect();
        std::fs::write(docs.join(format!("c{i}a.txt")), a).unwrap();
        std::fs::write(docs.join(format!("c{i}b.txt")), b).unwrap();
        // One run of five words in common: eleven words around it may open a passage.
        let a = made_up_words(300 + 2 * i, 80);
        let mut b = made_up_words(301 + 2 * i, 80);
        b.splice(40..40, a[30..35].iter().cloned());
        std::fs::write(docs.join(format!("e{i}a.txt")), a.join(" ")).unwrap();
        std::fs::write(docs.join(format!("e{i}b.txt")), b.join(" ")).unwrap();
    }
    let prints = tmp.path().join("prints");
    success(&twinspot(tmp.path(), &["fingerprint", "--parquet", &prints.to_string_lossy(), "docs", "-q"]));
    run_sql("datafusion", &prints, &tmp.path().join("sql"));
    let names: BTreeMap<i64, String> =
        read_fingerprints(&prints).unwrap().documents.into_iter().map(|d| (d.id, d.path)).collect();
    let language = |(a, b): &(i64, i64)| {
        let (x, y) = (Path::new(&names[a]), Path::new(&names[b]));
        let first = |p: &Path| p.file_name().unwrap().to_string_lossy().chars().next().unwrap();
        assert_eq!(first(x), first(y), "a chance pair across languages: {x:?} {y:?}");
        first(x)
    };
    // Pairs with any k-gram hit (the step before the rule), and the candidates.
    let hit = read_pairs(&tmp.path().join("sql/kgram_pairs")).unwrap();
    let candidates = read_pairs(&tmp.path().join("sql/pairs.parquet")).unwrap();
    let chinese: Vec<_> = hit.iter().filter(|p| language(p) == 'c').collect();
    let english: Vec<_> = hit.iter().filter(|p| language(p) == 'e').collect();
    assert!(!chinese.is_empty() && !english.is_empty(), "the case has lone hits of both: {hit:?}");
    assert!(chinese.iter().all(|p| !candidates.contains(p)), "{chinese:?} in {candidates:?}");
    assert!(english.iter().all(|p| candidates.contains(p)), "{english:?} not all in {candidates:?}");
}

#[test]
fn align_gives_compare_all_s_answer_with_common_text_identical_files_and_shared_copies() {
    let tmp = tempfile::tempdir().unwrap();
    let docs = tmp.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    let stock = made_up_text(999, 90);
    let copied = made_up_text(1000, 240);
    let mut texts: Vec<String> = (0..12).map(|i| made_up_text(i, 600)).collect();
    for (i, text) in texts.iter_mut().enumerate().take(8) {
        text.insert_str(300, &stock); // held by 8 of 12 documents: common
        if [1, 3, 5].contains(&i) {
            text.push_str(&copied); // one passage in three documents: alternatives
        }
    }
    texts[10] = texts[4].replacen(&texts[4].chars().take(3).collect::<String>(), "一二三", 1); // near duplicate
    texts.push(texts[2].clone()); // same bytes as d02
    texts.push(String::new()); // two files without words: never identical copies
    texts.push(String::new());
    for (i, text) in texts.iter().enumerate() {
        std::fs::write(docs.join(format!("d{i:02}.txt")), text).unwrap();
    }
    let t = |name: &str| tmp.path().join(name).to_string_lossy().into_owned();
    success(&twinspot(tmp.path(), &["compare", "--all", "docs", "--no-meaning", "--json", &t("compare.json"), "-q"]));
    success(&twinspot(tmp.path(), &["fingerprint", "--parquet", &t("prints"), "docs", "-q"]));
    run_sql("datafusion", &tmp.path().join("prints"), &tmp.path().join("sql"));
    let align = |extra: &[String], out: &str| {
        let mut args: Vec<String> = vec!["align".into(), "--pairs".into(), t("sql/pairs.parquet")];
        args.extend(["--common".into(), t("sql/common.parquet"), "--documents".into(), t("prints")]);
        args.extend(["-q".into(), "--json".into(), t(out)]);
        args.extend_from_slice(extra);
        success(&twinspot(tmp.path(), &args.iter().map(String::as_str).collect::<Vec<_>>()));
        read_json(&tmp.path().join(out))
    };
    let compared = read_json(&tmp.path().join("compare.json"));
    let aligned = align(&[], "align.json");

    // The case is what it says: common passages, a whole-text pair, alternatives, a near duplicate.
    let passages: Vec<&Value> = compared["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["passages"].as_array().unwrap().iter().chain(p["excluded"].as_array().into_iter().flatten()))
        .collect();
    assert!(passages.iter().any(|p| p["kind"] == "common"), "{compared:#}");
    assert!(passages.iter().any(|p| p["alternatives"].as_array().is_some_and(|a| !a.is_empty())), "{compared:#}");
    assert!(compared["pairs"].as_array().unwrap().iter().any(|p| p["score"] == 1.0), "{compared:#}");
    assert!(!near_duplicates_by_path(&compared).is_empty());

    assert_eq!(paths(&aligned), paths(&compared));
    assert_eq!(aligned["pairs"], compared["pairs"], "every field of every pair");
    assert_eq!(aligned["near_duplicates"], compared["near_duplicates"]);
    // Documents read a few suspects at a time (each group dropped after): the same answer.
    let grouped = align(&["--group-chars".into(), "2000".into()], "grouped.json");
    assert_eq!(grouped["pairs"], compared["pairs"], "aligned group by group");
    assert_eq!(grouped["near_duplicates"], compared["near_duplicates"]);

    // Three slices, split by suspect, merged: the same pairs.
    for i in 0..3 {
        align(&["--slice".into(), format!("{i}/3")], &format!("part{i}.json"));
    }
    success(&twinspot(
        tmp.path(),
        &["merge", &t("part0.json"), &t("part1.json"), &t("part2.json"), "--json", &t("merged.json"), "-q"],
    ));
    let merged = read_json(&tmp.path().join("merged.json"));
    assert_eq!(pairs_by_path(&merged), pairs_by_path(&compared));
    assert_eq!(near_duplicates_by_path(&merged), near_duplicates_by_path(&compared));
}

/// A reference tied to another document by nothing but a short edited copy (no five
/// words in a row survive): the character grams of the fingerprints make it a candidate
/// pair, `align` finds the copy, and `compare --all` gives the same answer.
#[test]
fn align_finds_a_short_edited_copy_that_only_character_grams_tie() {
    use crate::short_copies::{EDITED, HOST, OTHER, OTHER_EDITED, REFERENCE};
    let tmp = tempfile::tempdir().unwrap();
    let docs = tmp.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    std::fs::write(docs.join("r.txt"), REFERENCE).unwrap();
    std::fs::write(docs.join("other.txt"), OTHER).unwrap();
    std::fs::write(docs.join("s.txt"), format!("{HOST}{EDITED} {HOST}")).unwrap();
    std::fs::write(docs.join("t.txt"), format!("{OTHER_EDITED} and more of our own words.")).unwrap();
    let t = |name: &str| tmp.path().join(name).to_string_lossy().into_owned();
    success(&twinspot(tmp.path(), &["compare", "--all", "docs", "--no-meaning", "--json", &t("compare.json"), "-q"]));
    success(&twinspot(tmp.path(), &["fingerprint", "--parquet", &t("prints"), "docs", "-q"]));
    run_sql("datafusion", &tmp.path().join("prints"), &tmp.path().join("sql"));
    let tied = read_pairs(&tmp.path().join("sql/char_gram_pairs.parquet")).unwrap();
    // Documents in path order: other, r, s, t (chance anchors may tie more pairs).
    assert!(tied.contains(&(0, 3)) && tied.contains(&(1, 2)), "{tied:?}");
    let args = ["align", "--pairs", &t("sql/pairs.parquet"), "--common", &t("sql/common.parquet")];
    let more = ["--documents", &t("prints"), "--json", &t("align.json"), "-q"];
    success(&twinspot(tmp.path(), &[&args[..], &more[..]].concat()));
    let aligned = read_json(&tmp.path().join("align.json"));
    let compared = read_json(&tmp.path().join("compare.json"));
    let found = pairs_by_path(&aligned);
    for (a, b) in [("docs/r.txt", "docs/s.txt"), ("docs/other.txt", "docs/t.txt")] {
        let pair = found.get(&(a.to_string(), b.to_string())).unwrap_or_else(|| panic!("{a} {b}: {aligned:#}"));
        assert_eq!(pair["passages"].as_array().map(Vec::len), Some(1), "{pair:#}");
    }
    assert_eq!(found.len(), 2, "{aligned:#}");
    assert_eq!(aligned["pairs"], compared["pairs"], "every field of every pair");
}

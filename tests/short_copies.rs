//! Short edited copies: English passages of 50-150 characters with a typo every ten
//! characters or so, which keep no five-word k-gram, found through character grams; and
//! text that shares only a few words with a reference still shares no passage.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{compare_json, success, twinspot};

pub const REFERENCE: &str = "Debian packages are built from source packages, which hold the upstream \
    sources and the packaging in a debian directory. The maintainer keeps the packaging in line \
    with the policy manual and uploads new versions to the archive, where the build daemons \
    compile them for every architecture. Users install the binary packages with the package \
    manager, which resolves their dependencies and runs their maintainer scripts.\n";
/// A sentence of the reference with a typo about every ten characters (107 characters).
pub const EDITED: &str = "The maintainr keeps the packagng in line with the polcy manual and uplods new \
    versons to the arcive, where";
/// Host text on the same subject that copies nothing.
pub const HOST: &str = "Our group wrote a small tool for the course. It reads a configuration file, \
    checks that every entry names a known service, and prints a summary for the operator. We \
    tested it on three machines and wrote down what broke along the way.\n";

fn write(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_short_copy_with_a_typo_every_ten_characters_is_found() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "reference/r.txt", REFERENCE);
    let suspect = format!("{HOST}{EDITED} {HOST}");
    write(dir.path(), "suspect/s.txt", &suspect);
    write(dir.path(), "suspect/clean.txt", &format!("{HOST}{HOST}"));
    let report = compare_json(dir.path(), &["-r", "reference", "-s", "suspect"]);
    let pairs = report["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1, "{report:#}");
    let passages = pairs[0]["passages"].as_array().unwrap();
    assert_eq!(passages.len(), 1, "{report:#}");
    let start = HOST.chars().count() as u64;
    let (a_start, a_end) = (passages[0]["a_start"].as_u64().unwrap(), passages[0]["a_end"].as_u64().unwrap());
    let edited = EDITED.chars().count() as u64;
    // Most of the copy, and at most a few letters of the host text around it.
    assert!(a_start + 4 >= start && a_end <= start + edited + 4, "{a_start}..{a_end}");
    assert!(a_end - a_start >= edited * 8 / 10, "{a_start}..{a_end} of {edited}");
}

/// A line of commands and Chinese with two edits (a character put in for a hyphen, two
/// swapped): no five tokens in a row survive, and the character grams of its Latin words
/// grow across its Chinese words into one passage.
#[test]
fn a_short_copy_of_mixed_latin_and_chinese_text_is_found() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "reference/r.txt",
        "使用 pbuilder 可以在干净的环境中构建软件包，它会自动完成从源代码包构建平台依赖二进制包的工作，包括：\n\
         pdebuild = pbuilder + dpkg-buildpackage (在chroot环境中构建)\n\
         清理源代码树，安装构建依赖，然后构建二进制包并检查结果。\n",
    );
    let copy = "pdebuild = pbuilder + dpkg境buildpackage (在chroot环构中构建)";
    write(
        dir.path(),
        "suspect/s.txt",
        &format!(
            "我们小组这学期写了一个小工具，用来读取配置文件并检查每一项是否正确。\n{copy}\n\
             测试时我们在三台机器上运行，并记录了遇到的问题和解决办法。\n"
        ),
    );
    let report = compare_json(dir.path(), &["-r", "reference", "-s", "suspect"]);
    let passages = report["pairs"][0]["passages"].as_array().cloned().unwrap_or_default();
    assert_eq!(passages.len(), 1, "{report:#}");
    let (a_start, a_end) = (passages[0]["a_start"].as_u64().unwrap(), passages[0]["a_end"].as_u64().unwrap());
    let start = "我们小组这学期写了一个小工具，用来读取配置文件并检查每一项是否正确。\n".chars().count() as u64;
    let len = copy.chars().count() as u64;
    assert!(a_start <= start + 2 && a_end + 2 >= start + len, "{a_start}..{a_end} for {start}..{}", start + len);
}

/// The scorer's table for a seeded set of short copies (`tools/shortedit/make_set.py`,
/// with `args`) made from the references of `../shared/devset` that `chinese` picks
/// (those holding Chinese characters, or those without), checked with the defaults;
/// `None` outside CI when the development set is not there.
fn scored_set(chinese: bool, args: &[&str]) -> Option<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let devset = root.join("../shared/devset/reference");
    let Ok(entries) = std::fs::read_dir(&devset) else {
        assert!(std::env::var_os("CI").is_none(), "CI must have ../shared/devset");
        return None;
    };
    let mut sources: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| {
            std::fs::read_to_string(p)
                .is_ok_and(|t| t.chars().any(|c| ('\u{4E00}'..='\u{9FFF}').contains(&c)) == chinese)
        })
        .collect();
    sources.sort();
    let out = tempfile::tempdir().unwrap();
    let made = Command::new("python3")
        .arg(root.join("tools/shortedit/make_set.py"))
        .arg(out.path())
        .args(&sources)
        .args(args)
        .output()
        .expect("python3 runs the generator");
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let json = out.path().join("result.json");
    success(&twinspot(
        out.path(),
        &["compare", "-r", "reference", "-s", "suspect", "--json", json.to_str().unwrap(), "-q"],
    ));
    let scored = Command::new("python3")
        .arg(root.join("../shared/eval/score.py"))
        .arg(out.path().join("truth.json"))
        .arg(&json)
        .output()
        .expect("python3 runs the scorer");
    let table = String::from_utf8_lossy(&scored.stdout).into_owned();
    println!("{table}");
    Some(table)
}

/// The plagdet of `kind` in a scorer's table.
fn plagdet(table: &str, kind: &str) -> f64 {
    let line = table.lines().find(|l| l.starts_with(kind)).unwrap_or_else(|| panic!("no {kind} in {table}"));
    line.split_whitespace().nth(3).and_then(|v| v.parse().ok()).unwrap_or(0.0)
}

/// The overall precision in a scorer's table.
fn precision(table: &str) -> f64 {
    let overall = table.lines().last().unwrap_or_default();
    overall.split_whitespace().find_map(|kv| kv.strip_prefix("precision=")).and_then(|v| v.parse().ok()).unwrap_or(0.0)
}

/// A seeded set of short copies made from the English references of `../shared/devset`:
/// copies with a typo every ten characters (`short-edit`) and every twenty-five
/// (`short-light`) are found.
#[test]
fn short_edited_copies_stay_above_their_floors() {
    let Some(table) = scored_set(false, &["--seed", "1", "--references", "12", "--suspects", "30"]) else {
        return;
    };
    assert!(plagdet(&table, "short-edit") >= 0.85, "{table}");
    assert!(plagdet(&table, "short-light") >= 0.85, "{table}");
    // What precision loses here is text the reference holds twice, shown against the
    // other twin than the one copied.
    assert!(precision(&table) >= 0.92, "{table}");
}

/// The same from the Chinese references: a Han character is a token of its own, so a
/// typo every ten characters leaves runs too short for the first pass; the dense pass
/// keeps such a copy when few enough edits set its sides apart.
#[test]
fn short_edited_chinese_copies_stay_above_their_floors() {
    let Some(table) = scored_set(true, &["--chinese", "--seed", "2", "--references", "12", "--suspects", "30"]) else {
        return;
    };
    assert!(plagdet(&table, "short-edit") >= 0.89, "{table}");
    assert!(plagdet(&table, "short-light") >= 0.90, "{table}");
    assert!(precision(&table) >= 0.97, "{table}");
}

/// A paragraph a suspect copies word for word, beside the short edited copy.
pub const VERBATIM: &str = "The release team freezes the testing distribution some months before a release. \
    From then on only fixes for serious bugs migrate, and every change needs an unblock from the \
    release managers, who weigh the risk of each upload against the bug it fixes.\n";
/// A reference that nothing but a short edited copy ties to a suspect.
pub const OTHER: &str = "Mirrors copy the archive several times a day. A push from the main archive tells \
    each mirror that new packages are ready, and the mirror fetches the changed files with rsync \
    before it updates the index files that package managers read.\n";
/// A sentence of [`OTHER`] with a typo about every ten characters.
pub const OTHER_EDITED: &str = "a push frm the main archve tells each mirrr that new pakages are ready, and \
    the mirrr fetches the chaged files";

/// An archive keeps every document's character grams: its check finds what compare
/// finds, the short edited copy in the document it reads for a copied paragraph and the
/// one in a document that only that copy ties to the suspect.
#[test]
fn an_archive_check_finds_a_short_edited_copy_as_compare_does() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "reference/r.txt", &format!("{VERBATIM}{REFERENCE}"));
    write(dir.path(), "reference/other.txt", OTHER);
    write(dir.path(), "suspect.txt", &format!("{HOST}{VERBATIM}{HOST}{EDITED} {HOST}{OTHER_EDITED} {HOST}"));
    success(&twinspot(dir.path(), &["archive", "add", "arc", "reference", "-q"]));
    let report = |args: &[&str]| -> serde_json::Value {
        let stdout = success(&twinspot(dir.path(), args));
        serde_json::from_str(&stdout).unwrap()
    };
    let passages_with = |report: &serde_json::Value, reference: &str| -> usize {
        let docs = report["documents"].as_array().unwrap();
        let pairs = report["pairs"].as_array().unwrap();
        let pair = pairs.iter().find(|p| docs[p["b"].as_u64().unwrap() as usize]["path"] == reference);
        pair.map_or(0, |p| p["passages"].as_array().unwrap().len())
    };
    let checked = report(&["archive", "check", "arc", "suspect.txt", "--json", "-", "-q"]);
    assert_eq!(passages_with(&checked, "reference/r.txt"), 2, "{checked:#}");
    assert_eq!(passages_with(&checked, "reference/other.txt"), 1, "{checked:#}");
    let without = report(&["archive", "check", "arc", "suspect.txt", "--no-short-copies", "--json", "-", "-q"]);
    assert_eq!(passages_with(&without, "reference/r.txt"), 1, "{without:#}");
    // Compare holds the references' grams, and finds both.
    let compared = report(&["compare", "-r", "reference", "-s", "suspect.txt", "--json", "-", "-q"]);
    assert_eq!(passages_with(&compared, "reference/r.txt"), 2, "{compared:#}");
    assert_eq!(passages_with(&compared, "reference/other.txt"), 1, "{compared:#}");
}

/// `chars` letters of a DNA-like sequence (a Markov chain over ACGT with few `CG` pairs,
/// as genomes have) from `seed`, in lines of 70.
fn dna(seed: u64, chars: usize) -> String {
    const NEXT: [[u32; 4]; 4] = [[32, 18, 24, 26], [35, 26, 5, 34], [28, 21, 26, 25], [21, 20, 27, 32]];
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let (mut last, mut out) = (0, String::with_capacity(chars + chars / 70 + 1));
    for n in 0..chars {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let (roll, mut below) = ((state % 100) as u32, 0);
        let next = NEXT[last].iter().position(|&p| {
            below += p;
            roll < below
        });
        let next = next.unwrap_or(3);
        out.push(['A', 'C', 'G', 'T'][next]);
        last = next;
        if n % 70 == 69 {
            out.push('\n');
        }
    }
    out
}

/// Two unrelated DNA sequences share a gram of six letters at nearly every position: the
/// search for short copies used to test every anchor against all of the pair's hits,
/// which took a minute of CPU (debug build) at 200 KB each, where the check without it
/// takes a second. Its work on a pair is now bounded: the check takes about as long as
/// without it, and finds nothing. The limit is far above that and far below the old cost.
#[test]
fn two_dna_sequences_are_checked_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "reference/r.txt", &dna(1, 300_000));
    write(dir.path(), "suspect/s.txt", &dna(2, 300_000));
    let args = ["compare", "-r", "reference", "-s", "suspect", "--json", "-", "-q"];
    let output = crate::util::twinspot_within(dir.path(), &args, std::time::Duration::from_secs(45));
    let report: serde_json::Value = serde_json::from_str(&success(&output)).unwrap();
    assert_eq!(report["pairs"].as_array().map(Vec::len), Some(0), "{:#}", report["pairs"]);
}

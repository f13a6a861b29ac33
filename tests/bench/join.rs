//! The candidate-pair join on one machine, as a user runs it: N generated documents
//! (1–3 k characters, 70 % Chinese, each on a topic of its own; see `corpus.rs`; one in
//! ten holds a 300-character passage of an earlier one, one in a hundred is a lightly
//! edited copy of an earlier one) go through
//!
//! 1. `twinspot fingerprint --parquet` (every core),
//! 2. the project's SQL on DataFusion (`sql/run.py`, one bucket of the postings
//!    at a time), and
//! 3. `twinspot align` of the candidate pairs,
//!
//! each a process of its own, timed from start to exit with its peak resident memory (GNU
//! time). It prints the Parquet bytes per document, documents a second, candidate pairs
//! per document and pairs aligned a second: the figures docs/distributed.md scales to 10 million
//! documents. One run is minutes long, so this is a plain timing harness, not criterion.
//!
//! ```text
//! TWINSPOT_JOIN_DOCS=100000 TWINSPOT_JOIN_DIR=/tmp/join cargo bench --bench join
//! ```
//!
//! N is 10,000 by default. The documents are kept in `TWINSPOT_JOIN_DIR` when it is set
//! (and reused when they are there), else written to a temporary folder. The SQL runs on
//! `$TWINSPOT_SQL_PYTHON`, else `.venv-sql/bin/python3` (made by `.ci/setup`), else
//! `python3`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark or test that cannot set up stops with the message"
)]
#![allow(clippy::cast_possible_truncation, reason = "a benchmark's sizes are small")]

#[path = "corpus.rs"]
#[allow(dead_code)]
mod corpus;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use corpus::{Lang, Rng, TextGen, passage};

/// The language, length and text of document `i` before anything is copied into it.
fn base_text(textgen: &TextGen, i: usize) -> String {
    let mut rng = Rng::new(i as u64 * 7 + 3);
    let lang = if rng.chance(0.7) { Lang::Chinese } else { Lang::English };
    let chars = rng.range(1_000, 3_000);
    textgen.topical_text(&mut rng, lang, chars)
}

/// Writes the `count` documents into `dir` (1,000 a folder) unless they are there;
/// returns their characters and how many copy a passage or a whole earlier document.
fn write_docs(dir: &Path, textgen: &TextGen, count: usize) -> (usize, usize, usize) {
    let (mut chars, mut passages, mut reposts) = (0, 0, 0);
    for i in 0..count {
        let mut rng = Rng::new(i as u64 * 13 + 5);
        let text = if i > 0 && rng.chance(0.01) {
            reposts += 1;
            let source = base_text(textgen, rng.below(i));
            textgen.lightly_edited(&mut rng, &source, 0.02)
        } else if i > 0 && rng.chance(0.1) {
            passages += 1;
            let source = base_text(textgen, rng.below(i));
            let copied = passage(&mut rng, &source, 300);
            let mut text = base_text(textgen, i);
            let at = text.char_indices().map(|(b, _)| b).nth(rng.below(text.chars().count())).unwrap_or(0);
            text.insert_str(at, &copied);
            text
        } else {
            base_text(textgen, i)
        };
        chars += text.chars().count();
        let sub = dir.join(format!("{:04}", i / 1000));
        let path = sub.join(format!("{i:06}.txt"));
        if !path.exists() {
            std::fs::create_dir_all(&sub).expect("folder");
            std::fs::write(&path, text).expect("write document");
        }
    }
    (chars, passages, reposts)
}

/// Runs `program args` under GNU time; returns wall seconds and peak resident MB.
fn timed(program: &Path, args: &[&str]) -> (f64, f64) {
    let peak_file = tempfile::NamedTempFile::new().expect("temporary file");
    let start = Instant::now();
    let status = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(peak_file.path())
        .arg(program)
        .args(args)
        .status()
        .expect("GNU time (/usr/bin/time, Debian's package `time`)");
    let seconds = start.elapsed().as_secs_f64();
    assert!(status.success(), "{} {} failed ({status})", program.display(), args.join(" "));
    let kb: f64 = std::fs::read_to_string(peak_file.path())
        .ok()
        .and_then(|s| s.lines().last().and_then(|l| l.trim().parse().ok()))
        .expect("GNU time's report");
    (seconds, kb / 1024.0)
}

fn bytes_under(path: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(path) else { return 0 };
    entries
        .flatten()
        .map(|e| {
            let p = e.path();
            if p.is_dir() { bytes_under(&p) } else { e.metadata().map_or(0, |m| m.len()) }
        })
        .sum()
}

fn sql_python(repo: &Path) -> PathBuf {
    if let Some(python) = std::env::var_os("TWINSPOT_SQL_PYTHON") {
        return PathBuf::from(python);
    }
    let venv = repo.join(".venv-sql/bin/python3");
    if venv.exists() { venv } else { PathBuf::from("python3") }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo test --benches` lists benchmarks; this harness has none to list
    }
    let count: usize = std::env::var("TWINSPOT_JOIN_DOCS").ok().and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let temporary = tempfile::tempdir().expect("temporary folder");
    let work = std::env::var_os("TWINSPOT_JOIN_DIR").map_or_else(|| temporary.path().to_path_buf(), PathBuf::from);
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_twinspot"));
    let docs = work.join(format!("docs-{count}"));
    let (prints, sql, report) = (work.join("prints"), work.join("sql"), work.join("report.json"));
    for stale in [&prints, &sql] {
        std::fs::remove_dir_all(stale).ok();
    }

    let textgen = TextGen::new(&mut Rng::new(0x5eed_0011));
    let (chars, passages, reposts) = write_docs(&docs, &textgen, count);
    println!(
        "{count} documents, {:.0} characters each on average; {passages} hold a copied passage, {reposts} are edited copies",
        chars as f64 / count as f64
    );

    let s = |p: &Path| p.to_string_lossy().into_owned();
    let (seconds, peak) = timed(&binary, &["fingerprint", "--parquet", &s(&prints), &s(&docs), "-q"]);
    let bytes = bytes_under(&prints);
    println!(
        "fingerprint: {seconds:.1} s on {} cores ({:.0} documents/s), peak {peak:.0} MB; Parquet {:.1} MB \
         ({:.0} bytes a document, {:.1} a character)",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        count as f64 / seconds,
        bytes as f64 / 1e6,
        bytes as f64 / count as f64,
        bytes as f64 / chars as f64,
    );

    let runner = s(&repo.join("sql/run.py"));
    let (seconds, peak) = timed(&sql_python(&repo), &[&runner, "datafusion", &s(&prints), &s(&sql)]);
    let pairs = twinspot::distributed::read::read_pairs(&sql.join("pairs.parquet")).expect("pairs.parquet");
    println!(
        "DataFusion, every SQL file: {seconds:.1} s, peak {peak:.0} MB; {} candidate pairs ({:.3} a document)",
        pairs.len(),
        pairs.len() as f64 / count as f64
    );

    let (seconds, peak) = timed(
        &binary,
        &[
            "align",
            "--pairs",
            &s(&sql.join("pairs.parquet")),
            "--common",
            &s(&sql.join("common.parquet")),
            "--documents",
            &s(&prints),
            "--json",
            &s(&report),
            "-q",
        ],
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).expect("report JSON");
    let reported = json["pairs"].as_array().map_or(0, Vec::len);
    let near = json["near_duplicates"].as_array().map_or(0, Vec::len);
    println!(
        "align: {seconds:.1} s, peak {peak:.0} MB; {} candidate pairs ({:.0} a second), {reported} pairs reported, \
         {near} near duplicates",
        pairs.len(),
        pairs.len() as f64 / seconds
    );
}

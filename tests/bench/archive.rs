//! Archive benchmarks on a generated archive of 2–10 k-character documents (70% Chinese,
//! 30% English, each on a topic of its own; see `corpus.rs`):
//!
//! - adding: documents a second of `Archive::add` (printed once per size);
//! - disk: bytes on disk per indexed character (printed);
//! - `archive_check/marginal/N`: one 10,000-character suspect (part of it copied from an
//!   archived document) checked against an open archive of N documents, at N/10 and N,
//!   to show how lookup time grows with the archive;
//! - `twinspot archive check` of that suspect as a user runs it, one process per check,
//!   at N/10 and N: process start to JSON written (median of 7) and the check process's
//!   own peak resident memory (printed), and where one more check's matching spent its
//!   time (`--timings`: finding candidates, aligning the archived documents read).
//!
//! N is 5,000 by default; `TWINSPOT_ARCHIVE_DOCS=100000` runs the full size of the issue.
//! With `TWINSPOT_ARCHIVE_DAILY=ROUNDS`, the daily add is measured instead (`daily.rs`).
//! With `TWINSPOT_ARCHIVE_MORE=COUNT`, once the archive of N is built, one more call adds
//! COUNT fresh documents to it and is timed, instead of the checks.
//! With `TWINSPOT_ARCHIVE_SERVER=postgresql://…`, the shared archive is measured beside
//! the folder archive on the same documents (`server.rs`).
//! The archives are left in `TWINSPOT_ARCHIVE_DIR` when it is set, else in a temporary
//! folder; a kept archive that already holds its documents is reused, not added again.
//!
//! ```text
//! cargo bench --no-default-features --bench archive
//! ```

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark or test that cannot set up stops with the message"
)]
#![allow(clippy::cast_possible_truncation, reason = "a benchmark's sizes are small")]

/// The program's allocator (src/main.rs), so that in-process figures are the program's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "corpus.rs"]
#[allow(dead_code)]
mod corpus;
#[path = "daily.rs"]
mod daily;
#[path = "server.rs"]
mod server;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion};
use twinspot::archive::{AddOptions, Archive, check_against};
use twinspot::{CancelFlag, CheckRequest, DocumentInput, NoProgress, Role, Settings};

use corpus::{Lang, Rng, TextGen};

/// Runs `twinspot archive check ARCHIVE SUSPECT --json OUT` `runs` times and prints the
/// median wall time (process start to JSON written) and the largest peak resident memory
/// of the check processes themselves.
///
/// The peak is read by GNU time (`/usr/bin/time`, Debian's package `time`): Linux keeps a
/// process's peak across `exec`, so a child forked from this benchmark, which holds an
/// archive's worth of memory, would report this benchmark's size. Without GNU time the
/// peak is not printed.
fn time_cli_check(archive: &Path, extra: &[&str], suspect: &Path, out: &Path, runs: usize) {
    let gnu_time = Path::new("/usr/bin/time");
    let peak_file = out.with_extension("peak");
    let mut walls = Vec::with_capacity(runs);
    let mut peak_kb: Option<u64> = None;
    for _ in 0..runs {
        let mut command = if gnu_time.exists() {
            let mut c = Command::new(gnu_time);
            c.arg("-f").arg("%M").arg("-o").arg(&peak_file).arg(env!("CARGO_BIN_EXE_twinspot"));
            c
        } else {
            Command::new(env!("CARGO_BIN_EXE_twinspot"))
        };
        command.arg("archive").arg("check").arg(archive).arg(suspect).arg("--json").arg(out).args(extra);
        let start = Instant::now();
        let status = command.stderr(std::process::Stdio::null()).status().expect("start twinspot");
        walls.push(start.elapsed().as_secs_f64());
        assert!(status.success(), "twinspot archive check failed ({status})");
        if gnu_time.exists() {
            let kb: u64 = std::fs::read_to_string(&peak_file)
                .ok()
                .and_then(|s| s.lines().last().and_then(|l| l.trim().parse().ok()))
                .expect("GNU time's report");
            peak_kb = Some(peak_kb.unwrap_or(0).max(kb));
        }
    }
    walls.sort_by(f64::total_cmp);
    let peak = peak_kb.map_or_else(
        || "peak not measured (no /usr/bin/time)".to_string(),
        |kb| format!("peak {:.0} MB", kb as f64 / 1024.0),
    );
    println!(
        "twinspot archive check {}: process start to JSON, median {:.3} s (min {:.3}, max {:.3}, {runs} runs); {peak}",
        archive.display(),
        walls[runs / 2],
        walls[0],
        walls[runs - 1],
    );
    // Where one more run's matching spent its time: finding candidates, aligning them.
    let timed = Command::new(env!("CARGO_BIN_EXE_twinspot"))
        .arg("archive")
        .arg("check")
        .arg(archive)
        .arg(suspect)
        .arg("--json")
        .arg(out)
        .arg("--timings")
        .arg("-q")
        .args(extra)
        .output()
        .expect("start twinspot");
    let said = String::from_utf8_lossy(&timed.stderr);
    said.lines().filter(|l| l.contains("timings")).for_each(|l| println!("  {l}"));
}

/// Writes `count` documents numbered from `first` into `dir`, in files of 1,000.
fn write_docs(dir: &Path, textgen: &TextGen, first: usize, count: usize) -> Vec<PathBuf> {
    let mut paths = Vec::with_capacity(count);
    for i in first..first + count {
        let mut rng = Rng::new(i as u64 + 1);
        let lang = if rng.chance(0.7) { Lang::Chinese } else { Lang::English };
        let chars = rng.range(2_000, 10_000);
        let sub = dir.join(format!("{:04}", i / 1000));
        std::fs::create_dir_all(&sub).expect("folder");
        let path = sub.join(format!("{i:06}.txt"));
        if !path.exists() {
            std::fs::write(&path, textgen.topical_text(&mut rng, lang, chars)).expect("write doc");
        }
        paths.push(path);
    }
    paths
}

/// Adds documents to `archive` and prints documents a second.
fn add(archive: &Archive, paths: &[PathBuf]) {
    if paths.is_empty() {
        return;
    }
    let inputs: Vec<DocumentInput> = paths.iter().map(|p| DocumentInput::new(p.clone(), Role::Reference)).collect();
    let (start, cpu) = (Instant::now(), cpu_seconds());
    let summary = archive.add(&inputs, &AddOptions::default(), &NoProgress, &CancelFlag::new()).expect("add documents");
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu;
    println!(
        "added {} documents in {secs:.1} s ({cpu:.1} s of CPU): {:.0} documents/s",
        summary.added,
        summary.added as f64 / secs
    );
}

/// CPU seconds (user and system, every thread) this process has used so far.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage writes into the zeroed struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_SELF, &mut usage), 0, "getrusage");
        usage
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// `paths`, or none when `archive` already holds its `expected` documents (a kept archive
/// of an earlier run).
fn missing<'a>(archive: &Archive, paths: &'a [PathBuf], expected: usize) -> &'a [PathBuf] {
    let held = archive.stats().expect("stats").documents;
    if held as usize >= expected { &[] } else { paths }
}

/// Adds `more` fresh documents to `archive`, built to hold `total`: one more call of the
/// daily kind, timed at the archive's size. They are numbered past every document added
/// before (kept in `dir`, which grows by `more` each run).
fn add_more(archive: &Archive, dir: &Path, textgen: &TextGen, (total, more): (usize, usize)) {
    let held = archive.stats().expect("stats").documents as usize;
    let paths = write_docs(dir, textgen, 2 * total + held, more);
    add(archive, &paths);
    report_disk(archive);
}

fn report_disk(archive: &Archive) {
    let stats = archive.stats().expect("stats");
    println!(
        "{} documents, {} characters, {} segments, {:.2} bytes per character on disk",
        stats.documents,
        stats.chars,
        stats.kgram_segments + stats.sentence_segments,
        stats.bytes as f64 / stats.chars.max(1) as f64
    );
}

fn main() {
    let total: usize = std::env::var("TWINSPOT_ARCHIVE_DOCS").ok().and_then(|v| v.parse().ok()).unwrap_or(5_000);
    let keep = std::env::var_os("TWINSPOT_ARCHIVE_DIR").map(PathBuf::from);
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = keep.clone().unwrap_or_else(|| tmp.path().to_path_buf());
    let textgen = TextGen::new(&mut Rng::new(7));
    let settings = Settings::default();
    if let Some(rounds) = std::env::var("TWINSPOT_ARCHIVE_DAILY").ok().and_then(|v| v.parse().ok()) {
        let docs = root.join("daily-docs");
        let paths = write_docs(&docs, &textgen, 0, total);
        daily::run(&root, &docs, &paths, &textgen, rounds);
        return;
    }

    // The suspect: fresh Chinese text around a passage of an archived document.
    let docs_dir = root.join("docs");
    let small = (total / 10).max(1);
    let first_paths = write_docs(&docs_dir, &textgen, 0, small);
    let source = std::fs::read_to_string(&first_paths[0]).expect("read doc");
    let copied: String = source.chars().take(1_500).collect();
    // Its own seed: a seed of the documents (1..=N) would make its fresh text theirs.
    let mut rng = Rng::new(u64::MAX / 3);
    let suspect_text = format!(
        "{}{copied}{}",
        textgen.topical_text(&mut rng, Lang::Chinese, 4_000),
        textgen.topical_text(&mut rng, Lang::Chinese, 4_500)
    );
    let suspect_path = root.join("suspect.txt");
    std::fs::write(&suspect_path, &suspect_text).expect("write suspect");
    // The marginal cost of one more document: the dictionary stays loaded between checks,
    // as in the window.
    let suspect = CheckRequest {
        documents: vec![DocumentInput::new(suspect_path.clone(), Role::Suspect)],
        settings: settings.clone(),
        keep_dictionary: true,
        ..CheckRequest::default()
    };

    let mut criterion = Criterion::default()
        .configure_from_args()
        .sample_size(20)
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_secs(2));
    let small_dir = root.join(format!("archive-{small}"));
    let small_archive = Archive::open_or_create(&small_dir, &settings).expect("archive");
    add(&small_archive, missing(&small_archive, &first_paths, small));
    report_disk(&small_archive);
    let big_dir = root.join(format!("archive-{total}"));
    let big = Archive::open_or_create(&big_dir, &settings).expect("archive");
    add(&big, missing(&big, &first_paths, total));
    // Asked once: the count is a query of the whole catalog (0.16 s at a million).
    let built = missing(&big, &first_paths, total).is_empty();
    let mut next = small;
    let mut all_paths = first_paths.clone();
    while next < total {
        let count = 5_000.min(total - next);
        let paths = write_docs(&docs_dir, &textgen, next, count);
        if !built {
            add(&big, &paths);
        }
        all_paths.extend(paths);
        next += count;
    }
    report_disk(&big);
    if let Some(more) = std::env::var("TWINSPOT_ARCHIVE_MORE").ok().and_then(|v| v.parse().ok()) {
        add_more(&big, &root.join("more"), &textgen, (total, more));
        return;
    }

    let mut group = criterion.benchmark_group("archive_check/marginal");
    for (n, archive) in [(small, &small_archive), (total, &big)] {
        let found = check_against(archive, &suspect, &NoProgress, &CancelFlag::new()).expect("check");
        assert!(!found.pairs.is_empty(), "the copied passage must be found");
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| black_box(check_against(archive, &suspect, &NoProgress, &CancelFlag::new()).expect("check")))
        });
    }
    group.finish();
    let out = root.join("check.json");
    for dir in [&small_dir, &big_dir] {
        time_cli_check(dir, &[], &suspect_path, &out, 7);
    }
    if let Ok(url) = std::env::var("TWINSPOT_ARCHIVE_SERVER") {
        let cli = |archive: &Path, extra: &[&str]| time_cli_check(archive, extra, &suspect_path, &out, 7);
        server::run(&url, &all_paths, (small, total), &suspect, &big_dir, &mut criterion, &cli);
    }
    criterion.final_summary();
    if keep.is_some() {
        println!("archives kept in {}", root.display());
    }
}

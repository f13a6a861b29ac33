//! The shared archive (PostgreSQL) beside the folder archive on the same documents, when
//! `TWINSPOT_ARCHIVE_SERVER` names a server (`postgresql://…`): adding (documents a
//! second), bytes per character on the server, one more suspect at N/10 and N
//! (`archive_check/shared/N`), the command line's check, the check's lookups before and
//! after `compact` folds the postings (and one more suspect then,
//! `archive_check/shared-compacted/N`), and eight checkers at once (checks a second,
//! beside the folder archive's). Each size is its own schema
//! (`bench_N`), kept for the next run.

use std::path::{Path, PathBuf};
use std::time::Instant;

use criterion::{BenchmarkId, Criterion};
use twinspot::archive::server::{Schema, ServerArchive, ServerIndex, ServerLocation, Sql, check_against};
use twinspot::archive::{AddOptions, Archive};
use twinspot::index::{ReferenceIndex, Signal};
use twinspot::{CancelFlag, CheckRequest, DocumentInput, NoProgress, Role, Settings};

/// Checks each of the eight checkers runs.
const CHECKS_EACH: usize = 6;

/// Opens (creating) the shared archive of `n` documents and adds what it lacks of `paths`.
fn filled(location: &ServerLocation, n: usize, paths: &[PathBuf], settings: &Settings) -> ServerArchive {
    let schema = Schema::new(&format!("bench_{n}")).expect("schema name");
    let archive =
        ServerArchive::open_for_changes(location, &schema, settings, true, "add to").expect("open the shared archive");
    let held = archive.stats().expect("stats").documents as usize;
    if held < n {
        let inputs: Vec<DocumentInput> =
            paths[held..n].iter().map(|p| DocumentInput::new(p.clone(), Role::Reference)).collect();
        let start = Instant::now();
        let summary = archive.add(&inputs, &AddOptions::default(), &NoProgress, &CancelFlag::new()).expect("add");
        let secs = start.elapsed().as_secs_f64();
        println!(
            "shared archive: added {} documents in {secs:.1} s: {:.0} documents/s",
            summary.added,
            summary.added as f64 / secs
        );
    }
    let stats = archive.stats().expect("stats");
    println!(
        "shared archive: {} documents, {} characters, {} postings, {:.2} bytes per character on the server",
        stats.documents,
        stats.chars,
        stats.postings,
        stats.bytes as f64 / stats.chars.max(1) as f64
    );
    archive
}

/// Checks a second of eight checkers at once, each with its own handle made by `open`.
fn eight_at_once(what: &str, open: &(dyn Fn() -> Box<dyn Fn() + Send> + Sync)) {
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..8 {
            scope.spawn(|| {
                let check = open();
                for _ in 0..CHECKS_EACH {
                    check();
                }
            });
        }
    });
    let secs = start.elapsed().as_secs_f64();
    let checks = 8 * CHECKS_EACH;
    println!("{what}: eight checkers at once, {checks} checks in {secs:.1} s: {:.1} checks/s", checks as f64 / secs);
}

/// The check's k-gram lookup of `hashes` (a suspect's) in `archive`, timed as the archive
/// is and again once `compact` has folded its postings into one row a hash: medians of 21,
/// the postings sent, the fold's time and the tables' sizes.
fn folded(location: &ServerLocation, archive: &ServerArchive, schema: &str, hashes: &[u64]) {
    let lookups = || {
        let index = ServerIndex::open(archive).expect("a check's snapshot");
        let mut times = Vec::new();
        let mut sent = 0;
        for _ in 0..21 {
            let start = Instant::now();
            let lists = index.postings(Signal::Kgram, hashes).expect("the check's lookups");
            sent = lists.iter().map(|list| list.len()).sum::<usize>();
            times.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        (times[10], sent)
    };
    let mut client = location.connect().expect("connect");
    let mut size = |table: &str| -> f64 {
        let bytes: i64 = client
            .query_one(
                "SELECT coalesce(sum(pg_total_relation_size(relid)), 0)::bigint FROM pg_partition_tree($1::text::regclass)
                 UNION ALL SELECT pg_total_relation_size($1::text::regclass) ORDER BY 1 DESC LIMIT 1",
                &[&format!("\"{schema}\".{table}")],
            )
            .expect("size")
            .get(0);
        bytes as f64 / 1e6
    };
    let (before, sent_before) = lookups();
    let sizes_before = (size("kgrams"), size("kgrams_packed"));
    let start = Instant::now();
    archive.compact().expect("compact");
    let fold_secs = start.elapsed().as_secs_f64();
    let (after, sent_after) = lookups();
    assert_eq!(sent_before, sent_after, "folded rows send the same first postings");
    let sizes_after = (size("kgrams"), size("kgrams_packed"));
    println!(
        "k-gram lookup of {} hashes, the check's ({sent_after} postings sent), median of 21: before compact {before:.1} ms \
         (rows {:.0} MB, folded {:.0} MB), after {after:.1} ms (rows {:.0} MB, folded {:.0} MB); compact {fold_secs:.1} s",
        hashes.len(),
        sizes_before.0,
        sizes_before.1,
        sizes_after.0,
        sizes_after.1,
    );
}

/// Runs the shared archive's measures against the server at `url`.
pub fn run(
    url: &str,
    paths: &[PathBuf],
    (small, total): (usize, usize),
    suspect: &CheckRequest,
    big_folder: &Path,
    criterion: &mut Criterion,
    cli_check: &dyn Fn(&Path, &[&str]),
) {
    let settings = Settings::default();
    let location = ServerLocation::parse(url).expect("the server's URL");
    let archives: Vec<(usize, ServerArchive)> =
        [small, total].into_iter().map(|n| (n, filled(&location, n, paths, &settings))).collect();
    let mut group = criterion.benchmark_group("archive_check/shared");
    for (n, archive) in &archives {
        let found = check_against(archive, suspect, &NoProgress, &CancelFlag::new()).expect("check");
        assert!(!found.pairs.is_empty(), "the copied passage must be found");
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| check_against(archive, suspect, &NoProgress, &CancelFlag::new()).expect("check"))
        });
    }
    group.finish();
    for (n, _) in &archives {
        cli_check(Path::new(url), &["--schema", &format!("bench_{n}")]);
    }
    let text = std::fs::read_to_string(&suspect.documents[0].path).expect("the suspect");
    let prints = twinspot::fingerprint::DocumentFingerprints::compute(&text, &settings);
    let mut hashes: Vec<u64> = prints.kgrams.iter().map(|k| k.hash).collect();
    hashes.sort_unstable();
    hashes.dedup();
    let big = archives.iter().find(|(n, _)| *n == total).map(|(_, a)| a).expect("the largest archive");
    folded(&location, big, &format!("bench_{total}"), &hashes);
    let mut group = criterion.benchmark_group("archive_check/shared-compacted");
    group.bench_function(BenchmarkId::from_parameter(total), |b| {
        b.iter(|| check_against(big, suspect, &NoProgress, &CancelFlag::new()).expect("check"))
    });
    group.finish();
    cli_check(Path::new(url), &["--schema", &format!("bench_{total}")]);
    let big_schema = Schema::new(&format!("bench_{total}")).expect("schema name");
    eight_at_once("shared archive", &|| {
        let archive = ServerArchive::open(&location, &big_schema, &settings).expect("open");
        let suspect = suspect.clone();
        Box::new(move || {
            check_against(&archive, &suspect, &NoProgress, &CancelFlag::new()).expect("check");
        })
    });
    eight_at_once("folder archive", &|| {
        let archive = Archive::open(big_folder, &settings).expect("open");
        let suspect = suspect.clone();
        Box::new(move || {
            twinspot::archive::check_against(&archive, &suspect, &NoProgress, &CancelFlag::new()).expect("check");
        })
    });
}

//! The shared archive (PostgreSQL) beside the folder archive on the same documents, when
//! `TWINSPOT_ARCHIVE_SERVER` names a server (`postgresql://…`): adding (documents a
//! second), bytes per character on the server, one more suspect at N/10 and N
//! (`archive_check/shared/N`), the command line's check, and eight checkers at once
//! (checks a second, beside the folder archive's). Each size is its own schema
//! (`bench_N`), kept for the next run.

use std::path::{Path, PathBuf};
use std::time::Instant;

use criterion::{BenchmarkId, Criterion};
use twinspot::archive::server::{Schema, ServerArchive, ServerIndex, ServerLocation, check_against};
use twinspot::archive::{AddOptions, Archive};
use twinspot::index::ReferenceIndex;
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

/// The k-gram postings of the archive in schema `schema` laid out two ways, and the
/// lookup of `hashes` (a suspect's) timed in each, alternated: one row per posting (what
/// the archive keeps), and one row per hash with its documents and positions in arrays
/// (made here from the first, kept for the next run); each with all the postings of a
/// hash, and with its first 51 only, as a check asks them (for the rows, the check's own
/// lookup through `archive`). Prints medians and sizes.
fn layouts(location: &ServerLocation, archive: &ServerArchive, schema: &str, hashes: &[i64]) {
    let mut client = location.connect().expect("connect");
    let s = format!("\"{schema}\"");
    client
        .batch_execute(&format!(
            "CREATE TABLE IF NOT EXISTS {s}.kgrams_packed AS
               SELECT hash, array_agg(doc ORDER BY doc, position) AS docs,
                      array_agg(position ORDER BY doc, position) AS positions,
                      count(DISTINCT doc) AS documents
               FROM {s}.kgrams GROUP BY hash;
             CREATE UNIQUE INDEX IF NOT EXISTS kgrams_packed_hash ON {s}.kgrams_packed (hash);
             ANALYZE {s}.kgrams_packed;"
        ))
        .expect("the packed layout");
    // As a check asks: each range partition for its own hashes (by the top four bits),
    // index scans only.
    client.batch_execute("SET enable_seqscan = off").expect("planner setting");
    let mut parts: Vec<Vec<i64>> = vec![Vec::new(); 16];
    for &h in hashes {
        parts[((h as u64 ^ (1 << 63)) >> 60) as usize].push(h);
    }
    let rows = (0..16)
        .map(|p| format!("SELECT hash, doc, position FROM {s}.kgrams_{p} WHERE hash = ANY(${})", p + 1))
        .collect::<Vec<_>>()
        .join(" UNION ALL ");
    let part_params: Vec<&(dyn postgres::types::ToSql + Sync)> =
        parts.iter().map(|p| p as &(dyn postgres::types::ToSql + Sync)).collect();
    let packed = format!("SELECT hash, docs, positions FROM {s}.kgrams_packed WHERE hash = ANY($1)");
    let packed_first = format!(
        "SELECT hash, docs[1:51], positions[1:51], cardinality(docs), documents FROM {s}.kgrams_packed WHERE hash = ANY($1)"
    );
    let unsigned: Vec<u64> = hashes.iter().map(|&h| u64::from_ne_bytes(h.to_ne_bytes())).collect();
    let index = ServerIndex::open(archive).expect("a check's snapshot");
    let (mut by_row, mut by_hash, mut by_row_first, mut by_hash_first) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut found_rows, mut found_packed, mut sent_rows, mut sent_packed) = (0, 0, 0, 0);
    for _ in 0..21 {
        let start = Instant::now();
        found_rows = client.query(&rows, &part_params).expect("rows").len();
        by_row.push(start.elapsed().as_secs_f64() * 1000.0);
        let start = Instant::now();
        let answer = client.query(&packed, &[&hashes]).expect("packed");
        found_packed = answer.iter().map(|r| r.get::<_, Vec<i32>>(1).len()).sum::<usize>();
        by_hash.push(start.elapsed().as_secs_f64() * 1000.0);
        let start = Instant::now();
        sent_rows = index.kgram_postings(&unsigned).iter().map(|list| list.len()).sum::<usize>();
        by_row_first.push(start.elapsed().as_secs_f64() * 1000.0);
        let start = Instant::now();
        let answer = client.query(&packed_first, &[&hashes]).expect("packed, first postings");
        sent_packed = answer.iter().map(|r| r.get::<_, Vec<i32>>(1).len()).sum::<usize>();
        by_hash_first.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    assert!(index.failure().is_none(), "the check's lookups failed");
    assert_eq!(found_rows, found_packed, "both layouts hold the same postings");
    assert_eq!(sent_rows, sent_packed, "both layouts send the same first postings");
    for times in [&mut by_row, &mut by_hash, &mut by_row_first, &mut by_hash_first] {
        times.sort_by(f64::total_cmp);
    }
    let mut size = |table: &str| -> i64 {
        client
            .query_one(
                "SELECT coalesce(sum(pg_total_relation_size(relid)), 0)::bigint FROM pg_partition_tree($1::text::regclass)
                 UNION ALL SELECT pg_total_relation_size($1::text::regclass) ORDER BY 1 DESC LIMIT 1",
                &[&format!("{s}.{table}")],
            )
            .expect("size")
            .get(0)
    };
    let (row_bytes, packed_bytes) = (size("kgrams"), size("kgrams_packed"));
    println!(
        "k-gram lookup of {} hashes ({found_rows} postings), median of 21 alternated: one row a posting {:.1} ms \
         ({:.0} MB), one row a hash {:.1} ms ({:.0} MB); the first 51 of each ({sent_rows} postings): one row a \
         posting, the check's lookup, {:.1} ms, one row a hash {:.1} ms",
        hashes.len(),
        by_row[10],
        row_bytes as f64 / 1e6,
        by_hash[10],
        packed_bytes as f64 / 1e6,
        by_row_first[10],
        by_hash_first[10]
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
    let mut hashes: Vec<i64> = prints.kgrams.iter().map(|k| i64::from_ne_bytes(k.hash.to_ne_bytes())).collect();
    // Each hash once: a check's lookup answers a hash asked twice twice, `= ANY` once.
    hashes.sort_unstable();
    hashes.dedup();
    let big = archives.iter().find(|(n, _)| *n == total).map(|(_, a)| a).expect("the largest archive");
    layouts(&location, big, &format!("bench_{total}"), &hashes);
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

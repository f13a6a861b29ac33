//! Engine benchmarks (criterion), against the targets of the performance issue:
//!
//! | group                         | what                                                      | target            |
//! |-------------------------------|-----------------------------------------------------------|-------------------|
//! | `fingerprint/{chinese,english}` | `DocumentFingerprints::compute` (normalize + winnow + sentences), one thread | ≥ 50 MB/s         |
//! | `simhash/{chinese,english}`   | `folded_text` + `simhash` (jieba segmentation), one thread | ≥ 5 MB/s          |
//! | `parts/…`                     | the sub-steps of the two above, to see where time goes     | —                 |
//! | `check/300x1000`              | `run_check`: 300 suspects × 1,000 references (~7 M chars) read from a temp dir, rayon on 2 threads | < 1.5 s |
//!
//! The corpus is synthetic and deterministic (see `corpus.rs`); its size is printed once.
//!
//! Run (no GUI, bench profile):
//!
//! ```text
//! cargo bench --no-default-features --bench engine                 # everything
//! cargo bench --no-default-features --bench engine -- --quick      # shorter
//! cargo bench --no-default-features --bench engine -- fingerprint  # one group
//! ```
//!
//! To time the real command line on the same corpus, write it to a folder and exit:
//!
//! ```text
//! TWINSPOT_BENCH_CORPUS_DIR=/tmp/corpus cargo bench --no-default-features --bench engine
//! cargo build --release --no-default-features
//! /usr/bin/time -v target/release/twinspot compare --reference /tmp/corpus/reference \
//!     --suspect /tmp/corpus/suspect --json /tmp/o.json -q
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
mod corpus;

use std::collections::HashMap;
use std::hint::black_box;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group};
use rayon::prelude::*;
use twinspot::engine::collect_inputs;
use twinspot::fingerprint::{DocumentFingerprints, simhash};
use twinspot::normalize::{folded_text, tokenize};
use twinspot::{CancelFlag, CheckRequest, Mode, NoProgress, Role, Settings, run_check};

use corpus::{Corpus, Lang};

/// Bytes of text per iteration of the single-threaded throughput benchmarks.
const FINGERPRINT_BYTES: usize = 1 << 20;
const SIMHASH_BYTES: usize = 256 << 10;

fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let corpus = Corpus::standard();
        let (chars, bytes) = corpus.size();
        eprintln!(
            "corpus: {} references + {} suspects, {:.2} M characters, {:.2} MB UTF-8",
            corpus.references.len(),
            corpus.suspects.len(),
            chars as f64 / 1e6,
            bytes as f64 / 1e6
        );
        corpus
    })
}

/// Whole references of one language, at least `bytes` in total.
fn sample(lang: Lang, bytes: usize) -> (Vec<&'static str>, u64) {
    let mut total = 0;
    let docs = corpus()
        .references
        .iter()
        .filter(|d| d.lang == lang)
        .take_while(|d| {
            let more = total < bytes;
            total += d.text.len();
            more
        })
        .map(|d| d.text.as_str())
        .collect::<Vec<_>>();
    let total = docs.iter().map(|d| d.len() as u64).sum();
    (docs, total)
}

const LANGS: [(&str, Lang); 2] = [("chinese", Lang::Chinese), ("english", Lang::English)];

fn bench_fingerprint(c: &mut Criterion) {
    let settings = Settings::default();
    let mut group = c.benchmark_group("fingerprint");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    for (name, lang) in LANGS {
        let (docs, bytes) = sample(lang, FINGERPRINT_BYTES);
        group.throughput(Throughput::Bytes(bytes));
        group.bench_function(name, |b| {
            b.iter(|| {
                for d in &docs {
                    black_box(DocumentFingerprints::compute(black_box(d), &settings));
                }
            })
        });
    }
    group.finish();
}

fn bench_simhash(c: &mut Criterion) {
    let dictionary = simhash::Dictionary::new();
    dictionary.prepare();
    let options = Settings::default().normalize;
    let mut group = c.benchmark_group("simhash");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    for (name, lang) in LANGS {
        let (docs, bytes) = sample(lang, SIMHASH_BYTES);
        group.throughput(Throughput::Bytes(bytes));
        group.bench_function(name, |b| {
            b.iter(|| {
                for d in &docs {
                    black_box(dictionary.simhash(&folded_text(black_box(d), options)));
                }
            })
        });
    }
    group.finish();
}

/// The sub-steps, on the same texts: tokenizing alone, folding alone, and segmentation +
/// hashing of already folded text.
fn bench_parts(c: &mut Criterion) {
    let dictionary = simhash::Dictionary::new();
    dictionary.prepare();
    let options = Settings::default().normalize;
    let mut group = c.benchmark_group("parts");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    for (name, lang) in LANGS {
        let (docs, bytes) = sample(lang, FINGERPRINT_BYTES);
        group.throughput(Throughput::Bytes(bytes));
        group.bench_function(format!("tokenize/{name}"), |b| {
            b.iter(|| {
                for d in &docs {
                    black_box(tokenize(black_box(d), options));
                }
            })
        });
        group.bench_function(format!("folded_text/{name}"), |b| {
            b.iter(|| {
                for d in &docs {
                    black_box(folded_text(black_box(d), options));
                }
            })
        });
        let (docs, bytes) = sample(lang, SIMHASH_BYTES);
        let folded: Vec<String> = docs.iter().map(|d| folded_text(d, options)).collect();
        group.throughput(Throughput::Bytes(bytes));
        group.bench_function(format!("simhash_of_folded/{name}"), |b| {
            b.iter(|| {
                for f in &folded {
                    black_box(dictionary.simhash(black_box(f)));
                }
            })
        });
    }
    group.finish();
}

fn request(dir: &Path) -> CheckRequest {
    let mut documents = collect_inputs(&[dir.join("reference")], Role::Reference);
    documents.extend(collect_inputs(&[dir.join("suspect")], Role::Suspect));
    CheckRequest {
        documents,
        mode: Mode::SuspectsVsReferences,
        settings: Settings::default(),
        ..CheckRequest::default()
    }
}

/// Peak resident memory of this process so far (Linux), in MB.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn bench_check(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let corpus = corpus();
    corpus.write(dir.path()).expect("write corpus");
    let (_, bytes) = corpus.size();
    let request = request(dir.path());
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("thread pool");
    let check = || pool.install(|| run_check(&request, &NoProgress, &CancelFlag::new())).expect("not cancelled");

    // One run outside criterion: show that matching has real work, and the memory.
    let before = peak_rss_mb();
    let start = std::time::Instant::now();
    let report = check();
    let elapsed = start.elapsed();
    let passages: usize = report.pairs.iter().map(|p| p.passages.len()).sum();
    let mut flagged: Vec<usize> = report.pairs.iter().map(|p| p.a).collect();
    flagged.sort_unstable();
    flagged.dedup();
    eprintln!(
        "check: {} documents, {} pairs, {} passages, {} suspects flagged, {} near-duplicate pairs, first run {:.2} s, \
         peak RSS {:.0} MB (process, corpus included; {:.0} MB before)",
        report.documents.len(),
        report.pairs.len(),
        passages,
        flagged.len(),
        report.near_duplicates.len(),
        elapsed.as_secs_f64(),
        peak_rss_mb().unwrap_or(f64::NAN),
        before.unwrap_or(f64::NAN),
    );
    drop(report);

    // Where the time goes: the per-document stages alone, on the same 2 threads.
    let settings = Settings::default();
    let texts: Vec<&str> = corpus.references.iter().chain(&corpus.suspects).map(|d| d.text.as_str()).collect();
    let start = std::time::Instant::now();
    pool.install(|| {
        texts.par_iter().for_each(|t| {
            black_box(DocumentFingerprints::compute(t, &settings));
        })
    });
    let fingerprints = start.elapsed();
    let dictionary = simhash::Dictionary::new();
    dictionary.prepare();
    let start = std::time::Instant::now();
    pool.install(|| {
        texts.par_iter().for_each(|t| {
            black_box(dictionary.simhash(&folded_text(t, settings.normalize)));
        })
    });
    let simhashes = start.elapsed();
    eprintln!(
        "check stages on 2 threads: fingerprints of all documents {:.2} s, SimHash of all documents {:.2} s",
        fingerprints.as_secs_f64(),
        simhashes.as_secs_f64()
    );
    candidate_stats(corpus, &settings);

    let mut group = c.benchmark_group("check");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("300x1000", |b| b.iter(|| black_box(check())));
    group.finish();
}

/// How much matching work the corpus makes: k-gram hits and candidate references per
/// suspect, counted the way the engine's lookup counts them (postings of hashes with at
/// most 2,000 of them).
fn candidate_stats(corpus: &Corpus, settings: &Settings) {
    let mut index: HashMap<u64, Vec<u32>> = HashMap::new();
    for (id, d) in corpus.references.iter().enumerate() {
        for f in DocumentFingerprints::compute(&d.text, settings).kgrams {
            index.entry(f.hash).or_default().push(id as u32);
        }
    }
    let (mut hits, mut candidates) = (0usize, 0usize);
    for d in &corpus.suspects {
        let mut docs: Vec<u32> = Vec::new();
        for f in DocumentFingerprints::compute(&d.text, settings).kgrams {
            let postings = index.get(&f.hash).map(Vec::as_slice).unwrap_or_default();
            if postings.len() <= 2_000 {
                hits += postings.len();
                docs.extend_from_slice(postings);
            }
        }
        docs.sort_unstable();
        docs.dedup();
        candidates += docs.len();
    }
    let n = corpus.suspects.len().max(1) as f64;
    // What the fingerprints of every document hold, and what their vectors reserve.
    let (mut used, mut reserved) = (0usize, 0usize);
    for d in corpus.references.iter().chain(&corpus.suspects) {
        let t = DocumentFingerprints::compute(&d.text, settings).tokenized;
        let token = std::mem::size_of::<twinspot::normalize::Token>();
        used += t.tokens.len() * token + t.sentence_starts.len() * 4;
        reserved += t.tokens.capacity() * token + t.sentence_starts.capacity() * 4;
    }
    eprintln!(
        "tokenized documents: {:.0} MB used, {:.0} MB reserved (tokens, sentence starts)",
        used as f64 / 1e6,
        reserved as f64 / 1e6
    );
    eprintln!(
        "matching work: {:.0} k-gram hits and {:.0} candidate references per suspect (of {})",
        hits as f64 / n,
        candidates as f64 / n,
        corpus.references.len()
    );
}

criterion_group!(benches, bench_fingerprint, bench_simhash, bench_parts, bench_check);

fn main() {
    if let Some(dir) = std::env::var_os("TWINSPOT_BENCH_CORPUS_DIR") {
        let dir = Path::new(&dir);
        corpus().write(dir).expect("write corpus");
        eprintln!("corpus written to {}", dir.display());
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}

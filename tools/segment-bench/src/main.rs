//! The archive's postings store measured against tantivy on the same postings.
//!
//! Reads every k-gram segment of an existing archive (`twinspot archive add` made it), then:
//!
//! - Twinspot: looks hashes up in those very segment files, per segment the Bloom filter
//!   (of either layout: `TWSEG01` spreads a hash's probes, `TWSEG02` keeps them in one
//!   64-byte block), the sparse index on the hash's top bits, a binary search (the layout
//!   of `src/archive/segment.rs`, read here without Twinspot's dependencies and through a
//!   memory map, as checks did until archive format 4; they now read with `pread`, see
//!   `src/archive/lookup.rs`);
//! - tantivy: indexes the same postings, one tantivy document per archived document, its
//!   k-gram hashes as pre-tokenized terms (16 hex digits) at their token positions, with
//!   positions, committed and merged into one segment.
//!
//! It prints bytes on disk of each, the time tantivy takes to index them, and the median
//! time to look up the k-grams of one 10,000-character suspect: 10,000 hashes, 1,500 of
//! them held by an archived document (a copied passage), the rest by none; each lookup
//! collects every (document, position), as matching does. Twenty suspects, five runs each.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Instant;

use memmap2::Mmap;
use tantivy::postings::Postings;
use tantivy::schema::{IndexRecordOption, Schema, TextFieldIndexing, TextOptions};
use tantivy::tokenizer::{PreTokenizedString, Token};
use tantivy::{DocSet, Index, IndexWriter, TERMINATED, TantivyDocument, Term};

const HEADER: usize = 40;
const FILTER_PROBES: u64 = 3;
const BLOCK_WORDS: usize = 8;

/// One segment file of the archive, memory-mapped.
struct Segment {
    map: Mmap,
    count: usize,
    bits: u32,
    filter_words: usize,
    /// `TWSEG02`: the probes of a hash lie in one block of `BLOCK_WORDS` words.
    blocked: bool,
}

impl Segment {
    /// The segment at `path` when it holds k-grams.
    fn open_kgrams(path: &Path) -> std::io::Result<Option<Self>> {
        let file = File::open(path)?;
        // SAFETY: archive segments are immutable once written.
        let map = unsafe { Mmap::map(&file)? };
        if map.len() < HEADER || u32_at(&map, 8) != 0 {
            return Ok(None);
        }
        let blocked = match &map[..8] {
            b"TWSEG01\n" => false,
            b"TWSEG02\n" => true,
            _ => return Ok(None),
        };
        let (bits, count, filter_words) = (u32_at(&map, 12), u64_at(&map, 16) as usize, u64_at(&map, 24) as usize);
        Ok(Some(Self { map, count, bits, filter_words, blocked }))
    }

    fn hash(&self, i: usize) -> u64 {
        u64_at(&self.map, HEADER + i * 16)
    }

    fn entry(&self, i: usize) -> (u64, u32, u32) {
        let at = HEADER + i * 16;
        (self.hash(i), u32_at(&self.map, at + 8), u32_at(&self.map, at + 12))
    }

    fn bucket_start(&self, bucket: u64) -> usize {
        u64_at(&self.map, HEADER + self.count * 16 + bucket as usize * 8) as usize
    }

    fn may_hold(&self, hash: u64) -> bool {
        let base = HEADER + self.count * 16 + ((1usize << self.bits) + 1) * 8;
        let (first_bit, bits) = if self.blocked {
            let blocks = (self.filter_words / BLOCK_WORDS).max(1);
            let block = (fmix(hash) % blocks as u64) as usize;
            (block * BLOCK_WORDS * 64, (self.filter_words.min(BLOCK_WORDS) * 64) as u64)
        } else {
            (0, (self.filter_words * 64) as u64)
        };
        (0..FILTER_PROBES).all(|i| {
            let mixed = (hash ^ (hash >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15 ^ (i.wrapping_mul(0xbf58_476d_1ce4_e5b9)));
            let bit = first_bit + ((mixed >> 17) % bits) as usize;
            u64_at(&self.map, base + bit / 64 * 8) & (1 << (bit % 64)) != 0
        })
    }

    fn find(&self, hash: u64) -> std::ops::Range<usize> {
        if self.count == 0 || !self.may_hold(hash) {
            return 0..0;
        }
        let bucket = if self.bits == 0 { 0 } else { hash >> (64 - self.bits) };
        let (mut lo, mut hi) = (self.bucket_start(bucket), self.bucket_start(bucket + 1));
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.hash(mid) < hash { lo = mid + 1 } else { hi = mid }
        }
        let mut end = lo;
        while end < self.count && self.hash(end) == hash {
            end += 1;
        }
        lo..end
    }
}

/// MurmurHash3's finalizer: picks the filter block of a hash, as the archive does.
fn fmix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

fn u32_at(map: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([map[at], map[at + 1], map[at + 2], map[at + 3]])
}

fn u64_at(map: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&map[at..at + 8]);
    u64::from_le_bytes(b)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let archive = PathBuf::from(std::env::args_os().nth(1).ok_or("usage: segment-bench ARCHIVE")?);
    let mut segments = Vec::new();
    let mut ours_bytes = 0;
    for file in std::fs::read_dir(&archive)? {
        let path = file?.path();
        if path.extension().is_some_and(|e| e == "seg")
            && let Some(seg) = Segment::open_kgrams(&path)?
        {
            ours_bytes += seg.map.len() as u64;
            segments.push(seg);
        }
    }
    // (document, position, hash) of every posting.
    let mut postings: Vec<(u32, u32, u64)> = Vec::new();
    for seg in &segments {
        postings.extend((0..seg.count).map(|i| seg.entry(i)).map(|(h, d, p)| (d, p, h)));
    }
    postings.sort_unstable();
    println!("{} k-gram postings in {} segments of {}", postings.len(), segments.len(), archive.display());
    let queries = make_queries(&postings, 20);

    let ours = median_lookup(&queries, |hashes| {
        let mut found = 0usize;
        for &h in hashes {
            for seg in &segments {
                for i in seg.find(h) {
                    std::hint::black_box(seg.entry(i));
                    found += 1;
                }
            }
        }
        found
    });
    report(&format!("twinspot segments ({})", segments.len()), None, ours_bytes, postings.len(), ours);

    let work = tempfile::tempdir()?;
    let mut schema = Schema::builder();
    let indexing = TextFieldIndexing::default().set_index_option(IndexRecordOption::WithFreqsAndPositions);
    let field = schema.add_text_field("kgrams", TextOptions::default().set_indexing_options(indexing));
    let index = Index::create_in_dir(work.path(), schema.build())?;
    let start = Instant::now();
    let mut writer: IndexWriter = index.writer(400_000_000)?;
    let mut at = 0;
    while at < postings.len() {
        let doc = postings[at].0;
        let mut tokens = Vec::new();
        while at < postings.len() && postings[at].0 == doc {
            let (_, position, hash) = postings[at];
            tokens.push(Token { position: position as usize, text: format!("{hash:016x}"), ..Token::default() });
            at += 1;
        }
        let mut document = TantivyDocument::default();
        document.add_pre_tokenized_text(field, PreTokenizedString { text: String::new(), tokens });
        writer.add_document(document)?;
    }
    writer.commit()?;
    let ids = index.searchable_segment_ids()?;
    if ids.len() > 1 {
        writer.merge(&ids).wait()?;
    }
    writer.wait_merging_threads()?;
    let indexing_secs = start.elapsed().as_secs_f64();
    let mut tantivy_bytes = 0;
    for file in std::fs::read_dir(work.path())? {
        tantivy_bytes += file?.metadata()?.len();
    }
    let reader = index.reader()?;
    let searcher = reader.searcher();
    let inverted: Vec<_> =
        searcher.segment_readers().iter().map(|r| r.inverted_index(field)).collect::<Result<_, _>>()?;
    let mut positions = Vec::new();
    let theirs = median_lookup(&queries, |hashes| {
        let mut found = 0usize;
        for &h in hashes {
            let term = Term::from_field_text(field, &format!("{h:016x}"));
            for inv in &inverted {
                if let Ok(Some(mut list)) = inv.read_postings(&term, IndexRecordOption::WithFreqsAndPositions) {
                    while list.doc() != TERMINATED {
                        list.positions(&mut positions);
                        found += positions.len();
                        list.advance();
                    }
                }
            }
        }
        found
    });
    report(&format!("tantivy ({} segment)", inverted.len()), Some(indexing_secs), tantivy_bytes, postings.len(), theirs);
    Ok(())
}

/// `count` suspects' hashes: 1,500 k-grams of one archived document, 8,500 held by none.
fn make_queries(postings: &[(u32, u32, u64)], count: usize) -> Vec<Vec<u64>> {
    let last = postings.last().map_or(0, |p| p.0);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    (0..count)
        .map(|q| {
            let doc = (q as u32).wrapping_mul(7919) % last.max(1);
            let first = postings.partition_point(|p| p.0 < doc);
            let mut hashes: Vec<u64> =
                postings[first..].iter().take_while(|p| p.0 == doc).take(1_500).map(|p| p.2).collect();
            while hashes.len() < 10_000 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                hashes.push(state);
            }
            hashes
        })
        .collect()
}

/// Median over every query (each run five times) of `lookup`, in milliseconds.
fn median_lookup(queries: &[Vec<u64>], mut lookup: impl FnMut(&[u64]) -> usize) -> f64 {
    let mut times = Vec::new();
    for hashes in queries {
        for _ in 0..5 {
            let start = Instant::now();
            std::hint::black_box(lookup(hashes));
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn report(what: &str, indexing_secs: Option<f64>, bytes: u64, postings: usize, lookup_ms: f64) {
    let indexing = indexing_secs.map_or(String::new(), |s| format!("indexed in {s:.1} s, "));
    println!(
        "{what}: {indexing}{:.1} MB on disk ({:.2} bytes a posting), one 10,000-character suspect looked up in {lookup_ms:.2} ms (median)",
        bytes as f64 / 1e6,
        bytes as f64 / postings.max(1) as f64
    );
}

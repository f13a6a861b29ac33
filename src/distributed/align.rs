//! `align`: aligns just the candidate pairs an SQL engine found, the way the in-memory
//! check compares a pair: every k-gram of the smaller id looked up among the winnowed
//! k-grams of the other, hashes the join found too common skipped, then the same
//! [`match_pair`], [`pair_scores`] and near-duplicate rule. The documents are read again
//! from their files (checked against the SHA-256 recorded when fingerprinting).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::DistributedError;
use super::layout::{MAX_SIMHASH_THRESHOLD, describe_id};
use super::read::{DocumentRecord, Fingerprints};
use crate::engine::{Mode, Role};
use crate::fingerprint::hashing::kgram_hashes;
use crate::fingerprint::{DocumentFingerprints, simhash};
use crate::ingest;
use crate::matching::{Hit, LazyStream, MatchTuning, PairContext, Side, match_pair};
use crate::report::{DocumentEntry, Pair, Report};
use crate::score::{is_near_duplicate, near_duplicate_groups, pair_scores};
use crate::settings::Settings;

/// What to align.
pub struct AlignRequest<'a> {
    pub fingerprints: &'a Fingerprints,
    /// Pairs of document ids, `a < b`, sorted.
    pub pairs: &'a [(i64, i64)],
    /// Where the pairs came from, for error messages.
    pub pairs_path: &'a Path,
    /// Hashes too common to count (above the join's document-frequency cap), sorted.
    pub common: &'a [u64],
    /// Matching settings (min_chars, SimHash threshold, coverage); k, w and normalization
    /// are taken from the fingerprints.
    pub settings: &'a Settings,
    /// Relative source paths are read below this folder.
    pub root: Option<&'a Path>,
    /// Only the pairs whose ordinal is `index` modulo `count`.
    pub slice: (usize, usize),
}

/// A document read again for alignment.
struct Loaded {
    text: Arc<str>,
    prints: DocumentFingerprints,
}

/// Aligns the pairs of `request` (in parallel) into a report over every document of
/// the fingerprints, ids numbered in global-id order. Errors only for bad requests: an
/// unknown id, a SimHash threshold the fingerprints cannot serve. A file that can no
/// longer be read or changed since fingerprinting becomes that document's error.
pub fn align_pairs(request: &AlignRequest, tick: &(dyn Fn() + Sync)) -> Result<Report, DistributedError> {
    let settings = request.fingerprints.settings.apply(request.settings.clone()).sanitized();
    if settings.simhash_threshold > MAX_SIMHASH_THRESHOLD {
        return Err(DistributedError::invalid(
            request.pairs_path,
            format!(
                "a SimHash threshold of {} needs more SimHash blocks than the fingerprints hold (at most {MAX_SIMHASH_THRESHOLD})",
                settings.simhash_threshold
            ),
        ));
    }
    let records = &request.fingerprints.documents;
    let index_of: FxHashMap<i64, usize> = records.iter().enumerate().map(|(i, d)| (d.id, i)).collect();
    let (slice, slices) = (request.slice.0, request.slice.1.max(1));
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (ordinal, &(a, b)) in request.pairs.iter().enumerate() {
        for id in [a, b] {
            if !index_of.contains_key(&id) {
                return Err(DistributedError::UnknownDocument {
                    path: request.pairs_path.to_path_buf(),
                    id,
                    shard_and_index: describe_id(id),
                });
            }
        }
        if ordinal % slices == slice {
            pairs.push((index_of[&a], index_of[&b]));
        }
    }

    let mut needed: Vec<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    needed.sort_unstable();
    needed.dedup();
    let loaded: Vec<(usize, Result<Loaded, String>)> =
        needed.par_iter().map(|&i| (i, load(&records[i], request.root, &settings))).collect();
    let mut documents: Vec<DocumentEntry> =
        records.iter().enumerate().map(|(i, d)| entry(i, d, request.root)).collect();
    let mut texts: FxHashMap<usize, Loaded> = FxHashMap::default();
    for (i, result) in loaded {
        match result {
            Ok(doc) => {
                documents[i].text = doc.text.clone();
                texts.insert(i, doc);
            }
            Err(error) => documents[i].error = Some(error.into()),
        }
    }

    let common: FxHashSet<u64> = request.common.iter().copied().collect();
    let tuning = MatchTuning::default();
    let aligner =
        Aligner { documents: &documents, texts: &texts, common: &common, settings: &settings, tuning: &tuning };
    let mut found: Vec<Pair> = pairs
        .par_iter()
        .filter_map(|&(a, b)| {
            let pair = aligner.align(a, b);
            tick();
            pair
        })
        .collect();
    found.sort_by(|x, y| y.score.total_cmp(&x.score).then(x.a.cmp(&y.a)).then(x.b.cmp(&y.b)));
    let mut near_duplicates: Vec<[usize; 2]> = found.iter().filter(|p| p.near_duplicate).map(|p| [p.a, p.b]).collect();
    near_duplicates.sort_unstable();
    let groups = near_duplicate_groups(&near_duplicates);
    Ok(Report { settings, mode: Mode::AllVsAll, documents, pairs: found, near_duplicates, groups, skipped: Vec::new() })
}

fn source_path(record: &DocumentRecord, root: Option<&Path>) -> PathBuf {
    let source = PathBuf::from(&record.source);
    match root {
        Some(root) if source.is_relative() => root.join(source),
        _ => source,
    }
}

fn entry(id: usize, record: &DocumentRecord, root: Option<&Path>) -> DocumentEntry {
    DocumentEntry {
        id,
        path: record.path.clone(),
        source: source_path(record, root),
        role: Role::Suspect,
        chars: record.chars,
        countable_chars: record.chars,
        simhash: record.simhash,
        sha256: record.sha256.clone(),
        error: record.error.clone().map(Into::into),
        warnings: Vec::new(),
        text: Arc::from(""),
    }
}

fn load(record: &DocumentRecord, root: Option<&Path>, settings: &Settings) -> Result<Loaded, String> {
    if let Some(error) = &record.error {
        return Err(error.clone());
    }
    let path = source_path(record, root);
    let extracted = ingest::extract(&path, &settings.ingest).map_err(|e| format!("{e:#}"))?;
    if record.sha256.as_deref() != Some(extracted.sha256.as_str()) {
        return Err(format!("changed since it was fingerprinted (SHA-256 differs): {}", path.display()));
    }
    let prints = DocumentFingerprints::compute(&extracted.text, settings);
    Ok(Loaded { text: Arc::from(extracted.text), prints })
}

/// Compares one pair, as the in-memory check does.
struct Aligner<'a> {
    documents: &'a [DocumentEntry],
    texts: &'a FxHashMap<usize, Loaded>,
    common: &'a FxHashSet<u64>,
    settings: &'a Settings,
    tuning: &'a MatchTuning,
}

impl Aligner<'_> {
    fn align(&self, a: usize, b: usize) -> Option<Pair> {
        let (Some(doc_a), Some(doc_b)) = (self.texts.get(&a), self.texts.get(&b)) else {
            return None;
        };
        let k = self.settings.k.max(1);
        // The winnowed k-grams of b by hash: b plays the indexed reference.
        let mut winnowed: FxHashMap<u64, Vec<u32>> = FxHashMap::default();
        for f in &doc_b.prints.kgrams {
            winnowed.entry(f.hash).or_default().push(f.position);
        }
        let mut hits: Vec<Hit> = Vec::new();
        let tokens = &doc_a.prints.tokenized.tokens;
        for (position, hash) in kgram_hashes(tokens.iter().map(|t| t.hash), k).into_iter().enumerate() {
            if self.common.contains(&hash) {
                continue;
            }
            if let Some(positions) = winnowed.get(&hash) {
                hits.extend(positions.iter().map(|&p| Hit { a: position as u32, b: p }));
            }
        }
        hits.sort_unstable();
        hits.dedup();
        let sentences_b: FxHashSet<u64> = doc_b.prints.sentences.iter().map(|s| s.hash).collect();
        let shared_sentences = doc_a.prints.sentences.iter().filter(|s| sentences_b.contains(&s.hash)).count() as u32;

        let (entry_a, entry_b) = (&self.documents[a], &self.documents[b]);
        let ctx = PairContext {
            k,
            min_chars: self.settings.min_chars,
            tuning: self.tuning,
            suspect_masked: &[],
            reference_masked: &[],
        };
        let stream_a = LazyStream::new(&doc_a.text, self.settings.normalize);
        let stream_b = LazyStream::new(&doc_b.text, self.settings.normalize);
        let passages = match_pair(
            Side { prints: &doc_a.prints, stream: &stream_a },
            Side { prints: &doc_b.prints, stream: &stream_b },
            &hits,
            &ctx,
        );
        let scores = pair_scores(&passages, entry_a.countable_chars, entry_b.countable_chars, &[], &[]);
        let simhash_distance = match (entry_a.simhash, entry_b.simhash) {
            (Some(x), Some(y)) => Some(simhash::hamming(x, y)),
            _ => None,
        };
        let near_duplicate = is_near_duplicate(
            &scores,
            simhash_distance,
            self.settings.simhash_threshold,
            self.settings.near_duplicate_coverage,
        );
        if passages.is_empty() && !near_duplicate {
            return None;
        }
        Some(Pair {
            a,
            b,
            score: scores.score,
            score_b: scores.score_b,
            simhash_distance,
            passages,
            longest: scores.longest,
            shared_sentences,
            near_duplicate,
        })
    }
}

/// Writes a pair file (columns `a`, `b`) that [`read_pairs`](super::read::read_pairs)
/// and `twinspot align --pairs` read: for a hand-picked list of pairs to align.
pub fn write_pairs(path: &Path, pairs: &[(i64, i64)]) -> Result<(), DistributedError> {
    use super::table::{ColumnSpec, Kind, TableWriter, Values};
    const COLUMNS: &[ColumnSpec] = &[ColumnSpec::required("a", Kind::Long), ColumnSpec::required("b", Kind::Long)];
    let mut writer = TableWriter::create(path.to_path_buf(), "pairs", COLUMNS, Vec::new())?;
    writer.append(vec![
        Values::Long(pairs.iter().map(|p| Some(p.0)).collect()),
        Values::Long(pairs.iter().map(|p| Some(p.1)).collect()),
    ])?;
    writer.finish()
}

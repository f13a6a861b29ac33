//! `align`: aligns just the candidate pairs an SQL engine found, with the matcher of
//! `compare --all` ([`align_candidates`]): the documents the pairs need are read again
//! from their files (checked against the SHA-256 recorded when fingerprinting) and
//! indexed, and what only the whole collection knows — how many documents hold a
//! frequent hash, which of them come first — is read from the spreads
//! sql/kgram_spreads.sql and sql/sentence_spreads.sql computed.

use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap;

use super::DistributedError;
use super::layout::{MAX_SIMHASH_THRESHOLD, describe_id};
use super::read::{DocumentRecord, Fingerprints, HashKind, HashSpread};
use crate::engine::Report;
use crate::engine::{CandidateDocument, CandidateRequest, align_candidates};
use crate::index::Spread;
use crate::model::saturating_u32;
use crate::settings::Settings;

/// What to align.
pub struct AlignRequest<'a> {
    pub fingerprints: &'a Fingerprints,
    /// Pairs of document ids, `a < b`, sorted.
    pub pairs: &'a [(i64, i64)],
    /// Where the pairs came from, for error messages.
    pub pairs_path: &'a Path,
    /// How the whole collection holds its frequent hashes.
    pub spreads: &'a [HashSpread],
    /// Where the spreads came from, for error messages.
    pub spreads_path: &'a Path,
    /// Matching settings (min_chars, SimHash threshold, coverage, stop passages); k, w and
    /// normalization are taken from the fingerprints.
    pub settings: &'a Settings,
    /// Relative source paths are read below this folder.
    pub root: Option<&'a Path>,
    /// Only the suspects (smaller ids of the pairs) whose ordinal is `index` modulo `count`.
    pub slice: (usize, usize),
    /// Characters of the documents read at once (see [`CandidateRequest::group_chars`]).
    pub group_chars: usize,
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
    if let Some(rule) = request.fingerprints.settings.join_rule
        && !rule.serves(settings.min_chars)
    {
        return Err(DistributedError::invalid(
            request.pairs_path,
            format!(
                "the candidate pairs were chosen for passages of at least {} characters (the fingerprints' rule): align with --min-chars {} or more",
                rule.min_chars, rule.min_chars
            ),
        ));
    }
    let records = &request.fingerprints.documents;
    let index_of: FxHashMap<i64, usize> = records.iter().enumerate().map(|(i, d)| (d.id, i)).collect();
    let position = |id: i64, path: &Path| {
        index_of.get(&id).copied().ok_or_else(|| DistributedError::UnknownDocument {
            path: path.to_path_buf(),
            id,
            shard_and_index: describe_id(id),
        })
    };
    let pairs: Vec<(usize, usize)> = request
        .pairs
        .iter()
        .map(|&(a, b)| Ok((position(a, request.pairs_path)?, position(b, request.pairs_path)?)))
        .collect::<Result<_, DistributedError>>()?;
    let mut kgram_spreads = FxHashMap::default();
    let mut sentence_spreads = FxHashMap::default();
    for row in request.spreads {
        let mut first = [0u32; Spread::FIRST];
        for (slot, id) in first.iter_mut().zip(row.first.iter().flatten()) {
            *slot = saturating_u32(position(*id, request.spreads_path)?);
        }
        let count = |n: i64| usize::try_from(n.max(0)).unwrap_or(usize::MAX);
        let spread = Spread { documents: count(row.documents), postings: count(row.postings), first };
        match row.kind {
            HashKind::Kgram => kgram_spreads.insert(row.hash, spread),
            HashKind::Sentence => sentence_spreads.insert(row.hash, spread),
        };
    }
    let documents: Vec<CandidateDocument> = records.iter().map(|d| candidate(d, request.root)).collect();
    let candidates = CandidateRequest {
        documents: &documents,
        pairs: &pairs,
        kgram_spreads: &kgram_spreads,
        sentence_spreads: &sentence_spreads,
        settings: &settings,
        slice: request.slice,
        group_chars: request.group_chars,
    };
    Ok(align_candidates(&candidates, tick)?)
}

fn source_path(record: &DocumentRecord, root: Option<&Path>) -> PathBuf {
    let source = PathBuf::from(&record.source);
    match root {
        Some(root) if source.is_relative() => root.join(source),
        _ => source,
    }
}

fn candidate(record: &DocumentRecord, root: Option<&Path>) -> CandidateDocument {
    CandidateDocument {
        display: record.path.clone(),
        source: source_path(record, root),
        sha256: record.sha256.clone(),
        chars: record.chars,
        has_words: record.tokens > 0,
        simhash: record.simhash,
        error: record.error.clone(),
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

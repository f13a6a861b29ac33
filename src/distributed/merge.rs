//! `merge`: joins the partial JSON reports of several `align` runs over slices of the same
//! pairs into one report. Pairs are united, near-duplicate groups recomputed as the
//! connected components of all near-duplicate edges.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;

use super::DistributedError;
use crate::engine::Report;
use crate::engine::assemble;
use crate::model::{DocumentEntry, Pair, Passage};
use crate::model::{Mode, Role};
use crate::settings::Settings;

#[derive(Deserialize)]
struct JsonReport {
    version: u32,
    settings: Settings,
    documents: Vec<JsonDocument>,
    pairs: Vec<JsonPair>,
    near_duplicates: Vec<[usize; 2]>,
}

#[derive(Deserialize, PartialEq)]
struct JsonDocument {
    id: usize,
    path: String,
    role: Role,
    chars: usize,
    simhash: Option<String>,
    sha256: Option<String>,
    error: Option<String>,
}

#[derive(Deserialize)]
struct JsonPair {
    a: usize,
    b: usize,
    score: f64,
    score_b: f64,
    simhash_distance: Option<u32>,
    passages: Vec<Passage>,
    /// Passages shown but not counted (common, quoted), each with its kind.
    #[serde(default)]
    excluded: Vec<Passage>,
}

fn parse(path: &Path, content: &str) -> Result<JsonReport, DistributedError> {
    let bad = |message: String| DistributedError::BadReport { path: path.to_path_buf(), message };
    let report: JsonReport = serde_json::from_str(content).map_err(|e| bad(e.to_string()))?;
    if report.version != 1 {
        return Err(bad(format!("version {} (this build reads version 1)", report.version)));
    }
    let n = report.documents.len();
    if report.documents.iter().enumerate().any(|(i, d)| d.id != i) {
        return Err(bad("document ids are not 0, 1, 2, …".into()));
    }
    if report.pairs.iter().any(|p| p.a >= n || p.b >= n) || report.near_duplicates.iter().flatten().any(|&d| d >= n) {
        return Err(bad("a pair names a document the report does not list".into()));
    }
    Ok(report)
}

/// Merges partial reports given as `(path, JSON text)`. They must list the same
/// documents (path, size, SHA-256) and share their settings: slices of one pair list
/// aligned over one fingerprint folder.
pub fn merge_reports(parts: &[(PathBuf, String)]) -> Result<Report, DistributedError> {
    let mut reports = Vec::with_capacity(parts.len());
    for (path, content) in parts {
        reports.push((path, parse(path, content)?));
    }
    let Some(((first_path, first), rest)) = reports.split_first() else {
        return Err(DistributedError::Mismatch("no reports given".into()));
    };
    for (path, other) in rest {
        if other.documents != first.documents {
            return Err(DistributedError::Mismatch(format!(
                "{} and {} list different documents (align each slice over the same fingerprint folder)",
                first_path.display(),
                path.display()
            )));
        }
        if other.settings != first.settings {
            return Err(DistributedError::Mismatch(format!(
                "{} and {} were aligned with different settings",
                first_path.display(),
                path.display()
            )));
        }
    }
    let near: BTreeSet<[usize; 2]> = reports.iter().flat_map(|(_, r)| r.near_duplicates.iter().copied()).collect();
    let mut seen = BTreeSet::new();
    let mut pairs: Vec<Pair> = Vec::new();
    for (_, report) in &reports {
        for p in &report.pairs {
            if !seen.insert((p.a, p.b)) {
                continue;
            }
            pairs.push(Pair {
                a: p.a,
                b: p.b,
                score: p.score,
                score_b: p.score_b,
                simhash_distance: p.simhash_distance,
                passages: p.passages.iter().chain(&p.excluded).cloned().collect(),
                // The longest counted passage, as scored.
                longest: p.passages.iter().map(Passage::a_len).max().unwrap_or(0),
                // Not carried by the JSON report.
                shared_sentences: 0,
                near_duplicate: near.contains(&[p.a, p.b]),
            });
        }
    }
    let documents = first
        .documents
        .iter()
        .map(|d| DocumentEntry {
            id: d.id,
            path: d.path.clone(),
            source: PathBuf::from(&d.path),
            role: d.role,
            chars: d.chars,
            countable_chars: d.chars,
            simhash: d.simhash.as_deref().and_then(|h| u64::from_str_radix(h, 16).ok()),
            sha256: d.sha256.clone(),
            error: d.error.clone().map(Into::into),
            warnings: Vec::new(),
            flags: Vec::new(),
            text: Arc::from(""),
        })
        .collect();
    Ok(assemble(first.settings.clone(), Mode::AllVsAll, documents, pairs, Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(pairs: &str, near: &str) -> String {
        format!(
            r#"{{"version": 1, "tool": "t", "settings": {{}}, "documents": [
            {{"id": 0, "path": "x", "role": "suspect", "chars": 100, "simhash": "00000000000000ff", "sha256": "aa", "error": null}},
            {{"id": 1, "path": "y", "role": "suspect", "chars": 100, "simhash": null, "sha256": "bb", "error": null}},
            {{"id": 2, "path": "z", "role": "suspect", "chars": 100, "simhash": null, "sha256": "cc", "error": null}}],
            "pairs": [{pairs}], "near_duplicates": [{near}]}}"#
        )
    }

    #[test]
    fn slices_merge_into_groups_of_connected_documents() {
        let p01 = r#"{"a": 0, "b": 1, "score": 0.9, "score_b": 0.9, "simhash_distance": 1, "passages": [{"a_start": 0, "a_end": 90, "b_start": 0, "b_end": 90}]}"#;
        let p12 = r#"{"a": 1, "b": 2, "score": 0.8, "score_b": 0.8, "simhash_distance": 2, "passages": []}"#;
        let parts = vec![
            (PathBuf::from("one.json"), report(p01, "[0, 1]")),
            (PathBuf::from("two.json"), report(p12, "[1, 2]")),
        ];
        let merged = merge_reports(&parts).unwrap();
        assert_eq!(merged.pairs.len(), 2);
        assert_eq!(merged.groups, vec![vec![0, 1, 2]]);
        assert_eq!(merged.documents[0].simhash, Some(0xff));
        assert_eq!(merged.pairs[0].longest, 90);
    }

    #[test]
    fn reports_over_other_documents_are_refused() {
        let other = report("", "").replace("\"z\"", "\"w\"");
        let parts = vec![(PathBuf::from("one.json"), report("", "")), (PathBuf::from("two.json"), other)];
        assert!(matches!(merge_reports(&parts), Err(DistributedError::Mismatch(_))));
        let bad = vec![(PathBuf::from("bad.json"), "{".to_string())];
        assert!(matches!(merge_reports(&bad), Err(DistributedError::BadReport { .. })));
    }
}

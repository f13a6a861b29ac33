//! The JSON result, version 1 (see the design's schema): documents with paths as given,
//! pairs with scores and passages, near duplicates, and the settings used.
//!
//! A pair's `passages` are the passages that count in its score (copied text, and quoted
//! text when the check counts quotations); the passages shown but not counted (common,
//! quoted, template) are in its `excluded` list, each with its `kind`. Scorers that
//! count every entry of `passages` as a detection thus see only what the scores count.

use serde::Serialize;

use super::{Passage, Report};
use crate::model::{Flag, Mode, Role, Skipped};
use crate::settings::Settings;

#[derive(Serialize)]
struct JsonReport<'a> {
    version: u32,
    tool: &'static str,
    /// Said only in classmates mode (the other modes' output is as it always was): pairs
    /// of two suspects are classmates, a suspect and a reference a source.
    #[serde(skip_serializing_if = "Option::is_none")]
    mode: Option<Mode>,
    settings: &'a Settings,
    documents: Vec<JsonDocument<'a>>,
    pairs: Vec<JsonPair<'a>>,
    near_duplicates: &'a [[usize; 2]],
    /// Paths passed over while collecting the inputs, and why.
    skipped: &'a [Skipped],
}

#[derive(Serialize)]
struct JsonDocument<'a> {
    id: usize,
    path: &'a str,
    role: Role,
    chars: usize,
    simhash: Option<String>,
    sha256: Option<&'a str>,
    /// Share of a suspect's text found in any other document; absent for other roles.
    #[serde(skip_serializing_if = "Option::is_none")]
    overall: Option<f64>,
    error: Option<String>,
    /// Things worth knowing that did not stop the reading ("decoded as GBK", "no text
    /// found", only a prefix compared, pairs left out, …).
    warnings: Vec<String>,
    /// What the document does to hide a copy; absent for ordinary documents.
    #[serde(skip_serializing_if = "<[Flag]>::is_empty")]
    flags: &'a [Flag],
}

#[derive(Serialize)]
struct JsonPair<'a> {
    a: usize,
    b: usize,
    score: f64,
    score_b: f64,
    simhash_distance: Option<u32>,
    passages: Vec<&'a Passage>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    excluded: Vec<&'a Passage>,
}

/// Rounds a score to 4 decimals so the output is stable and readable.
fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The report as pretty-printed JSON.
pub fn to_json(report: &Report) -> String {
    let json = JsonReport {
        version: 1,
        tool: super::TOOL,
        mode: (report.mode == Mode::Classmates).then_some(report.mode),
        settings: &report.settings,
        documents: report
            .documents
            .iter()
            .map(|d| JsonDocument {
                id: d.id,
                path: &d.path,
                role: d.role,
                chars: d.chars,
                simhash: d.simhash.map(|h| format!("{h:016x}")),
                sha256: d.sha256.as_deref(),
                overall: (d.role == Role::Suspect && d.error.is_none()).then(|| round(report.overall(d.id))),
                error: d.error.as_ref().map(ToString::to_string),
                warnings: d.warnings.iter().map(ToString::to_string).collect(),
                flags: &d.flags,
            })
            .collect(),
        pairs: report
            .pairs
            .iter()
            .map(|p| JsonPair {
                a: p.a,
                b: p.b,
                score: round(p.score),
                score_b: round(p.score_b),
                simhash_distance: p.simhash_distance,
                passages: p.passages.iter().filter(|x| x.counts(report.settings.count_quoted)).collect(),
                excluded: p.passages.iter().filter(|x| !x.counts(report.settings.count_quoted)).collect(),
            })
            .collect(),
        near_duplicates: &report.near_duplicates,
        skipped: &report.skipped,
    };
    // Serializing plain structs of numbers and strings cannot fail.
    serde_json::to_string_pretty(&json).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}")) + "\n"
}

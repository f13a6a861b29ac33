//! A reviewer's marks on pairs and passages (confirmed, dismissed, dismissed everywhere)
//! and a note per pair, kept in a JSON file beside the results. Keys are the documents'
//! SHA-256 and a hash of the passage's text, so marks come back on the next run over the
//! same files wherever those files now sit.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Pair, Passage, Report};
use crate::ingest::sha256_hex;
use crate::model::{CharAt, CharIndex};

/// A reviewer's verdict on a pair or a passage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Looked at: it is copied.
    Confirmed,
    /// Looked at: not evidence here (it leaves this pair's scores).
    Dismissed,
    /// Not evidence anywhere: the text joins the stop-passage list and leaves every score.
    DismissedEverywhere,
}

/// Marks of one pair of documents.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PairMarks {
    pub mark: Option<Mark>,
    pub note: String,
    /// By passage key ([`passage_key`]).
    pub passages: BTreeMap<String, Mark>,
}

impl PairMarks {
    fn is_empty(&self) -> bool {
        self.mark.is_none() && self.note.trim().is_empty() && self.passages.is_empty()
    }
}

/// Every mark of a reviewer, as written to the marks file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Marks {
    /// By pair key ([`pair_key`]).
    pub pairs: BTreeMap<String, PairMarks>,
    /// Passages dismissed everywhere: passage key → the passage's text (one line).
    pub stop_passages: BTreeMap<String, String>,
}

/// Why the marks file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum MarksError {
    #[error("cannot read the review marks {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("the review marks {path} are not valid: {source}")]
    Parse { path: String, source: serde_json::Error },
    #[error("cannot write the review marks {path}: {source}")]
    Write { path: String, source: std::io::Error },
}

/// The file name of the marks beside the results, and of the stop-passage list.
pub const MARKS_FILE: &str = "twinspot-review.json";
pub const STOP_PASSAGES_FILE: &str = "twinspot-stop-passages.txt";

/// The key of a document: its SHA-256, or its path when the file could not be hashed.
fn doc_key(report: &Report, id: usize) -> String {
    report
        .documents
        .get(id)
        .map_or_else(String::new, |d| d.sha256.clone().unwrap_or_else(|| format!("path:{}", d.path)))
}

/// The key of a pair: both documents' SHA-256, suspect side first.
pub fn pair_key(report: &Report, pair: &Pair) -> String {
    format!("{}:{}", doc_key(report, pair.a), doc_key(report, pair.b))
}

/// The text of a passage on the suspect side.
pub fn passage_text<'a>(report: &'a Report, pair: &Pair, passage: &Passage) -> &'a str {
    report
        .documents
        .get(pair.a)
        .map_or("", |d| CharIndex::new(&d.text).slice(CharAt(passage.a_start), CharAt(passage.a_end)))
}

/// The key of a passage: the SHA-256 of its text on the suspect side.
pub fn passage_key(report: &Report, pair: &Pair, passage: &Passage) -> String {
    sha256_hex(passage_text(report, pair, passage).as_bytes())
}

impl Marks {
    /// Reads the marks file; a missing file is no marks.
    pub fn load(path: &Path) -> Result<Self, MarksError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(source) => return Err(MarksError::Read { path: path.display().to_string(), source }),
        };
        serde_json::from_str(&text).map_err(|source| MarksError::Parse { path: path.display().to_string(), source })
    }

    /// Writes the marks file and, beside it, the stop-passage list (one passage a line).
    pub fn save(&self, path: &Path) -> Result<(), MarksError> {
        let write = |p: &Path, text: String| {
            if let Some(dir) = p.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|source| MarksError::Write { path: dir.display().to_string(), source })?;
            }
            // Atomic, like every report: a crash mid-save keeps the previous marks whole.
            super::write::write_atomic("review marks", p, text.as_bytes(), [])
                .map_err(|e| MarksError::Write { path: p.display().to_string(), source: std::io::Error::other(e) })
        };
        // Plain structs of strings: serialising cannot fail.
        let json = serde_json::to_string_pretty(self).unwrap_or_default();
        write(path, json + "\n")?;
        let stop: String = self.stop_passages.values().map(|t| format!("{t}\n")).collect();
        write(&path.with_file_name(STOP_PASSAGES_FILE), stop)
    }

    /// The marks of a pair, if any.
    pub fn pair(&self, report: &Report, pair: &Pair) -> Option<&PairMarks> {
        self.pairs.get(&pair_key(report, pair))
    }

    /// The mark of a passage: its own, or "dismissed everywhere" from the stop list.
    pub fn passage(&self, report: &Report, pair: &Pair, passage: &Passage) -> Option<Mark> {
        let key = passage_key(report, pair, passage);
        if self.stop_passages.contains_key(&key) {
            return Some(Mark::DismissedEverywhere);
        }
        self.pair(report, pair).and_then(|m| m.passages.get(&key).copied())
    }

    /// Sets (or clears) the mark of a whole pair.
    pub fn set_pair(&mut self, report: &Report, pair: &Pair, mark: Option<Mark>) {
        let key = pair_key(report, pair);
        let entry = self.pairs.entry(key.clone()).or_default();
        entry.mark = mark;
        self.prune(&key);
    }

    /// Sets the note of a pair.
    pub fn set_note(&mut self, report: &Report, pair: &Pair, note: &str) {
        let key = pair_key(report, pair);
        self.pairs.entry(key.clone()).or_default().note = note.to_owned();
        self.prune(&key);
    }

    /// Sets (or clears) the mark of one passage; "dismissed everywhere" puts its text on
    /// the stop list, any other mark takes it off.
    pub fn set_passage(&mut self, report: &Report, pair: &Pair, passage: &Passage, mark: Option<Mark>) {
        let key = passage_key(report, pair, passage);
        if mark == Some(Mark::DismissedEverywhere) {
            let text = passage_text(report, pair, passage).split_whitespace().collect::<Vec<_>>().join(" ");
            self.stop_passages.insert(key.clone(), text);
        } else {
            self.stop_passages.remove(&key);
        }
        let pkey = pair_key(report, pair);
        let entry = self.pairs.entry(pkey.clone()).or_default();
        match mark {
            Some(m) => entry.passages.insert(key, m),
            None => entry.passages.remove(&key),
        };
        self.prune(&pkey);
    }

    fn prune(&mut self, key: &str) {
        if self.pairs.get(key).is_some_and(PairMarks::is_empty) {
            self.pairs.remove(key);
        }
    }

    /// The mark of every passage of `pair`, in order; cheap when nothing could apply
    /// (each text is walked once, not once per passage).
    pub fn passages_of(&self, report: &Report, pair: &Pair) -> Vec<Option<Mark>> {
        let own = self.pair(report, pair).filter(|m| !m.passages.is_empty());
        if own.is_none() && self.stop_passages.is_empty() {
            return vec![None; pair.passages.len()];
        }
        let Some(doc) = report.documents.get(pair.a) else {
            return vec![None; pair.passages.len()];
        };
        let index = CharIndex::new(&doc.text);
        pair.passages
            .iter()
            .map(|p| {
                let key = sha256_hex(index.slice(CharAt(p.a_start), CharAt(p.a_end)).as_bytes());
                if self.stop_passages.contains_key(&key) {
                    Some(Mark::DismissedEverywhere)
                } else {
                    own.and_then(|m| m.passages.get(&key).copied())
                }
            })
            .collect()
    }

    /// True when a passage no longer counts (dismissed here or everywhere).
    pub fn is_dismissed(&self, report: &Report, pair: &Pair, passage: &Passage) -> bool {
        matches!(self.passage(report, pair, passage), Some(Mark::Dismissed | Mark::DismissedEverywhere))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests_support::sample;

    #[test]
    fn marks_survive_a_save_and_load_and_follow_the_hashes() {
        let report = sample();
        let pair = &report.pairs[0];
        let mut marks = Marks::default();
        marks.set_pair(&report, pair, Some(Mark::Confirmed));
        marks.set_note(&report, pair, "seen in class");
        marks.set_passage(&report, pair, &pair.passages[0], Some(Mark::DismissedEverywhere));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(MARKS_FILE);
        marks.save(&path).unwrap();
        let back = Marks::load(&path).unwrap();
        assert_eq!(back, marks);
        assert!(back.is_dismissed(&report, pair, &pair.passages[0]));
        let stop = std::fs::read_to_string(dir.path().join(STOP_PASSAGES_FILE)).unwrap();
        assert_eq!(stop.lines().count(), 1);
        assert!(pair_key(&report, pair).starts_with("aaaa"));
        marks.set_passage(&report, pair, &pair.passages[0], None);
        assert!(marks.stop_passages.is_empty());
        assert!(Marks::load(&dir.path().join("none.json")).unwrap().pairs.is_empty());
    }
}

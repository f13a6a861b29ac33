//! Checking suspects against an archive: one way, new against archived, never the
//! archive against itself. The report has the same schema as a check's: the suspects
//! first, then every archived document that shares something with one of them.

use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;
use rusqlite::OptionalExtension;

use super::reader::ArchiveIndex;
use super::{Archive, ArchiveError};
use crate::engine::{
    CancelFlag, DocumentInput, Matcher, Mode, Progress, ProgressSink, Role, Stage, SuspectDoc, load_document,
    max_postings,
};
use crate::fingerprint::simhash;
use crate::index::ReferenceIndex;
use crate::matching::MatchTuning;
use crate::report::{DocumentEntry, Pair, Report};
use crate::score::near_duplicate_groups;

/// Checks `suspects` against `archive`. Per-file errors do not stop it: such a suspect
/// gets an `error` in the report.
pub fn check_against(
    archive: &Archive,
    suspects: &[DocumentInput],
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<Report, ArchiveError> {
    let settings = archive.settings().clone();
    let total = suspects.len();
    sink.progress(Progress { stage: Stage::Reading, done: 0, total });
    let mut docs: Vec<_> = suspects
        .par_iter()
        .enumerate()
        .map(|(id, input)| {
            let mut d = load_document(id, input, &settings);
            if d.prints.is_some() {
                d.entry.simhash = Some(simhash::text_simhash(&d.entry.text, settings.normalize));
            }
            d
        })
        .collect();
    if cancel.is_cancelled() {
        return Err(ArchiveError::Cancelled);
    }
    let index = ArchiveIndex::open(archive)?;
    sink.progress(Progress { stage: Stage::Matching, done: 0, total });
    let tuning = MatchTuning::default();
    let every = |_: usize, _: usize| true;
    let matcher = Matcher {
        index: &index,
        settings: &settings,
        tuning: &tuning,
        max_postings: max_postings(index.reference_count()),
        wanted: &every,
    };
    let per_suspect: Vec<Vec<Pair>> = docs
        .par_iter_mut()
        .map(|d| {
            if cancel.is_cancelled() {
                return Vec::new();
            }
            let Some(prints) = d.prints.take() else {
                return Vec::new();
            };
            matcher.pairs_of(&SuspectDoc {
                id: d.entry.id,
                prints: &prints,
                text: &d.entry.text,
                masked_chars: &d.masked_chars,
                countable_chars: d.entry.countable_chars,
                simhash: d.entry.simhash,
            })
        })
        .collect();
    if cancel.is_cancelled() {
        return Err(ArchiveError::Cancelled);
    }
    let mut documents: Vec<DocumentEntry> = docs.into_iter().map(|d| d.entry).collect();
    let mut pairs: Vec<Pair> = per_suspect.into_iter().flatten().collect();

    // Archived documents enter the report in id order, after the suspects.
    let mut archived: Vec<usize> = pairs.iter().map(|p| p.b).collect();
    archived.sort_unstable();
    archived.dedup();
    for &id in &archived {
        let position = documents.len();
        documents.push(reference_entry(archive, id as i64, position)?);
    }
    let first = suspects.len();
    for p in &mut pairs {
        p.b = first + archived.partition_point(|&x| x < p.b);
    }
    pairs.sort_by(|x, y| y.score.total_cmp(&x.score).then(x.a.cmp(&y.a)).then(x.b.cmp(&y.b)));
    let mut near_duplicates: Vec<[usize; 2]> = pairs.iter().filter(|p| p.near_duplicate).map(|p| [p.a, p.b]).collect();
    near_duplicates.sort_unstable();
    let groups = near_duplicate_groups(&near_duplicates);
    sink.progress(Progress { stage: Stage::Done, done: 1, total: 1 });
    Ok(Report { settings, mode: Mode::SuspectsVsReferences, documents, pairs, near_duplicates, groups })
}

/// The report entry of archived document `id`, at position `position` of the report.
fn reference_entry(archive: &Archive, id: i64, position: usize) -> Result<DocumentEntry, ArchiveError> {
    type Row = (String, String, Vec<u8>, i64, Option<i64>);
    let row: Option<Row> = archive
        .lock()
        .query_row("SELECT path, sha256, text, chars, simhash FROM documents WHERE id = ?1", [id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .optional()
        .map_err(|e| archive.sql(e))?;
    let (path, sha256, text, chars, simhash) = row.ok_or(ArchiveError::NoSuchDocument(id))?;
    let text = super::add::decompress(&text).map_err(|e| ArchiveError::Corrupt(format!("document {id}: {e}")))?;
    Ok(DocumentEntry {
        id: position,
        source: PathBuf::from(&path),
        path,
        role: Role::Reference,
        chars: chars as usize,
        countable_chars: chars as usize,
        simhash: simhash.map(|h| h as u64),
        sha256: Some(sha256),
        error: None,
        warnings: Vec::new(),
        text: Arc::from(text),
    })
}

//! A small finished report for the report modules' tests: one suspect, two references,
//! passages of all four kinds, and a document that could not be read.
#![allow(clippy::cast_possible_truncation, reason = "the tests' values are small")]

use std::path::PathBuf;
use std::sync::Arc;

use super::{DocumentEntry, Pair, Passage, PassageKind, Report};
use crate::model::{Mode, Role};
use crate::settings::Settings;

fn doc(id: usize, path: &str, text: &str, sha: char) -> DocumentEntry {
    DocumentEntry {
        id,
        path: path.into(),
        source: PathBuf::from(path),
        role: if id == 0 { Role::Suspect } else { Role::Reference },
        chars: text.chars().count(),
        countable_chars: text.chars().count(),
        simhash: Some(id as u64),
        sha256: Some(sha.to_string().repeat(64)),
        error: None,
        warnings: vec![],
        flags: vec![],
        text: Arc::from(text),
    }
}

/// `s<1>.txt` shares a copied, a quoted, a common and a template passage with `r.txt`
/// and one copied passage with `q.txt`; `bad.pdf` could not be read.
pub fn sample() -> Report {
    let a = "前言。软件工程是一门学科 & more. \"To be or not to be\" said he. In conclusion we can say. Name: ____ Class: ____ The end of it all.";
    let r = "软件工程是一门学科 \"To be or not to be\" In conclusion we can say. Name: ____ Class: ____";
    let q = "The end of it all.";
    let span = |text: &str, part: &str| {
        let byte = text.find(part).unwrap_or(0);
        let start = text[..byte].chars().count() as u32;
        (start, start + part.chars().count() as u32)
    };
    let kind = |mut p: Passage, k: PassageKind| {
        p.kind = k;
        p
    };
    let both = |part: &str| (span(a, part), span(r, part));
    let (c1, c2) = both("软件工程是一门学科");
    let (q1, q2) = both("\"To be or not to be\"");
    let (m1, m2) = both("In conclusion we can say.");
    let (t1, t2) = both("Name: ____ Class: ____");
    let mut bad = doc(3, "bad.pdf", "", 'd');
    bad.error = Some("not a PDF: bad.pdf".into());
    bad.sha256 = None;
    let mut report = Report {
        settings: Settings::default(),
        mode: Mode::SuspectsVsReferences,
        documents: vec![doc(0, "s<1>.txt", a, 'a'), doc(1, "r.txt", r, 'b'), doc(2, "q.txt", q, 'c'), bad],
        pairs: vec![
            Pair {
                a: 0,
                b: 1,
                score: 0.0,
                score_b: 0.0,
                simhash_distance: Some(4),
                passages: vec![
                    Passage::copied(c1, c2),
                    kind(Passage::copied(q1, q2), PassageKind::Quoted),
                    kind(Passage::copied(m1, m2), PassageKind::Common),
                    kind(Passage::copied(t1, t2), PassageKind::Template),
                ],
                longest: 9,
                shared_sentences: 1,
                near_duplicate: false,
            },
            Pair {
                a: 0,
                b: 2,
                score: 0.0,
                score_b: 1.0,
                simhash_distance: None,
                passages: vec![Passage::copied(span(a, q), span(q, q))],
                longest: 18,
                shared_sentences: 0,
                near_duplicate: false,
            },
        ],
        near_duplicates: vec![],
        groups: vec![],
        skipped: vec![],
    };
    let chars = report.documents[0].countable_chars as f64;
    report.pairs[0].score = 9.0 / chars;
    report.pairs[1].score = 18.0 / chars;
    report.pairs.sort_by(|x, y| y.score.total_cmp(&x.score));
    report
}

//! The one assembly of a check's result: every front end's pairs become a [`Report`] —
//! sorted, near duplicates listed, groups formed — in one place, whether they came from a
//! check of folders, a check against a store or a list of candidate pairs.

use super::languages::note_other_languages;
use crate::model::{DocumentEntry, Mode, Pair, Role, Skipped, union_length};
use crate::score::near_duplicate_groups;
use crate::settings::Settings;

/// Everything a check found.
#[derive(Clone, Debug)]
pub struct Report {
    pub settings: Settings,
    pub mode: Mode,
    pub documents: Vec<DocumentEntry>,
    /// Sorted by score, highest first, then by ids.
    pub pairs: Vec<Pair>,
    /// Near-duplicate pairs `[a, b]`, sorted.
    pub near_duplicates: Vec<[usize; 2]>,
    /// Groups of near duplicates (connected components), each sorted, largest first.
    pub groups: Vec<Vec<usize>>,
    /// Paths passed over while collecting the inputs, and why.
    pub skipped: Vec<Skipped>,
}

impl Report {
    /// The documents that could not be read.
    pub fn errors(&self) -> impl Iterator<Item = &DocumentEntry> {
        self.documents.iter().filter(|d| d.error.is_some())
    }

    /// Whether document `doc` is one of the checked documents (a student), whose overall
    /// similarity is a result even when nothing was found: a readable suspect, or any
    /// readable document but a template all against all.
    pub fn is_checked(&self, doc: usize) -> bool {
        self.documents.get(doc).is_some_and(|d| {
            d.error.is_none()
                && match d.role {
                    Role::Suspect => true,
                    Role::Reference => self.mode == Mode::AllVsAll,
                    Role::Template => false,
                }
        })
    }

    /// Whether pair `pair`'s second document is checked as well (its share counts for it):
    /// all against all, and between classmates.
    pub fn second_is_checked(&self, pair: &Pair) -> bool {
        self.documents.get(pair.b).is_some_and(|d| self.mode.second_is_checked(d.role))
    }

    /// The overall similarity of document `doc` (the Turnitin-style index): the share of its
    /// countable characters inside a counted passage (see [`crate::model::Passage::counts`]) from any other document, whatever the
    /// source, each character counted once. In all-vs-all mode both sides of a pair count;
    /// in classmates mode both sides of a pair of classmates.
    pub fn overall(&self, doc: usize) -> f64 {
        let Some(entry) = self.documents.get(doc) else {
            return 0.0;
        };
        let mut spans: Vec<(u32, u32)> = Vec::new();
        for pair in &self.pairs {
            let count_quoted = self.settings.count_quoted;
            let copied = pair.passages.iter().filter(|p| p.counts(count_quoted));
            if pair.a == doc {
                spans.extend(copied.map(|p| (p.a_start, p.a_end)));
            } else if pair.b == doc && self.mode.second_is_checked(entry.role) {
                spans.extend(copied.map(|p| (p.b_start, p.b_end)));
            }
        }
        let covered = union_length(&mut spans);
        if entry.countable_chars == 0 { 0.0 } else { (covered as f64 / entry.countable_chars as f64).min(1.0) }
    }
}

/// Assembles a report: `pairs` sorted by score (highest first, then by ids), the near
/// duplicates among them listed in order, and their groups formed; a checked document with
/// nothing counted is told when it was compared with documents in another script.
pub(crate) fn assemble(
    settings: Settings,
    mode: Mode,
    documents: Vec<DocumentEntry>,
    mut pairs: Vec<Pair>,
    skipped: Vec<Skipped>,
) -> Report {
    pairs.sort_by(|x, y| y.score.total_cmp(&x.score).then(x.a.cmp(&y.a)).then(x.b.cmp(&y.b)));
    let mut near_duplicates: Vec<[usize; 2]> = pairs.iter().filter(|p| p.near_duplicate).map(|p| [p.a, p.b]).collect();
    near_duplicates.sort_unstable();
    let groups = near_duplicate_groups(&near_duplicates);
    let mut report = Report { settings, mode, documents, pairs, near_duplicates, groups, skipped };
    let mut found = vec![false; report.documents.len()];
    let count_quoted = report.settings.count_quoted;
    for pair in report.pairs.iter().filter(|p| p.passages.iter().any(|x| x.counts(count_quoted))) {
        if let Some(a) = found.get_mut(pair.a) {
            *a = true;
        }
        if report.second_is_checked(pair)
            && let Some(b) = found.get_mut(pair.b)
        {
            *b = true;
        }
    }
    let quiet: Vec<usize> =
        (0..report.documents.len()).filter(|&d| report.is_checked(d) && !found.get(d).is_some_and(|&f| f)).collect();
    note_other_languages(&mut report.documents, (mode, report.settings.meaning), &quiet);
    report
}

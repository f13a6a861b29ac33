//! The sketches of an add's documents looked up while the add runs, in the k-gram
//! segments the archive held when its first new document was read ([`Before`]).
//!
//! The groups' rule (`regroup.rs`) asks, for each new document, which documents share
//! its sketch. Most of an archive's postings lie in the segments it held before the add,
//! and no document of the add is in them: their lookups run batch by batch, on a thread
//! of their own beside the add's reading and commits, where they used to wait until every
//! batch was committed (1.1 s of an add of 5,000 at 1.5 million documents). After the add
//! only the segments it wrote (and any merged from them) are looked up, for the add's own
//! documents. Together both give what one lookup in every segment after the add gives;
//! where they could not (a lookup failed, or a document the add replaced was among the
//! first postings of a hash that has more), [`Before::sharing`] says so and the groups'
//! rule looks everything up after the add, as it did.

use std::borrow::Cow;
use std::path::Path;

use rusqlite::Connection;
use rustc_hash::{FxHashMap, FxHashSet};

use super::groups::Fresh;
use super::lookup::{CAP, SegmentLookup};
use super::regroup::sharing;
use super::rows;
use super::segment::Kind;
use super::spans::{Found, first_postings_sorted};
use super::ArchiveError;
use crate::index::Posting;

/// The archive's k-gram segments as the add found them, and what they hold of the
/// sketches looked up so far.
pub(super) struct Before {
    segments: Vec<SegmentLookup>,
    files: FxHashSet<String>,
    removed: FxHashSet<u32>,
    /// The largest document id when the add began: every document above it is the add's.
    last: u32,
    /// Each hash looked up: its range in `docs`.
    found: FxHashMap<u64, (u32, u32)>,
    /// The document of each posting found, the first [`CAP`] of each hash, lowest first.
    docs: Vec<u32>,
    /// A lookup failed: what was found is not the whole answer.
    failed: bool,
}

/// What one batch's lookups found: its hashes (ascending) and, for each, the documents of
/// its first postings; `None` when a segment could not be read.
pub(super) struct Looked {
    hashes: Vec<u64>,
    docs: Option<Vec<Vec<u32>>>,
}

impl Before {
    /// The k-gram segments and removed documents `conn` lists now. To be called before
    /// the add inserts anything, by the holder of the writer's lock.
    pub fn open(dir: &Path, conn: &Connection) -> Result<Self, ArchiveError> {
        let sql = |e| ArchiveError::sql(dir, e);
        let (listed, removed, last) =
            (rows::segments(conn).map_err(sql)?, rows::removed_ids(conn).map_err(sql)?, rows::last_id(conn).map_err(sql)?);
        let mut before = Self {
            segments: Vec::new(),
            files: FxHashSet::default(),
            removed,
            last,
            found: FxHashMap::default(),
            docs: Vec::new(),
            failed: false,
        };
        for segment in listed.into_iter().filter(|s| Kind::from_code(s.kind) == Some(Kind::Kgrams)) {
            before.segments.push(SegmentLookup::open(&dir.join(&segment.file))?);
            before.files.insert(segment.file);
        }
        Ok(before)
    }

    /// The hashes of `sketches` not looked up yet, ascending and distinct.
    pub fn unlooked<'s>(&self, sketches: impl Iterator<Item = &'s [u64]>) -> Vec<u64> {
        let mut hashes: Vec<u64> = sketches.flatten().copied().filter(|h| !self.found.contains_key(h)).collect();
        hashes.sort_unstable();
        hashes.dedup();
        hashes
    }

    /// What the segments of before the add hold of `hashes` (ascending, distinct): the
    /// documents of each one's first [`CAP`] live postings, lowest first. Read on the
    /// calling thread alone, one segment after another: it runs beside the add's work.
    pub fn look_up(&self, hashes: Vec<u64>) -> Looked {
        let live = |p: &Posting| !self.removed.contains(&p.doc);
        let per_segment: Vec<Vec<Found>> =
            self.segments.iter().map(|segment| first_postings_sorted(segment, &hashes, CAP, &live)).collect();
        let docs = firsts(hashes.len(), per_segment);
        Looked { hashes, docs }
    }

    /// Keeps what `looked` found.
    pub fn absorb(&mut self, looked: Looked) {
        let Some(docs) = looked.docs else {
            self.failed = true;
            return;
        };
        for (hash, docs) in looked.hashes.into_iter().zip(docs) {
            let start = self.docs.len() as u32;
            self.docs.extend(docs);
            self.found.insert(hash, (start, self.docs.len() as u32));
        }
    }

    /// For each of `fresh`, what the groups' rule's [`sharing`] says of it, from what was
    /// found before and what the segments `conn` lists now and did not then hold of the
    /// add's own documents; `replaced` are the documents the add removed. `None` when that
    /// is not the whole answer: a lookup failed, a sketch hash was never looked up, or a
    /// hash's first postings held a document since removed and there may be more.
    pub fn sharing(
        &self,
        (dir, conn): (&Path, &Connection),
        fresh: &[Fresh],
        replaced: &FxHashSet<u32>,
    ) -> Result<Option<Vec<Option<Vec<u32>>>>, ArchiveError> {
        if self.failed {
            return Ok(None);
        }
        let hashes = every_hash(fresh);
        let Some(before) = hashes.iter().map(|h| self.found.get(h)).collect::<Option<Vec<_>>>() else {
            return Ok(None);
        };
        let Some(after) = self.after(dir, conn, &hashes)? else {
            return Ok(None);
        };
        let mut lists: Vec<Vec<Posting>> = Vec::with_capacity(hashes.len());
        for (&&(start, end), after) in before.iter().zip(after) {
            let found = &self.docs[start as usize..end as usize];
            let mut docs: Vec<u32> = found.iter().copied().filter(|d| !replaced.contains(d)).collect();
            if found.len() >= CAP && docs.len() < CAP {
                return Ok(None);
            }
            docs.extend(after);
            docs.truncate(CAP);
            lists.push(docs.into_iter().map(|doc| Posting { doc, position: 0 }).collect());
        }
        let of = |hash: &u64| hashes.binary_search(hash).map_or(&[][..], |i| lists[i].as_slice());
        Ok(Some(fresh.iter().map(|doc| sharing(doc, doc.sketch.iter().map(|h| Cow::Borrowed(of(h))))).collect()))
    }

    /// For each of `hashes` (ascending), the documents of the add that the segments `conn`
    /// lists now and did not list before hold it in, one per posting, lowest first;
    /// `None` when one of them could not be read.
    fn after(&self, dir: &Path, conn: &Connection, hashes: &[u64]) -> Result<Option<Vec<Vec<u32>>>, ArchiveError> {
        let sql = |e| ArchiveError::sql(dir, e);
        let (listed, removed) = (rows::segments(conn).map_err(sql)?, rows::removed_ids(conn).map_err(sql)?);
        let mut segments = Vec::new();
        for segment in listed {
            if Kind::from_code(segment.kind) == Some(Kind::Kgrams) && !self.files.contains(&segment.file) {
                segments.push(SegmentLookup::open(&dir.join(&segment.file))?);
            }
        }
        let own = |p: &Posting| p.doc > self.last && !removed.contains(&p.doc);
        let per_segment: Vec<Vec<Found>> =
            segments.iter().map(|segment| first_postings_sorted(segment, hashes, CAP, &own)).collect();
        Ok(firsts(hashes.len(), per_segment))
    }
}

/// Every hash of the sketches of `fresh`, ascending and distinct.
fn every_hash(fresh: &[Fresh]) -> Vec<u64> {
    let mut hashes: Vec<u64> = fresh.iter().flat_map(|doc| doc.sketch.iter().copied()).collect();
    hashes.sort_unstable();
    hashes.dedup();
    hashes
}

/// For each of `count` hashes, the documents of its first [`CAP`] postings over every
/// segment (`per_segment`: what each found of each hash, in order), lowest first; `None`
/// when a segment could not be read.
fn firsts(count: usize, per_segment: Vec<Vec<Found>>) -> Option<Vec<Vec<u32>>> {
    let mut out: Vec<Vec<u32>> = vec![Vec::new(); count];
    for found in per_segment {
        for (docs, found) in out.iter_mut().zip(found) {
            let (postings, _) = found.ok()?;
            docs.extend(postings.iter().map(|p| p.doc));
        }
    }
    for docs in &mut out {
        docs.sort_unstable();
        docs.truncate(CAP);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::prepare::{prepare, source_of};
    use crate::archive::reader::ArchiveIndex;
    use crate::archive::regroup::sharing_sketches;
    use crate::archive::{AddOptions, Archive, WhenBusy};
    use crate::engine::{CancelFlag, DocumentInput, NoProgress};
    use crate::fingerprint::simhash::Dictionary;
    use crate::ingest;
    use crate::model::Role;
    use crate::settings::Settings;

    /// Text `n` (`version` 0 or another): six sentences of a pool of sixteen, which
    /// dozens of texts share (of 200 texts, 75 hold each: more postings than a check
    /// reads), and one sentence that only it and its twin (`n` ± 1) hold.
    fn text(n: usize, version: usize) -> String {
        let sentence = |s: usize| (0..14).map(|w| format!("pool{s}w{w} ")).collect::<String>() + ".\n";
        let own = (0..14).map(|w| format!("own{}w{w} ", n / 2)).collect::<String>() + ".\n";
        (0..6).map(|i| sentence((n * 5 + i * 3 + version) % 16)).collect::<String>() + &own
    }

    fn input(docs: &Path, n: usize, version: usize) -> DocumentInput {
        let path = docs.join(format!("{n}.txt"));
        std::fs::write(&path, text(n, version)).unwrap();
        DocumentInput::new(path, Role::Reference)
    }

    fn add(archive: &Archive, inputs: &[DocumentInput]) {
        archive.add(inputs, &AddOptions::default(), &NoProgress, &CancelFlag::new()).unwrap();
    }

    /// The add's own documents of `inputs` as the groups' rule is given them.
    fn fresh(archive: &Archive, inputs: &[DocumentInput]) -> Vec<Fresh> {
        let (settings, extractor, dictionary) = (Settings::default(), ingest::Extractor::new(None), Dictionary::new());
        inputs
            .iter()
            .map(|input| {
                let source = source_of(&input.path);
                let ids = rows::ids_by_path(&archive.lock(), &input.display, &source).unwrap();
                let read = prepare(&settings, input, (&extractor, &dictionary), source.clone(), None).unwrap();
                Fresh { id: ids[0], file: source.into(), sketch: read.sketch, nshash_neighbour: false }
            })
            .collect()
    }

    #[test]
    fn sketches_looked_up_before_and_after_an_add_give_what_every_segment_gives() {
        let tmp = tempfile::tempdir().unwrap();
        let (dir, docs) = (tmp.path().join("arc"), tmp.path().join("docs"));
        std::fs::create_dir(&docs).unwrap();
        let archive = Archive::open_for_changes(&dir, &Settings::default(), true, WhenBusy::Refuse).unwrap();
        add(&archive, &(0..200).map(|n| input(&docs, n, 0)).collect::<Vec<_>>());
        let first = rows::ids_by_path(&archive.lock(), "", &source_of(&docs.join("0.txt"))).unwrap()[0];
        let last = rows::ids_by_path(&archive.lock(), "", &source_of(&docs.join("199.txt"))).unwrap()[0];
        let mut before = Before::open(&dir, &archive.lock()).unwrap();
        let held = before.files.clone();

        // Four adds: the fourth merges the tier the first segments lie in, those of before
        // with those of the add. The first replaces the last text of before.
        let added: Vec<DocumentInput> =
            std::iter::once(input(&docs, 199, 1)).chain((200..240).map(|n| input(&docs, n, 0))).collect();
        for part in added.chunks(11) {
            add(&archive, part);
        }
        let listed: FxHashSet<String> = rows::segments(&archive.lock()).unwrap().into_iter().map(|s| s.file).collect();
        assert!(held.iter().any(|file| !listed.contains(file)), "a segment of before was merged away");

        let fresh = fresh(&archive, &added);
        let hashes = before.unlooked(fresh.iter().map(|doc| doc.sketch.as_slice()));
        before.absorb(before.look_up(hashes));
        let replaced: FxHashSet<u32> = [last].into_iter().collect();
        let mine = before.sharing((&dir, &archive.lock()), &fresh, &replaced).unwrap().expect("the whole answer");
        let every = sharing_sketches(&ArchiveIndex::open(&archive).unwrap(), &fresh);
        assert_eq!(mine, every);
        assert!(every.iter().flatten().any(|others| others.iter().any(|&d| d > last)), "the add's own, shared");
        assert!(every.iter().flatten().any(|others| others.iter().any(|&d| d < last)), "those of before, shared");

        // A document replaced among the first postings of a hash that has more leaves the
        // answer open: the groups' rule then looks everything up.
        let replaced: FxHashSet<u32> = [first].into_iter().collect();
        assert_eq!(before.sharing((&dir, &archive.lock()), &fresh, &replaced).unwrap(), None);
    }
}

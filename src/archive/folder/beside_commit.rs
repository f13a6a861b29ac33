//! The sketches of an add's documents looked up in the k-gram segments the archive held
//! before the add's last commit ([`Before`]), beside that commit.
//!
//! The groups' rule (`regroup.rs`) asks, for each new document, which documents share
//! its sketch. Its lookups used to wait until the last batch was committed and its merge
//! done, which ran alone on one core: at 1.6 million documents, 1.0 s of commit and merge,
//! then 1.1 s of lookups, in an add of 5,000. Every sketch is known once the last batch is
//! read, and every posting but those of the last batch lies in the segments listed before
//! its commit: they are looked up there, once, while the commit runs. After it only the
//! segments the commit wrote (and any merged from them) are looked up, for the last
//! batch's documents. Together both give what one lookup in every segment after the add
//! gives; where they could not (a lookup failed, or a document the commit replaced was
//! among the first postings of a hash that has more), [`Before::sharing`] says so and the
//! groups' rule looks everything up after the add, as it did.
//!
//! Looked up batch by batch as the add read (tried before), the sketches of each batch
//! crowded into the same low span of every large segment, which was then read once per
//! batch: the add's CPU grew by as much as its wall time fell.

use std::borrow::Cow;
use std::path::Path;

use rusqlite::Connection;
use rustc_hash::{FxHashMap, FxHashSet};

use super::index::{found_in_every_segment, on_lookup_threads};
use super::rows;
use super::segments::batched_lookup::Found;
use super::segments::lookup::SegmentLookup;
use super::segments::segment::Kind;
use crate::archive::error::ArchiveError;
use crate::archive::groups::{Fresh, sharing};
use crate::archive::lookups::CAP;
use crate::index::Posting;

/// Sketch hashes looked up at once. They are ascending, so each share covers a span of
/// the hash space of its own and no segment's entries are read for two shares.
const HASHES_AT_ONCE: usize = 16_384;

/// The archive's k-gram segments as they were listed before the add's last commit, and
/// what they hold of the sketches looked up.
pub(in crate::archive) struct Before {
    segments: Vec<SegmentLookup>,
    files: FxHashSet<String>,
    removed: FxHashSet<u32>,
    /// The largest document id when they were listed: every document above it is the
    /// last commit's.
    last: u32,
    /// Each hash looked up: its range in `docs`.
    found: FxHashMap<u64, (u32, u32)>,
    /// The document of each posting found, the first [`CAP`] of each hash, lowest first.
    docs: Vec<u32>,
    /// A lookup failed: what was found is not the whole answer.
    failed: bool,
}

impl Before {
    /// The k-gram segments and removed documents `conn` lists now. To be called by the
    /// holder of the writer's lock, before the commit whose segments it leaves out.
    pub fn open(dir: &Path, conn: &Connection) -> Result<Self, ArchiveError> {
        let sql = |e| ArchiveError::sql(dir, e);
        let (listed, removed, last) = (
            rows::segments(conn).map_err(sql)?,
            rows::removed_ids(conn).map_err(sql)?,
            rows::last_id(conn).map_err(sql)?,
        );
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

    /// Looks up `hashes` (ascending, distinct) in the segments: the documents of each
    /// one's first [`CAP`] live postings, lowest first, are kept. The segments stay open,
    /// so a merge that deletes one of them meanwhile changes nothing of what is read.
    /// They are looked up [`HASHES_AT_ONCE`] at a time: what each segment gives of a
    /// hash is held only until its documents are kept.
    #[expect(clippy::cast_possible_truncation, reason = "the postings of one add's sketches, far fewer than 2^32")]
    pub fn look_up(&mut self, hashes: &[u64]) {
        for hashes in hashes.chunks(HASHES_AT_ONCE) {
            let live = |p: &Posting| !self.removed.contains(&p.doc);
            let per_segment = on_lookup_threads(|| found_in_every_segment(&self.segments, hashes, &live));
            let Some(docs) = firsts(per_segment) else {
                self.failed = true;
                return;
            };
            for (&hash, docs) in hashes.iter().zip(docs) {
                let start = self.docs.len() as u32;
                self.docs.extend(docs);
                self.found.insert(hash, (start, self.docs.len() as u32));
            }
        }
    }

    /// For each of `fresh`, what the groups' rule's [`sharing`] says of it, from what was
    /// found before and what the segments `conn` lists now and did not then hold of the
    /// last commit's documents. `None` when that is not the whole answer: a lookup failed,
    /// a sketch hash was never looked up, or a hash's first postings held a document
    /// since removed and there may be more.
    pub fn sharing(
        &self,
        (dir, conn): (&Path, &Connection),
        fresh: &[Fresh],
    ) -> Result<Option<Vec<Option<Vec<u32>>>>, ArchiveError> {
        if self.failed {
            return Ok(None);
        }
        let hashes = every_hash(fresh.iter().map(|doc| doc.sketch.as_slice()));
        let Some(before) = hashes.iter().map(|h| self.found.get(h)).collect::<Option<Vec<_>>>() else {
            return Ok(None);
        };
        let sql = |e| ArchiveError::sql(dir, e);
        let (listed, removed) = (rows::segments(conn).map_err(sql)?, rows::removed_ids(conn).map_err(sql)?);
        let Some(after) = self.after(dir, &listed, (&hashes, &removed))? else {
            return Ok(None);
        };
        let mut lists: Vec<Vec<Posting>> = Vec::with_capacity(hashes.len());
        for (&&(start, end), after) in before.iter().zip(after) {
            let found = &self.docs[start as usize..end as usize];
            let mut docs: Vec<u32> = found.iter().copied().filter(|d| !removed.contains(d)).collect();
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

    /// For each of `hashes` (ascending), the live documents of the last commit that the
    /// k-gram segments of `listed` not listed before hold it in, one per posting, lowest
    /// first; `None` when one of them could not be read.
    fn after(
        &self,
        dir: &Path,
        listed: &[rows::SegmentRow],
        (hashes, removed): (&[u64], &FxHashSet<u32>),
    ) -> Result<Option<Vec<Vec<u32>>>, ArchiveError> {
        let mut segments = Vec::new();
        for segment in listed {
            if Kind::from_code(segment.kind) == Some(Kind::Kgrams) && !self.files.contains(&segment.file) {
                segments.push(SegmentLookup::open(&dir.join(&segment.file))?);
            }
        }
        let own = |p: &Posting| p.doc > self.last && !removed.contains(&p.doc);
        let per_segment = on_lookup_threads(|| found_in_every_segment(&segments, hashes, &own));
        Ok(firsts(per_segment))
    }
}

/// Every hash of `sketches`, ascending and distinct.
pub(in crate::archive) fn every_hash<'s>(sketches: impl Iterator<Item = &'s [u64]>) -> Vec<u64> {
    let mut hashes: Vec<u64> = sketches.flatten().copied().collect();
    hashes.sort_unstable();
    hashes.dedup();
    hashes
}

/// For each hash, the documents of its first [`CAP`] postings over every segment
/// (`per_hash`: what each segment found of it, in their order), lowest first; `None` when
/// a segment could not be read.
fn firsts(per_hash: Vec<Vec<Found>>) -> Option<Vec<Vec<u32>>> {
    per_hash
        .into_iter()
        .map(|found| {
            let mut docs = Vec::new();
            for found in found {
                let (postings, _) = found.ok()?;
                docs.extend(postings.iter().map(|p| p.doc));
            }
            docs.sort_unstable();
            docs.truncate(CAP);
            Some(docs)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::folder::Archive;
    use crate::archive::folder::index::ArchiveIndex;
    use crate::archive::prepare::{prepare, source_of};
    use crate::archive::verbs::regroup::sharing_sketches;
    use crate::archive::{AddOptions, WhenBusy};
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

    /// The documents of `inputs` as the groups' rule is given them.
    fn fresh(archive: &Archive, inputs: &[DocumentInput]) -> Vec<Fresh> {
        let (settings, extractor, dictionary) = (Settings::default(), ingest::Extractor::new(None), Dictionary::new());
        inputs
            .iter()
            .map(|input| {
                let source = source_of(&input.path);
                let ids = rows::ids_by_path(&archive.lock(), &input.display, &source).unwrap();
                let read = prepare(&settings, input, (&extractor, &dictionary), source, None).unwrap();
                read.fresh(ids[0], false)
            })
            .collect()
    }

    #[test]
    fn sketches_looked_up_before_and_after_a_commit_give_what_every_segment_gives() {
        let tmp = tempfile::tempdir().unwrap();
        let (dir, docs) = (tmp.path().join("arc"), tmp.path().join("docs"));
        std::fs::create_dir(&docs).unwrap();
        let archive = Archive::open_for_changes(&dir, &Settings::default(), true, WhenBusy::Refuse).unwrap();
        add(&archive, &(0..200).map(|n| input(&docs, n, 0)).collect::<Vec<_>>());
        let last = rows::ids_by_path(&archive.lock(), "", &source_of(&docs.join("199.txt"))).unwrap()[0];

        // Documents of the add committed before the segments are listed, then more after
        // it, in four commits: the fourth merges the tier the first segments lie in, those
        // listed with those written since. The first after it replaces the last text of
        // before.
        let early: Vec<DocumentInput> = (200..210).map(|n| input(&docs, n, 0)).collect();
        add(&archive, &early);
        let mut before = Before::open(&dir, &archive.lock()).unwrap();
        let held = before.files.clone();
        let later: Vec<DocumentInput> =
            std::iter::once(input(&docs, 199, 1)).chain((210..240).map(|n| input(&docs, n, 0))).collect();
        for part in later.chunks(8) {
            add(&archive, part);
        }
        let listed: FxHashSet<String> = rows::segments(&archive.lock()).unwrap().into_iter().map(|s| s.file).collect();
        assert!(held.iter().any(|file| !listed.contains(file)), "a segment listed before was merged away");

        let added: Vec<DocumentInput> = early.into_iter().chain(later).collect();
        let fresh = fresh(&archive, &added);
        before.look_up(&every_hash(fresh.iter().map(|doc| doc.sketch.as_slice())));
        let mine = before.sharing((&dir, &archive.lock()), &fresh).unwrap().expect("the whole answer");
        let every = sharing_sketches(&ArchiveIndex::open(&archive).unwrap(), &fresh).unwrap();
        assert_eq!(mine, every);
        let ids = |test: &dyn Fn(u32) -> bool| every.iter().flatten().flatten().any(|&d| test(d));
        assert!(ids(&|d| d > before.last), "the last commits' own, shared");
        assert!(ids(&|d| d > last && d <= before.last), "the add's own committed before, shared");
        assert!(ids(&|d| d < last), "the archive's, shared");

        // A document replaced among the first postings of a hash that has more leaves the
        // answer open: the groups' rule then looks everything up.
        add(&archive, &[input(&docs, 0, 1)]);
        assert_eq!(before.sharing((&dir, &archive.lock()), &fresh).unwrap(), None);
    }
}

//! Where an add finds a new document's SimHash neighbours: the catalog's index seeks, or,
//! for an add of many documents, every document's SimHash halves and nshash key held in
//! memory.
//!
//! A new document's neighbours are the documents sharing one of its probed SimHash halves
//! ([`half_probes`]) or its nshash key. The catalog answers with 66 index seeks a document;
//! at a million documents the index pages they land on do not stay in the page cache, and
//! a profile of an add of 5,000 showed 2.3 s of CPU in them, most of it waiting for the
//! disk while the reading cores stood idle. One pass over the smallest covering index
//! (0.4–0.5 s at 1.5 million documents) and the same question is answered from memory:
//! the keys read are sorted by each half and by key, those the add inserts are chained
//! (`Held`). The answer is the same: the same candidates, the same rule
//! ([`near_by_simhash_alone`]), each near duplicate's group read from the catalog when it
//! is needed (groups join as the add goes).
//!
//! The pass runs on a thread of its own, on a connection of its own, from the moment the
//! add meets its first file with new bytes ([`Preload::start`]): the first batch is being
//! read meanwhile, and its commit would otherwise wait for the pass while the next batch's
//! reading was long done. An add of unchanged files never starts it.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use rusqlite::Connection;
use rustc_hash::FxHashMap;

use super::catalog;
use super::rows;
use crate::archive::codec::{half_probes, halves};
use crate::archive::groups::near_by_simhash_alone;
use crate::archive::records::NearRow;
use crate::model::saturating_u32;

/// A document's place in [`Held::docs`]; the end of a chain.
const END: u32 = u32::MAX;

/// An add of at least one file for this many archived documents holds their keys: the
/// pass costs about what the seeks of 1,500 new documents cost with the index pages
/// cached, far fewer when they are not (docs/archive.md, "SimHash neighbours held in
/// memory").
const DOCUMENTS_A_FILE: usize = 1_000;

/// How an add finds its documents' neighbours.
pub(in crate::archive) enum NearFinder {
    /// Index seeks for each document (an add of few files into a large archive).
    Seeks,
    /// Held in memory, once loaded: by the preload when it was started, else when the
    /// first new document is committed.
    Held(Option<Box<Held>>, Arc<Preload>),
}

impl NearFinder {
    /// The way for an add of `files` into the archive at `dir`, of `documents`.
    pub fn for_add(files: usize, documents: usize, dir: PathBuf) -> Self {
        if files.saturating_mul(DOCUMENTS_A_FILE) >= documents {
            Self::Held(None, Arc::new(Preload::new(dir)))
        } else {
            Self::Seeks
        }
    }

    /// What starts reading the keys ahead of the first commit; `None` when they are not held.
    pub fn preload(&self) -> Option<Arc<Preload>> {
        match self {
            Self::Seeks => None,
            Self::Held(_, preload) => Some(preload.clone()),
        }
    }

    /// The documents other than `id` near the new document `id` (the catalog's
    /// [`rows::near_rows`]): with the keys held, only those that may matter to its group
    /// (within `threshold` bits, or sharing its nshash key), each with its group as it is now.
    pub fn near_rows(
        &mut self,
        conn: &Connection,
        id: u32,
        simhash: u64,
        nshash: Option<u64>,
        threshold: u32,
    ) -> Result<Vec<NearRow>, rusqlite::Error> {
        let held = match self {
            Self::Seeks => return rows::near_rows(conn, id, simhash, nshash),
            Self::Held(held, preload) => match held {
                Some(held) => held,
                None => {
                    let loaded = match preload.take() {
                        Some(loaded) => loaded,
                        None => Held::load(conn)?,
                    };
                    held.insert(Box::new(loaded))
                }
            },
        };
        let mut found = Vec::new();
        for at in held.candidates(simhash, nshash) {
            let doc = held.docs[at as usize];
            if doc.id == id {
                continue;
            }
            let near = doc.simhash().is_some_and(|h| near_by_simhash_alone(simhash, h, threshold));
            let same_key = nshash.is_some() && doc.nshash() == nshash;
            if !near && !same_key {
                continue;
            }
            // Its group now (groups join as the add goes); none if it is gone (replaced by
            // a later version in this add).
            if let Some(group) = rows::group_by_keys(conn, doc.id, (doc.simhash(), doc.nshash()))? {
                found.push(NearRow { id: doc.id, simhash: doc.simhash(), group, nshash: doc.nshash() });
            }
        }
        Ok(found)
    }

    /// Document `id` was added with these keys. Ids only grow (the catalog's
    /// `AUTOINCREMENT`): one not above every held id was read with the rest (the keys were
    /// read on the connection that had just inserted it).
    pub fn added(&mut self, id: u32, simhash: Option<u64>, nshash: Option<u64>) {
        if let Self::Held(Some(held), _) = self
            && held.newest.is_none_or(|newest| id > newest)
        {
            held.insert(id, simhash, nshash);
        }
    }
}

/// The pass over the catalog for [`Held`], on a thread of its own, started once.
pub(in crate::archive) struct Preload {
    dir: PathBuf,
    started: AtomicBool,
    running: Mutex<Option<JoinHandle<Option<Held>>>>,
}

impl Preload {
    fn new(dir: PathBuf) -> Self {
        Preload { dir, started: AtomicBool::new(false), running: Mutex::new(None) }
    }

    /// Starts the pass, the first time it is called. It reads what was committed before
    /// the add's first commit: that commit waits for it before it asks for a neighbour
    /// ([`NearFinder::near_rows`]), and its own uncommitted rows are not seen by another
    /// connection. A document it removes is then held but gone, as one the add replaces
    /// later is; a document it inserts is added as every later one is.
    pub fn start(&self) {
        if self.started.swap(true, Ordering::AcqRel) {
            return;
        }
        let dir = self.dir.clone();
        let pass = move || {
            let conn = catalog::open(&dir, false).ok()?;
            Held::load(&conn).ok()
        };
        // A thread the system will not give: the first commit makes the pass itself.
        if let Ok(handle) = std::thread::Builder::new().name("twinspot-near-keys".into()).spawn(pass) {
            *self.running.lock().unwrap_or_else(PoisonError::into_inner) = Some(handle);
        }
    }

    /// The keys the pass read, once it is done; `None` when it was not started or did not
    /// succeed. The caller then reads them on its own connection, which reports why it
    /// cannot: the pass's own failure (another connection refused, say) is not the add's.
    /// A panic in the pass is a bug, raised here.
    fn take(&self) -> Option<Held> {
        let handle = self.running.lock().unwrap_or_else(PoisonError::into_inner).take()?;
        handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }
}

impl Drop for Preload {
    /// An add that ends before its first commit (cancelled, or nothing new committed)
    /// waits for the pass rather than leave it reading the catalog after the add; what the
    /// pass read, or how it ended, matters to no one then.
    fn drop(&mut self) {
        if let Some(handle) = self.running.get_mut().unwrap_or_else(PoisonError::into_inner).take() {
            drop(handle.join());
        }
    }
}

/// One document's keys.
#[derive(Clone, Copy, Debug)]
struct Keys {
    simhash: u64,
    nshash: u64,
    id: u32,
    /// Which of the two it has: [`HAS_SIMHASH`], [`HAS_NSHASH`] (24 bytes a document, not
    /// the 40 of two options: a million documents are held).
    has: u8,
}

const HAS_SIMHASH: u8 = 1;
const HAS_NSHASH: u8 = 2;

impl Keys {
    fn new(id: u32, simhash: Option<u64>, nshash: Option<u64>) -> Self {
        let has = if simhash.is_some() { HAS_SIMHASH } else { 0 } | if nshash.is_some() { HAS_NSHASH } else { 0 };
        Keys { simhash: simhash.unwrap_or(0), nshash: nshash.unwrap_or(0), id, has }
    }

    fn simhash(&self) -> Option<u64> {
        (self.has & HAS_SIMHASH != 0).then_some(self.simhash)
    }

    fn nshash(&self) -> Option<u64> {
        (self.has & HAS_NSHASH != 0).then_some(self.nshash)
    }
}

/// Every document's keys, and where to find those sharing a half or a key: for the
/// documents read from the catalog, lists of (value, place) sorted by value; for those the
/// add inserts after, chains. Sorted lists are built by one sort rather than a million
/// insertions into maps (a third of the pass's time went to those), and take about half
/// their memory.
pub(in crate::archive) struct Held {
    docs: Vec<Keys>,
    /// The highest id held.
    newest: Option<u32>,
    /// The documents read from the catalog: `docs[..read.len]`.
    read: Sorted,
    /// The documents inserted since.
    added: Chains,
}

impl Held {
    fn load(conn: &Connection) -> Result<Self, rusqlite::Error> {
        // Room for them all and no more, before any is read: growing by doubling would
        // hold twice the room for a while.
        let mut docs = Vec::with_capacity(rows::document_count(conn)?);
        rows::for_each_near_key(conn, |id, simhash, nshash| docs.push(Keys::new(id, simhash, nshash)))?;
        Ok(Self::of(docs))
    }

    /// The keys of `docs`, as read from the catalog.
    fn of(docs: Vec<Keys>) -> Self {
        let read = Sorted::of(&docs);
        let newest = docs.iter().map(|doc| doc.id).max();
        Held { docs, newest, read, added: Chains::default() }
    }

    /// Document `id`, inserted by the add.
    fn insert(&mut self, id: u32, simhash: Option<u64>, nshash: Option<u64>) {
        let Ok(at) = u32::try_from(self.docs.len()) else { return };
        self.docs.push(Keys::new(id, simhash, nshash));
        self.newest = self.newest.max(Some(id));
        self.added.insert(at - self.read.len, simhash.map(halves), nshash);
    }

    /// The places of the documents sharing a probed half of `simhash` or the key `nshash`,
    /// each once.
    fn candidates(&self, simhash: u64, nshash: Option<u64>) -> Vec<u32> {
        let mut found = Vec::new();
        for (i, probes) in half_probes(simhash).iter().enumerate() {
            for &probe in probes {
                // The halves are stored as 32-bit values in 64-bit columns.
                let value = u32::try_from(probe).unwrap_or(u32::MAX);
                self.read.with_half(i, value, &mut found);
                self.added.with_half(i, value, self.read.len, &mut found);
            }
        }
        if let Some(key) = nshash {
            self.read.with_key(key, &mut found);
            self.added.with_key(key, self.read.len, &mut found);
        }
        found.sort_unstable();
        found.dedup();
        found
    }
}

/// The places of documents by each half's value (`value << 32 | place`) and by nshash key,
/// sorted.
struct Sorted {
    len: u32,
    halves: [Vec<u64>; 2],
    /// For each half, where the values of each [`BUCKET_BITS`]-bit prefix begin in its
    /// list, and where the list ends: a probe searches a few dozen entries, not a list of
    /// a million. The 66 probes of each document an add inserts cost a dozen cache misses
    /// each over the whole list, which at a million documents was 0.05 s of each batch's
    /// commit, on the add's one core.
    starts: [Vec<usize>; 2],
    nshash: Vec<(u64, u32)>,
}

/// The bits of a half's value whose places [`Sorted`] keeps (512 KiB for both halves).
const BUCKET_BITS: u32 = 16;

impl Sorted {
    fn of(docs: &[Keys]) -> Self {
        let mut halves_of = [Vec::new(), Vec::new()];
        let mut nshash = Vec::new();
        for (at, doc) in (0u32..).zip(docs) {
            if let Some(h) = doc.simhash() {
                for (list, value) in halves_of.iter_mut().zip(halves(h)) {
                    list.push(u64::from(u32::try_from(value).unwrap_or(u32::MAX)) << 32 | u64::from(at));
                }
            }
            if let Some(key) = doc.nshash() {
                nshash.push((key, at));
            }
        }
        for list in &mut halves_of {
            list.sort_unstable();
        }
        nshash.sort_unstable();
        let starts = [bucket_starts(&halves_of[0]), bucket_starts(&halves_of[1])];
        Sorted { len: saturating_u32(docs.len()), halves: halves_of, starts, nshash }
    }

    /// Pushes the places of the documents whose half `i` is `value`.
    #[expect(clippy::cast_possible_truncation, reason = "an entry's low 32 bits are a document's index")]
    fn with_half(&self, i: usize, value: u32, found: &mut Vec<u32>) {
        let bucket = (value >> (32 - BUCKET_BITS)) as usize;
        let list = &self.halves[i][self.starts[i][bucket]..self.starts[i][bucket + 1]];
        let first = list.partition_point(|&entry| (entry >> 32) < u64::from(value));
        found.extend(list[first..].iter().take_while(|&&entry| (entry >> 32) == u64::from(value)).map(|&e| e as u32));
    }

    /// Pushes the places of the documents with the nshash key `key`.
    fn with_key(&self, key: u64, found: &mut Vec<u32>) {
        let first = self.nshash.partition_point(|&(k, _)| k < key);
        found.extend(self.nshash[first..].iter().take_while(|&&(k, _)| k == key).map(|&(_, at)| at));
    }
}

/// Where the entries (`value << 32 | place`, ascending) of each [`BUCKET_BITS`]-bit
/// prefix of the value begin in `list`, and its length last.
fn bucket_starts(list: &[u64]) -> Vec<usize> {
    let bucket_of = |entry: u64| (entry >> (64 - BUCKET_BITS)) as usize;
    let mut starts = Vec::with_capacity((1 << BUCKET_BITS) + 1);
    let mut at = 0;
    for bucket in 0..=1 << BUCKET_BITS {
        while at < list.len() && bucket_of(list[at]) < bucket {
            at += 1;
        }
        starts.push(at);
    }
    starts
}

/// Chains through the documents the add inserts (numbered from 0, the first after those
/// read): per half and for the key, a map from the value to the last document holding it,
/// and each document's predecessor with the same value.
#[derive(Default)]
struct Chains {
    halves: [(FxHashMap<u32, u32>, Vec<u32>); 2],
    nshash: (FxHashMap<u64, u32>, Vec<u32>),
}

impl Chains {
    /// Document `at` with these halves and key.
    fn insert(&mut self, at: u32, half_values: Option<[i64; 2]>, nshash: Option<u64>) {
        for (i, (last, before)) in self.halves.iter_mut().enumerate() {
            let previous = half_values.and_then(|values| last.insert(u32::try_from(values[i]).unwrap_or(u32::MAX), at));
            before.push(previous.unwrap_or(END));
        }
        let previous = nshash.and_then(|key| self.nshash.0.insert(key, at));
        self.nshash.1.push(previous.unwrap_or(END));
    }

    /// Pushes the places (numbered after the `read` documents) of those whose half `i`
    /// is `value`.
    fn with_half(&self, i: usize, value: u32, read: u32, found: &mut Vec<u32>) {
        let (last, before) = &self.halves[i];
        chain(last.get(&value).copied(), before, read, found);
    }

    /// Pushes the places (numbered after the `read` documents) of those with the key.
    fn with_key(&self, key: u64, read: u32, found: &mut Vec<u32>) {
        chain(self.nshash.0.get(&key).copied(), &self.nshash.1, read, found);
    }
}

/// Pushes every place of the chain ending at `last`, each numbered after `read`.
fn chain(last: Option<u32>, before: &[u32], read: u32, found: &mut Vec<u32>) {
    let mut at = last.unwrap_or(END);
    while at != END {
        found.push(read + at);
        at = before[at as usize];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::folder::catalog;
    use crate::archive::records::stored_hash;

    /// Inserts a document row with these keys (in its own group); its id.
    fn insert(conn: &Connection, n: u32, simhash: Option<u64>, nshash: Option<u64>) -> u32 {
        let half = |i: usize| simhash.map(|h| halves(h)[i]);
        conn.execute(
            "INSERT INTO documents(path, sha256, size, added_at, chars, simhash, h0, h1, nshash, group_id)
             VALUES (?1, ?1, 1, 0, 1, ?2, ?3, ?4, ?5, 0)",
            rusqlite::params![format!("d{n}"), simhash.map(stored_hash), half(0), half(1), nshash.map(stored_hash)],
        )
        .unwrap();
        let id = u32::try_from(conn.last_insert_rowid()).unwrap();
        rows::set_group(conn, id, id).unwrap();
        id
    }

    /// The rows that matter to a group, comparable: near by SimHash or sharing the key.
    fn relevant(
        rows: Vec<NearRow>,
        simhash: u64,
        nshash: Option<u64>,
        threshold: u32,
    ) -> Vec<(u32, u32, Option<u64>, Option<u64>)> {
        let mut kept: Vec<_> = rows
            .into_iter()
            .filter(|r| {
                r.simhash.is_some_and(|h| near_by_simhash_alone(simhash, h, threshold))
                    || (nshash.is_some() && r.nshash == nshash)
            })
            .map(|r| (r.id, r.group, r.simhash, r.nshash))
            .collect();
        kept.sort_unstable();
        kept
    }

    /// Checks that both finders give the same rows that matter, for every threshold
    /// probed; how many thresholds found any.
    fn same_answers(conn: &Connection, held: &mut NearFinder, id: u32, simhash: u64, nshash: Option<u64>) -> usize {
        let mut found = 0;
        for threshold in 0..=3 {
            let seeks = NearFinder::Seeks.near_rows(conn, id, simhash, nshash, threshold).unwrap();
            let mine = held.near_rows(conn, id, simhash, nshash, threshold).unwrap();
            let answer = relevant(mine, simhash, nshash, threshold);
            assert_eq!(
                answer,
                relevant(seeks, simhash, nshash, threshold),
                "simhash {simhash:x}, threshold {threshold}"
            );
            found += usize::from(!answer.is_empty());
        }
        found
    }

    #[test]
    fn held_keys_give_the_catalogs_neighbours_as_documents_come_and_go() {
        held_keys_as_documents_come_and_go(false);
    }

    #[test]
    fn preloaded_keys_give_the_catalogs_neighbours_as_documents_come_and_go() {
        held_keys_as_documents_come_and_go(true);
    }

    /// Both finders' answers compared while documents are added and removed; with
    /// `preloaded`, the held keys read on the preload's thread.
    fn held_keys_as_documents_come_and_go(preloaded: bool) {
        let dir = tempfile::tempdir().unwrap();
        catalog::create_new(dir.path(), &[]).unwrap();
        let conn = catalog::open(dir.path(), true).unwrap();
        let mut next = crate::hash::xorshift(0x9e37_79b9_7f4a_7c15);
        let bases: Vec<u64> = (0..6).map(|_| next()).collect();
        // Near one of a few SimHashes (0–5 bits off), some sharing nshash keys, some with
        // no SimHash or one of 0 (no words).
        let mut keys = |n: u32| {
            let flips = next() % 6;
            let mut h = bases[(next() % 6) as usize];
            for _ in 0..flips {
                h ^= 1 << (next() % 64);
            }
            let simhash = match n % 17 {
                0 => None,
                1 => Some(0),
                _ => Some(h),
            };
            (simhash, n.is_multiple_of(5).then_some(next() % 7))
        };
        let mut ids = Vec::new();
        for n in 0..400 {
            let (simhash, nshash) = keys(n);
            ids.push(insert(&conn, n, simhash, nshash));
        }
        let mut held = NearFinder::for_add(1, 400, dir.path().to_path_buf());
        assert!(matches!(held, NearFinder::Held(None, _)));
        if preloaded {
            held.preload().unwrap().start();
        }
        let mut found = 0;
        for n in 400..600 {
            let (simhash, nshash) = keys(n);
            let probe = simhash.unwrap_or(0);
            found += same_answers(&conn, &mut held, u32::MAX, probe, nshash);
            // Added as an add adds: its row, then its keys; some older ones go.
            let id = insert(&conn, n, simhash, nshash);
            held.added(id, simhash, nshash);
            found += same_answers(&conn, &mut held, id, probe, nshash);
            if n.is_multiple_of(3) {
                let gone = ids[n as usize * 7 % ids.len()];
                rows::remove_document(&conn, gone).unwrap();
            }
            ids.push(id);
        }
        // Most of them have neighbours: the answers compared are not all empty.
        assert!(found > 800, "{found} answers with neighbours");
        if let NearFinder::Held(Some(held), preload) = &held {
            assert_eq!(held.docs.len(), 600, "each document held once");
            assert!(preload.running.lock().unwrap().is_none(), "the pass was taken");
        } else {
            panic!("the keys were never held");
        }
    }

    #[test]
    fn a_document_inserted_before_the_keys_are_read_is_held_once() {
        let dir = tempfile::tempdir().unwrap();
        catalog::create_new(dir.path(), &[]).unwrap();
        let conn = catalog::open(dir.path(), true).unwrap();
        insert(&conn, 0, Some(0xff), None);
        let mut finder = NearFinder::for_add(1, 1, dir.path().to_path_buf());
        // As the add's first commit does: its row, its neighbours (the keys read now, on
        // its connection, with its row), then its keys.
        let id = insert(&conn, 1, Some(0xfe), None);
        let near = finder.near_rows(&conn, id, 0xfe, None, 3).unwrap();
        finder.added(id, Some(0xfe), None);
        assert_eq!(near.len(), 1);
        let NearFinder::Held(Some(held), _) = &finder else { panic!("the keys were never held") };
        assert_eq!(held.docs.len(), 2);
    }

    #[test]
    fn few_files_into_a_large_archive_seek() {
        let dir = PathBuf::from("archive");
        assert!(matches!(NearFinder::for_add(5, 1_000_000, dir.clone()), NearFinder::Seeks));
        assert!(matches!(NearFinder::for_add(1_000, 1_000_000, dir.clone()), NearFinder::Held(None, _)));
        assert!(matches!(NearFinder::for_add(1, 0, dir), NearFinder::Held(None, _)));
    }
}

//! A snapshot of an archive for matching: its segments mapped, its removed documents
//! known; the archive's side of the [`ReferenceIndex`] seam. Document ids are the
//! archive's stable ids.

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use rusqlite::OptionalExtension;
use rustc_hash::FxHashSet;

use super::lookup::SegmentLookup;
use super::segment::Kind;
use super::{Archive, ArchiveError};
use crate::engine::{Role, compared_prefix};
use crate::fingerprint::keywords::KeywordPrint;
use crate::fingerprint::simhash::hamming;
use crate::fingerprint::{DocumentFingerprints, TokenKeys};
use crate::index::{Glance, Posting, ReferenceDoc, ReferenceIndex, StoredReferences};
use crate::report::DocumentEntry;

/// Width of one SimHash block of the catalog's pigeonhole index (four blocks: any two
/// values within 3 bits agree on one whole block).
pub(super) const BAND_BITS: u32 = 16;
/// Documents glanced at per query.
const GLANCE_CHUNK: usize = 4096;
/// The largest distance the band columns answer; above it every SimHash is scanned.
const BAND_DISTANCE: u32 = 3;

/// The four 16-bit blocks of a SimHash, as stored in the catalog.
pub(super) fn bands(h: u64) -> [i64; 4] {
    [0, 1, 2, 3].map(|i| ((h >> (i * BAND_BITS)) & 0xffff) as i64)
}

/// The archive's references, as one check sees them.
pub struct ArchiveIndex<'a> {
    archive: &'a Archive,
    kgrams: Vec<SegmentLookup>,
    sentences: Vec<SegmentLookup>,
    removed: FxHashSet<u32>,
    documents: usize,
    /// The largest id the catalog ever gave: a posting of a larger one (or of 0) comes
    /// from a damaged segment.
    last_id: u32,
    problems: Mutex<Vec<String>>,
}

impl<'a> ArchiveIndex<'a> {
    /// Maps the archive's current segments. A merge may delete a segment between the
    /// listing and the mapping: then the listing is read again.
    pub fn open(archive: &'a Archive) -> Result<Self, ArchiveError> {
        let mut last = None;
        for _ in 0..3 {
            match Self::try_open(archive) {
                Ok(index) => return Ok(index),
                Err(ArchiveError::Io { path, source }) if source.kind() == std::io::ErrorKind::NotFound => {
                    last = Some(ArchiveError::Io { path, source });
                }
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| ArchiveError::Corrupt("segments keep disappearing".into())))
    }

    fn try_open(archive: &'a Archive) -> Result<Self, ArchiveError> {
        let sql = |e| archive.sql(e);
        let (listed, removed, documents, last_id) = {
            let conn = archive.lock();
            // One read transaction for the whole check: one snapshot of segments and
            // documents, and no lock taken and schema read again per query (a check asks
            // for tens of thousands of rows).
            if conn.is_autocommit() {
                conn.execute_batch("BEGIN").map_err(sql)?;
            }
            let mut stmt = conn.prepare("SELECT kind, file FROM segments ORDER BY id").map_err(sql)?;
            let listed: Vec<(i64, String)> = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                .map_err(sql)?
                .collect::<Result<_, _>>()
                .map_err(sql)?;
            let mut stmt = conn.prepare("SELECT id FROM removed").map_err(sql)?;
            let removed: FxHashSet<u32> = stmt
                .query_map([], |r| r.get::<_, i64>(0))
                .map_err(sql)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(sql)?
                .into_iter()
                .map(|id| id as u32)
                .collect();
            let documents: i64 = conn.query_row("SELECT count(*) FROM documents", [], |r| r.get(0)).map_err(sql)?;
            let last_id: i64 = conn
                .query_row(
                    "SELECT max(coalesce((SELECT max(seq) FROM sqlite_sequence WHERE name = 'documents'), 0),
                                coalesce((SELECT max(id) FROM documents), 0))",
                    [],
                    |r| r.get(0),
                )
                .map_err(sql)?;
            (listed, removed, documents, last_id)
        };
        // From here on the index owns the transaction: it ends when the index is dropped.
        let mut index = Self {
            archive,
            kgrams: Vec::new(),
            sentences: Vec::new(),
            removed,
            documents: documents as usize,
            last_id: u32::try_from(last_id).unwrap_or(u32::MAX),
            problems: Mutex::default(),
        };
        for (kind, file) in listed {
            let segment = SegmentLookup::open(&archive.dir.join(&file))?;
            match Kind::from_code(kind) {
                Some(Kind::Kgrams) => index.kgrams.push(segment),
                Some(Kind::Sentences) => index.sentences.push(segment),
                None => return Err(ArchiveError::Corrupt(format!("segment {file} of unknown kind {kind}"))),
            }
        }
        Ok(index)
    }

    /// Number of segments opened (k-grams, sentences).
    pub fn segment_counts(&self) -> (usize, usize) {
        (self.kgrams.len(), self.sentences.len())
    }

    /// Every live posting of `hash` over `segments`, sorted by document then position.
    fn collect(&self, segments: &[SegmentLookup], hash: u64) -> Vec<Posting> {
        let mut out = Vec::new();
        for segment in segments {
            let before = out.len();
            if let Err(error) = segment.postings(hash, &mut out) {
                out.truncate(before);
                self.note(damaged(segment, &error.to_string()));
            }
            if let Some(stray) = out[before..].iter().find(|p| p.doc == 0 || p.doc > self.last_id) {
                let what = format!("it names document {}, which the archive never held", stray.doc);
                out.truncate(before);
                self.note(damaged(segment, &what));
            }
        }
        out.retain(|p| !self.removed.contains(&p.doc));
        if segments.len() > 1 {
            out.sort_unstable();
        }
        out
    }

    /// [`Self::collect`] for each of `hashes`.
    fn collect_all(&self, segments: &[SegmentLookup], hashes: &[u64]) -> Vec<Cow<'static, [Posting]>> {
        hashes.iter().map(|&hash| Cow::Owned(self.collect(segments, hash))).collect()
    }

    fn simhash_rows(&self, simhash: u64, threshold: u32) -> Result<Vec<(i64, i64)>, rusqlite::Error> {
        let conn = self.archive.lock();
        let rows = if threshold <= BAND_DISTANCE {
            let b = bands(simhash);
            let mut stmt = conn.prepare_cached(
                "SELECT id, simhash FROM documents WHERE b0 = ?1 UNION SELECT id, simhash FROM documents WHERE b1 = ?2 \
                 UNION SELECT id, simhash FROM documents WHERE b2 = ?3 UNION SELECT id, simhash FROM documents WHERE b3 = ?4",
            )?;
            stmt.query_map(b, |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<Vec<_>, _>>()?
        } else {
            let mut stmt = conn.prepare_cached("SELECT id, simhash FROM documents WHERE simhash IS NOT NULL")?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<Vec<_>, _>>()?
        };
        Ok(rows)
    }

    /// The stored text of `doc`, its SimHash and its keywords.
    fn load(&self, doc: u32) -> Result<Option<Stored>, ArchiveError> {
        let row: Option<(Vec<u8>, Option<i64>, Option<String>)> = self
            .archive
            .lock()
            .prepare_cached(
                "SELECT t.text, d.simhash, d.keywords FROM documents d JOIN texts t ON t.id = d.id WHERE d.id = ?1",
            )
            .and_then(|mut s| s.query_row([i64::from(doc)], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).optional())
            .map_err(|e| self.archive.sql(e))?;
        let Some((compressed, simhash, keywords)) = row else {
            return Ok(None);
        };
        let text = super::add::decompress(&compressed)
            .map_err(|e| ArchiveError::Corrupt(format!("the text of document {doc}: {e}")))?;
        let keywords = keywords.map(|k| KeywordPrint::from_keywords(k.lines().map(str::to_string).collect()));
        Ok(Some(Stored { text, simhash: simhash.map(|h| h as u64), keywords }))
    }

    /// Calls `each` with the stored token keys and SimHash of every document of `docs`
    /// that has keys (documents archived before format 3 have none): one query per
    /// [`GLANCE_CHUNK`] documents, in id order.
    fn load_glances(&self, docs: &[u32], each: &mut dyn FnMut(u32, &Glance<'_>)) -> Result<(), ArchiveError> {
        let sql = |e| self.archive.sql(e);
        let conn = self.archive.lock();
        let mut stmt = conn
            .prepare_cached(
                "SELECT k.id, k.keys, d.simhash FROM json_each(?1) j
                 JOIN token_keys k ON k.id = j.value JOIN documents d ON d.id = k.id",
            )
            .map_err(sql)?;
        for chunk in docs.chunks(GLANCE_CHUNK) {
            let ids = serde_json::to_string(chunk).map_err(|e| ArchiveError::Corrupt(e.to_string()))?;
            let mut rows = stmt.query([ids]).map_err(sql)?;
            while let Some(row) = rows.next().map_err(sql)? {
                let doc: i64 = row.get(0).map_err(sql)?;
                let keys = row.get_ref(1).map_err(sql)?.as_blob().map_err(|e| sql(e.into()))?;
                let simhash: Option<i64> = row.get(2).map_err(sql)?;
                let token_keys = TokenKeys::from_bytes(keys)
                    .ok_or_else(|| ArchiveError::Corrupt(format!("the token keys of document {doc}: odd length")))?;
                each(doc as u32, &Glance { token_keys, simhash: simhash.map(|h| h as u64) });
            }
        }
        Ok(())
    }

    /// What went wrong while the archive was read during a check (the seam has no error
    /// channel of its own): each problem once, in the order met.
    pub fn problems(&self) -> Vec<String> {
        self.problems.lock().map(|p| p.clone()).unwrap_or_else(|poisoned| poisoned.into_inner().clone())
    }

    fn note(&self, problem: String) {
        let mut problems = self.problems.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if !problems.contains(&problem) {
            problems.push(problem);
        }
    }
}

impl Drop for ArchiveIndex<'_> {
    /// Ends the read transaction begun at [`ArchiveIndex::open`]. Nothing was written in
    /// it, so ending it cannot lose anything; should `COMMIT` fail, `ROLLBACK` ends it,
    /// and failing that SQLite ends it when the connection closes (every job opens the
    /// archive for itself).
    fn drop(&mut self) {
        let conn = self.archive.lock();
        if !conn.is_autocommit() && conn.execute_batch("COMMIT").is_err() {
            conn.execute_batch("ROLLBACK").ok();
        }
    }
}

/// What a check says of a segment it could not read soundly.
fn damaged(segment: &SegmentLookup, what: &str) -> String {
    let name = segment.path().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    format!(
        "segment {name} is damaged ({what}): matches with the documents it holds would be missed; \
         run `twinspot archive verify` and restore the archive from a copy"
    )
}

/// One archived document as read back.
struct Stored {
    text: String,
    simhash: Option<u64>,
    keywords: Option<KeywordPrint>,
}

impl ReferenceIndex for ArchiveIndex<'_> {
    fn kgram_postings(&self, hashes: &[u64]) -> Vec<Cow<'_, [Posting]>> {
        self.collect_all(&self.kgrams, hashes)
    }

    fn sentence_postings(&self, hashes: &[u64]) -> Vec<Cow<'_, [Posting]>> {
        self.collect_all(&self.sentences, hashes)
    }

    fn simhash_neighbours(&self, simhash: u64, after: Option<u32>, limit: usize) -> Vec<(u32, u32)> {
        let threshold = self.archive.settings.simhash_threshold;
        match self.simhash_rows(simhash, threshold) {
            Ok(rows) => {
                let mut docs: Vec<(u32, u32)> = rows
                    .into_iter()
                    .map(|(id, h)| (id as u32, hamming(simhash, h as u64)))
                    .filter(|&(id, distance)| {
                        distance <= threshold && after.is_none_or(|a| id > a) && !self.removed.contains(&id)
                    })
                    .collect();
                docs.sort_unstable();
                docs.dedup();
                // The closest first when there are more than asked for.
                if docs.len() > limit {
                    docs.sort_unstable_by_key(|&(id, distance)| (distance, id));
                    docs.truncate(limit);
                    docs.sort_unstable();
                }
                docs
            }
            Err(error) => {
                self.note(format!("SimHash lookup failed: {error}"));
                Vec::new()
            }
        }
    }

    fn glances(&self, docs: &[u32], each: &mut dyn FnMut(u32, &Glance<'_>)) {
        if let Err(error) = self.load_glances(docs, each) {
            self.note(error.to_string());
        }
    }

    fn reference(&self, doc: u32) -> Option<ReferenceDoc<'_>> {
        let stored = match self.load(doc) {
            Ok(Some(found)) => found,
            Ok(None) => {
                // Postings of removed documents were dropped before: this one's are stray.
                self.note(format!(
                    "the segments name document {doc}, which the catalog does not hold: a segment is damaged; \
                     run `twinspot archive verify`"
                ));
                return None;
            }
            Err(error) => {
                self.note(error.to_string());
                return None;
            }
        };
        let settings = &self.archive.settings;
        let compared = compared_prefix(&stored.text, settings);
        // As in a check's own index: matching reads tokens and sentences, not k-grams.
        let prints = DocumentFingerprints::without_kgrams(&stored.text[..compared], settings);
        let countable_chars = stored.text[..compared].chars().count();
        Some(ReferenceDoc {
            prints: Cow::Owned(prints),
            text: Arc::from(stored.text),
            compared,
            masked_chars: Cow::Borrowed(&[]),
            countable_chars,
            simhash: stored.simhash,
            keywords: stored.keywords.map(Cow::Owned),
        })
    }

    fn reference_count(&self) -> usize {
        self.documents
    }
}

impl StoredReferences for ArchiveIndex<'_> {
    fn as_index(&self) -> &dyn ReferenceIndex {
        self
    }

    fn same_bytes(&self, sha256: &str) -> Option<u32> {
        let found: Result<Option<i64>, rusqlite::Error> = self
            .archive
            .lock()
            .prepare_cached("SELECT id FROM documents WHERE sha256 = ?1 ORDER BY id LIMIT 1")
            .and_then(|mut s| s.query_row([sha256], |r| r.get(0)).optional());
        match found {
            Ok(id) => id.map(|id| id as u32),
            Err(error) => {
                self.note(format!("SHA-256 lookup failed: {error}"));
                None
            }
        }
    }

    fn entry(&self, doc: u32, id: usize) -> DocumentEntry {
        type Row = (String, String, Vec<u8>, i64, Option<i64>);
        let row: Result<Option<Row>, ArchiveError> = self
            .archive
            .lock()
            .query_row(
                "SELECT d.path, d.sha256, t.text, d.chars, d.simhash FROM documents d JOIN texts t ON t.id = d.id WHERE d.id = ?1",
                [i64::from(doc)],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .optional()
            .map_err(|e| self.archive.sql(e));
        let mut entry =
            DocumentEntry::unread(id, format!("archive document {doc}"), self.archive.dir.clone(), Role::Reference);
        let (path, sha256, text, chars, simhash) = match row {
            Ok(Some(row)) => row,
            Ok(None) => {
                entry.error = Some(ArchiveError::NoSuchDocument(i64::from(doc)).to_string().into());
                return entry;
            }
            Err(error) => {
                entry.error = Some(error.to_string().into());
                return entry;
            }
        };
        entry.source = PathBuf::from(&path);
        entry.path = path;
        match super::add::decompress(&text) {
            Ok(text) => {
                let compared = compared_prefix(&text, &self.archive.settings);
                entry.countable_chars = text[..compared].chars().count();
                entry.text = Arc::from(text);
            }
            Err(e) => {
                entry.error = Some(ArchiveError::Corrupt(format!("the text of document {doc}: {e}")).to_string().into())
            }
        }
        entry.chars = chars as usize;
        entry.simhash = simhash.map(|h| h as u64);
        entry.sha256 = Some(sha256);
        entry
    }
}

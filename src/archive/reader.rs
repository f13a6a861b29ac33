//! A snapshot of an archive for matching: its segments mapped, its removed documents
//! known; the archive's side of the [`ReferenceIndex`] seam. Document ids are the
//! archive's stable ids.

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use rustc_hash::FxHashSet;

use super::codec::{bands, decompress};
use super::lookup::SegmentLookup;
use super::rows;
use super::segment::Kind;
use super::{Archive, ArchiveError};
use crate::engine::{Role, compared_prefix};
use crate::fingerprint::keywords::KeywordPrint;
use crate::fingerprint::simhash::hamming;
use crate::fingerprint::{DocumentFingerprints, TokenKeys};
use crate::fingerprint::FingerprintedDoc;
use crate::index::{Glance, Posting, ReferenceIndex, StoredReferences};
use crate::model::DocumentEntry;

/// Documents glanced at per query.
const GLANCE_CHUNK: usize = 4096;
/// The largest distance the band columns answer; above it every SimHash is scanned.
const BAND_DISTANCE: u32 = 3;

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
                Err(ArchiveError::Io { path, error }) if error.kind() == std::io::ErrorKind::NotFound => {
                    last = Some(ArchiveError::Io { path, error });
                }
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| ArchiveError::Corrupt("segments keep disappearing".into())))
    }

    fn try_open(archive: &'a Archive) -> Result<Self, ArchiveError> {
        let catalog = archive.catalog();
        // One snapshot for the whole check: one view of segments and documents, and no
        // lock taken and schema read again per query (a check asks for tens of thousands
        // of rows).
        catalog.begin_snapshot()?;
        let (listed, removed, documents, last_id) =
            (catalog.segments()?, catalog.removed_ids()?, catalog.document_count()?, catalog.last_id()?);
        // From here on the index owns the transaction: it ends when the index is dropped.
        let mut index = Self {
            archive,
            kgrams: Vec::new(),
            sentences: Vec::new(),
            removed,
            documents,
            last_id,
            problems: Mutex::default(),
        };
        for rows::SegmentRow { kind, file, .. } in listed {
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

    fn simhash_rows(&self, simhash: u64, threshold: u32) -> Result<Vec<(u32, u64)>, ArchiveError> {
        self.archive.catalog().simhash_rows((threshold <= BAND_DISTANCE).then(|| bands(simhash)))
    }

    /// The stored text of `doc`, its SimHash and its keywords.
    fn load(&self, doc: u32) -> Result<Option<Stored>, ArchiveError> {
        let row = self.archive.catalog().stored(doc)?;
        let Some(rows::StoredRow { text: compressed, simhash, keywords }) = row else {
            return Ok(None);
        };
        let text =
            decompress(&compressed).map_err(|e| ArchiveError::Corrupt(format!("the text of document {doc}: {e}")))?;
        let keywords = keywords.map(|k| KeywordPrint::from_keywords(k.lines().map(str::to_string).collect()));
        Ok(Some(Stored { text, simhash, keywords }))
    }

    /// Calls `each` with the stored token keys and SimHash of every document of `docs`
    /// that has keys (documents archived before format 3 have none): one query per
    /// [`GLANCE_CHUNK`] documents, in id order.
    fn load_glances(&self, docs: &[u32], each: &mut dyn FnMut(u32, &Glance<'_>)) -> Result<(), ArchiveError> {
        for chunk in docs.chunks(GLANCE_CHUNK) {
            let mut odd = None;
            self.archive.catalog().glances(chunk, &mut |doc, keys, simhash| match TokenKeys::from_bytes(keys) {
                Some(token_keys) => {
                    each(doc, &Glance { token_keys, simhash });
                    true
                }
                None => {
                    odd = Some(doc);
                    false
                }
            })?;
            if let Some(doc) = odd {
                return Err(ArchiveError::Corrupt(format!("the token keys of document {doc}: odd length")));
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
        self.archive.catalog().end_snapshot();
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
                    .map(|(id, h)| (id, hamming(simhash, h)))
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

    fn reference(&self, doc: u32) -> Option<FingerprintedDoc<'_>> {
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
        Some(FingerprintedDoc {
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
        match self.archive.catalog().first_with_sha256(sha256) {
            Ok(id) => id,
            Err(error) => {
                self.note(format!("SHA-256 lookup failed: {error}"));
                None
            }
        }
    }

    fn entry(&self, doc: u32, id: usize) -> DocumentEntry {
        let row = self.archive.catalog().entry(doc);
        let mut entry =
            DocumentEntry::unread(id, format!("archive document {doc}"), self.archive.dir.clone(), Role::Reference);
        let rows::EntryRow { path, sha256, text, chars, simhash } = match row {
            Ok(Some(row)) => row,
            Ok(None) => {
                entry.error = Some(ArchiveError::NoSuchDocument(doc).to_string().into());
                return entry;
            }
            Err(error) => {
                entry.error = Some(error.to_string().into());
                return entry;
            }
        };
        entry.source = PathBuf::from(&path);
        entry.path = path;
        match decompress(&text) {
            Ok(text) => {
                let compared = compared_prefix(&text, &self.archive.settings);
                entry.countable_chars = text[..compared].chars().count();
                entry.text = Arc::from(text);
            }
            Err(e) => {
                entry.error = Some(ArchiveError::Corrupt(format!("the text of document {doc}: {e}")).to_string().into())
            }
        }
        entry.chars = usize::try_from(chars).unwrap_or_default();
        entry.simhash = simhash;
        entry.sha256 = Some(sha256);
        entry
    }
}

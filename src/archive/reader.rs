//! A snapshot of an archive for matching: its segments mapped, its removed documents
//! known; the archive's side of the [`ReferenceIndex`] seam. Document ids are the
//! archive's stable ids.

use std::borrow::Cow;
use std::sync::Arc;

use rusqlite::OptionalExtension;
use rustc_hash::FxHashSet;

use super::segment::{Kind, Segment};
use super::{Archive, ArchiveError};
use crate::fingerprint::DocumentFingerprints;
use crate::fingerprint::simhash::hamming;
use crate::index::{Posting, ReferenceDoc, ReferenceIndex};

/// Width of one SimHash block of the catalog's pigeonhole index (four blocks: any two
/// values within 3 bits agree on one whole block).
pub(super) const BAND_BITS: u32 = 16;
/// The largest distance the band columns answer; above it every SimHash is scanned.
const BAND_DISTANCE: u32 = 3;

/// The four 16-bit blocks of a SimHash, as stored in the catalog.
pub(super) fn bands(h: u64) -> [i64; 4] {
    [0, 1, 2, 3].map(|i| ((h >> (i * BAND_BITS)) & 0xffff) as i64)
}

/// The archive's references, as one check sees them.
pub struct ArchiveIndex<'a> {
    archive: &'a Archive,
    kgrams: Vec<Segment>,
    sentences: Vec<Segment>,
    removed: FxHashSet<u32>,
    documents: usize,
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
        let (listed, removed, documents) = {
            let conn = archive.lock();
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
            (listed, removed, documents)
        };
        let (mut kgrams, mut sentences) = (Vec::new(), Vec::new());
        for (kind, file) in listed {
            let segment = Segment::open(&archive.dir.join(&file))?;
            match Kind::from_code(kind) {
                Some(Kind::Kgrams) => kgrams.push(segment),
                Some(Kind::Sentences) => sentences.push(segment),
                None => return Err(ArchiveError::Corrupt(format!("segment {file} of unknown kind {kind}"))),
            }
        }
        Ok(Self { archive, kgrams, sentences, removed, documents: documents as usize })
    }

    /// Number of segments mapped (k-grams, sentences).
    pub fn segment_counts(&self) -> (usize, usize) {
        (self.kgrams.len(), self.sentences.len())
    }

    /// Every live posting of `hash` over `segments`, sorted, into `out`.
    fn collect(&self, segments: &[Segment], hash: u64, out: &mut Vec<Posting>) {
        out.clear();
        for seg in segments {
            for i in seg.find(hash) {
                let (_, p) = seg.entry(i);
                if !self.removed.contains(&p.doc) {
                    out.push(p);
                }
            }
        }
        if segments.len() > 1 {
            out.sort_unstable();
        }
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

    /// The stored text of `doc` with its character count and SimHash.
    fn load(&self, doc: u32) -> Result<Option<(String, Option<u64>)>, ArchiveError> {
        let row: Option<(Vec<u8>, Option<i64>)> = self
            .archive
            .lock()
            .prepare_cached("SELECT text, simhash FROM documents WHERE id = ?1")
            .and_then(|mut s| s.query_row([i64::from(doc)], |r| Ok((r.get(0)?, r.get(1)?))).optional())
            .map_err(|e| self.archive.sql(e))?;
        let Some((compressed, simhash)) = row else {
            return Ok(None);
        };
        let text = super::add::decompress(&compressed)
            .map_err(|e| ArchiveError::Corrupt(format!("the text of document {doc}: {e}")))?;
        Ok(Some((text, simhash.map(|h| h as u64))))
    }
}

impl ReferenceIndex for ArchiveIndex<'_> {
    fn kgram_postings(&self, hashes: &[u64], max_postings: usize, found: &mut dyn FnMut(usize, Posting)) {
        let mut buffer = Vec::new();
        for (i, &hash) in hashes.iter().enumerate() {
            self.collect(&self.kgrams, hash, &mut buffer);
            if buffer.len() <= max_postings {
                buffer.iter().for_each(|&p| found(i, p));
            }
        }
    }

    fn sentence_postings(&self, hashes: &[u64], found: &mut dyn FnMut(usize, Posting)) {
        let mut buffer = Vec::new();
        for (i, &hash) in hashes.iter().enumerate() {
            self.collect(&self.sentences, hash, &mut buffer);
            buffer.iter().for_each(|&p| found(i, p));
        }
    }

    fn simhash_neighbours(&self, simhash: u64) -> Vec<u32> {
        let threshold = self.archive.settings.simhash_threshold;
        match self.simhash_rows(simhash, threshold) {
            Ok(rows) => {
                let mut docs: Vec<u32> = rows
                    .into_iter()
                    .filter(|&(_, h)| hamming(simhash, h as u64) <= threshold)
                    .map(|(id, _)| id as u32)
                    .collect();
                docs.sort_unstable();
                docs.dedup();
                docs
            }
            Err(error) => {
                // The seam has no error channel: a failing catalog read is said, not hidden.
                eprintln!("twinspot: archive {}: SimHash lookup failed: {error}", self.archive.dir.display());
                Vec::new()
            }
        }
    }

    fn reference(&self, doc: u32) -> Option<ReferenceDoc<'_>> {
        let (text, simhash) = match self.load(doc) {
            Ok(found) => found?,
            Err(error) => {
                eprintln!("twinspot: archive {}: {error}", self.archive.dir.display());
                return None;
            }
        };
        let mut prints = DocumentFingerprints::compute(&text, &self.archive.settings);
        // As in a check's own index: matching reads tokens and sentences, not k-grams.
        prints.kgrams = Vec::new();
        let chars = text.chars().count();
        Some(ReferenceDoc {
            prints: Cow::Owned(prints),
            text: Arc::from(text),
            masked_chars: Cow::Borrowed(&[]),
            countable_chars: chars,
            simhash,
        })
    }

    fn reference_count(&self) -> usize {
        self.documents
    }
}

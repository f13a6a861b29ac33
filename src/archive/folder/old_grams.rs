//! The character grams of the documents archived before an archive kept them (format
//! 10), taken from their stored texts by `archive compact`: afterwards a check looks every
//! document's grams up, and finds a short edited copy in any of them.

use rayon::prelude::*;

use super::files::{segment_name, sync_dir};
use super::segments::segment::Kind;
use super::segments::writing;
use super::{Archive, catalog, rows};
use crate::archive::error::ArchiveError;
use crate::archive::read_back::char_gram_postings;
use crate::archive::signals::holds_char_grams;
use crate::index::Posting;

/// Documents whose grams go into one segment: a batch of an add.
const BATCH: usize = 1000;

impl Archive {
    /// Writes the character grams of every document archived without them, a segment per
    /// [`BATCH`] documents, and lists those segments together with the record that every
    /// document has its grams, in one transaction: a compaction stopped midway leaves
    /// unlisted files, which the next writer removes. How many documents got their grams.
    pub(in crate::archive) fn keep_old_char_grams(&self) -> Result<usize, ArchiveError> {
        self.require_writable()?;
        let mut conn = self.lock();
        let sql = |e| ArchiveError::sql(&self.dir, e);
        let (from, oldest) = catalog::char_gram_bounds(&conn).map_err(sql)?;
        if holds_char_grams(from, oldest) {
            return Ok(0);
        }
        let older = catalog::documents_before(&conn, from.unwrap_or(u32::MAX)).map_err(sql)?;
        let mut written: Vec<(String, u64)> = Vec::new();
        let outcome = older.chunks(BATCH).try_for_each(|chunk| -> Result<(), ArchiveError> {
            let mut texts = Vec::with_capacity(chunk.len());
            for &id in chunk {
                if let Some(row) = rows::stored(&conn, id).map_err(sql)? {
                    texts.push((id, row.text));
                }
            }
            let grams: Vec<Vec<(u64, Posting)>> = texts
                .par_iter()
                .map(|(id, text)| char_gram_postings(*id, text, &self.settings))
                .collect::<Result<_, _>>()?;
            let file = segment_name(Kind::CharGrams, &format!("g{}", chunk[0]));
            let count = writing::write(&self.dir.join(&file), Kind::CharGrams, grams.concat())?;
            written.push((file, count));
            Ok(())
        });
        let listed = outcome.and_then(|()| {
            sync_dir(&self.dir)?;
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(sql)?;
            for (file, count) in &written {
                rows::insert_segment(&tx, Kind::CharGrams.code(), file, *count).map_err(sql)?;
            }
            catalog::all_char_grams_kept(&tx).map_err(sql)?;
            tx.commit().map_err(sql)
        });
        if let Err(e) = listed {
            // Nothing of this call is listed: what it wrote goes with it.
            for (file, _) in &written {
                std::fs::remove_file(self.dir.join(file)).ok();
            }
            return Err(e);
        }
        Ok(older.len())
    }
}

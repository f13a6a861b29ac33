//! The character grams of the documents a shared archive held before it kept them
//! (format 10), taken from their stored texts by `compact`, in its transaction: afterwards
//! a check looks every document's grams up, as in a folder archive.

use rayon::prelude::*;

use super::super::signals::{CHAR_GRAMS_FROM, holds_char_grams};
use super::copiers::sorted_by_partition;
use super::db::Sql;
use super::rows::{self, Postings, RowError, id_of};
use super::{Schema, schema};
use crate::archive::read_back::char_gram_postings;
use crate::index::Posting;
use crate::settings::Settings;

/// Documents whose texts are read and whose grams are copied at a time.
const BATCH: usize = 1000;

/// Copies the character grams of every document archived without them into the table
/// of grams and records that every document has its grams, inside the caller's
/// transaction (the writers' lock held). How many documents got their grams.
pub(super) fn keep_old_char_grams(db: &mut impl Sql, s: &Schema, settings: &Settings) -> Result<usize, RowError> {
    let (from, oldest) = schema::char_gram_bounds(db, s)?;
    if holds_char_grams(from, oldest) {
        return Ok(0);
    }
    let before = i64::from(from.unwrap_or(u32::MAX));
    let ids: Vec<u32> = db
        .query(&format!("SELECT id FROM {s}.documents WHERE id < $1 ORDER BY id"), &[&before])?
        .iter()
        .map(|r| id_of(r.get(0)))
        .collect::<Result<_, _>>()?;
    for chunk in ids.chunks(BATCH) {
        let mut texts = Vec::with_capacity(chunk.len());
        for &id in chunk {
            if let Some(row) = rows::stored(db, s, id)? {
                texts.push((id, row.text));
            }
        }
        let grams: Vec<Vec<(u64, Posting)>> = texts
            .par_iter()
            .map(|(id, text)| char_gram_postings(*id, text, settings))
            .collect::<Result<_, _>>()
            .map_err(|e| RowError::Damaged(e.to_string()))?;
        for (part, list) in sorted_by_partition(grams.concat()).into_iter().enumerate() {
            if !list.is_empty() {
                rows::copy_partition(db, s, (Postings::CharGrams, part), &list)?;
            }
        }
    }
    db.execute(
        &format!(
            "INSERT INTO {s}.settings(key, value) VALUES ($1, '1')
             ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"
        ),
        &[&CHAR_GRAMS_FROM],
    )?;
    Ok(ids.len())
}

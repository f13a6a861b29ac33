//! Expiring: every document older than a day goes.

use super::super::date::parse_date;
use super::super::store::ArchiveStore;
use crate::archive::error::ArchiveError;

/// Drops every document older than `before` (YYYY-MM-DD): its publication date when it
/// has one, else the day it was added, in one transaction. Groups keep a representative.
/// How many went.
pub(in crate::archive) fn expire<S: ArchiveStore>(store: &S, before: &str) -> Result<usize, ArchiveError> {
    store.require_write("expire documents of")?;
    parse_date(before)?;
    store.write(|rows| {
        let ids = rows.ids_dated_before(before)?;
        for &id in &ids {
            rows.remove_document(id)?;
        }
        Ok(ids.len())
    })
}

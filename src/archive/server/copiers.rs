//! A batch's postings written in parallel, over connections of their own, while the
//! batch's transaction inserts its documents: the server copies into several partitions
//! at once instead of one after another.
//!
//! Postings committed apart from their documents must not be seen before them. So the
//! batch's document ids are reserved first and listed as removed (committed at once);
//! the postings are then copied and committed; the batch's transaction takes the ids
//! of the documents it inserted off the list as it commits them. A check skips the
//! postings of removed ids, so it sees a document with all its postings or not at all;
//! an adder killed midway leaves only postings of removed ids, which `compact` deletes
//! as it deletes any removed document's (under the writers' lock, so never those of a
//! batch still being written).

use super::super::signals::BySignal;
use super::db::Db;
use super::rows::{self, Postings, RowError};
use super::schema::by_partition;
use super::{ArchiveError, Schema, ServerLocation};
use crate::archive::records::stored_hash;
use crate::index::{Posting, keep_first_positions};

/// Connections copying postings at once.
const WRITERS: usize = 4;

/// The postings of one partition of one table, sorted by hash.
type Share = ((Postings, usize), Vec<(i64, Posting)>);

/// Connections that write postings beside an add's own.
pub(super) struct Copiers {
    clients: Vec<Db>,
}

impl Copiers {
    /// Opens the writers' connections.
    pub(super) fn open(location: &ServerLocation) -> Result<Self, ArchiveError> {
        let clients = (0..WRITERS).map(|_| location.connect()).collect::<Result<_, _>>()?;
        Ok(Self { clients })
    }

    /// Lists `ids` as removed and commits it, before any of their postings is written.
    pub(super) fn reserve(&mut self, s: &Schema, ids: &[u32]) -> Result<(), RowError> {
        match self.clients.first_mut() {
            Some(client) => rows::mark_removed(client, s, ids),
            None => Err(RowError::WriterLost),
        }
    }

    /// Copies the `postings` (hash, posting) of each signal into the partitions of its
    /// table, each writer its share in one transaction of its own.
    pub(super) fn copy(&mut self, s: &Schema, postings: BySignal<Vec<(u64, Posting)>>) -> Result<(), RowError> {
        let writers = self.clients.len();
        if writers == 0 {
            return Err(RowError::WriterLost);
        }
        let mut shares: Vec<Vec<Share>> = (0..writers).map(|_| Vec::new()).collect();
        for (signal, entries) in postings.into_iter() {
            let table = Postings::of(signal);
            for (part, list) in sorted_by_partition(entries).into_iter().enumerate() {
                if !list.is_empty() {
                    shares[part % writers].push(((table, part), list));
                }
            }
        }
        std::thread::scope(|scope| {
            let running: Vec<_> = self
                .clients
                .iter_mut()
                .zip(shares)
                .map(|(client, share)| scope.spawn(move || write_share(client, s, &share)))
                .collect();
            let mut outcome = Ok(());
            for writer in running {
                let result = writer.join().unwrap_or(Err(RowError::WriterLost));
                if outcome.is_ok() {
                    outcome = result;
                }
            }
            outcome
        })
    }
}

/// `entries` split by the partition their stored hash falls in, each sorted by hash,
/// with at most [`crate::index::MAX_POSITIONS_PER_DOCUMENT`] positions of one hash in
/// one document, as every index of postings keeps them.
pub(super) fn sorted_by_partition(mut entries: Vec<(u64, Posting)>) -> Vec<Vec<(i64, Posting)>> {
    // Sorted once, in the order of the stored hash: each partition then takes its share
    // already in order (the stored form is one-to-one, so a hash's postings stay together
    // for keeping their first positions).
    entries.sort_unstable_by_key(|&(hash, posting)| (stored_hash(hash), posting));
    entries.dedup();
    keep_first_positions(&mut entries);
    let stored = entries.into_iter().map(|(hash, posting)| (stored_hash(hash), posting));
    by_partition(stored, |&(hash, _)| hash)
}

/// One writer's share, in one transaction.
fn write_share(client: &mut Db, s: &Schema, share: &[Share]) -> Result<(), RowError> {
    if share.is_empty() {
        return Ok(());
    }
    let mut tx = client.transaction()?;
    for (at, entries) in share {
        rows::copy_partition(&mut tx, s, *at, entries)?;
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation, reason = "the tests' values are small")]
mod tests {
    use super::*;
    use crate::index::MAX_POSITIONS_PER_DOCUMENT;

    #[test]
    fn one_document_keeps_its_first_positions_of_a_hash_as_every_index_does() {
        let p = |doc, position| Posting { doc, position };
        let mut entries: Vec<(u64, Posting)> = (0..12).rev().map(|i| (7, p(1, i))).collect();
        entries.extend([(7, p(2, 0)), (7, p(2, 0)), (u64::MAX, p(1, 3)), (3, p(4, 0)), (u64::MAX - 9, p(4, 1))]);
        let parts = sorted_by_partition(entries);
        assert!(parts.iter().all(|part| part.is_sorted_by_key(|&(hash, _)| hash)));
        let all: Vec<(i64, Posting)> = parts.into_iter().flatten().collect();
        let of = |hash: u64, doc: u32| -> Vec<u32> {
            all.iter().filter(|(h, q)| *h == stored_hash(hash) && q.doc == doc).map(|(_, q)| q.position).collect()
        };
        assert_eq!(of(7, 1), (0..MAX_POSITIONS_PER_DOCUMENT as u32).collect::<Vec<u32>>());
        assert_eq!(of(u64::MAX, 1), [3]);
        assert_eq!(all.iter().filter(|(_, q)| q.doc == 2).count(), 1);
    }
}

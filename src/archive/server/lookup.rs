//! Postings looked up in a shared archive for a check: all the hashes a suspect asks for
//! in one round trip, each hash's first postings only.
//!
//! A hash held more than [`MAX_POSTINGS`] times is matched against its first documents
//! only (the exclusions' rule, [`crate::exclusions`]), so the server sends at most
//! [`CAP`] postings of a hash, the lowest documents first, as one row of arrays, and a
//! [`Spread`] says how the archive holds what was cut: more than [`MAX_POSTINGS`]
//! postings, how many documents (counted on the server up to the number that makes a
//! hash common), the first of them. The check then judges every hash as it would with
//! all its postings, and a frequent k-gram of Chinese text no longer costs thousands of
//! rows sent and decoded.
//!
//! The postings are in two parts ([`super::fold`]): the folded rows, one a hash, whose
//! first postings are a slice of its arrays, and the rows of the adds since the last
//! fold. Each is asked in one statement, and a hash's first postings are the first of
//! both together.

use rustc_hash::{FxHashMap, FxHashSet};

use super::Schema;
use super::db::Sql;
use super::rows::{Postings, RowError, hash_of, id_of};
use super::schema::by_partition;
use crate::archive::lookups::CAP;
use crate::archive::records::stored_hash;
use crate::engine::MAX_POSTINGS;
use crate::index::{Posting, Spread, distinct_documents};

/// The postings of each hash asked for, in the order asked, each sorted by document then
/// position: all of them, or the first [`CAP`] with a spread that tells the rest.
pub(super) struct Found {
    pub lists: Vec<Vec<Posting>>,
    pub spreads: Vec<Option<Spread>>,
}

type Rows<T> = Result<T, RowError>;

/// Looks up `hashes` in `table`, skipping the postings of `removed` documents: in its
/// newer rows, and in its folded rows too when the archive has them (`folded`). The
/// documents of a hash held more than [`MAX_POSTINGS`] times are counted up to
/// `min_documents` (the number that makes a k-gram common; 0 where nothing asks, as for
/// sentences): a spread's `documents` is that count, or more.
pub(super) fn found(
    db: &mut impl Sql,
    s: &Schema,
    (table, folded): (Postings, bool),
    hashes: &[u64],
    removed: &[i32],
    min_documents: usize,
) -> Rows<Found> {
    let newer = first_postings(db, s, table, hashes, removed)?;
    let older = match folded {
        true => folded_first(db, s, table, hashes, removed)?,
        false => FxHashMap::default(),
    };
    let merged = merged_first(&newer, &older);
    let mut documents: FxHashMap<u64, usize> = merged
        .iter()
        .filter(|(_, list)| list.len() > MAX_POSTINGS)
        .map(|(&h, list)| (h, distinct_documents(list)))
        .collect();
    let uncounted: Vec<u64> = documents.iter().filter(|&(_, &n)| n < min_documents).map(|(&h, _)| h).collect();
    if !uncounted.is_empty() {
        let counted = counted_documents(db, s, table, (&uncounted, removed, min_documents), (&newer, &older))?;
        for (hash, n) in counted {
            documents.entry(hash).and_modify(|known| *known = (*known).max(n));
        }
    }
    let mut lists = Vec::with_capacity(hashes.len());
    let mut spreads = Vec::with_capacity(hashes.len());
    for hash in hashes {
        let list = merged.get(hash).cloned().unwrap_or_default();
        spreads.push(documents.get(hash).map(|&n| Spread::of(&list, n)));
        lists.push(list);
    }
    Ok(Found { lists, spreads })
}

/// The first [`CAP`] postings of each hash, of its newer and its folded ones together.
fn merged_first(
    newer: &FxHashMap<u64, Vec<Posting>>,
    older: &FxHashMap<u64, FoldedFirst>,
) -> FxHashMap<u64, Vec<Posting>> {
    let mut merged = newer.clone();
    for (&hash, folded) in older {
        let list = merged.entry(hash).or_default();
        list.extend_from_slice(&folded.list);
        list.sort_unstable();
        list.truncate(CAP);
    }
    merged
}

/// How many live documents hold each of `uncounted` (counted up to `limit`): the newer
/// rows' and the folded rows' documents (no document is in both), each taken from what
/// the lookups brought when that is all of them, else counted on the server.
fn counted_documents(
    db: &mut impl Sql,
    s: &Schema,
    table: Postings,
    (uncounted, removed, limit): (&[u64], &[i32], usize),
    (newer, older): (&FxHashMap<u64, Vec<Posting>>, &FxHashMap<u64, FoldedFirst>),
) -> Rows<Vec<(u64, usize)>> {
    let newer_cut: Vec<u64> =
        uncounted.iter().copied().filter(|h| newer.get(h).is_some_and(|list| list.len() >= CAP)).collect();
    let older_uncounted: Vec<u64> =
        uncounted.iter().copied().filter(|h| older.get(h).is_some_and(|f| f.documents.is_none())).collect();
    let mut newer_counts: FxHashMap<u64, usize> = FxHashMap::default();
    if !newer_cut.is_empty() {
        newer_counts.extend(document_counts(db, s, table, &newer_cut, removed, limit)?);
    }
    let mut older_counts: FxHashMap<u64, usize> = FxHashMap::default();
    if !older_uncounted.is_empty() {
        older_counts.extend(folded_counts(db, s, table, &older_uncounted, removed)?);
    }
    Ok(uncounted
        .iter()
        .map(|h| {
            let in_newer =
                newer_counts.get(h).copied().unwrap_or_else(|| newer.get(h).map_or(0, |list| distinct_documents(list)));
            let in_older =
                older_counts.get(h).copied().unwrap_or_else(|| older.get(h).and_then(|f| f.documents).unwrap_or(0));
            (*h, in_newer + in_older)
        })
        .collect())
}

/// A position as a posting column holds it (`integer`, never negative): a negative one
/// is damage, said as such, never read as the first token.
fn position_of(position: i32) -> Rows<u32> {
    u32::try_from(position).map_err(|_| RowError::Damaged(format!("a stored posting has position {position}")))
}

/// A folded row's count of documents (`integer`, never negative): a negative one is
/// damage, said as such, never read as a hash in no document.
fn documents_of(documents: i32) -> Rows<usize> {
    usize::try_from(documents)
        .map_err(|_| RowError::Damaged(format!("a folded posting row counts {documents} documents")))
}

/// A hash's first live postings among its folded ones.
struct FoldedFirst {
    /// At most [`CAP`], sorted by document then position.
    list: Vec<Posting>,
    /// How many live documents its folded postings name, when the row told it: always
    /// when no document is removed, else when the slice read was the whole row.
    documents: Option<usize>,
}

/// The first [`CAP`] live postings of each hash among the folded rows of `table`: a slice
/// of each row's arrays, long enough that removed documents cannot crowd out the live.
fn folded_first(
    db: &mut impl Sql,
    s: &Schema,
    table: Postings,
    hashes: &[u64],
    removed: &[i32],
) -> Rows<FxHashMap<u64, FoldedFirst>> {
    let stored: Vec<i64> = hashes.iter().map(|&h| stored_hash(h)).collect();
    let slice = i32::try_from(CAP + removed.len()).unwrap_or(i32::MAX);
    let query = format!(
        "SELECT hash, docs[1:$2], positions[1:$2], documents, cardinality(docs) FROM {s}.{t}_packed
         WHERE hash = ANY($1)",
        t = table.table()
    );
    let gone: FxHashSet<i32> = removed.iter().copied().collect();
    let mut found = FxHashMap::default();
    for r in db.query(&query, &[&stored, &slice])? {
        let hash = hash_of(Some(r.get(0))).unwrap_or(0);
        let (docs, positions): (Vec<i32>, Vec<i32>) = (r.get(1), r.get(2));
        let (documents, whole): (i32, i32) = (r.get(3), r.get(4));
        let mut list = docs
            .into_iter()
            .zip(positions)
            .filter(|(doc, _)| !gone.contains(doc))
            .map(|(doc, position)| Ok(Posting { doc: id_of(i64::from(doc))?, position: position_of(position)? }))
            .collect::<Rows<Vec<Posting>>>()?;
        let documents = match (gone.is_empty(), whole <= slice) {
            (true, _) => Some(documents_of(documents)?),
            (false, true) => Some(distinct_documents(&list)),
            (false, false) => None,
        };
        list.truncate(CAP);
        found.insert(hash, FoldedFirst { list, documents });
    }
    Ok(found)
}

/// How many live documents the folded rows of each of `hashes` in `table` name.
fn folded_counts(
    db: &mut impl Sql,
    s: &Schema,
    table: Postings,
    hashes: &[u64],
    removed: &[i32],
) -> Rows<Vec<(u64, usize)>> {
    let stored: Vec<i64> = hashes.iter().map(|&h| stored_hash(h)).collect();
    let query = format!(
        "SELECT p.hash, (SELECT count(DISTINCT d) FROM unnest(p.docs) AS d WHERE d <> ALL($2))
         FROM {s}.{t}_packed AS p WHERE p.hash = ANY($1)",
        t = table.table()
    );
    Ok(db
        .query(&query, &[&stored, &removed])?
        .iter()
        .map(|r| (hash_of(Some(r.get(0))).unwrap_or(0), usize::try_from(r.get::<_, i64>(1)).unwrap_or(0)))
        .collect())
}

/// The first [`CAP`] live postings of each hash that has any, one row a hash: one
/// statement for all partitions, each asked for its own hashes only.
fn first_postings(
    db: &mut impl Sql,
    s: &Schema,
    table: Postings,
    hashes: &[u64],
    removed: &[i32],
) -> Rows<FxHashMap<u64, Vec<Posting>>> {
    let each = |part: usize, param: usize, removed: usize| {
        format!(
            "SELECT h, c.docs, c.positions FROM unnest(${param}::bigint[]) AS h
             CROSS JOIN LATERAL (
                 SELECT array_agg(doc) AS docs, array_agg(position) AS positions
                 FROM (SELECT doc, position FROM {s}.{t}_{part}
                       WHERE hash = h AND doc <> ALL(${removed}) ORDER BY doc, position LIMIT {CAP}) AS first
             ) AS c
             WHERE c.docs IS NOT NULL",
            t = table.table()
        )
    };
    let rows = per_partition(db, hashes, removed, None, each)?;
    let mut found = FxHashMap::default();
    for r in &rows {
        let hash = hash_of(Some(r.get(0))).unwrap_or(0);
        let docs: Vec<i32> = r.get(1);
        let positions: Vec<i32> = r.get(2);
        let mut list = docs
            .into_iter()
            .zip(positions)
            .map(|(doc, position)| Ok(Posting { doc: id_of(i64::from(doc))?, position: position_of(position)? }))
            .collect::<Rows<Vec<Posting>>>()?;
        // The rows came in index order; the aggregate keeps the two arrays in step but
        // need not keep that order.
        list.sort_unstable();
        found.insert(hash, list);
    }
    Ok(found)
}

/// How many live documents hold each of `hashes`, counted up to `limit`.
fn document_counts(
    db: &mut impl Sql,
    s: &Schema,
    table: Postings,
    hashes: &[u64],
    removed: &[i32],
    limit: usize,
) -> Rows<Vec<(u64, usize)>> {
    let each = |part: usize, param: usize, removed: usize| {
        format!(
            "SELECT h, (SELECT count(*) FROM (SELECT DISTINCT doc FROM {s}.{t}_{part}
                                            WHERE hash = h AND doc <> ALL(${removed}) LIMIT ${limit}) AS d)
             FROM unnest(${param}::bigint[]) AS h",
            t = table.table(),
            limit = removed + 1
        )
    };
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let rows = per_partition(db, hashes, removed, Some(&limit), each)?;
    Ok(rows
        .iter()
        .map(|r| (hash_of(Some(r.get(0))).unwrap_or(0), usize::try_from(r.get::<_, i64>(1)).unwrap_or(0)))
        .collect())
}

/// Runs the statement `each(partition, parameter of its hashes, parameter of the removed
/// ids)` for every partition some of `hashes` fall in, as one statement (`UNION ALL`):
/// each partition's distinct hashes, then the removed ids, then `extra` when given.
fn per_partition(
    db: &mut impl Sql,
    hashes: &[u64],
    removed: &[i32],
    extra: Option<&i64>,
    each: impl Fn(usize, usize, usize) -> String,
) -> Rows<Vec<tokio_postgres::Row>> {
    let mut parts = by_partition(hashes.iter().map(|&h| stored_hash(h)), |&h| h);
    for part in &mut parts {
        part.sort_unstable();
        part.dedup();
    }
    let asked: Vec<(usize, &Vec<i64>)> = parts.iter().enumerate().filter(|(_, h)| !h.is_empty()).collect();
    if asked.is_empty() {
        return Ok(Vec::new());
    }
    let removed_param = asked.len() + 1;
    let query = asked
        .iter()
        .enumerate()
        .map(|(i, (part, _))| each(*part, i + 1, removed_param))
        .collect::<Vec<_>>()
        .join(" UNION ALL ");
    let mut params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> =
        asked.iter().map(|(_, h)| *h as &(dyn tokio_postgres::types::ToSql + Sync)).collect();
    params.push(&removed);
    if let Some(extra) = extra {
        params.push(extra);
    }
    Ok(db.query(&query, &params)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(doc: u32, position: u32) -> Posting {
        Posting { doc, position }
    }

    #[test]
    fn a_spread_keeps_the_first_documents_and_the_count() {
        let list = [p(3, 1), p(3, 9), p(5, 2), p(8, 0)];
        let spread = Spread::of(&list, 40);
        assert_eq!(spread.documents, 40);
        assert_eq!(spread.postings, 4);
        assert_eq!(spread.first_documents(2), &[3, 5]);
        assert_eq!(distinct_documents(&list), 3);
        assert_eq!(distinct_documents(&[]), 0);
    }
}

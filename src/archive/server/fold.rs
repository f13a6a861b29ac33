//! Folding a shared archive's postings: what `compact` does to them.
//!
//! An add writes one row a posting (COPY BINARY into the hash's range partition): the
//! fastest way in, and what several adders can append at once. A check looks a suspect's
//! hashes up, and for that one row a hash (its documents and positions in two arrays,
//! sorted by document then position, with its document count) answers about three times
//! faster at 100,000 documents: one index entry and one row for a hash instead of one
//! for each of its postings, and a frequent hash's first postings are an array slice
//! instead of an index walk (docs/shared-archive.md).
//!
//! So the archive keeps both: the folded rows (`kgrams_packed`, `sentences_packed`) for
//! all it held at its last `compact`, the rows of every add since then beside them. A
//! check asks both and merges them ([`super::lookup`]). `compact` folds, in one
//! statement a table: it takes every newer posting and the folded rows of the hashes they
//! hold, and writes each of those hashes' rows anew, in hash order; the other folded rows
//! stay as they are, so a fold costs what was added since the last. When documents were
//! removed, their postings may be in any folded row: the fold then takes every row, and
//! drops their postings. It runs in the writers' transaction: an adder waits, and a check
//! sees the postings as they were before or after, never half folded.

use super::db::Sql;

use super::Schema;
use super::rows::{Postings, RowError};

/// Which folded rows a fold rewrites.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rewrite {
    /// Those of the hashes the newer postings hold.
    Touched,
    /// Every one: removed documents' postings may be in any.
    All,
}

/// Folds the newer postings of `table` into its folded rows and drops the postings of
/// removed documents from those it rewrites. How many postings were dropped.
fn fold_table(db: &mut impl Sql, s: &Schema, table: Postings, rewrite: Rewrite) -> Result<u64, RowError> {
    let t = table.table();
    let old = match rewrite {
        Rewrite::All => format!("DELETE FROM {s}.{t}_packed AS p"),
        Rewrite::Touched => {
            format!(
                "DELETE FROM {s}.{t}_packed AS p USING (SELECT DISTINCT hash FROM newer) AS n WHERE p.hash = n.hash"
            )
        }
    };
    let statement = format!(
        "WITH newer AS (DELETE FROM {s}.{t} RETURNING hash, doc, position),
              old AS ({old} RETURNING p.hash, p.docs, p.positions),
              together AS (
                  SELECT hash, doc, position FROM newer
                  UNION ALL
                  SELECT o.hash, u.doc, u.position
                  FROM old AS o CROSS JOIN LATERAL unnest(o.docs, o.positions) AS u(doc, position)),
              live AS (
                  SELECT hash, doc, position FROM together AS g
                  WHERE NOT EXISTS (SELECT 1 FROM {s}.removed AS r WHERE r.id = g.doc)),
              written AS (
                  INSERT INTO {s}.{t}_packed (hash, docs, positions, documents)
                  SELECT hash, array_agg(doc ORDER BY doc, position), array_agg(position ORDER BY doc, position),
                         count(DISTINCT doc)
                  FROM live GROUP BY hash ORDER BY hash
                  RETURNING cardinality(docs) AS n)
         SELECT (SELECT count(*) FROM newer)
                + (SELECT coalesce(sum(cardinality(docs)), 0)::bigint FROM old)
                - (SELECT coalesce(sum(n), 0)::bigint FROM written)"
    );
    let dropped: i64 = db.query_one(&statement, &[])?.get(0);
    Ok(u64::try_from(dropped).unwrap_or(0))
}

/// Folds the tables of postings `tables` and forgets the removed documents, whose postings are
/// then gone: run inside the writers' transaction. How many postings went.
pub(super) fn fold(db: &mut impl Sql, s: &Schema, tables: &[Postings]) -> Result<u64, RowError> {
    // A fold rewrites what was added since the last, or everything: minutes on a large
    // archive, so its statements have the maintenance deadline.
    db.patiently(|db| fold_now(db, s, tables))
}

/// [`fold`] of `tables`, with whatever deadline `db` has.
fn fold_now(db: &mut impl Sql, s: &Schema, tables: &[Postings]) -> Result<u64, RowError> {
    // Sorted into each hash's row, the postings come out in hash order, and the folded
    // rows' index takes them from left to right; hashing them into groups would write
    // the index all over.
    db.batch_execute("SET LOCAL enable_hashagg = off; SET LOCAL work_mem = '256MB'")?;
    let any_removed: bool = db.query_one(&format!("SELECT EXISTS (SELECT 1 FROM {s}.removed)"), &[])?.get(0);
    let rewrite = if any_removed { Rewrite::All } else { Rewrite::Touched };
    let mut dropped = 0;
    for &table in tables {
        dropped += fold_table(db, s, table, rewrite)?;
    }
    db.execute(&format!("DELETE FROM {s}.removed"), &[])?;
    Ok(dropped)
}

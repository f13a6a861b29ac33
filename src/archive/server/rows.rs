//! The shared archive's rows: every statement that reads or writes its documents, groups,
//! removed ids and postings is here (the tables themselves are [`super::schema`]'s).
//! Statements name the archive's schema, already checked and quoted ([`super::Schema`]).
//!
//! Document ids are `bigint` identities; postings hold them as `integer`, and a check as
//! `u32`: every id read goes through [`id_of`], a checked conversion.

use rustc_hash::{FxHashMap, FxHashSet};
use tokio_postgres::Statement;

use super::Schema;
use super::db::{Sql, SqlError};
pub(super) use super::tables::Postings;
use crate::archive::records::{DocumentInfo, EntryRow, NearRow, NewDocument, StoredRow, stored_hash};
use crate::index::Posting;
use crate::matching::join_windows;

/// A failure of a statement: the server's error, or an id past what postings can hold.
#[derive(Debug)]
pub(super) enum RowError {
    Sql(SqlError),
    IdOutOfRange(i64),
    /// A thread writing postings stopped without an answer.
    WriterLost,
    /// A stored value no archive writes (a negative position): the tables are damaged.
    Damaged(String),
}

impl From<SqlError> for RowError {
    fn from(error: SqlError) -> Self {
        Self::Sql(error)
    }
}

type Rows<T> = Result<T, RowError>;

/// A SimHash band (16 bits, [`crate::archive::codec`]) as its `integer` column holds it.
fn band_value(band: i64) -> i32 {
    i32::try_from(band).unwrap_or(i32::MAX)
}

/// A document id as postings and checks hold it.
pub(super) fn id_of(id: i64) -> Rows<u32> {
    u32::try_from(id).ok().filter(|&i| i32::try_from(i).is_ok()).ok_or(RowError::IdOutOfRange(id))
}

/// A document id as a posting column holds it (`integer`).
fn posting_id(id: u32) -> Rows<i32> {
    i32::try_from(id).map_err(|_| RowError::IdOutOfRange(i64::from(id)))
}

/// A 64-bit hash read back from its signed column.
pub(super) fn hash_of(value: Option<i64>) -> Option<u64> {
    value.map(|h| u64::from_ne_bytes(h.to_ne_bytes()))
}

/// A non-negative count or size column.
fn unsigned(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

// ---- documents ----

/// The statement of [`insert_document`] (prepared once per batch by an add): with the
/// compared characters where the archive keeps them ([`super::schema::keeps_compared`]).
pub(super) fn insert_sql(db: &mut impl Sql, s: &Schema) -> Rows<String> {
    let (column, value) = match super::schema::keeps_compared(db, s)? {
        true => (", compared", ", $19"),
        false => ("", ""),
    };
    Ok(format!(
        "INSERT INTO {s}.documents(id, path, source, sha256, size, added_at, published, chars, simhash, b0, b1, b2, b3,
             nshash, keywords, text, keys, group_id{column})
         OVERRIDING SYSTEM VALUE
         VALUES ($17, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $18{value})
         ON CONFLICT (sha256) DO NOTHING RETURNING id"
    ))
}

/// Inserts `doc` (statement [`insert_sql`]) as document `id` (reserved by
/// [`reserve_ids`]) in `group`; false when another adder stored the same bytes meanwhile
/// (the SHA-256 is unique).
pub(super) fn insert_document(
    db: &mut impl Sql,
    insert: &Statement,
    (id, group): (u32, u32),
    doc: &NewDocument<'_>,
) -> Rows<bool> {
    let band = |i: usize| doc.bands.map(|b| band_value(b[i]));
    let size = i64::try_from(doc.size).unwrap_or(i64::MAX);
    let chars = i64::try_from(doc.chars).unwrap_or(i64::MAX);
    let compared = i64::try_from(doc.compared).unwrap_or(i64::MAX);
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 19] = [
        &doc.path,
        &doc.source,
        &doc.sha256,
        &size,
        &doc.added_at,
        &doc.published,
        &chars,
        &doc.simhash.map(stored_hash),
        &band(0),
        &band(1),
        &band(2),
        &band(3),
        &doc.nshash.map(stored_hash),
        &doc.keywords,
        &doc.text,
        &doc.keys.as_bytes(),
        &i64::from(id),
        &i64::from(group),
        &compared,
    ];
    // The statement takes the compared characters where the archive keeps them.
    let row = db.query_opt(insert, &params[..insert.params().len().min(params.len())])?;
    Ok(row.is_some())
}

/// `n` new document ids, taken from the documents' identity (never given out again).
pub(super) fn reserve_ids(db: &mut impl Sql, s: &Schema, n: usize) -> Rows<Vec<u32>> {
    let count = i32::try_from(n).map_err(|_| RowError::IdOutOfRange(i64::MAX))?;
    let table = format!("{s}.documents");
    let reserved = db.query(
        "SELECT nextval(pg_get_serial_sequence($1, 'id')) FROM generate_series(1, $2::int)",
        &[&table, &count],
    )?;
    reserved.iter().map(|r| id_of(r.get(0))).collect()
}

/// Lists `ids` as removed: what postings they get are skipped by checks until the ids
/// are taken back ([`unmark_removed`]) or `compact` deletes them.
pub(super) fn mark_removed(db: &mut impl Sql, s: &Schema, ids: &[u32]) -> Rows<()> {
    let ids: Vec<i64> = ids.iter().map(|&id| i64::from(id)).collect();
    db.execute(&format!("INSERT INTO {s}.removed(id) SELECT unnest($1::bigint[]) ON CONFLICT DO NOTHING"), &[&ids])?;
    Ok(())
}

/// Takes `ids` off the removed list: their documents are whole.
pub(super) fn unmark_removed(db: &mut impl Sql, s: &Schema, ids: &[u32]) -> Rows<()> {
    let ids: Vec<i64> = ids.iter().map(|&id| i64::from(id)).collect();
    db.execute(&format!("DELETE FROM {s}.removed WHERE id = ANY($1)"), &[&ids])?;
    Ok(())
}

/// What the archive holds of a batch's files: the archived versions (id, SHA-256) of
/// each of `sources`, and which of `sha256s` some document holds.
pub(super) struct Held {
    pub versions: FxHashMap<String, Vec<(u32, String)>>,
    pub bytes: FxHashSet<String>,
}

/// [`Held`] for a batch's files, in one statement.
pub(super) fn held(db: &mut impl Sql, s: &Schema, sources: &[&str], sha256s: &[&str]) -> Rows<Held> {
    let found = db.query(
        &format!("SELECT id, sha256, source FROM {s}.documents WHERE source = ANY($1) OR sha256 = ANY($2)"),
        &[&sources, &sha256s],
    )?;
    let wanted: FxHashSet<&str> = sha256s.iter().copied().collect();
    let mut held = Held { versions: FxHashMap::default(), bytes: FxHashSet::default() };
    for r in found {
        let (sha, source): (String, String) = (r.get(1), r.get(2));
        if wanted.contains(sha.as_str()) {
            held.bytes.insert(sha.clone());
        }
        held.versions.entry(source).or_default().push((id_of(r.get(0))?, sha));
    }
    Ok(held)
}

/// Every document with the path its file resolved to when it was archived, by id.
pub(super) fn sources(db: &mut impl Sql, s: &Schema) -> Rows<Vec<(u32, String)>> {
    db.query(&format!("SELECT id, source FROM {s}.documents WHERE source IS NOT NULL ORDER BY id"), &[])?
        .iter()
        .map(|r| Ok((id_of(r.get(0))?, r.get(1))))
        .collect()
}

/// The SHA-256 values of `digests` already archived.
pub(super) fn archived_digests(db: &mut impl Sql, s: &Schema, digests: &[String]) -> Rows<FxHashSet<String>> {
    let rows = db.query(&format!("SELECT sha256 FROM {s}.documents WHERE sha256 = ANY($1)"), &[&digests])?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

/// The first document with these bytes.
pub(super) fn first_with_sha256(db: &mut impl Sql, s: &Schema, sha256: &str) -> Rows<Option<u32>> {
    let row = db.query_opt(&format!("SELECT id FROM {s}.documents WHERE sha256 = $1"), &[&sha256])?;
    row.map(|r| id_of(r.get(0))).transpose()
}

/// Whether document `id` is archived.
pub(super) fn has_document(db: &mut impl Sql, s: &Schema, id: u32) -> Rows<bool> {
    Ok(db.query_opt(&format!("SELECT 1 FROM {s}.documents WHERE id = $1"), &[&i64::from(id)])?.is_some())
}

/// The documents archived from the file `real` (the path a key resolves to).
pub(super) fn ids_by_source(db: &mut impl Sql, s: &Schema, real: &str) -> Rows<Vec<u32>> {
    ids(db, &format!("SELECT id FROM {s}.documents WHERE source = $1 ORDER BY id"), &[&real])
}

/// The documents archived under the path `given` as added, with the file each came from.
pub(super) fn sources_added_as(db: &mut impl Sql, s: &Schema, given: &str) -> Rows<Vec<(u32, String)>> {
    db.query(&format!("SELECT id, source FROM {s}.documents WHERE path = $1 ORDER BY id"), &[&given])?
        .iter()
        .map(|r| Ok((id_of(r.get(0))?, r.get(1))))
        .collect()
}

/// The documents dated before `day` (publication date, else the day added, in UTC), by
/// id.
pub(super) fn ids_dated_before(db: &mut impl Sql, s: &Schema, day: &str) -> Rows<Vec<u32>> {
    ids(
        db,
        &format!(
            "SELECT id FROM {s}.documents
             WHERE coalesce(published, to_char(to_timestamp(added_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD')) < $1 ORDER BY id"
        ),
        &[&day],
    )
}

/// The ids a query returns in its first column.
fn ids(db: &mut impl Sql, query: &str, params: &[&(dyn tokio_postgres::types::ToSql + Sync)]) -> Rows<Vec<u32>> {
    db.query(query, params)?.iter().map(|r| id_of(r.get(0))).collect()
}

/// Deletes document `id` inside a write transaction: its row goes, its postings stay until
/// `compact`, skipped by checks through the `removed` list; the group it represented gets
/// its earliest remaining member as representative.
pub(super) fn remove_document(db: &mut impl Sql, s: &Schema, id: u32) -> Rows<()> {
    let id = i64::from(id);
    db.execute(&format!("INSERT INTO {s}.removed(id) VALUES ($1) ON CONFLICT DO NOTHING"), &[&id])?;
    db.execute(&format!("DELETE FROM {s}.documents WHERE id = $1"), &[&id])?;
    db.execute(
        &format!(
            "UPDATE {s}.documents SET group_id = (SELECT min(d.id) FROM {s}.documents d WHERE d.group_id = $1)
             WHERE group_id = $1"
        ),
        &[&id],
    )?;
    Ok(())
}

/// Every document, by id.
pub(super) fn documents(db: &mut impl Sql, s: &Schema) -> Rows<Vec<DocumentInfo>> {
    let compared = if super::schema::keeps_compared(db, s)? { "compared" } else { "NULL::bigint" };
    db.query(
        &format!(
            "SELECT id, path, sha256, size, added_at, published, chars, simhash, nshash, group_id, source, {compared}
             FROM {s}.documents ORDER BY id"
        ),
        &[],
    )?
    .iter()
    .map(|r| {
        Ok(DocumentInfo {
            id: id_of(r.get(0))?,
            path: r.get(1),
            source: Some(r.get(10)),
            sha256: r.get(2),
            size: unsigned(r.get(3)),
            added_at: r.get(4),
            published: r.get(5),
            chars: unsigned(r.get(6)),
            compared: r.get::<_, Option<i64>>(11).map(unsigned),
            simhash: hash_of(r.get(7)),
            nshash: hash_of(r.get(8)),
            group: id_of(r.get(9))?,
        })
    })
    .collect()
}

/// (documents, characters, groups of more than one, postings of every table of
/// `tables`, bytes the schema's tables take on the server); the postings newer and, where
/// the archive has them (`folded`), folded.
pub(super) fn counts(db: &mut impl Sql, s: &Schema, (folded, tables): (bool, &[Postings])) -> Rows<[u64; 5]> {
    let postings = |t: &str| match folded {
        true => format!(
            "(SELECT count(*) FROM {s}.{t}) + (SELECT coalesce(sum(cardinality(docs)), 0)::bigint FROM {s}.{t}_packed)"
        ),
        false => format!("(SELECT count(*) FROM {s}.{t})"),
    };
    let postings: Vec<String> = tables.iter().map(|t| postings(t.table())).collect();
    let postings = postings.join(" + ");
    // A count of every posting reads whole tables: the maintenance deadline.
    let row = db.patiently(|db| {
        db.query_one(
            &format!(
                "SELECT (SELECT count(*) FROM {s}.documents),
                    (SELECT coalesce(sum(chars), 0)::bigint FROM {s}.documents),
                    (SELECT count(*) FROM (SELECT group_id FROM {s}.documents GROUP BY group_id HAVING count(*) > 1) g),
                    {postings},
                    (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
                       JOIN pg_namespace n ON n.oid = c.relnamespace
                      WHERE n.nspname = $1 AND c.relkind IN ('r', 'm'))"
            ),
            &[&s.name()],
        )
    })?;
    Ok([0, 1, 2, 3, 4].map(|i| unsigned(row.get(i))))
}

// ---- what a check reads ----

/// The ids of removed documents.
pub(super) fn removed_ids(db: &mut impl Sql, s: &Schema) -> Rows<FxHashSet<u32>> {
    db.query(&format!("SELECT id FROM {s}.removed"), &[])?.iter().map(|r| id_of(r.get(0))).collect()
}

/// The number of archived documents.
pub(super) fn document_count(db: &mut impl Sql, s: &Schema) -> Rows<usize> {
    let count: i64 = db.query_one(&format!("SELECT count(*) FROM {s}.documents"), &[])?.get(0);
    Ok(usize::try_from(count).unwrap_or(0))
}

/// How many documents hold more than `max` characters.
pub(super) fn longer_than(db: &mut impl Sql, s: &Schema, max: usize) -> Rows<usize> {
    let query = format!("SELECT count(*) FROM {s}.documents WHERE chars > $1");
    let count: i64 = db.query_one(&query, &[&i64::try_from(max).unwrap_or(i64::MAX)])?.get(0);
    Ok(usize::try_from(count).unwrap_or(0))
}

/// (id, SimHash) of the documents sharing a band with `bands`, or of every document with
/// a SimHash when `None`.
pub(super) fn simhash_rows(db: &mut impl Sql, s: &Schema, bands: Option<[i64; 4]>) -> Rows<Vec<(u32, u64)>> {
    let rows = match bands {
        Some(b) => {
            let b = b.map(band_value);
            db.query(
                &format!(
                    "SELECT id, simhash FROM {s}.documents WHERE b0 = $1 UNION SELECT id, simhash FROM {s}.documents WHERE b1 = $2
                     UNION SELECT id, simhash FROM {s}.documents WHERE b2 = $3 UNION SELECT id, simhash FROM {s}.documents WHERE b3 = $4"
                ),
                &[&b[0], &b[1], &b[2], &b[3]],
            )?
        }
        None => db.query(&format!("SELECT id, simhash FROM {s}.documents WHERE simhash IS NOT NULL"), &[])?,
    };
    rows.iter().map(|r| Ok((id_of(r.get(0))?, hash_of(r.get(1)).unwrap_or(0)))).collect()
}

/// The statement of [`near_rows`] (prepared once per batch by an add).
pub(super) fn near_sql(s: &Schema) -> String {
    let columns = "id, simhash, group_id, nshash";
    format!(
        "SELECT {columns} FROM {s}.documents WHERE b0 = $2 AND id != $1
         UNION SELECT {columns} FROM {s}.documents WHERE b1 = $3 AND id != $1
         UNION SELECT {columns} FROM {s}.documents WHERE b2 = $4 AND id != $1
         UNION SELECT {columns} FROM {s}.documents WHERE b3 = $5 AND id != $1
         UNION SELECT {columns} FROM {s}.documents WHERE $6::bigint IS NOT NULL AND nshash = $6 AND id != $1"
    )
}

/// The documents other than `id` sharing a SimHash band or the nshash key with it
/// (statement [`near_sql`]).
pub(super) fn near_rows(
    db: &mut impl Sql,
    near: &Statement,
    id: u32,
    bands: [i64; 4],
    nshash: Option<u64>,
) -> Rows<Vec<NearRow>> {
    let b = bands.map(band_value);
    let rows = db.query(near, &[&i64::from(id), &b[0], &b[1], &b[2], &b[3], &nshash.map(stored_hash)])?;
    rows.iter()
        .map(|r| {
            Ok(NearRow {
                id: id_of(r.get(0))?,
                simhash: hash_of(r.get(1)),
                group: id_of(r.get(2))?,
                nshash: hash_of(r.get(3)),
            })
        })
        .collect()
}

/// The stored text, SimHash and keywords of document `doc`.
pub(super) fn stored(db: &mut impl Sql, s: &Schema, doc: u32) -> Rows<Option<StoredRow>> {
    let row =
        db.query_opt(&format!("SELECT text, simhash, keywords FROM {s}.documents WHERE id = $1"), &[&i64::from(doc)])?;
    Ok(row.map(|r| StoredRow { text: r.get(0), simhash: hash_of(r.get(1)), keywords: r.get(2) }))
}

/// A page of stored texts for `verify`: (id, text, characters, token keys) of up to
/// `limit` documents after id `after`, by id.
pub(super) fn texts_after(db: &mut impl Sql, s: &Schema, after: u32, limit: i64) -> Rows<Vec<TextPage>> {
    db.query(
        &format!("SELECT id, text, chars, keys FROM {s}.documents WHERE id > $1 ORDER BY id LIMIT $2"),
        &[&i64::from(after), &limit],
    )?
    .iter()
    .map(|r| Ok((id_of(r.get(0))?, r.get(1), r.get(2), r.get(3))))
    .collect()
}

/// A document's id, stored text, characters and token keys, as `verify` reads them.
pub(super) type TextPage = (u32, Vec<u8>, i64, Vec<u8>);

/// One window of a document glanced at: its id, the window's first token and keys, the
/// number of bytes of all its keys, and its SimHash.
pub(super) struct GlanceRow {
    pub doc: u32,
    pub first: usize,
    pub keys: Vec<u8>,
    pub key_bytes: usize,
    pub simhash: Option<u64>,
}

/// The windows of token keys `asked` of each document (document, windows: first token,
/// end), with its SimHash, in document then window order: only the bytes of the windows
/// leave the server.
pub(super) fn glances(db: &mut impl Sql, s: &Schema, asked: &[(u32, Vec<(u32, u32)>)]) -> Rows<Vec<GlanceRow>> {
    // Token counts far past any document's are cut to what the statement's integers hold.
    let at = |token: u32| i32::try_from(token).unwrap_or(i32::MAX).min(i32::MAX / 2 - 1);
    let (mut docs, mut firsts, mut lengths) = (Vec::new(), Vec::new(), Vec::new());
    for (doc, windows) in asked {
        for (first, end) in sent_windows(windows) {
            docs.push(i64::from(*doc));
            firsts.push(at(first));
            lengths.push(at(end.saturating_sub(first)));
        }
    }
    let sql = format!(
        "SELECT w.doc, w.first, substring(d.keys FROM w.first * 2 + 1 FOR w.tokens * 2), octet_length(d.keys), d.simhash
         FROM unnest($1::bigint[], $2::integer[], $3::integer[]) AS w(doc, first, tokens)
         JOIN {s}.documents d ON d.id = w.doc"
    );
    let mut rows = db
        .query(&sql, &[&docs, &firsts, &lengths])?
        .iter()
        .map(|r| {
            Ok(GlanceRow {
                doc: id_of(r.get(0))?,
                first: usize::try_from(r.get::<_, i32>(1)).unwrap_or(0),
                keys: r.get(2),
                key_bytes: usize::try_from(r.get::<_, i32>(3)).unwrap_or(0),
                simhash: hash_of(r.get(4)),
            })
        })
        .collect::<Rows<Vec<GlanceRow>>>()?;
    rows.sort_unstable_by_key(|row| (row.doc, row.first));
    Ok(rows)
}

/// Windows of keys closer than this many tokens are sent as one: the server reads keys
/// in pieces of about a thousand tokens (its TOAST chunks), so a window costs it a lookup
/// while the tokens between two near ones cost next to nothing.
const WINDOW_GAP: u32 = 512;

/// The windows of keys a glance asks for, those closer than [`WINDOW_GAP`] joined; one
/// empty window for a reference asked without any, so that its row (length, SimHash)
/// still comes.
fn sent_windows(windows: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut sent = join_windows(windows.iter().copied(), WINDOW_GAP);
    if sent.is_empty() {
        sent.push((0, 0));
    }
    sent
}

/// What a report shows of document `doc`.
pub(super) fn entry(db: &mut impl Sql, s: &Schema, doc: u32) -> Rows<Option<EntryRow>> {
    let row = db.query_opt(
        &format!("SELECT path, sha256, text, chars, simhash FROM {s}.documents WHERE id = $1"),
        &[&i64::from(doc)],
    )?;
    Ok(row.map(|r| EntryRow {
        path: r.get(0),
        sha256: r.get(1),
        text: r.get(2),
        chars: r.get(3),
        simhash: hash_of(r.get(4)),
    }))
}

/// The documents archived as `path` (as added) with these bytes.
pub(super) fn ids_by_path_and_sha256(db: &mut impl Sql, s: &Schema, path: &str, sha256: &str) -> Rows<Vec<u32>> {
    ids(db, &format!("SELECT id FROM {s}.documents WHERE path = $1 AND sha256 = $2"), &[&path, &sha256])
}

// ---- groups ----

/// The group of document `id`, if it is archived.
pub(super) fn group_of(db: &mut impl Sql, s: &Schema, id: u32) -> Rows<Option<u32>> {
    let row = db.query_opt(&format!("SELECT group_id FROM {s}.documents WHERE id = $1"), &[&i64::from(id)])?;
    row.map(|r| id_of(r.get(0))).transpose()
}

/// Whether any of `others` is in another group than document `id`.
pub(super) fn any_outside_group_of(db: &mut impl Sql, s: &Schema, id: u32, others: &[u32]) -> Rows<bool> {
    let others: Vec<i64> = others.iter().map(|&o| i64::from(o)).collect();
    let row = db.query_one(
        &format!(
            "SELECT EXISTS (SELECT 1 FROM {s}.documents AS o WHERE o.id = ANY($2)
                 AND o.group_id IS DISTINCT FROM (SELECT d.group_id FROM {s}.documents AS d WHERE d.id = $1))"
        ),
        &[&i64::from(id), &others],
    )?;
    Ok(row.get(0))
}

/// Moves every member of group `from` into group `into`.
pub(super) fn join_groups(db: &mut impl Sql, s: &Schema, into: u32, from: u32) -> Rows<()> {
    db.execute(
        &format!("UPDATE {s}.documents SET group_id = $1 WHERE group_id = $2"),
        &[&i64::from(into), &i64::from(from)],
    )?;
    Ok(())
}

/// (group, member) of every group of more than one document, by group then member.
pub(super) fn group_members(db: &mut impl Sql, s: &Schema) -> Rows<Vec<(u32, u32)>> {
    db.query(
        &format!(
            "SELECT group_id, id FROM {s}.documents WHERE group_id IN
               (SELECT group_id FROM {s}.documents GROUP BY group_id HAVING count(*) > 1)
             ORDER BY group_id, id"
        ),
        &[],
    )?
    .iter()
    .map(|r| Ok((id_of(r.get(0))?, id_of(r.get(1))?)))
    .collect()
}

// ---- postings ----

/// The signature and header of PostgreSQL's binary COPY format (no flags, no extension).
const COPY_HEADER: &[u8] = b"PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0";

/// Writes `entries` (stored hash, posting), sorted by hash, into partition `part` of
/// `table` with one binary COPY. In hash order, the partition's index takes its new
/// entries from left to right, a leaf page after another, instead of at random places.
/// The rows are encoded here, 38 bytes each, rather than value by value.
pub(super) fn copy_partition(
    db: &mut impl Sql,
    s: &Schema,
    (table, part): (Postings, usize),
    entries: &[(i64, Posting)],
) -> Rows<u64> {
    let mut bytes = Vec::with_capacity(COPY_HEADER.len() + entries.len() * 38 + 2);
    bytes.extend_from_slice(COPY_HEADER);
    for &(hash, posting) in entries {
        let position = i32::try_from(posting.position).unwrap_or(i32::MAX);
        bytes.extend_from_slice(&3i16.to_be_bytes());
        bytes.extend_from_slice(&8i32.to_be_bytes());
        bytes.extend_from_slice(&hash.to_be_bytes());
        bytes.extend_from_slice(&4i32.to_be_bytes());
        bytes.extend_from_slice(&posting_id(posting.doc)?.to_be_bytes());
        bytes.extend_from_slice(&4i32.to_be_bytes());
        bytes.extend_from_slice(&position.to_be_bytes());
    }
    bytes.extend_from_slice(&(-1i16).to_be_bytes());
    let sql = format!("COPY {s}.{}_{part} (hash, doc, position) FROM STDIN BINARY", table.table());
    // A batch's share of postings may be many megabytes: the maintenance deadline.
    Ok(db.patiently(|db| db.copy_in(&sql, &bytes))?)
}

/// Deletes the postings of removed documents and forgets them: what `compact` does to
/// an archive without folded postings.
pub(super) fn purge_removed(db: &mut impl Sql, s: &Schema, tables: &[Postings]) -> Rows<u64> {
    db.patiently(|db| purge_removed_now(db, s, tables))
}

/// [`purge_removed`] from `tables`, with whatever deadline `db` has.
fn purge_removed_now(db: &mut impl Sql, s: &Schema, tables: &[Postings]) -> Rows<u64> {
    let mut purged = 0;
    for table in tables {
        purged +=
            db.execute(&format!("DELETE FROM {s}.{} p USING {s}.removed r WHERE p.doc = r.id", table.table()), &[])?;
    }
    db.execute(&format!("DELETE FROM {s}.removed"), &[])?;
    Ok(purged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_windows_are_sent_as_one_and_a_reference_without_any_gets_its_row() {
        assert_eq!(sent_windows(&[(0, 60), (100, 160), (1000, 1060)]), [(0, 160), (1000, 1060)]);
        assert_eq!(sent_windows(&[(10, 70), (582, 640)]), [(10, 640)]);
        assert_eq!(sent_windows(&[(10, 70), (583, 640)]), [(10, 70), (583, 640)]);
        assert_eq!(sent_windows(&[]), [(0, 0)]);
    }
}

//! The tables of a shared archive, one PostgreSQL schema per archive: its settings, its
//! documents (texts and token keys in the row, compressed as a folder archive stores
//! them), the ids of removed documents, and the postings of k-grams and sentence hashes
//! in two parts each: the latest adds' postings one row each, partitioned by ranges of
//! the hash with a B-tree on the hash, and the folded ones, one row a hash with its
//! documents and positions in arrays (see [`super::fold`]).

use super::db::{Sql, SqlError};

use super::super::error::ArchiveError;
use super::super::signals::CHAR_GRAMS_FROM;
use super::tables::Postings;

/// Partitions of each postings table: ranges of the hash, told by its top bits, so that a
/// lookup sends each partition only its own hashes (a lookup of all hashes in every
/// partition probed each index sixteen times as often).
pub(super) const PARTITIONS: u32 = 16;

/// The share of a postings partition inserted since its last vacuum at which the server
/// vacuums it again, so that the pages an add wrote are soon marked all-visible and
/// lookups read them from the index alone (the server's default waits for a fifth).
const VACUUM_INSERTED: f64 = 0.02;

/// Bits of a hash that name its partition.
const PARTITION_BITS: u32 = PARTITIONS.trailing_zeros();

/// The partition of a stored (signed) hash: by its top bits, counted from the smallest.
fn partition_of(stored: i64) -> usize {
    ((stored as u64 ^ (1 << 63)) >> (64 - PARTITION_BITS)) as usize
}

/// `items` split by the partition their stored hash (`hash` of each) falls in, each
/// partition's in their order.
pub(super) fn by_partition<T>(items: impl IntoIterator<Item = T>, hash: impl Fn(&T) -> i64) -> Vec<Vec<T>> {
    let mut parts: Vec<Vec<T>> = (0..PARTITIONS).map(|_| Vec::new()).collect();
    for item in items {
        parts[partition_of(hash(&item))].push(item);
    }
    parts
}

/// The bounds of partition `part`, as `FOR VALUES FROM (…) TO (…)` takes them.
fn partition_bounds(part: u32) -> (String, String) {
    let width = 1i128 << (64 - PARTITION_BITS);
    let from = i128::from(i64::MIN) + i128::from(part) * width;
    let to = if part + 1 == PARTITIONS { "MAXVALUE".to_string() } else { (from + width).to_string() };
    (from.to_string(), to)
}

/// The format a shared archive is written in, and the newest this build reads. Server
/// archives before 9 (made with the folder archive's format numbers, up to 8) had no
/// folded postings: an older build would not look there, so it must refuse format 9;
/// format 10 adds the character grams, which a format 9 build would neither write nor read.
pub(super) const FORMAT: u32 = 10;

/// The first format with folded postings.
pub(super) const FOLDED: u32 = 9;

/// The first format with a table of character grams ([`Postings::CharGrams`]): archives
/// before have none, and the documents they held before their upgrade none either.
pub(super) const CHAR_GRAMS: u32 = 10;

/// The setting that marks a schema as a twinspot archive.
const MARK: (&str, &str) = ("application", "twinspot");

/// An archive's schema: a name checked to be a plain identifier, shown quoted in
/// statements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schema(String);

impl Schema {
    /// `name` when it is a plain identifier (letters, digits, `_`; not starting with a
    /// digit; at most 63 bytes) and not a schema of the server's own (`pg_catalog`,
    /// `information_schema`, any `pg_…`).
    pub fn new(name: &str) -> Result<Self, ArchiveError> {
        let name = plain_identifier(name)?;
        let lower = name.to_ascii_lowercase();
        if lower.starts_with("pg_") || lower == "information_schema" {
            return Err(ArchiveError::SystemSchema(name.to_string()));
        }
        Ok(Self(name.to_string()))
    }

    /// The name, unquoted.
    pub fn name(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\"{}\"", self.0)
    }
}

/// `name` when it is a plain identifier (a schema or a role): nothing that needs quoting
/// beyond the double quotes every statement puts around it.
pub(super) fn plain_identifier(name: &str) -> Result<&str, ArchiveError> {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !(first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')) {
        return Err(ArchiveError::BadName(name.to_string()));
    }
    if name.len() > MAX_NAME {
        return Err(ArchiveError::NameTooLong { name: name.to_string(), length: name.len(), most: MAX_NAME });
    }
    Ok(name)
}

/// The longest name PostgreSQL keeps whole (`NAMEDATALEN` - 1 bytes); a longer one it cuts.
const MAX_NAME: usize = 63;

/// Whether the schema holds anything (a table, view, sequence, type, function…): a
/// schema of another application, where no archive is created.
pub(super) fn holds_anything(db: &mut impl Sql, s: &Schema) -> Result<bool, SqlError> {
    let query = "SELECT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1)
                 OR EXISTS (SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1)
                 OR EXISTS (SELECT 1 FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = $1)";
    Ok(db.query_one(query, &[&s.name()])?.get(0))
}

/// Whether the schema holds a twinspot archive; `Some(false)` when it holds tables that
/// are not one (its settings table lacks the mark), `None` when it holds no settings table.
pub(super) fn holds_archive(db: &mut impl Sql, s: &Schema) -> Result<Option<bool>, SqlError> {
    let exists: bool =
        db.query_one("SELECT to_regclass(format('%I.settings', $1::text)) IS NOT NULL", &[&s.name()])?.get(0);
    if !exists {
        return Ok(None);
    }
    let mark = db.query_opt(&format!("SELECT value FROM {s}.settings WHERE key = $1"), &[&MARK.0])?;
    Ok(Some(mark.is_some_and(|r| r.get::<_, String>(0) == MARK.1)))
}

/// The stored setting `key`.
pub(super) fn setting(db: &mut impl Sql, s: &Schema, key: &str) -> Result<Option<String>, SqlError> {
    Ok(db.query_opt(&format!("SELECT value FROM {s}.settings WHERE key = $1"), &[&key])?.map(|r| r.get(0)))
}

/// Creates the schema (when missing) and every table of an archive in it, with its
/// `settings`: run inside the creating transaction.
pub(super) fn create(db: &mut impl Sql, s: &Schema, settings: &[(&str, String)]) -> Result<(), SqlError> {
    let mut ddl = format!(
        "CREATE SCHEMA IF NOT EXISTS {s};
         CREATE TABLE {s}.settings (key text PRIMARY KEY, value text NOT NULL);
         CREATE TABLE {s}.documents (
             id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
             path text NOT NULL,
             source text NOT NULL,
             sha256 text NOT NULL UNIQUE,
             size bigint NOT NULL,
             added_at bigint NOT NULL,
             published text,
             chars bigint NOT NULL,
             simhash bigint,
             b0 integer, b1 integer, b2 integer, b3 integer,
             nshash bigint,
             keywords text,
             text bytea NOT NULL,
             keys bytea NOT NULL,
             group_id bigint NOT NULL,
             compared bigint);
         ALTER TABLE {s}.documents ALTER COLUMN text SET STORAGE EXTERNAL;
         CREATE INDEX ON {s}.documents (b0);
         CREATE INDEX ON {s}.documents (b1);
         CREATE INDEX ON {s}.documents (b2);
         CREATE INDEX ON {s}.documents (b3);
         CREATE INDEX ON {s}.documents (nshash);
         CREATE INDEX ON {s}.documents (group_id);
         CREATE INDEX ON {s}.documents (source);
         CREATE INDEX ON {s}.documents (path);
         CREATE TABLE {s}.removed (id bigint PRIMARY KEY);"
    );
    let tables = Postings::kept(true);
    ddl.push_str(&postings_tables(s, &tables));
    ddl.push_str(&packed_tables(s, &tables));
    db.patiently(|db| db.batch_execute(&ddl))?;
    let insert = format!("INSERT INTO {s}.settings(key, value) VALUES ($1, $2)");
    db.execute(&insert, &[&MARK.0, &MARK.1])?;
    for (key, value) in settings {
        db.execute(&insert, &[key, value])?;
    }
    Ok(())
}

/// The tables of newer postings `tables`, partitioned by ranges of the hash.
fn postings_tables(s: &Schema, tables: &[Postings]) -> String {
    let mut ddl = String::new();
    for table in tables.iter().map(|t| t.table()) {
        ddl.push_str(&format!(
            "CREATE TABLE {s}.{table} (hash bigint NOT NULL, doc integer NOT NULL, position integer NOT NULL)
                 PARTITION BY RANGE (hash);"
        ));
        for part in 0..PARTITIONS {
            let (from, to) = partition_bounds(part);
            ddl.push_str(&format!(
                "CREATE TABLE {s}.{table}_{part} PARTITION OF {s}.{table} FOR VALUES FROM ({from}) TO ({to})
                     WITH (autovacuum_vacuum_insert_scale_factor = {VACUUM_INSERTED});"
            ));
        }
        // A lookup reads the postings from the index alone (an index-only scan), not from
        // heap pages all over the table: 1.5 times faster at 100,000 documents. In
        // document order, so that it stops after a frequent hash's first postings.
        ddl.push_str(&format!("CREATE INDEX ON {s}.{table} (hash, doc, position);"));
    }
    ddl
}

/// The tables of folded postings of `tables`: one row a hash, its postings sorted by
/// document then position in two arrays of the same length, and how many documents they
/// name.
fn packed_tables(s: &Schema, tables: &[Postings]) -> String {
    tables
        .iter()
        .map(|t| t.table())
        .map(|table| {
            format!(
                "CREATE TABLE IF NOT EXISTS {s}.{table}_packed (
                     hash bigint PRIMARY KEY,
                     docs integer[] NOT NULL,
                     positions integer[] NOT NULL,
                     documents integer NOT NULL);"
            )
        })
        .collect()
}

/// Whether the documents table has the `compared` column: the characters a check
/// compares of each document (fewer than `chars` for one it cuts), for `list`. Archives
/// made before have none until their owner's next change adds it ([`add_compared`]);
/// until then documents are not known to be cut there, and are written without it.
pub(super) fn keeps_compared(db: &mut impl Sql, s: &Schema) -> Result<bool, SqlError> {
    let query = "SELECT EXISTS (SELECT 1 FROM pg_attribute
                 WHERE attrelid = to_regclass(format('%I.documents', $1::text)) AND attname = 'compared'
                 AND NOT attisdropped)";
    Ok(db.query_one(query, &[&s.name()])?.get(0))
}

/// Adds the `compared` column ([`keeps_compared`]) to an archive made before it: a
/// column, not a format, so that older builds read and write the archive as before (and
/// leave it empty). Run by the archive's owner inside a transaction.
pub(super) fn add_compared(db: &mut impl Sql, s: &Schema) -> Result<(), SqlError> {
    // The column's lock waits for every check reading the table: the maintenance deadline.
    db.patiently(|db| db.batch_execute(&format!("ALTER TABLE {s}.documents ADD COLUMN IF NOT EXISTS compared bigint;")))
}

/// Brings an archive of an older format (`found`) to [`FORMAT`]: the tables of folded
/// postings (before [`FOLDED`]) and of character grams (before [`CHAR_GRAMS`]; documents
/// held before have none, [`CHAR_GRAMS_FROM`] says from which on) are made, empty, and
/// every role that had a permission on the postings gets it on them too. Run by the
/// archive's owner inside a transaction under the writers' lock.
pub(super) fn upgrade(db: &mut impl Sql, s: &Schema, found: u32) -> Result<(), SqlError> {
    let (mut ddl, mut made) = (String::new(), Vec::new());
    if found < FOLDED {
        ddl.push_str(&packed_tables(s, &Postings::kept(false)));
        made.extend(Postings::kept(false).iter().map(|t| format!("{s}.{}_packed", t.table())));
    }
    if found < CHAR_GRAMS {
        ddl.push_str(&postings_tables(s, &[Postings::CharGrams]));
        ddl.push_str(&packed_tables(s, &[Postings::CharGrams]));
        made.extend(["chargrams", "chargrams_packed"].map(|t| format!("{s}.{t}")));
        // Lookups read the partitions themselves.
        made.extend((0..PARTITIONS).map(|part| format!("{s}.chargrams_{part}")));
        ddl.push_str(&format!(
            "INSERT INTO {s}.settings(key, value)
                 SELECT '{CHAR_GRAMS_FROM}', (greatest(coalesce((SELECT max(id) FROM {s}.documents), 0),
                                                       coalesce((SELECT max(id) FROM {s}.removed), 0)) + 1)::text
             ON CONFLICT (key) DO NOTHING;"
        ));
    }
    let made = made.join(", ");
    let kgrams = format!("{s}.kgrams");
    let grants = db.query(
        "SELECT DISTINCT a.grantee::regrole::text, a.privilege_type
         FROM pg_class c, aclexplode(c.relacl) AS a
         WHERE c.oid = $1::text::regclass AND a.grantee <> c.relowner AND a.grantee <> 0",
        &[&kgrams],
    )?;
    for grant in &grants {
        let (role, privilege): (String, String) = (grant.get(0), grant.get(1));
        if ["SELECT", "INSERT", "UPDATE", "DELETE"].contains(&privilege.as_str()) {
            // `role` comes quoted as an identifier where it needs it (regrole's text).
            ddl.push_str(&format!("GRANT {privilege} ON {made} TO {role};"));
        }
    }
    ddl.push_str(&format!("UPDATE {s}.settings SET value = '{FORMAT}' WHERE key = 'format';"));
    db.patiently(|db| db.batch_execute(&ddl))
}

/// The first document archived with its character grams ([`CHAR_GRAMS_FROM`]) and the
/// oldest live document: whether a check may look every document's grams up
/// ([`super::super::signals::holds_char_grams`]).
pub(super) fn char_gram_bounds(db: &mut impl Sql, s: &Schema) -> Result<(Option<u32>, Option<u32>), SqlError> {
    let from = setting(db, s, CHAR_GRAMS_FROM)?.and_then(|v| v.parse().ok());
    let oldest: Option<i64> = db
        .query_one(
            &format!(
                "SELECT min(id) FROM {s}.documents d WHERE NOT EXISTS (SELECT 1 FROM {s}.removed r WHERE r.id = d.id)"
            ),
            &[],
        )?
        .get(0);
    Ok((from, oldest.and_then(|id| u32::try_from(id).ok())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_cover_every_hash_in_order() {
        assert_eq!(partition_of(i64::MIN), 0);
        assert_eq!(partition_of(-1), 7);
        assert_eq!(partition_of(0), 8);
        assert_eq!(partition_of(i64::MAX), 15);
        for part in 0..PARTITIONS {
            let (from, to) = partition_bounds(part);
            let from: i64 = from.parse().unwrap();
            assert_eq!(partition_of(from), part as usize);
            if let Ok(to) = to.parse::<i64>() {
                assert_eq!(partition_of(to - 1), part as usize);
                assert_eq!(partition_of(to), part as usize + 1);
            }
        }
    }
}

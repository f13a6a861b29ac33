//! The shared archive: the same logical archive as a folder's — documents, compressed
//! texts, token keys, groups, settings, postings of k-grams and sentence hashes — in one
//! schema of a PostgreSQL server, for a department or a newsroom whose members add and
//! check from several desktops at once.
//!
//! Named by a `postgresql://` URL ([`ServerLocation`]); the schema is `twinspot` unless
//! told otherwise. An add is transactions, one per batch, serialized among adders by an
//! advisory lock while any number of checks read (each check sees one snapshot: a
//! document whole or not at all). A killed adder or a dropped connection leaves nothing
//! half-done: the server rolls its transaction back. Roles that may only read are refused
//! every change with the permission they lack ([`ServerArchive::grant`]).

mod add;
mod connect;
mod copiers;
mod db;
mod fold;
mod index;
mod lookup;
mod old_grams;
mod rows;
mod schema;
mod store;
mod tables;

use std::sync::{Mutex, MutexGuard};

pub use connect::{ServerLocation, Tls};
pub use db::{
    Db, Deadlines, MAINTENANCE_DEADLINE, MAINTENANCE_SETTING, STATEMENT_DEADLINE, STATEMENT_SETTING, Sql, SqlError, Tx,
};
pub use index::{ServerIndex, check_against};
pub use schema::Schema;

use super::access::Access;
use super::error::ArchiveError;
use super::groups::Group;
use super::signals::CHAR_GRAMS_FROM;
use crate::archive::outcomes::VerifyReport;
use crate::archive::records::{DocumentInfo, Stats};
use crate::archive::stored_settings::{refuse_other_settings, settings_from, shaping_settings};
use crate::archive::verbs;
use crate::archive::verbs::remove::RemoveSummary;
use crate::settings::Settings;
use rows::{Postings, RowError};

/// The schema an archive lives in unless told otherwise.
pub const DEFAULT_SCHEMA: &str = "twinspot";

/// An open shared archive: one connection, used by one thread at a time.
pub struct ServerArchive {
    location: ServerLocation,
    schema: Schema,
    client: Mutex<Db>,
    settings: Settings,
    /// Whether the archive has folded postings (format 9 on; older ones hold every
    /// posting a row, until their owner's next change upgrades them).
    folded: bool,
    /// Whether it has a table of character grams (format 10 on, the same way).
    char_grams: bool,
    /// Whether it was opened for changes: one opened for checking refuses them, whatever
    /// its role may do, as a folder opened for checking does.
    writable: bool,
}

impl std::fmt::Debug for ServerArchive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerArchive").field("location", &self.location).field("schema", &self.schema).finish()
    }
}

impl ServerArchive {
    /// Opens the archive in `schema` on the server for checking, with `settings` (whose
    /// fingerprint settings must be the archive's).
    pub fn open(location: &ServerLocation, schema: &Schema, settings: &Settings) -> Result<Self, ArchiveError> {
        let client = connect_to_archive(location, schema)?;
        let archive = Self {
            location: location.clone(),
            schema: schema.clone(),
            client: Mutex::new(client),
            settings: settings.clone().sanitized(),
            folded: false,
            char_grams: false,
            writable: false,
        };
        let format = archive.check_settings()?;
        Ok(Self { folded: format >= schema::FOLDED, char_grams: format >= schema::CHAR_GRAMS, ..archive })
    }

    /// Opens the archive for changes, creating it (schema and tables) when the schema
    /// holds none; refuses a role that may not write, naming the permission it lacks
    /// (`action` says what was asked).
    pub fn open_for_changes(
        location: &ServerLocation,
        schema: &Schema,
        settings: &Settings,
        create: bool,
        action: &'static str,
    ) -> Result<Self, ArchiveError> {
        if create {
            Self::create_if_missing(location, schema, settings)?;
        }
        let mut archive = Self { writable: true, ..Self::open(location, schema, settings)? };
        archive.require_write(action)?;
        archive.upgrade_if_owner()?;
        Ok(archive)
    }

    /// Brings an archive of an older format to this build's ([`schema::upgrade`]), and
    /// one without the `compared` column ([`schema::add_compared`]) to it, when this role
    /// owns it; another writer leaves it as it is, which works as before, for the owner's
    /// next change to upgrade.
    fn upgrade_if_owner(&mut self) -> Result<(), ArchiveError> {
        let keeps_compared = schema::keeps_compared(&mut *self.client(), &self.schema);
        let keeps_compared = keeps_compared.map_err(|e| self.sql(RowError::Sql(e)))?;
        if self.folded && self.char_grams && keeps_compared {
            return Ok(());
        }
        let upgraded = {
            let mut client = self.client();
            let owner = "SELECT pg_has_role(nspowner, 'USAGE') FROM pg_namespace WHERE nspname = $1";
            let owns = client.query_one(owner, &[&self.schema.name()]).map(|r| r.get::<_, bool>(0));
            match owns.map_err(|e| self.sql(RowError::Sql(e)))? {
                false => false,
                true => {
                    let mut tx = client.transaction().map_err(|e| self.sql(RowError::Sql(e)))?;
                    lock_writers(&mut tx, &self.schema).map_err(|e| self.sql(RowError::Sql(e)))?;
                    // Read again under the lock: another owner may have upgraded it meanwhile.
                    let found =
                        schema::setting(&mut tx, &self.schema, "format").map_err(|e| self.sql(RowError::Sql(e)))?;
                    let found = found.and_then(|v| v.parse::<u32>().ok()).unwrap_or(schema::FORMAT);
                    if found < schema::FORMAT {
                        schema::upgrade(&mut tx, &self.schema, found).map_err(|e| self.sql(RowError::Sql(e)))?;
                    }
                    schema::add_compared(&mut tx, &self.schema).map_err(|e| self.sql(RowError::Sql(e)))?;
                    tx.commit().map_err(|e| self.sql(RowError::Sql(e)))?;
                    true
                }
            }
        };
        if upgraded {
            (self.folded, self.char_grams) = (true, true);
        }
        Ok(())
    }

    /// Creates the archive when the schema holds none: under an advisory lock, so two
    /// adders starting at once create it once, with the settings of the first.
    fn create_if_missing(location: &ServerLocation, schema: &Schema, settings: &Settings) -> Result<(), ArchiveError> {
        let mut client = location.connect()?;
        let failed = |e| told(location, e);
        let mut tx = client.transaction().map_err(failed)?;
        lock_writers(&mut tx, schema).map_err(failed)?;
        if schema::holds_archive(&mut tx, schema).map_err(failed)?.is_none() {
            // A schema of another application's (`public` of a database in use) is
            // refused, as a folder that is not an archive is.
            if schema::holds_anything(&mut tx, schema).map_err(failed)? {
                return Err(not_ours(location, schema));
            }
            let mut shaping = shaping_settings(&settings.clone().sanitized(), schema::FORMAT);
            shaping.push((CHAR_GRAMS_FROM, "1".to_string()));
            let created = schema::create(&mut tx, schema, &shaping);
            if let Err(error) = created {
                return Err(match permission_denied(&error) {
                    true => ArchiveError::CannotCreate { role: location.user(), shown: location.shown().to_string() },
                    false => told(location, error),
                });
            }
        }
        tx.commit().map_err(failed)
    }

    /// The fingerprint settings stored in the archive, read back as [`Settings`].
    pub fn stored_settings(location: &ServerLocation, schema: &Schema) -> Result<Settings, ArchiveError> {
        let client = connect_to_archive(location, schema)?;
        let client = std::cell::RefCell::new(client);
        let get = |key: &str| schema::setting(&mut *client.borrow_mut(), schema, key).map_err(|e| told(location, e));
        settings_from(&get)
    }

    /// Refuses an archive of a newer format or made with other fingerprint settings; the
    /// archive's format.
    fn check_settings(&self) -> Result<u32, ArchiveError> {
        let get =
            |key: &str| schema::setting(&mut *self.client(), &self.schema, key).map_err(|e| self.sql(RowError::Sql(e)));
        refuse_other_settings(&get, &self.settings, (self.location.shown(), schema::FORMAT))
    }

    /// Refuses a change to an archive opened for checking, or by a role without the
    /// write permission.
    fn require_write(&self, action: &'static str) -> Result<(), ArchiveError> {
        if !self.writable {
            return Err(ArchiveError::OpenedToCheck { action, shown: self.shown() });
        }
        let documents = format!("{}.documents", self.schema);
        let row = self
            .client()
            .query_one("SELECT has_table_privilege($1, 'INSERT') AND has_table_privilege($1, 'DELETE')", &[&documents])
            .map_err(|e| self.sql(RowError::Sql(e)))?;
        if row.get::<_, bool>(0) { Ok(()) } else { Err(self.no_permission(action, "write")) }
    }

    fn no_permission(&self, action: &'static str, needed: &'static str) -> ArchiveError {
        ArchiveError::NoPermission {
            role: self.location.user(),
            action,
            needed,
            shown: self.location.shown().to_string(),
        }
    }

    /// The server and archive, as they may be shown (no password).
    pub fn shown(&self) -> String {
        format!("{} (schema {})", self.location.shown(), self.schema.name())
    }

    /// The settings the archive is used with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The connection.
    fn client(&self) -> MutexGuard<'_, Db> {
        self.client.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A failed statement as the archive's error.
    fn sql(&self, error: RowError) -> ArchiveError {
        match error {
            RowError::IdOutOfRange(id) => ArchiveError::IdOutOfRange(id),
            RowError::Sql(e) if permission_denied(&e) => self.no_permission("change", "write"),
            RowError::Sql(e) => told(&self.location, e),
            RowError::WriterLost => ArchiveError::ConnectionLost {
                shown: self.shown(),
                why: "a connection writing postings stopped".to_string(),
            },
            RowError::Damaged(what) => ArchiveError::Corrupt(format!(
                "{}: {what}; run `twinspot archive verify` and restore the archive from a backup",
                self.shown()
            )),
        }
    }

    /// Every document, by id.
    pub fn list(&self) -> Result<Vec<DocumentInfo>, ArchiveError> {
        rows::documents(&mut *self.client(), &self.schema).map_err(|e| self.sql(e))
    }

    /// Sizes of the archive; its bytes are those its tables take on the server.
    pub fn stats(&self) -> Result<Stats, ArchiveError> {
        let tables = Postings::kept(self.char_grams);
        let [documents, chars, groups, postings, bytes] =
            rows::counts(&mut *self.client(), &self.schema, (self.folded, &tables)).map_err(|e| self.sql(e))?;
        Ok(Stats { documents, chars, groups, kgram_segments: 0, sentence_segments: 0, postings, bytes })
    }

    /// Near-duplicate groups of more than one document.
    pub fn groups(&self) -> Result<Vec<Group>, ArchiveError> {
        let members = rows::group_members(&mut *self.client(), &self.schema).map_err(|e| self.sql(e))?;
        Ok(super::groups::from_members(members))
    }

    /// Removes documents by id and by path ([`verbs::remove::remove`]).
    pub fn remove(&self, ids: &[u32], paths: &[std::path::PathBuf]) -> Result<RemoveSummary, ArchiveError> {
        verbs::remove::remove(self, ids, paths)
    }

    /// Drops every document older than `before` ([`verbs::expire::expire`]).
    pub fn expire(&self, before: &str) -> Result<usize, ArchiveError> {
        verbs::expire::expire(self, before)
    }

    /// Copies the character grams of documents archived before format 10
    /// ([`old_grams`]), deletes the postings of removed documents and folds the newer ones
    /// into one row a hash ([`fold`]; an archive of an older format only deletes), then
    /// has the server reclaim the space and refresh its statistics. How many postings went.
    pub fn compact(&self) -> Result<u64, ArchiveError> {
        self.require_write("compact")?;
        if self.char_grams {
            let settings = &self.settings;
            self.write(|tx, s| old_grams::keep_old_char_grams(tx, s, settings))?;
        }
        let tables = Postings::kept(self.char_grams);
        let purged = match self.folded {
            true => self.write(|tx, s| fold::fold(tx, s, &tables))?,
            false => self.write(|tx, s| rows::purge_removed(tx, s, &tables))?,
        };
        let s = &self.schema;
        let mut vacuumed = vec![format!("{s}.documents"), format!("{s}.removed")];
        for table in &tables {
            vacuumed.push(format!("{s}.{}", table.table()));
            if self.folded {
                vacuumed.push(format!("{s}.{}_packed", table.table()));
            }
        }
        let vacuum = format!("VACUUM (ANALYZE) {}", vacuumed.join(", "));
        let vacuumed = self.client().patiently(|db| db.batch_execute(&vacuum));
        vacuumed.map_err(|e| self.sql(RowError::Sql(e)))?;
        Ok(purged)
    }

    /// Reads every stored text back (it decompresses, to its character count and to its
    /// token keys, as a folder archive's `verify` does) and every group (its
    /// representative is a member): [`verbs::verify::verify`].
    pub fn verify(&self) -> Result<VerifyReport, ArchiveError> {
        verbs::verify::verify(self)
    }

    /// Gives `role` the `access` to this archive (replacing what it had): read lets it
    /// check, list and see stats and groups; write also add, remove, expire and compact.
    /// Only the archive's owner (or a superuser) may grant.
    pub fn grant(&self, role: &str, access: Access) -> Result<(), ArchiveError> {
        let role = schema::plain_identifier(role)?;
        let s = &self.schema;
        let mut statements = revoke_statements(s, role);
        statements.push_str(&format!(
            "GRANT USAGE ON SCHEMA {s} TO \"{role}\"; GRANT SELECT ON ALL TABLES IN SCHEMA {s} TO \"{role}\";"
        ));
        if access == Access::Write {
            statements.push_str(&format!(
                "GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {s} TO \"{role}\";
                 GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {s} TO \"{role}\";"
            ));
        }
        self.as_owner(&statements, "grant access to")
    }

    /// Takes every permission on this archive from `role`.
    pub fn revoke(&self, role: &str) -> Result<(), ArchiveError> {
        let role = schema::plain_identifier(role)?;
        self.as_owner(&revoke_statements(&self.schema, role), "revoke access to")
    }

    /// Runs `statements` in one transaction, refusing a role that does not own the archive.
    fn as_owner(&self, statements: &str, action: &'static str) -> Result<(), ArchiveError> {
        let mut client = self.client();
        let result = client.transaction().and_then(|mut tx| {
            tx.batch_execute(statements)?;
            tx.commit()
        });
        match result {
            Ok(()) => Ok(()),
            Err(e) if permission_denied(&e) => Err(ArchiveError::NotOwner {
                role: self.location.user(),
                action,
                shown: self.location.shown().to_string(),
            }),
            Err(e) => Err(match e.as_db_error().map(|d| d.code().clone()) {
                Some(code) if code == tokio_postgres::error::SqlState::UNDEFINED_OBJECT => {
                    ArchiveError::Server { shown: self.location.shown().to_string(), message: e.to_string() }
                }
                _ => self.sql(RowError::Sql(e)),
            }),
        }
    }

    /// Runs `change` in one write transaction, under the writers' advisory lock.
    fn write<T>(&self, change: impl FnOnce(&mut Tx<'_>, &Schema) -> Result<T, RowError>) -> Result<T, ArchiveError> {
        let mut client = self.client();
        let mut tx = client.transaction().map_err(|e| self.sql(RowError::Sql(e)))?;
        lock_writers(&mut tx, &self.schema).map_err(|e| self.sql(RowError::Sql(e)))?;
        let out = change(&mut tx, &self.schema).map_err(|e| self.sql(e))?;
        tx.commit().map_err(|e| self.sql(RowError::Sql(e)))?;
        Ok(out)
    }
}

/// The statements that take every permission on archive `s` from `role`.
fn revoke_statements(s: &Schema, role: &str) -> String {
    format!(
        "REVOKE ALL ON ALL TABLES IN SCHEMA {s} FROM \"{role}\";
         REVOKE ALL ON ALL SEQUENCES IN SCHEMA {s} FROM \"{role}\";
         REVOKE ALL ON SCHEMA {s} FROM \"{role}\";"
    )
}

/// Waits for the other writers of archive `s` (until this transaction ends): another
/// adder's batch or a `compact` may hold it for minutes, so with the maintenance deadline.
fn lock_writers(db: &mut impl Sql, s: &Schema) -> Result<(), SqlError> {
    db.patiently(|db| {
        db.execute("SELECT pg_advisory_xact_lock(hashtext('twinspot archive ' || $1::text))", &[&s.name()])
    })?;
    Ok(())
}

/// Whether the server refused a statement for want of a permission.
fn permission_denied(error: &SqlError) -> bool {
    error.code() == Some(&tokio_postgres::error::SqlState::INSUFFICIENT_PRIVILEGE)
}

/// A server error as the archive's: a closed connection is a lost connection.
fn told(location: &ServerLocation, error: SqlError) -> ArchiveError {
    let shown = location.shown().to_string();
    let error = match error {
        SqlError::Server(error) => error,
        SqlError::NoAnswer { waited, setting } => {
            return ArchiveError::NoAnswer { shown, address: location.address(), seconds: waited.as_secs(), setting };
        }
    };
    match error.as_db_error() {
        Some(db) => ArchiveError::Server { shown, message: db.message().to_string() },
        None if error.is_closed() || std::error::Error::source(&error).is_some() => {
            ArchiveError::ConnectionLost { shown, why: error.to_string() }
        }
        None => ArchiveError::Server { shown, message: error.to_string() },
    }
}

/// A connection to the server at `location` once schema `schema` is known to hold a
/// twinspot archive: refused when it holds none, or tables that are not one.
fn connect_to_archive(location: &ServerLocation, schema: &Schema) -> Result<Db, ArchiveError> {
    let mut client = location.connect()?;
    match schema::holds_archive(&mut client, schema).map_err(|e| told(location, e))? {
        Some(true) => Ok(client),
        Some(false) => Err(not_ours(location, schema)),
        None => {
            Err(ArchiveError::NoSuchSchema { shown: location.shown().to_string(), schema: schema.name().to_string() })
        }
    }
}

/// The error for a schema that holds tables but no twinspot archive.
fn not_ours(location: &ServerLocation, schema: &Schema) -> ArchiveError {
    ArchiveError::ForeignSchema { shown: location.shown().to_string(), schema: schema.name().to_string() }
}

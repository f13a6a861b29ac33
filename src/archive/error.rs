//! What can go wrong with an archive, each case with one clear message.

use std::path::{Path, PathBuf};

use crate::engine::CheckError;
use crate::index::StoreError;

/// An archive error. Every variant names what the user can do about it.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// (`error` is said in the message, not chained as a source: said once.)
    #[error("{path}: {error}")]
    Io { path: PathBuf, error: std::io::Error },
    #[error("the disk is full while writing {0}; nothing of this batch was kept, free some space and add again")]
    DiskFull(PathBuf),
    #[error("the archive {0} is read-only here: it can be checked against but not changed")]
    ReadOnly(PathBuf),
    #[error("{0} is not a twinspot archive (no catalog.sqlite, and the folder is not empty)")]
    NotAnArchive(PathBuf),
    #[error("{0} does not exist (archive add creates an archive)")]
    Missing(PathBuf),
    #[error("the archive is damaged or not a twinspot archive: {0}")]
    Corrupt(String),
    #[error(
        "the archive was written by a newer twinspot (format {found}); this one reads format {supported}: update twinspot"
    )]
    NewerFormat { found: u32, supported: u32 },
    #[error(
        "the archive is of an older format ({found}), which is upgraded in place the first time it is opened, but the upgrade failed: {upgrade}"
    )]
    OldFormat { found: u32, upgrade: String },
    #[error(
        "the archive was made with {setting} = {archive}, but this check uses {current}: fingerprints would not match; use the archive's settings or another archive"
    )]
    SettingsMismatch { setting: &'static str, archive: String, current: String },
    #[error("catalog: {0}")]
    Catalog(String),
    #[error("cancelled")]
    Cancelled,
    #[error("no document {0} in the archive")]
    NoSuchDocument(u32),
    #[error(
        "the archive holds a document id ({0}) beyond what twinspot can index (4,294,967,295): it cannot be read safely"
    )]
    IdOutOfRange(i64),
    #[error(
        "twinspot cannot use {scheme}:// archives ({shown}): an archive is a local folder or a postgresql:// server"
    )]
    UnsupportedLocation { scheme: String, shown: String },
    #[error(
        "{shown} reads as a mistyped {scheme}:// URL (a slash missing?), so no archive was made of it: write {scheme}://…, or ./NAME for a folder of that name"
    )]
    MistypedUrl { scheme: String, shown: String },
    #[error(
        "the archive {0} is being changed by another twinspot (an add, remove, expire or compact): try again when it has finished"
    )]
    Busy(PathBuf),
    #[error("{path} is a link to {target}, which does not exist: make that folder first, or name another archive")]
    DanglingLink { path: PathBuf, target: PathBuf },
    #[error(
        "{dir}: {} damaged ({}): nothing was merged from {}; run `twinspot archive verify` and restore the archive from a copy",
        if files.len() == 1 { "a segment is" } else { "segments are" },
        files.join(", "),
        if files.len() == 1 { "it" } else { "them" }
    )]
    DamagedSegments { dir: PathBuf, files: Vec<String> },
    #[error("'{0}' is not a date YYYY-MM-DD")]
    BadDate(String),
    #[error("{shown} is not a PostgreSQL URL twinspot can use: {why}")]
    BadServerUrl { shown: String, why: String },
    #[error("cannot connect to the archive server {address} ({shown}): {why}")]
    Unreachable { shown: String, address: String, why: String },
    #[error("the archive server {shown}: {message}")]
    Server { shown: String, message: String },
    #[error(
        "the connection to the archive server {shown} was lost ({why}); nothing half-done was kept: try again when the server is back"
    )]
    ConnectionLost { shown: String, why: String },
    #[error(
        "the archive server {address} ({shown}) did not answer within {seconds} s, so twinspot gave its connection up: the server may be stopped or overloaded, or the network to it cut; what was not committed is rolled back: try again when it answers (a statement that needs longer: {setting}=SECONDS in the URL)"
    )]
    NoAnswer { shown: String, address: String, seconds: u64, setting: &'static str },
    #[error(
        "{role} may not {action} the archive {shown}: that needs the {needed} permission (`twinspot archive grant ARCHIVE {role} --{needed}`, run by the archive's owner)"
    )]
    NoPermission { role: String, action: &'static str, needed: &'static str, shown: String },
    #[error("{shown} names a shared archive, and this build of twinspot has none (it was built without the `server` feature): use an archive folder")]
    NoServerInThisBuild { shown: String },
    #[error("the archive {shown} was opened for checking, so twinspot will not {action} it: open it for changes")]
    OpenedToCheck { action: &'static str, shown: String },
    #[error("{shown} holds no twinspot archive in schema {schema} (archive add creates one)")]
    NoSuchSchema { shown: String, schema: String },
    #[error(
        "{0} is a folder archive, which has no roles: who may read or change it is decided by its files' permissions"
    )]
    NoRoles(PathBuf),
    #[error("'{0}' is not a schema or role name twinspot accepts: letters, digits and _, starting with a letter or _")]
    BadName(String),
    #[error("'{name}' is {length} letters long: PostgreSQL keeps a schema or role name of at most {most}")]
    NameTooLong { name: String, length: usize, most: usize },
    #[error("'{0}' is a schema of the PostgreSQL server itself, where no archive can be: name another with --schema")]
    SystemSchema(String),
    #[error(
        "{shown}: schema {schema} holds tables of another application, not a twinspot archive; name another with --schema (a new one is made)"
    )]
    ForeignSchema { shown: String, schema: String },
    #[error(
        "{role} may not {action} the archive {shown}: only the archive's owner (the role that owns its schema) or a superuser may: ask them to run it"
    )]
    NotOwner { role: String, action: &'static str, shown: String },
    #[error(
        "{role} may not create an archive on {shown}: that needs the right to create a schema in the database (`GRANT CREATE ON DATABASE … TO {role}`, run by the database's owner), or an archive made by a role that has it and `twinspot archive grant ARCHIVE {role} --write`"
    )]
    CannotCreate { role: String, shown: String },
    #[error(
        "the archive {} is at a path of {length} characters, and its catalog can be opened only in a folder whose path has at most {most} (SQLite's limit): move the archive to a shorter path",
        dir.display()
    )]
    PathTooLong { dir: PathBuf, length: usize, most: usize },
}

impl ArchiveError {
    /// The archive's own error, back from the index seam it crossed: every store of the
    /// archive wraps an `ArchiveError`, so anything else is a seam's own failure.
    pub(crate) fn from_store(error: StoreError) -> Self {
        match error.into_inner().downcast::<ArchiveError>() {
            Ok(error) => *error,
            Err(other) => Self::Corrupt(other.to_string()),
        }
    }

    /// Why a check against the archive ended without a report.
    pub(crate) fn from_check(error: CheckError) -> Self {
        match error {
            CheckError::Cancelled(_) => Self::Cancelled,
            CheckError::Store(error) => Self::from_store(error),
        }
    }

    /// An I/O error on `path`, told apart when the disk is full.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        match source.kind() {
            std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded => Self::DiskFull(path.to_path_buf()),
            std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied => {
                Self::ReadOnly(path.to_path_buf())
            }
            _ => Self::Io { path: path.to_path_buf(), error: source },
        }
    }

    /// A catalog (SQLite) error on the archive at `dir`, told apart by cause.
    pub fn sql(dir: &Path, error: rusqlite::Error) -> Self {
        use rusqlite::ErrorCode;
        if let rusqlite::Error::IntegralValueOutOfRange(_, value) = error {
            return Self::IdOutOfRange(value);
        }
        if let rusqlite::Error::SqliteFailure(e, _) = &error {
            match e.code {
                ErrorCode::DiskFull => return Self::DiskFull(dir.to_path_buf()),
                ErrorCode::CannotOpen if let Some(length) = too_long_for_sqlite(dir) => {
                    return Self::PathTooLong { dir: dir.to_path_buf(), length, most: ARCHIVE_PATH_MAX };
                }
                ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied => {
                    return Self::ReadOnly(dir.to_path_buf());
                }
                ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt => {
                    return Self::Corrupt(format!("{}: {error}", dir.join(super::folder::names::CATALOG).display()));
                }
                _ => {}
            }
        }
        Self::Catalog(error.to_string())
    }
}

/// The longest path SQLite opens a file at (its Unix file system's `MAX_PATHNAME`).
const SQLITE_PATH_MAX: usize = 512;

/// The longest path of an archive folder whose catalog files SQLite opens: its longest
/// file is the journal of a catalog being made, `catalog.sqlite.new-journal`.
const ARCHIVE_PATH_MAX: usize = SQLITE_PATH_MAX - 1 - super::folder::names::CATALOG_NEW.len() - "-journal".len();

/// The length of the path of the archive at `dir` (made absolute, as SQLite makes it)
/// when its catalog's files would lie at a path too long for SQLite to open.
fn too_long_for_sqlite(dir: &Path) -> Option<usize> {
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let length = absolute.as_os_str().len();
    (length > ARCHIVE_PATH_MAX).then_some(length)
}

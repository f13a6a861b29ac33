//! The archive in a folder: the catalog (SQLite, [`catalog`]) holds documents, groups,
//! settings and the list of segments; postings of k-grams, sentence hashes and character
//! grams live in immutable sorted [`segments`] files, one per add batch and signal, merged
//! in tiers. A batch's segments and documents become visible together, in one catalog
//! transaction; files of a batch that never committed are removed by the next writer.

pub(super) mod add;
mod backfill;
mod beside_commit;
pub mod catalog;
mod catalog_read;
pub(super) mod check;
mod files;
mod grouping;
pub(super) mod index;
mod kept_segments;
pub(super) mod lock;
pub(super) mod maintain;
mod merge;
pub(in crate::archive) mod names;
pub(in crate::archive) mod near;
mod old_grams;
mod readahead;
pub(super) mod rows;
pub mod segments;
mod store;
pub(super) mod unchanged;

use std::path::{Path, PathBuf};

use rusqlite::Connection;

use catalog_read::{CatalogRead, SqliteCatalog};
use kept_segments::OpenSegments;
use lock::{LOCK_FILE, WhenBusy, WriterLock};

use super::error::ArchiveError;
use super::location;
use super::stored_settings::{refuse_other_settings, settings_from, settings_of_new};
use crate::settings::Settings;

/// The on-disk format this build writes and reads (and the older ones it upgrades: 1
/// held texts in the documents table, 2 had no token keys, 3 wrote segments whose filter
/// spread a hash's probes over the whole filter, 4 picked a hash's filter block by a mix
/// of the hash rather than by its top bits, 5 wrote segment entries of 16 bytes, 6 kept
/// whole 64-bit hashes in its segments, 7 found near SimHashes by four 16-bit bands, 8
/// gave a segment's sparse index at most 16 bits, 9 kept no character grams).
pub const FORMAT_VERSION: u32 = 10;

/// An open archive.
pub struct Archive {
    dir: PathBuf,
    catalog: SqliteCatalog,
    settings: Settings,
    writable: bool,
    /// The writer lock, held while the archive is open for changes.
    #[allow(dead_code, reason = "held for its drop, which releases the lock")]
    writer_lock: Option<WriterLock>,
    /// Segments opened by a check, kept for the next.
    open_segments: OpenSegments,
}

impl std::fmt::Debug for Archive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archive").field("dir", &self.dir).field("writable", &self.writable).finish()
    }
}

impl Drop for Archive {
    /// A writer empties the catalog's write-ahead log as it lets the archive go, still
    /// holding the writer lock ([`catalog::empty_write_ahead_log`]). A log left because a
    /// reader was busy loses nothing: it stays valid, and the next writer empties it.
    fn drop(&mut self) {
        if self.writable {
            catalog::empty_write_ahead_log(&self.lock());
        }
    }
}

impl Archive {
    /// Opens the archive at `dir` for checking. `settings` must shape fingerprints as
    /// the archive's did; the other settings (min_chars, thresholds) are taken from it.
    /// Nothing is written (but for the upgrade of an older format).
    pub fn open(dir: &Path, settings: &Settings) -> Result<Self, ArchiveError> {
        location::refuse_unsupported(dir)?;
        let settings = settings.clone().sanitized();
        if !dir.join(catalog::CATALOG).exists() {
            return Err(Self::absent(dir));
        }
        let conn = catalog::open(dir, false)?;
        catalog::check_ours(&conn, dir)?;
        let conn = Self::upgraded_for_reading(conn, dir)?;
        let archive = Self {
            dir: dir.to_path_buf(),
            catalog: SqliteCatalog::new(dir, conn),
            settings,
            writable: false,
            writer_lock: None,
            open_segments: OpenSegments::default(),
        };
        archive.check_settings()?;
        Ok(archive)
    }

    /// Opens the archive at `dir` for changes, creating it when `dir` does not exist or
    /// is an empty folder; refuses at once when another writer is at work.
    pub fn open_or_create(dir: &Path, settings: &Settings) -> Result<Self, ArchiveError> {
        Self::open_for_changes(dir, settings, true, WhenBusy::Refuse)
    }

    /// Opens an existing archive for changes (remove, expire); refuses at once when
    /// another writer is at work.
    pub fn open_writable(dir: &Path, settings: &Settings) -> Result<Self, ArchiveError> {
        Self::open_for_changes(dir, settings, false, WhenBusy::Refuse)
    }

    /// Opens the archive at `dir` for changes (with `create`, a missing folder or an empty
    /// one becomes a new archive). The writer lock is taken before anything is created or
    /// changed and held until the archive is dropped; a folder or a database that is not
    /// known to be twinspot's is refused before anything is written to it. Files of a
    /// writer that never finished are removed here, under the lock.
    pub fn open_for_changes(
        dir: &Path,
        settings: &Settings,
        create: bool,
        busy: WhenBusy<'_>,
    ) -> Result<Self, ArchiveError> {
        location::refuse_unsupported(dir)?;
        location::refuse_dangling_link(dir)?;
        let settings = settings.clone().sanitized();
        let catalog_path = dir.join(catalog::CATALOG);
        if catalog_path.exists() {
            // Another application's database is refused before the lock file is made.
            catalog::check_ours(&catalog::open(dir, false)?, dir)?;
        } else if !dir.exists() {
            if !create {
                return Err(ArchiveError::Missing(dir.to_path_buf()));
            }
            std::fs::create_dir_all(dir).map_err(|e| ArchiveError::io(dir, e))?;
        } else if !create || !holds_only_our_files(dir)? {
            return Err(ArchiveError::NotAnArchive(dir.to_path_buf()));
        }
        let lock = WriterLock::take(dir, busy)?;
        // Under the lock: another writer may have made the archive meanwhile.
        if !catalog_path.exists() {
            if !holds_only_our_files(dir)? {
                return Err(ArchiveError::NotAnArchive(dir.to_path_buf()));
            }
            catalog::create_new(dir, &settings_of_new(&settings, FORMAT_VERSION))?;
            files::sync_dir(dir)?;
        }
        let mut conn = catalog::open(dir, true)?;
        catalog::check_ours(&conn, dir)?;
        catalog::prepare_for_writing(&conn, dir)?;
        if catalog::setting(&conn, dir, "format")?
            .and_then(|v| v.parse::<u32>().ok())
            .is_some_and(|f| f < FORMAT_VERSION)
        {
            catalog::upgrade(&mut conn, dir)?;
        }
        let archive = Self {
            dir: dir.to_path_buf(),
            catalog: SqliteCatalog::new(dir, conn),
            settings,
            writable: true,
            writer_lock: Some(lock),
            open_segments: OpenSegments::default(),
        };
        archive.check_settings()?;
        let listed = rows::segments(&archive.lock()).map_err(|e| archive.sql(e))?;
        files::remove_unlisted_segments(dir, &listed.into_iter().map(|s| s.file).collect())?;
        Ok(archive)
    }

    /// The error for a `dir` without a catalog.
    fn absent(dir: &Path) -> ArchiveError {
        if dir.exists() {
            ArchiveError::NotAnArchive(dir.to_path_buf())
        } else {
            ArchiveError::Missing(dir.to_path_buf())
        }
    }

    /// `conn` (read-only) once an older format has been upgraded in place: a reader
    /// upgrades too, through a writable connection of its own, when it may.
    fn upgraded_for_reading(conn: rusqlite::Connection, dir: &Path) -> Result<rusqlite::Connection, ArchiveError> {
        let Some(found) =
            catalog::setting(&conn, dir, "format")?.and_then(|v| v.parse::<u32>().ok()).filter(|&f| f < FORMAT_VERSION)
        else {
            return Ok(conn);
        };
        drop(conn);
        let upgrade = || -> Result<(), ArchiveError> {
            let lock = WriterLock::take(dir, WhenBusy::Wait(&|| {}))?;
            let mut writer = catalog::open(dir, true)?;
            catalog::prepare_for_writing(&writer, dir)?;
            catalog::upgrade(&mut writer, dir)?;
            drop(lock);
            Ok(())
        };
        upgrade().map_err(|e| ArchiveError::OldFormat { found, upgrade: e.to_string() })?;
        catalog::open(dir, false)
    }

    /// Refuses an archive of a newer format or made with other fingerprint settings.
    fn check_settings(&self) -> Result<(), ArchiveError> {
        let conn = self.lock();
        refuse_other_settings(
            &|key| catalog::setting(&conn, &self.dir, key),
            &self.settings,
            (&self.dir.display().to_string(), FORMAT_VERSION),
        )
        .map(|_| ())
    }

    /// The folder of the archive.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The settings the archive is used with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The catalog connection (one at a time per open archive), for the writers.
    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.catalog.lock()
    }

    /// The catalog as a check reads it.
    fn catalog(&self) -> &dyn CatalogRead {
        &self.catalog
    }

    fn sql(&self, error: rusqlite::Error) -> ArchiveError {
        ArchiveError::sql(&self.dir, error)
    }

    fn require_writable(&self) -> Result<(), ArchiveError> {
        if self.writable { Ok(()) } else { Err(ArchiveError::ReadOnly(self.dir.clone())) }
    }

    /// The fingerprint settings the archive stores, read back as [`Settings`] (the
    /// others at their defaults): for opening an archive with whatever it was made with.
    pub fn stored_settings(dir: &Path) -> Result<Settings, ArchiveError> {
        location::refuse_unsupported(dir)?;
        if !dir.join(catalog::CATALOG).exists() {
            return Err(Self::absent(dir));
        }
        let conn = catalog::open(dir, false)?;
        catalog::check_ours(&conn, dir)?;
        settings_from(&|key| catalog::setting(&conn, dir, key))
    }
}

/// True when every entry of `dir` is one a writer of this archive makes before its
/// catalog exists (the lock, a catalog being created): the folder is still empty.
fn holds_only_our_files(dir: &Path) -> Result<bool, ArchiveError> {
    if !dir.is_dir() {
        return Ok(false);
    }
    let ours = [LOCK_FILE.to_string(), catalog::CATALOG_NEW.to_string(), format!("{}-journal", catalog::CATALOG_NEW)];
    for entry in std::fs::read_dir(dir).map_err(|e| ArchiveError::io(dir, e))? {
        let name = entry.map_err(|e| ArchiveError::io(dir, e))?.file_name();
        if !ours.iter().any(|o| name == o.as_str()) {
            return Ok(false);
        }
    }
    Ok(true)
}

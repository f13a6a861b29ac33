//! The archive: a persistent, incremental, crash-safe store of documents, their texts and
//! fingerprints, checked against without reading or fingerprinting any of them again.
//!
//! An archive is a folder: the catalog (SQLite, [`catalog`]) holds documents, groups,
//! settings and the list of segments; postings of k-grams and of sentence hashes live in
//! immutable sorted [`segment`] files, one per add batch, merged in tiers ([`merge`]).
//! A batch's segments and documents become visible together, in one catalog transaction;
//! files of a batch that never committed are removed by the next writer.

mod add;
mod any;
mod backfill;
pub mod catalog;
mod check;
mod checksum;
mod codec;
mod cut;
mod date;
mod early;
mod error;
mod files;
mod groups;
mod location;
mod lock;
mod lookup;
mod maintain;
mod merge;
mod names;
mod near;
mod old_grams;
mod opened;
mod packing;
mod prepare;
mod readahead;
mod reader;
mod recut;
mod regroup;
mod rows;
pub mod segment;
mod sequential;
pub mod server;
mod signals;
mod spans;
mod store;
mod stored;
mod unchanged;
mod verify_text;

pub use add::{AddOptions, AddSummary};
pub use any::{AnyArchive, Compacted, Location};
pub use check::check_against;
pub use date::parse_date;
pub use error::ArchiveError;
pub use groups::Group;
pub use location::{redacted, refuse_unsupported};
pub use lock::{LOCK_FILE, WhenBusy};
pub use maintain::{ArchivedElsewhere, RemoveSummary, VerifyReport};
pub use reader::ArchiveIndex;
pub use rows::DocumentInfo;
pub use rows::Stats;

use std::path::{Path, PathBuf};

use rusqlite::Connection;

use lock::WriterLock;
use opened::OpenSegments;
use store::{CatalogRead, SqliteCatalog};

use crate::normalize::NormalizeOptions;
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

/// The settings that shape fingerprints, as stored in the catalog, with the `format` of
/// the store that keeps them.
fn shaping_settings(s: &Settings, format: u32) -> Vec<(&'static str, String)> {
    vec![
        ("format", format.to_string()),
        ("k", s.k.to_string()),
        ("w", s.w.to_string()),
        ("min_sentence_tokens", s.min_sentence_tokens.to_string()),
        ("nfkc", s.normalize.nfkc.to_string()),
        ("case_fold", s.normalize.case_fold.to_string()),
        ("traditional_to_simplified", s.normalize.traditional_to_simplified.to_string()),
        ("drop_punctuation", s.normalize.drop_punctuation.to_string()),
    ]
}

/// The settings a new archive starts with: its fingerprints' shape, and every document's
/// character grams kept ([`signals::CHAR_GRAMS_FROM`]).
fn settings_of_new(s: &Settings, format: u32) -> Vec<(&'static str, String)> {
    let mut settings = shaping_settings(s, format);
    settings.push((signals::CHAR_GRAMS_FROM, "1".to_string()));
    settings
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

/// Reads a stored setting by key, whichever store keeps them.
type SettingFn<'a> = dyn Fn(&str) -> Result<Option<String>, ArchiveError> + 'a;

/// Refuses an archive of a newer format than `supported` (the newest its store reads) or
/// made with other fingerprint settings than `settings`, its settings read through `get`
/// (`shown` names it). The archive's format, when it is not refused.
fn refuse_other_settings(
    get: &SettingFn<'_>,
    settings: &Settings,
    (shown, supported): (&str, u32),
) -> Result<u32, ArchiveError> {
    let found: u32 = get("format")?
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| ArchiveError::Corrupt(format!("{shown}: the catalog has no format version")))?;
    if found > supported {
        return Err(ArchiveError::NewerFormat { found, supported });
    }
    for (key, current) in shaping_settings(settings, supported).into_iter().skip(1) {
        let stored = get(key)?.unwrap_or_default();
        if stored != current {
            return Err(ArchiveError::SettingsMismatch { setting: key, archive: stored, current });
        }
    }
    Ok(found)
}

/// The fingerprint settings an archive stores, read through `get`, as [`Settings`] (the
/// others at their defaults).
fn settings_from(get: &SettingFn<'_>) -> Result<Settings, ArchiveError> {
    let num = |key: &str, default: usize| -> Result<usize, ArchiveError> {
        Ok(get(key)?.and_then(|v| v.parse().ok()).unwrap_or(default))
    };
    let flag = |key: &str, default: bool| -> Result<bool, ArchiveError> {
        Ok(get(key)?.and_then(|v| v.parse().ok()).unwrap_or(default))
    };
    let d = Settings::default();
    let n = NormalizeOptions::default();
    Ok(Settings {
        k: num("k", d.k)?,
        w: num("w", d.w)?,
        min_sentence_tokens: num("min_sentence_tokens", d.min_sentence_tokens)?,
        normalize: NormalizeOptions {
            nfkc: flag("nfkc", n.nfkc)?,
            case_fold: flag("case_fold", n.case_fold)?,
            traditional_to_simplified: flag("traditional_to_simplified", n.traditional_to_simplified)?,
            drop_punctuation: flag("drop_punctuation", n.drop_punctuation)?,
        },
        ..d
    })
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

/// Seconds since the Unix epoch, now.
fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

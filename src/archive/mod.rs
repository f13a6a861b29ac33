//! The archive: a persistent, incremental, crash-safe store of documents, their texts and
//! fingerprints, checked against without reading or fingerprinting any of them again.
//!
//! An archive is a folder: the catalog (SQLite, [`catalog`]) holds documents, groups,
//! settings and the list of segments; postings of k-grams and of sentence hashes live in
//! immutable sorted [`segment`] files, one per add batch, merged in tiers ([`merge`]).
//! A batch's segments and documents become visible together, in one catalog transaction;
//! files of a batch that never committed are removed by the next writer.

mod add;
pub mod catalog;
mod check;
mod error;
mod groups;
mod lookup;
mod maintain;
mod merge;
mod reader;
pub mod segment;

pub use add::{AddOptions, AddSummary};
pub use check::check_against;
pub use error::ArchiveError;
pub use groups::Group;
pub use maintain::{DocumentInfo, Stats, VerifyReport};
pub use reader::ArchiveIndex;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::Connection;

use crate::normalize::NormalizeOptions;
use crate::settings::Settings;

/// The on-disk format this build writes and reads (and the older ones it upgrades: 1
/// held texts in the documents table, 2 had no token keys, 3 wrote segments whose filter
/// spread a hash's probes over the whole filter).
pub const FORMAT_VERSION: u32 = 4;

/// An open archive.
pub struct Archive {
    dir: PathBuf,
    conn: Mutex<Connection>,
    settings: Settings,
    writable: bool,
}

impl std::fmt::Debug for Archive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archive").field("dir", &self.dir).field("writable", &self.writable).finish()
    }
}

/// The settings that shape fingerprints, as stored in the catalog.
fn shaping_settings(s: &Settings) -> Vec<(&'static str, String)> {
    vec![
        ("format", FORMAT_VERSION.to_string()),
        ("k", s.k.to_string()),
        ("w", s.w.to_string()),
        ("min_sentence_tokens", s.min_sentence_tokens.to_string()),
        ("nfkc", s.normalize.nfkc.to_string()),
        ("case_fold", s.normalize.case_fold.to_string()),
        ("traditional_to_simplified", s.normalize.traditional_to_simplified.to_string()),
        ("drop_punctuation", s.normalize.drop_punctuation.to_string()),
    ]
}

impl Archive {
    /// Opens the archive at `dir` for checking. `settings` must shape fingerprints as
    /// the archive's did; the other settings (min_chars, thresholds) are taken from it.
    pub fn open(dir: &Path, settings: &Settings) -> Result<Self, ArchiveError> {
        Self::open_with(dir, settings, false, false)
    }

    /// Opens the archive at `dir` for changes, creating it when `dir` does not exist or
    /// is an empty folder.
    pub fn open_or_create(dir: &Path, settings: &Settings) -> Result<Self, ArchiveError> {
        Self::open_with(dir, settings, true, true)
    }

    /// Opens an existing archive for changes (remove, expire).
    pub fn open_writable(dir: &Path, settings: &Settings) -> Result<Self, ArchiveError> {
        Self::open_with(dir, settings, true, false)
    }

    fn open_with(dir: &Path, settings: &Settings, write: bool, create: bool) -> Result<Self, ArchiveError> {
        let settings = settings.clone().sanitized();
        let catalog_path = dir.join(catalog::CATALOG);
        let exists = catalog_path.exists();
        if !exists {
            if !dir.exists() {
                if !create {
                    return Err(ArchiveError::Missing(dir.to_path_buf()));
                }
                std::fs::create_dir_all(dir).map_err(|e| ArchiveError::io(dir, e))?;
            } else if !create
                || !dir.is_dir()
                || std::fs::read_dir(dir).map_err(|e| ArchiveError::io(dir, e))?.next().is_some()
            {
                return Err(ArchiveError::NotAnArchive(dir.to_path_buf()));
            }
        }
        let mut conn = catalog::open(dir, write)?;
        if !exists {
            catalog::create(&mut conn, dir, &shaping_settings(&settings))?;
        } else if let Some(found) = catalog::setting(&conn, dir, "format")?
            .and_then(|v| v.parse::<u32>().ok())
            .filter(|&found| found < FORMAT_VERSION)
        {
            // An older format is upgraded in place the first time it is opened, for reading too.
            if write {
                catalog::upgrade(&mut conn, dir)?;
            } else {
                catalog::upgrade(&mut catalog::open(dir, true)?, dir)
                    .map_err(|e| ArchiveError::OldFormat { found, upgrade: e.to_string() })?;
            }
        }
        let archive = Self { dir: dir.to_path_buf(), conn: Mutex::new(conn), settings, writable: write };
        archive.check_settings()?;
        Ok(archive)
    }

    /// Refuses an archive of a newer format or made with other fingerprint settings.
    fn check_settings(&self) -> Result<(), ArchiveError> {
        let conn = self.lock();
        let found: u32 =
            catalog::setting(&conn, &self.dir, "format")?.and_then(|v| v.parse().ok()).ok_or_else(|| {
                ArchiveError::Corrupt(format!("{}: the catalog has no format version", self.dir.display()))
            })?;
        if found > FORMAT_VERSION {
            return Err(ArchiveError::NewerFormat { found, supported: FORMAT_VERSION });
        }
        for (key, current) in shaping_settings(&self.settings).into_iter().skip(1) {
            let stored = catalog::setting(&conn, &self.dir, key)?.unwrap_or_default();
            if stored != current {
                return Err(ArchiveError::SettingsMismatch { setting: key, archive: stored, current });
            }
        }
        Ok(())
    }

    /// The folder of the archive.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The settings the archive is used with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The catalog connection (one at a time per open archive).
    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
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
        if !dir.join(catalog::CATALOG).exists() {
            return Err(if dir.exists() {
                ArchiveError::NotAnArchive(dir.to_path_buf())
            } else {
                ArchiveError::Missing(dir.to_path_buf())
            });
        }
        let conn = catalog::open(dir, false)?;
        let get = |key: &str| catalog::setting(&conn, dir, key);
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
}

/// Seconds since the Unix epoch, now.
fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

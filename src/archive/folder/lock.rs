//! The archive's writer lock: one process at a time changes an archive. Every writer (add,
//! remove, expire, compact, and the creation of a new archive) holds an exclusive lock on
//! the file [`LOCK_FILE`] in the archive folder from before it creates or changes anything
//! until it is done; the system releases it when the process ends, however it ends.
//! Readers (check, list, stats, groups, verify) never take it: SQLite's snapshots and the
//! immutable segment files keep them consistent while a writer works.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;

use crate::archive::error::ArchiveError;

/// File name of the lock inside the archive folder (empty; only its lock matters).
pub const LOCK_FILE: &str = "twinspot.lock";

/// What a writer does when another one holds the lock.
#[derive(Clone, Copy)]
pub enum WhenBusy<'a> {
    /// Fail at once with [`ArchiveError::Busy`].
    Refuse,
    /// Call this (to tell the user) and wait until the other writer is done.
    Wait(&'a dyn Fn()),
}

impl std::fmt::Debug for WhenBusy<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            WhenBusy::Refuse => "Refuse",
            WhenBusy::Wait(_) => "Wait",
        })
    }
}

/// The held lock; dropping it releases it.
#[derive(Debug)]
pub struct WriterLock {
    _file: File,
}

impl WriterLock {
    /// Takes the writer lock of the archive folder `dir` (which must exist).
    pub fn take(dir: &Path, busy: WhenBusy<'_>) -> Result<Self, ArchiveError> {
        let path = dir.join(LOCK_FILE);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| ArchiveError::io(dir, e))?;
        match file.try_lock() {
            Ok(()) => return Ok(Self { _file: file }),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) => return Err(ArchiveError::io(&path, e)),
        }
        match busy {
            WhenBusy::Refuse => Err(ArchiveError::Busy(dir.to_path_buf())),
            WhenBusy::Wait(tell) => {
                tell();
                file.lock().map_err(|e| ArchiveError::io(&path, e))?;
                Ok(Self { _file: file })
            }
        }
    }
}

//! Moves an add's write-ahead log into the catalog beside the add, batch by batch, so that
//! the move as the add ends ([`catalog::empty_write_ahead_log`]) finds little left to do.
//!
//! An add commits its batches into the catalog's write-ahead log and moves the log into
//! the catalog once, as it ends (see [`catalog`]'s `CHECKPOINT_PAGES`). That move copies
//! every page the add wrote and waits for the disk: at a million documents, 0.5–0.7 s of
//! an add of 5,000 that took 7 s, with both cores idle. A thread of its own, with a
//! connection of its own, now copies what each commit wrote while the next batch is read
//! (SQLite's passive checkpoint: it never waits for the writer or for readers, and copies
//! what they allow); what is left as the add ends is the last batch's pages and the
//! groups'. The pages a later batch writes again are copied again: more bytes go to the
//! disk, but none of them on the add's path.

use std::path::Path;
use std::sync::mpsc::{Sender, channel};
use std::thread::JoinHandle;

use super::catalog;

/// The thread moving the log, woken by each commit.
pub(in crate::archive) struct Backfill {
    wake: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Backfill {
    /// Starts the thread, with its own connection to the catalog in `dir`. `None` when
    /// either cannot be had: the move as the add ends then does it all, as it can.
    pub fn start(dir: &Path) -> Option<Self> {
        let conn = catalog::open(dir, true).ok()?;
        let (wake, woken) = channel::<()>();
        let thread = std::thread::Builder::new()
            .name("twinspot-backfill".into())
            .spawn(move || {
                while woken.recv().is_ok() {
                    // Commits made while the last pass ran need one pass between them.
                    while woken.try_recv().is_ok() {}
                    catalog::backfill_write_ahead_log(&conn);
                }
            })
            .ok()?;
        Some(Self { wake: Some(wake), thread: Some(thread) })
    }

    /// A commit was made: what it wrote is moved once the pass under way (if any) is done.
    pub fn committed(&self) {
        if let Some(wake) = &self.wake {
            // Sending fails only when the thread is gone (it panicked): nothing is moved
            // then, and the move as the add ends does it.
            let _gone = wake.send(());
        }
    }
}

impl Drop for Backfill {
    /// Waits for the pass under way, if any; none starts after.
    fn drop(&mut self) {
        drop(self.wake.take());
        if let Some(thread) = self.thread.take()
            && let Err(panic) = thread.join()
            && !std::thread::panicking()
        {
            // It only runs a checkpoint: a panic there is a bug, raised here.
            std::panic::resume_unwind(panic);
        }
    }
}

#[cfg(test)]
mod tests {
    use rusqlite::{Connection, OpenFlags};

    use super::*;

    /// The rows the catalog file itself holds, the log left aside (as a reader that may
    /// only open it as immutable reads it).
    fn rows_in_file(dir: &Path) -> i64 {
        let uri = format!("file:{}?immutable=1", dir.join(catalog::CATALOG).display());
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(uri, flags).unwrap();
        conn.query_row("SELECT count(*) FROM t", [], |r| r.get(0)).unwrap()
    }

    /// A writer's connection, as an add's, with a table of `n` rows committed into the log.
    fn writer_with_rows(dir: &Path, n: i64) -> Connection {
        let conn = Connection::open(dir.join(catalog::CATALOG)).unwrap();
        conn.execute_batch("CREATE TABLE t(x INTEGER);").unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        conn.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
        for x in 0..n {
            conn.execute("INSERT INTO t(x) VALUES (?1)", [x]).unwrap();
        }
        conn
    }

    #[test]
    fn what_was_committed_reaches_the_catalog_file_while_the_writer_is_open() {
        let dir = tempfile::tempdir().unwrap();
        let writer = writer_with_rows(dir.path(), 20);
        assert_eq!(rows_in_file(dir.path()), 0, "the rows are in the log alone");
        let backfill = Backfill::start(dir.path()).unwrap();
        backfill.committed();
        drop(backfill);
        assert_eq!(rows_in_file(dir.path()), 20);
        // The writer goes on writing after it.
        writer.execute("INSERT INTO t(x) VALUES (20)", []).unwrap();
        let count: i64 = writer.query_row("SELECT count(*) FROM t", [], |r| r.get(0)).unwrap();
        assert_eq!(count, 21);
    }

    #[test]
    fn nothing_is_moved_without_a_commit_said() {
        let dir = tempfile::tempdir().unwrap();
        let _writer = writer_with_rows(dir.path(), 5);
        drop(Backfill::start(dir.path()).unwrap());
        assert_eq!(rows_in_file(dir.path()), 0);
    }
}

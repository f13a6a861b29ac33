//! The zips of submissions an extractor is reading, each opened once: a zip's central
//! directory is parsed when its first entry is read and kept, so reading its n entries
//! costs n inflations, not n parses of a directory of n entries. Each reader of an entry
//! gets its own cursor over the one open file (positioned reads), so entries of one zip
//! are read in parallel.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use zip::ZipArchive;

/// How many zips stay open at once (a check reads a zip's entries one after another,
/// a few zips at most at the same time).
const KEPT: usize = 4;

/// A zip whose directory has been read: cloning it shares the directory and the file.
pub(super) type OpenZip = ZipArchive<SharedFile>;

/// The zips opened so far, the most recently used last.
#[derive(Default)]
pub(super) struct OpenZips {
    open: Mutex<Vec<(PathBuf, OpenZip)>>,
}

impl OpenZips {
    /// A reader of the zip at `path`: a clone of the one kept, or the zip opened by
    /// `open` and kept. An error of `open` is returned and nothing kept, so a damaged zip
    /// is tried again (and reported) for each of its entries.
    pub(super) fn get<E>(&self, path: &Path, open: impl FnOnce() -> Result<OpenZip, E>) -> Result<OpenZip, E> {
        // A reader that panicked never held the lock while reading: the list is whole.
        let mut kept = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(at) = kept.iter().position(|(p, _)| p == path) {
            let entry = kept.remove(at);
            let zip = entry.1.clone();
            kept.push(entry);
            return Ok(zip);
        }
        let zip = open()?;
        if kept.len() == KEPT {
            kept.remove(0);
        }
        kept.push((path.to_path_buf(), zip.clone()));
        Ok(zip)
    }
}

/// How much a reader reads ahead: a zip's directory is read field by field.
const BUFFER: usize = 16 * 1024;

/// One open file read through positioned reads, buffered: each clone has its own
/// position and buffer.
#[derive(Clone)]
pub(super) struct SharedFile {
    file: Arc<File>,
    /// Where the next read starts.
    position: u64,
    /// The bytes read ahead, from `buffered_at`.
    buffer: Vec<u8>,
    buffered_at: u64,
}

impl SharedFile {
    /// A reader of `file` from its start.
    pub(super) fn new(file: File) -> Self {
        Self { file: Arc::new(file), position: 0, buffer: Vec::new(), buffered_at: 0 }
    }

    /// The buffered bytes from `position` on, read ahead when there are none.
    fn fill(&mut self) -> io::Result<&[u8]> {
        let end = self.buffered_at + self.buffer.len() as u64;
        if self.position < self.buffered_at || self.position >= end {
            self.buffer.resize(BUFFER, 0);
            let read = read_at(&self.file, &mut self.buffer, self.position)?;
            self.buffer.truncate(read);
            self.buffered_at = self.position;
        }
        let from = usize::try_from(self.position - self.buffered_at).unwrap_or(usize::MAX);
        Ok(self.buffer.get(from..).unwrap_or_default())
    }
}

impl Read for SharedFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.len() >= BUFFER {
            let read = read_at(&self.file, buf, self.position)?;
            self.position += read as u64;
            return Ok(read);
        }
        let ahead = self.fill()?;
        let n = ahead.len().min(buf.len());
        buf[..n].copy_from_slice(&ahead[..n]);
        self.position += n as u64;
        Ok(n)
    }
}

impl Seek for SharedFile {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(at) => Some(at),
            SeekFrom::Current(by) => self.position.checked_add_signed(by),
            SeekFrom::End(by) => self.file.metadata()?.len().checked_add_signed(by),
        };
        let at = target.ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start"))?;
        self.position = at;
        Ok(at)
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, at)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, at)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    #[test]
    fn clones_read_from_their_own_positions() {
        let mut tmp = tempfile::NamedTempFile::new().unwrap();
        tmp.write_all(b"0123456789").unwrap();
        let mut a = SharedFile::new(File::open(tmp.path()).unwrap());
        let mut b = a.clone();
        let mut two = [0u8; 2];
        a.seek(SeekFrom::Start(4)).unwrap();
        a.read_exact(&mut two).unwrap();
        assert_eq!(&two, b"45");
        b.read_exact(&mut two).unwrap();
        assert_eq!(&two, b"01");
        assert_eq!(a.seek(SeekFrom::End(-1)).unwrap(), 9);
        assert!(a.seek(SeekFrom::Current(-20)).is_err());
        let mut big = vec![0u8; BUFFER];
        a.seek(SeekFrom::Start(0)).unwrap();
        assert_eq!(a.read(&mut big).unwrap(), 10);
        assert_eq!(&big[..10], b"0123456789");
    }
}

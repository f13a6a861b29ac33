//! How a segment file is read without mapping it: a read at an offset (`pread`), and
//! hints to the system's page cache (read these bytes ahead; read this file at scattered
//! places).

use std::fs::File;
use std::io;

/// Fills `buf` from `offset` of `file`.
#[cfg(unix)]
pub(super) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Fills `buf` from `offset` of `file`.
#[cfg(windows)]
pub(super) fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, buf, offset)? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// A page of the page cache, as the read-ahead counts them.
pub(super) const PAGE: u64 = 4096;

/// Bytes one hint asks for: the system reads at most its read-ahead window for one
/// (`read_ahead_kb`, 128 KiB unless raised), so a span is asked for a window at a time.
const HINT: u64 = 128 * 1024;

/// Asks the system to read the bytes `from..to` of `file` into its page cache now,
/// without waiting for them. A refusal (or another system) leaves them to be read when
/// needed.
pub(super) fn will_need(file: &File, (from, to): (u64, u64)) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let mut at = from;
        while at < to {
            let len = HINT.min(to - at);
            let (Ok(offset), Ok(len)) = (libc::off_t::try_from(at), libc::off_t::try_from(len)) else { return };
            // SAFETY: posix_fadvise only takes a hint about the open descriptor; it reads
            // and writes no memory of ours.
            let refused = unsafe { libc::posix_fadvise(file.as_raw_fd(), offset, len, libc::POSIX_FADV_WILLNEED) };
            if refused != 0 {
                return;
            }
            at += HINT;
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, from, to);
}

/// Tells the system the file is read at scattered places: no read-ahead around each read
/// (on a cold page cache a check read ahead of every lookup).
pub(super) fn advise_random(file: &File) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: posix_fadvise only takes a hint about the open descriptor; it reads and
        // writes no memory of ours. A failure leaves read-ahead as it was.
        unsafe {
            libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_RANDOM);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = file;
}

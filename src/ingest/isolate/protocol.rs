//! The framed protocol between the engine and an extraction helper: every message is a
//! little-endian `u64` length and that many bytes. A request is a JSON header and the
//! file's bytes; a reply is a JSON header and, when the extraction succeeded, the text.

use std::io::{self, Read, Write};

use serde::{Deserialize, Serialize};

use super::super::error::Failure;
use super::super::{Format, IngestLimits};

/// The largest JSON header either side accepts.
pub(super) const MAX_HEADER_BYTES: u64 = 1024 * 1024;

/// What the engine asks a helper to do: extract the bytes that follow.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Request {
    /// The file's lower-case extension.
    pub ext: String,
    pub limits: IngestLimits,
    /// Address space the helper may use (applied before the extraction).
    pub max_memory_bytes: u64,
}

/// How an extraction in a helper ended. `Done` is followed by a frame with the text.
#[derive(Debug, Serialize, Deserialize)]
pub(super) enum Reply {
    Done { format: Format, warnings: Vec<crate::model::Notice> },
    Failed(Failure),
    Panicked(String),
}

/// Writes one frame.
pub(super) fn write_frame(out: &mut impl Write, payload: &[u8]) -> io::Result<()> {
    out.write_all(&(payload.len() as u64).to_le_bytes())?;
    out.write_all(payload)
}

/// Reads one frame of at most `max` bytes; `None` at a clean end of the stream.
pub(super) fn read_frame(input: &mut impl Read, max: u64) -> io::Result<Option<Vec<u8>>> {
    let mut length = [0u8; 8];
    let mut got = 0;
    while got < length.len() {
        match input.read(&mut length[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let length = u64::from_le_bytes(length);
    if length > max {
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("a message of {length} bytes (limit {max})")));
    }
    let mut payload = Vec::new();
    input.take(length).read_to_end(&mut payload)?;
    if payload.len() as u64 != length {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(Some(payload))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_oversized_ones_are_refused() {
        let mut buffer = Vec::new();
        write_frame(&mut buffer, b"hello").unwrap();
        write_frame(&mut buffer, b"").unwrap();
        let mut input = buffer.as_slice();
        assert_eq!(read_frame(&mut input, 10).unwrap(), Some(b"hello".to_vec()));
        assert_eq!(read_frame(&mut input, 10).unwrap(), Some(Vec::new()));
        assert_eq!(read_frame(&mut input, 10).unwrap(), None);
        let mut big = Vec::new();
        write_frame(&mut big, &[0; 11]).unwrap();
        assert!(read_frame(&mut big.as_slice(), 10).is_err());
        assert!(read_frame(&mut &big[..12], 100).is_err(), "a cut frame is an error");
    }
}

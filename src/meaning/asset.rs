//! The model file (`usem3.twm`, written by `tools/meaning-model.py`): where it is found and
//! how it is read — a checked header, then one zstd frame streamed into place, so the
//! quantized table is never held twice.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::MeaningError;

/// The file name of the model asset.
pub const FILE_NAME: &str = "usem3.twm";
/// The environment variable that names the model file (or the folder holding it).
pub const ENV_VAR: &str = "TWINSPOT_MEANING_MODEL";
/// The format version this build reads.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"TWSMEAN\0";
const HEADER_LEN: usize = 8 + 4 + 8 + 32;
/// Payloads larger than this are refused before anything is allocated.
const MAX_PAYLOAD: u64 = 1 << 30;

/// One sentencepiece piece: its text and its unigram score (the file also keeps its type,
/// which the wheel's tokenizer, and so this one, does not use).
#[derive(Clone, Debug)]
pub(crate) struct Piece {
    pub text: Box<str>,
    pub score: f32,
}

/// A float tensor of the file.
#[derive(Clone, Debug)]
pub(crate) struct Tensor {
    pub dims: Vec<usize>,
    pub values: Vec<f32>,
}

/// What the file holds, parsed.
pub(crate) struct Asset {
    /// Quantized embedding rows, `rows × dim` values of 6 bits, row = piece id, packed
    /// four values in three bytes ([`unpack_row`]).
    pub table: Vec<u8>,
    pub rows: usize,
    pub dim: usize,
    pub tensors: HashMap<String, Tensor>,
    pub pieces: Vec<Piece>,
    pub charsmap: Vec<u8>,
    /// The payload's SHA-256, as the header gives it (checked on reading).
    pub digest: [u8; 32],
}

/// Where the model is looked for, in order: beside the installed program
/// (`../share/twinspot/meaning/` from the binary's folder, then
/// `/usr/share/twinspot/meaning/`), then the source tree's `assets/meaning/`. When
/// [`ENV_VAR`] is set, the file (or folder) it names is the only place: a model asked for
/// by name is never silently replaced by another.
pub fn candidates() -> Vec<PathBuf> {
    if let Some(value) = std::env::var_os(ENV_VAR).filter(|v| !v.is_empty()) {
        let path = PathBuf::from(value);
        return vec![if path.is_dir() { path.join(FILE_NAME) } else { path }];
    }
    let mut out = Vec::new();
    if let Ok(exe) = std::env::current_exe()
        && let Some(bin) = exe.parent()
    {
        out.push(bin.join("../share/twinspot/meaning").join(FILE_NAME));
    }
    out.push(Path::new("/usr/share/twinspot/meaning").join(FILE_NAME));
    out.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/meaning").join(FILE_NAME));
    out
}

/// The first candidate that exists.
pub fn locate() -> Result<PathBuf, MeaningError> {
    let looked = candidates();
    if let Some(found) = looked.iter().find(|p| p.is_file()) {
        return Ok(found.clone());
    }
    let looked = looked.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
    Err(MeaningError::Missing { looked })
}

/// Reads and checks the file at `path`.
pub(crate) fn read(path: &Path) -> Result<Asset, MeaningError> {
    let read_err = |source| MeaningError::Read { path: path.to_path_buf(), source };
    let damaged = |what: String| MeaningError::Damaged { path: path.to_path_buf(), what };
    let mut file = BufReader::new(File::open(path).map_err(read_err)?);
    let mut header = [0u8; HEADER_LEN];
    file.read_exact(&mut header).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => MeaningError::NotAModel { path: path.to_path_buf() },
        _ => read_err(e),
    })?;
    if &header[..8] != MAGIC {
        return Err(MeaningError::NotAModel { path: path.to_path_buf() });
    }
    let version = u32::from_le_bytes([header[8], header[9], header[10], header[11]]);
    if version != FORMAT_VERSION {
        return Err(MeaningError::WrongVersion { path: path.to_path_buf(), found: version, expected: FORMAT_VERSION });
    }
    let mut len = [0u8; 8];
    len.copy_from_slice(&header[12..20]);
    let payload_len = u64::from_le_bytes(len);
    if payload_len > MAX_PAYLOAD {
        return Err(damaged(format!("a payload of {payload_len} bytes")));
    }
    let digest = &header[20..];
    let decoder = zstd::stream::read::Decoder::with_buffer(file).map_err(read_err)?;
    let mut stream = Hashing { inner: decoder, hasher: Sha256::new(), count: 0 };
    let mut asset = parse(&mut stream).map_err(|e| damaged(format!("{e}")))?;
    let mut rest = Vec::new();
    stream.read_to_end(&mut rest).map_err(|e| damaged(format!("{e}")))?;
    if !rest.is_empty() || stream.count != payload_len {
        return Err(damaged(format!("{} bytes of payload, the header says {payload_len}", stream.count)));
    }
    if stream.hasher.finalize().as_slice() != digest {
        return Err(damaged("its SHA-256 does not match its header".into()));
    }
    asset.digest.copy_from_slice(digest);
    Ok(asset)
}

/// A reader that hashes and counts what passes through it.
struct Hashing<R> {
    inner: R,
    hasher: Sha256,
    count: u64,
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        self.count += n as u64;
        Ok(n)
    }
}

fn bad(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

fn u8_of(r: &mut impl Read) -> io::Result<u8> {
    let mut b = [0u8; 1];
    r.read_exact(&mut b)?;
    Ok(b[0])
}

fn u16_of(r: &mut impl Read) -> io::Result<u16> {
    let mut b = [0u8; 2];
    r.read_exact(&mut b)?;
    Ok(u16::from_le_bytes(b))
}

fn u32_of(r: &mut impl Read) -> io::Result<u32> {
    let mut b = [0u8; 4];
    r.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
}

/// A length read from the file, bounded so a damaged one cannot ask for the moon.
fn size_of(r: &mut impl Read, limit: usize) -> io::Result<usize> {
    let n = usize::try_from(u32_of(r)?).map_err(|_| bad("a length beyond this machine"))?;
    if n > limit { Err(bad(format!("a length of {n}, more than {limit}"))) } else { Ok(n) }
}

fn bytes_of(r: &mut impl Read, n: usize) -> io::Result<Vec<u8>> {
    let mut out = vec![0u8; n];
    r.read_exact(&mut out)?;
    Ok(out)
}

/// Bytes of one packed table row of `dim` values.
pub(crate) fn packed_row_len(dim: usize) -> usize {
    dim / 4 * 3
}

/// Reads the table (one value a byte in the file) and packs it as it comes, 64 rows at a
/// time, so the unpacked table is never held.
fn packed_table(r: &mut impl Read, rows: usize, dim: usize) -> io::Result<Vec<u8>> {
    if !dim.is_multiple_of(4) {
        return Err(bad(format!("table rows of {dim} values, not a multiple of 4")));
    }
    let mut table = Vec::with_capacity(rows * packed_row_len(dim));
    let mut chunk = vec![0u8; 64 * dim];
    let mut left = rows * dim;
    while left > 0 {
        let part = &mut chunk[..left.min(64 * dim)];
        r.read_exact(part)?;
        left -= part.len();
        for q in part.chunks_exact(4) {
            if q.iter().any(|&v| v >= 64) {
                return Err(bad("a table value above 6 bits"));
            }
            let bits = u32::from(q[0]) | u32::from(q[1]) << 6 | u32::from(q[2]) << 12 | u32::from(q[3]) << 18;
            table.extend_from_slice(&bits.to_le_bytes()[..3]);
        }
    }
    Ok(table)
}

/// Unpacks one row of the packed table into `out` (its `dim` values).
pub(crate) fn unpack_row(packed: &[u8], out: &mut [u8]) {
    for (q, v) in packed.chunks_exact(3).zip(out.chunks_exact_mut(4)) {
        let bits = u32::from_le_bytes([q[0], q[1], q[2], 0]);
        for (i, o) in v.iter_mut().enumerate() {
            *o = ((bits >> (6 * i)) & 63) as u8;
        }
    }
}

fn parse(r: &mut impl Read) -> io::Result<Asset> {
    let rows = size_of(r, 1 << 20)?;
    let dim = size_of(r, 4096)?;
    let table = packed_table(r, rows, dim)?;
    let n_tensors = size_of(r, 256)?;
    let mut tensors = HashMap::with_capacity(n_tensors);
    for _ in 0..n_tensors {
        let name_len = usize::from(u8_of(r)?);
        let name = String::from_utf8(bytes_of(r, name_len)?).map_err(|_| bad("a tensor name is not UTF-8"))?;
        let ndim = usize::from(u8_of(r)?);
        let mut dims = Vec::with_capacity(ndim);
        for _ in 0..ndim {
            dims.push(size_of(r, 1 << 16)?);
        }
        let count: usize = dims.iter().product();
        if count > 1 << 24 {
            return Err(bad(format!("tensor {name} of {count} values")));
        }
        let raw = bytes_of(r, count * 4)?;
        let values = raw.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        tensors.insert(name, Tensor { dims, values });
    }
    let n_pieces = size_of(r, rows)?;
    let mut pieces = Vec::with_capacity(n_pieces);
    for _ in 0..n_pieces {
        let score = f32::from_bits(u32_of(r)?);
        let _kind = u8_of(r)?;
        let len = usize::from(u16_of(r)?);
        let text = String::from_utf8(bytes_of(r, len)?).map_err(|_| bad("a piece is not UTF-8"))?;
        pieces.push(Piece { text: text.into_boxed_str(), score });
    }
    let charsmap_len = size_of(r, 1 << 26)?;
    let charsmap = bytes_of(r, charsmap_len)?;
    Ok(Asset { table, rows, dim, tensors, pieces, charsmap, digest: [0; 32] })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_packs_and_unpacks_every_6_bit_value() {
        let values: Vec<u8> = (0..128u32).map(|i| ((i * 37 + 5) % 64) as u8).collect();
        let table = packed_table(&mut values.as_slice(), 2, 64).expect("packs");
        assert_eq!(table.len(), 2 * packed_row_len(64));
        for (row, want) in table.chunks_exact(packed_row_len(64)).zip(values.chunks_exact(64)) {
            let mut got = [0u8; 64];
            unpack_row(row, &mut got);
            assert_eq!(got.as_slice(), want);
        }
        let mut wide = values.clone();
        wide[70] = 64;
        assert!(packed_table(&mut wide.as_slice(), 2, 64).is_err(), "a 7-bit value is refused");
        assert!(packed_table(&mut values.as_slice(), 1, 62).is_err(), "a row that packs unevenly");
    }
}

//! The engine's defaults as the command line shows them in its help, man pages and
//! completions. build.rs cannot see the engine, so they are restated here; a test of the
//! binary checks that each equals `Settings::default()`.

/// Tokens per k-gram.
pub const K: usize = 5;
/// Winnowing window, in k-grams.
pub const W: usize = 4;
/// Shortest passage kept, in characters (suspect side).
pub const MIN_CHARS: usize = 40;
/// Near duplicates: most SimHash bits apart.
pub const SIMHASH_THRESHOLD: u32 = 3;
/// Near duplicates: least share of both documents in shared passages.
pub const NEAR_DUPLICATE_COVERAGE: f64 = 0.5;
/// Largest file read, in megabytes.
pub const MAX_FILE_MB: u64 = 200;
/// `align`: characters of the documents read at once (one group of suspects).
#[cfg(feature = "distributed")]
pub const GROUP_CHARS: usize = 20_000_000;
/// Longest extraction of one file, in seconds.
pub const TIMEOUT_SECS: f64 = 30.0;

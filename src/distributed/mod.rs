//! Beyond one machine: fingerprints written as Parquet for an external SQL engine
//! (DataFusion, Spark, Ballista) to join, and the alignment of just the pairs it returns.
//!
//! The flow: [`fingerprint::fingerprint_shard`] writes one shard of `documents`,
//! `postings` (partitioned by the low bits of the hash) and `sentences`; the SQL files under `sql/`
//! find candidate pairs; [`align::align_pairs`] aligns them into the usual
//! [`Report`](crate::report::Report); [`merge::merge_reports`] joins partial reports.

pub mod align;
pub mod fingerprint;
pub mod layout;
pub mod merge;
pub mod read;
pub mod rule;
mod table;

use std::path::PathBuf;

pub use layout::{FingerprintSettings, document_id};

/// What can go wrong reading or writing fingerprint folders, pair files and partial reports.
#[derive(Debug, thiserror::Error)]
pub enum DistributedError {
    #[error("cannot read or write {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("bad Parquet file {path}: {source}")]
    Parquet { path: PathBuf, source: parquet::errors::ParquetError },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
    #[error(
        "mixed settings: {first} was written with {first_settings}, but {other} with {other_settings}; fingerprint every shard with the same k, w and normalization"
    )]
    MixedSettings { first: PathBuf, first_settings: String, other: PathBuf, other_settings: String },
    #[error("shard {shard} is incomplete: {missing} is missing (fingerprint that shard again)")]
    MissingFile { shard: u32, missing: PathBuf },
    #[error("{path} names document {id} ({shard_and_index}), which no documents file holds")]
    UnknownDocument { path: PathBuf, id: i64, shard_and_index: String },
    #[error("cannot read the partial report {path}: {message}")]
    BadReport { path: PathBuf, message: String },
    #[error("the partial reports do not belong together: {0}")]
    Mismatch(String),
    /// The documents of the candidate pairs could not be looked up.
    #[error(transparent)]
    Store(#[from] crate::index::StoreError),
}

impl DistributedError {
    fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io { path: path.into(), source }
    }
    fn parquet(path: impl Into<PathBuf>, source: parquet::errors::ParquetError) -> Self {
        Self::Parquet { path: path.into(), source }
    }
    fn invalid(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self::Invalid { path: path.into(), message: message.into() }
    }
}

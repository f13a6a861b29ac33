//! Why a check ended without a report: it was cancelled, or the references could not be
//! read (a store on disk or across a network failed). Per-file problems never end a
//! check: they are the report's.

use super::progress::Cancelled;
use crate::index::StoreError;

/// A check that ended without a report.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// Cancelled before it finished.
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
    /// The references could not be read: no sound report can be given.
    #[error(transparent)]
    Store(#[from] StoreError),
}

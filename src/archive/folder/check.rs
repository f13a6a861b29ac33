//! Checking suspects against an archive: one way, new against archived, never the
//! archive against itself. The report has the same schema as a check's: the suspects
//! first, then every archived document that shares something with one of them.

use super::Archive;
use crate::archive::error::ArchiveError;
use crate::archive::verbs;
use crate::engine::{CancelFlag, CheckRequest, ProgressSink, Report};

/// Checks the documents of `request` — all suspects, whatever their role — against
/// `archive`, with the archive's fingerprint settings and the request's others (minimum
/// passage, thresholds, stop passages). The report has the schema of a check's: the
/// suspects first, then every archived document that shares something with one of them.
/// Per-file errors do not stop it: such a suspect gets an `error` in the report; the
/// first failure to read the archive does.
pub fn check_against(
    archive: &Archive,
    request: &CheckRequest,
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<Report, ArchiveError> {
    verbs::check::check(archive, request, sink, cancel)
}

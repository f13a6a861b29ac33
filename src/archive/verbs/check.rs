//! Checking suspects against an archive: one way, new against archived, never the
//! archive against itself. The report has the same schema as a check's: the suspects
//! first, then every archived document that shares something with one of them.

use super::super::store::ArchiveStore;
use crate::archive::error::ArchiveError;
use crate::engine::{CancelFlag, CheckRequest, Mode, ProgressSink, Report, run_against};

/// Checks the documents of `request` — all suspects, whatever their role — against
/// `store`, with the archive's fingerprint settings and the request's others (minimum
/// passage, thresholds, stop passages). Per-file errors do not stop it: such a suspect
/// gets an `error` in the report; the first failure to read the archive does.
pub(in crate::archive) fn check<S: ArchiveStore>(
    store: &S,
    request: &CheckRequest,
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<Report, ArchiveError> {
    let mut request = request.clone();
    request.mode = Mode::SuspectsVsReferences;
    request.settings = request.settings.with_shape(store.settings().shape());
    let snapshot = store.snapshot()?;
    run_against(&request, &snapshot, sink, cancel).map_err(|error| store.told(ArchiveError::from_check(error)))
}

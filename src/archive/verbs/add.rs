//! Adding, written once above the stores ([`add`]): the store reads, fingerprints and
//! commits the files its own way ([`ArchiveStore::store_files`]), then the groups' rule
//! and the sync run the same for both. What an add is asked and answers is in
//! [`super::super::outcomes`].

use super::super::date::parse_date;
use super::super::error::ArchiveError;
use super::super::outcomes::{AddOptions, AddSummary, Stored};
use super::super::store::ArchiveStore;
use super::regroup::regroup;
use super::sync::drop_gone;
use crate::engine::{CancelFlag, DocumentInput, Progress, ProgressSink, Stage};
use crate::fingerprint::simhash::Dictionary;
use crate::ingest;

/// Adds `inputs` to `store`: a file whose bytes are archived is not stored again, a file
/// whose path is archived with other content replaces it; batches commit one by one, and a
/// cancel keeps the committed ones. Once every document is in, the new ones are grouped by
/// the check's rule (a check that fails there leaves groups by SimHash alone, and says
/// so), and with `options.sync` the documents whose file is gone are removed.
pub(in crate::archive) fn add<S: ArchiveStore>(
    store: &S,
    inputs: &[DocumentInput],
    options: &AddOptions,
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<AddSummary, ArchiveError> {
    store.require_write("add to")?;
    if let Some(date) = &options.published {
        parse_date(date)?;
    }
    // Its helper processes (if any) read every file of this add and end with it.
    let extractor = ingest::Extractor::new(store.settings().ingest.isolation.as_ref());
    // Built on the first Chinese document, let go with the add.
    let dictionary = Dictionary::new();
    let stored = store.store_files(inputs, options, (&extractor, &dictionary), (sink, cancel))?;
    let Stored { mut summary, fresh, sharing, running } = stored;
    match sharing.and_then(|known| regroup(store, (&fresh, known), (options.cluster, &dictionary), cancel)) {
        Ok(checked) => summary.checked_for_groups = checked,
        Err(e) => summary.warnings.push((store.shown(), format!("groups by SimHash alone ({e})"))),
    }
    let dropped =
        if options.sync.is_empty() || cancel.is_cancelled() { Ok(0) } else { drop_gone(store, &options.sync) };
    // What the store left running ends with the add, whether the sync failed or not.
    store.finish_add(running);
    summary.dropped = dropped?;
    sink.progress(Progress { stage: Stage::Done, done: 1, total: 1 });
    Ok(summary)
}

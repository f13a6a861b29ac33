//! The archive's verbs, written once above [`super::store::ArchiveStore`]: whichever store
//! keeps an archive, a check, a remove, an expire and the sync of an add run these same
//! functions, so the two cannot drift apart.

pub(super) mod check;
pub(super) mod expire;
pub(super) mod remove;
pub(super) mod sync;

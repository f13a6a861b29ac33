//! The archive's verbs, written once above [`super::store::ArchiveStore`]: whichever store
//! keeps an archive, a check, a remove, an expire, a verify and the sync of an add run these same
//! functions, so the two cannot drift apart.

pub(super) mod add;
pub(super) mod check;
pub(super) mod expire;
pub(super) mod regroup;
pub(super) mod remove;
pub(super) mod sync;
pub(super) mod verify;

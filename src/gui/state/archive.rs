//! The window's archive source as plain data: the open archive's sizes, the job running on
//! it, and the last error or add to show. Which archive is chosen is persisted
//! ([`super::Persisted::archive`]); the app changes this on worker events.

use std::time::Instant;

use crate::Progress;
use crate::gui::archive_jobs::{AddOutcome, ArchiveInfo};
use crate::gui::worker::JobId;

/// The job running on the archive, if any.
#[derive(Clone, Debug, Default)]
pub enum ArchiveTask {
    #[default]
    Idle,
    Opening {
        job: JobId,
    },
    Adding {
        job: JobId,
        started: Instant,
        progress: Option<Progress>,
        /// Cancel was pressed: the add stops after the batch being read.
        cancelling: bool,
    },
}

/// What the sidebar's Archive group shows.
#[derive(Clone, Debug, Default)]
pub struct ArchiveState {
    /// The chosen archive's sizes: `None` until it is open, or when opening failed.
    pub info: Option<ArchiveInfo>,
    pub task: ArchiveTask,
    /// Why the last open or add failed, shown until the next success.
    pub error: Option<String>,
    /// What the last add did.
    pub last_add: Option<AddOutcome>,
}

impl ArchiveState {
    /// The id of the job running on the archive.
    pub fn job(&self) -> Option<JobId> {
        match self.task {
            ArchiveTask::Idle => None,
            ArchiveTask::Opening { job } | ArchiveTask::Adding { job, .. } => Some(job),
        }
    }

    pub fn is_busy(&self) -> bool {
        !matches!(self.task, ArchiveTask::Idle)
    }

    pub fn is_adding(&self) -> bool {
        matches!(self.task, ArchiveTask::Adding { .. })
    }

    /// Forgets everything about the archive (it was closed or another one is opened).
    pub fn reset(&mut self) {
        *self = Self::default();
    }
}

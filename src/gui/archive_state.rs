//! The window's archive source as plain data: the open archive's sizes, the job running on
//! it, and the last error or add to show. Which archive is chosen is persisted
//! ([`super::state::Persisted::archive`]); the app changes this on worker events.

use std::time::Instant;

use super::archive_jobs::{AddOutcome, ArchiveInfo};
use super::worker::JobId;
use crate::Progress;

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

/// A byte count for people: "512 B", "3.4 KB", "12.0 MB", "1.5 GB".
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// A count with thousands separated by thin commas: 1234567 → "1,234,567".
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_counts_read_well() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(3 * 1024 + 400), "3.4 KB");
        assert_eq!(human_bytes(12 * 1024 * 1024), "12.0 MB");
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(1234), "1,234");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }
}

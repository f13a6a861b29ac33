//! A progress bar on standard error, shown only when it is a terminal.

use std::io::IsTerminal;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use twinspot::{Progress, ProgressSink, Stage};

/// Draws engine progress as an indicatif bar, one stage at a time.
pub struct TerminalProgress {
    bar: Option<ProgressBar>,
    stage: Mutex<Option<Stage>>,
}

impl TerminalProgress {
    /// A bar when standard error is a terminal and `quiet` is off; otherwise silent.
    pub fn new(quiet: bool) -> Self {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(0);
            if let Ok(style) = ProgressStyle::with_template("{msg:>9} [{bar:40}] {pos}/{len} {elapsed}") {
                bar.set_style(style.progress_chars("=> "));
            }
            bar
        });
        Self { bar, stage: Mutex::new(None) }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl ProgressSink for TerminalProgress {
    fn progress(&self, progress: Progress) {
        let Some(bar) = &self.bar else { return };
        if let Ok(mut stage) = self.stage.lock()
            && *stage != Some(progress.stage)
        {
            *stage = Some(progress.stage);
            bar.set_message(match progress.stage {
                Stage::Reading => "reading",
                Stage::Indexing => "indexing",
                Stage::Matching => "matching",
                Stage::Done => "done",
            });
            bar.set_length(progress.total as u64);
        }
        bar.set_position(progress.done as u64);
    }
}

//! A progress bar on standard error, shown only when it is a terminal, and the
//! matching's timings when asked for (`--timings`).

use std::io::IsTerminal;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use twinspot::{MatchTimings, Progress, ProgressSink, Stage};

use super::output::count;

/// Draws engine progress as an indicatif bar, one stage at a time.
pub struct TerminalProgress {
    bar: Option<ProgressBar>,
    stage: Mutex<Option<Stage>>,
    /// Print where the matching spent its time.
    timings: bool,
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
        Self { bar, stage: Mutex::new(None), timings: false }
    }

    /// The same, printing the matching's timings at its end when `timings` is set.
    pub fn with_timings(self, timings: bool) -> Self {
        Self { timings, ..self }
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

    fn matched(&self, timings: &MatchTimings) {
        if !self.timings {
            return;
        }
        let line = timings_line(timings);
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }
}

/// "finding candidates 12.3 ms for 1 suspect (12.3 ms each); aligning 45.6 ms for 17
/// references read (2.7 ms each), 16 pairs kept".
fn timings_line(t: &MatchTimings) -> String {
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    let each = |d: std::time::Duration, n: usize| if n == 0 { 0.0 } else { ms(d) / n as f64 };
    format!(
        "twinspot: timings (summed over suspects): finding candidates {:.1} ms for {} ({:.2} ms each); aligning {:.1} ms for {} read ({:.2} ms each), {} kept",
        ms(t.finding),
        count(t.suspects, "suspect", "suspects"),
        each(t.finding, t.suspects),
        ms(t.aligning),
        count(t.candidates, "reference", "references"),
        each(t.aligning, t.candidates),
        count(t.kept, "pair", "pairs"),
    )
}

//! The command line: argument parsing and dispatch to the subcommands; with no subcommand
//! the window opens (when built with the `gui` feature).

#[cfg(feature = "distributed")]
mod align;
mod archive;
mod compare;
mod extract;
mod flags;
#[cfg(feature = "distributed")]
mod fingerprint;
mod grammar;
mod keywords;
#[cfg(feature = "distributed")]
mod merge;
mod output;
mod progress_bar;
mod simhash;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use grammar::{Cli, Command, HELPER_SUBCOMMAND};
use twinspot::ingest::Isolation;

/// Extraction in helper processes: this executable, started with [`HELPER_SUBCOMMAND`].
/// `None` when the path of this executable cannot be found (extraction then runs on
/// contained threads of this process).
pub fn isolation() -> Option<Isolation> {
    match std::env::current_exe() {
        Ok(program) => Some(Isolation::helper(program, &[HELPER_SUBCOMMAND])),
        Err(e) => {
            eprintln!("twinspot: warning: documents are read in this process, not in helpers ({e})");
            None
        }
    }
}

/// Parses the arguments and runs. Exit status 0 when the run finished, even with
/// per-file errors; 2 on bad arguments; 1 when the run itself failed.
pub fn main() -> ExitCode {
    if std::env::args_os().nth(1).is_some_and(|a| a == HELPER_SUBCOMMAND) {
        return finish(serve_helper());
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Compare(args)) => compare::run(*args),
        Some(Command::Archive(command)) => archive::run(command),
        Some(Command::Extract { file }) => extract::run(&file),
        Some(Command::Simhash { files }) => simhash::run(&files),
        #[cfg(feature = "distributed")]
        Some(Command::Fingerprint(args)) => fingerprint::run(*args),
        #[cfg(feature = "distributed")]
        Some(Command::Align(args)) => align::run(*args),
        #[cfg(feature = "distributed")]
        Some(Command::Merge(args)) => merge::run(args),
        Some(Command::Keywords { files }) => keywords::run(&files),
        None => match cli.files.iter().find(|f| !f.exists()) {
            // `twinspot archive add …` on a build without that command, or a typo: say so
            // rather than open a window on files that are not there.
            Some(missing) => {
                let name = twinspot::engine::display_path(missing);
                eprintln!("twinspot: '{name}' is neither a command nor an existing file (see twinspot --help)");
                Ok(ExitCode::from(2))
            }
            None => open_window(cli.files),
        },
    };
    finish(result)
}

/// The exit status of a run; a failed run is said on standard error.
fn finish(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("twinspot: {error:#}");
            ExitCode::from(1)
        }
    }
}

fn serve_helper() -> anyhow::Result<ExitCode> {
    twinspot::ingest::serve_helper().context("extraction helper")?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(feature = "gui")]
fn open_window(files: Vec<PathBuf>) -> anyhow::Result<ExitCode> {
    twinspot::gui::run(files, isolation()).map_err(|e| anyhow::anyhow!("the window could not be opened: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "gui"))]
fn open_window(_files: Vec<PathBuf>) -> anyhow::Result<ExitCode> {
    use clap::CommandFactory;
    eprintln!("twinspot was built without the window (feature `gui`); use a command:\n");
    let _ = Cli::command().print_help();
    Ok(ExitCode::from(2))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;
    use twinspot::Settings;

    use super::grammar::{Cli, defaults};

    #[test]
    fn the_defaults_the_help_shows_are_the_engines() {
        let engine = Settings::default();
        assert_eq!(defaults::K, engine.k);
        assert_eq!(defaults::W, engine.w);
        assert_eq!(defaults::MIN_CHARS, engine.min_chars);
        #[cfg(feature = "distributed")]
        assert_eq!(defaults::GROUP_CHARS, twinspot::engine::DEFAULT_GROUP_CHARS);
        assert_eq!(defaults::SIMHASH_THRESHOLD, engine.simhash_threshold);
        assert_eq!(defaults::NEAR_DUPLICATE_COVERAGE, engine.near_duplicate_coverage);
        assert_eq!(defaults::MAX_FILE_MB * 1024 * 1024, engine.ingest.max_file_bytes);
        assert_eq!(defaults::TIMEOUT_SECS, engine.ingest.timeout_secs);
    }

    #[test]
    fn the_grammar_is_consistent() {
        Cli::command().debug_assert();
    }
}

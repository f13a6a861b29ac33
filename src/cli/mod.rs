//! The command line: argument parsing and dispatch to the subcommands; with no subcommand
//! the window opens (when built with the `gui` feature).

#[cfg(feature = "distributed")]
mod align;
mod archive;
mod args;
mod compare;
mod extract;
#[cfg(feature = "distributed")]
mod fingerprint;
mod keywords;
#[cfg(feature = "distributed")]
mod merge;
mod output;
mod progress_bar;
mod simhash;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use twinspot::ingest::Isolation;

/// Twinspot finds the passages two documents share — also after light edits, new
/// punctuation, reordered sentences or a simplified/traditional Chinese conversion — and
/// scores how close whole documents are. Offline: no document leaves this machine.
///
/// Run without a command to open the window; `twinspot FILE...` opens it with those
/// files as suspects (exactly two files: the first is checked against the second at once).
#[derive(Debug, Parser)]
#[command(name = "twinspot", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Files to open in the window as suspects (when no command is given); exactly two
    /// files are compared at once, the first as suspect, the second as reference.
    files: Vec<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Compare suspects with references (or every document with every other, --all) and
    /// report shared passages, scores and near duplicates.
    Compare(Box<compare::CompareArgs>),
    /// A persistent archive of references: add documents once, check new ones against
    /// all of them in well under a second.
    #[command(subcommand)]
    Archive(archive::ArchiveCommand),
    /// Print the text of a file exactly as the engine reads it: every offset in a report
    /// counts characters (Unicode code points) of this text.
    Extract {
        /// The file to read (.txt, .md, .docx, .pdf, .html, .odt, …).
        file: PathBuf,
    },
    /// Print the 64-bit SimHash of each file, in hex, followed by its path.
    Simhash {
        /// Files to hash.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Fingerprint documents as Parquet (one shard of a folder) for an external SQL
    /// engine to join: DataFusion, Spark or Ballista, with the SQL files in `sql/`.
    #[cfg(feature = "distributed")]
    Fingerprint(Box<fingerprint::FingerprintArgs>),
    /// Align the candidate pairs such an engine found and write the usual reports.
    #[cfg(feature = "distributed")]
    Align(Box<align::AlignArgs>),
    /// Join the partial JSON reports of several `align --slice` runs into one.
    #[cfg(feature = "distributed")]
    Merge(merge::MergeArgs),
    /// Print the keyword fingerprint of each file: its key in hex, the path, and its top
    /// TF-IDF keywords (folded), heaviest first.
    Keywords {
        /// Files to read.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Internal: serve extraction requests on standard input (the helper processes that
    /// read documents under resource limits).
    #[command(name = HELPER_SUBCOMMAND, hide = true)]
    ExtractHelper,
}

/// The hidden subcommand that makes this executable an extraction helper.
const HELPER_SUBCOMMAND: &str = "__extract-worker";

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
        Some(Command::ExtractHelper) => serve_helper(),
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

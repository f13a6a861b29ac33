//! The command line: argument parsing and dispatch to the subcommands; with no subcommand
//! the window opens (when built with the `gui` feature).

mod archive;
mod compare;
mod extract;
mod progress_bar;
mod simhash;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
        None => open_window(cli.files),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("twinspot: {error:#}");
            ExitCode::from(1)
        }
    }
}

#[cfg(feature = "gui")]
fn open_window(files: Vec<PathBuf>) -> anyhow::Result<ExitCode> {
    twinspot::gui::run(files).map_err(|e| anyhow::anyhow!("the window could not be opened: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "gui"))]
fn open_window(_files: Vec<PathBuf>) -> anyhow::Result<ExitCode> {
    use clap::CommandFactory;
    eprintln!("twinspot was built without the window (feature `gui`); use a command:\n");
    let _ = Cli::command().print_help();
    Ok(ExitCode::from(2))
}

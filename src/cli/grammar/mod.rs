//! The command line's grammar: every command, option and help text of `twinspot`, as clap
//! derive types. The binary parses with it; build.rs mounts this folder too and writes the
//! man pages and shell completions from it, so it uses only std, clap and its own files
//! (the engine's defaults are restated in `defaults`, checked against the engine by a test).

pub mod archive;
pub mod compare;
pub mod defaults;
#[cfg(feature = "distributed")]
pub mod distributed;
pub mod shared;
pub mod values;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Twinspot finds the passages two documents share — also after light edits, new
/// punctuation, reordered sentences or a simplified/traditional Chinese conversion — and
/// scores how close whole documents are. Offline: no document leaves this machine.
///
/// Run without a command to open the window; `twinspot FILE...` opens it with those
/// files as suspects (exactly two files: the first is checked against the second at once).
#[derive(Debug, Parser)]
#[command(name = "twinspot", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Files to open in the window as suspects (when no command is given); exactly two
    /// files are compared at once, the first as suspect, the second as reference.
    pub files: Vec<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compare suspects with references (or every document with every other, --all) and
    /// report shared passages, scores and near duplicates.
    Compare(Box<compare::CompareArgs>),
    /// A persistent archive of references: add documents once, check new ones against
    /// all of them in well under a second. ARCHIVE is a folder, or a PostgreSQL server
    /// shared by a team: postgresql://USER@HOST[:PORT]/DATABASE[?sslmode=require] (the
    /// password from PGPASSWORD or ~/.pgpass, or in the URL; it is never shown or stored).
    Archive(archive::ArchiveArgs),
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
    Fingerprint(Box<distributed::FingerprintArgs>),
    /// Align the candidate pairs such an engine found and write the usual reports.
    #[cfg(feature = "distributed")]
    Align(Box<distributed::AlignArgs>),
    /// Join the partial JSON reports of several `align --slice` runs into one.
    #[cfg(feature = "distributed")]
    Merge(distributed::MergeArgs),
    /// Print the keyword fingerprint of each file: its key in hex, the path, and its top
    /// TF-IDF keywords (folded), heaviest first.
    Keywords {
        /// Files to read.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// The first argument that makes this executable an extraction helper (serving requests
/// on standard input, for the processes that read documents under resource limits). It is
/// read before clap parses anything, so no help, man page or completion ever offers it.
pub const HELPER_SUBCOMMAND: &str = "__extract-worker";

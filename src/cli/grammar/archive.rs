//! The commands of `twinspot archive` and their options.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::shared::PassageFlags;
use super::values::{K_RANGE, Lang, W_RANGE, parse_date, whole_in};

/// `twinspot archive`: what to do, and the schema of a shared archive.
#[derive(Debug, Args)]
pub struct ArchiveArgs {
    #[command(subcommand)]
    pub command: ArchiveCommand,
    /// The schema of a shared archive on a PostgreSQL server (one schema an archive).
    #[arg(long, global = true, value_name = "NAME", default_value = "twinspot")]
    pub schema: String,
}

/// What to do with an archive.
#[derive(Debug, Subcommand)]
pub enum ArchiveCommand {
    /// Add files and folders to ARCHIVE (created if needed). A file whose size and times
    /// are those it was archived with is skipped unread, one whose SHA-256 is already
    /// archived is skipped; a changed file replaces its older version.
    Add {
        archive: PathBuf,
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Publication date of these documents (YYYY-MM-DD), used by `expire`.
        #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
        date: Option<String>,
        /// Single-pass clustering: each new document joins the group of its nearest
        /// archived near duplicate only.
        #[arg(long)]
        cluster: bool,
        /// Keep the archive in step with the folders given: afterwards, remove archived
        /// documents whose file lay under one of them and is gone (said how many).
        #[arg(long)]
        sync: bool,
        #[command(flatten)]
        shape: Shape,
        /// No progress bar.
        #[arg(long, short = 'q')]
        quiet: bool,
    },
    /// Check suspects against ARCHIVE (one way: new against archived); the report has
    /// the schema of `compare`, with archived documents as references.
    Check(CheckArgs),
    /// List every archived document: id, group, characters, date, path.
    List { archive: PathBuf },
    /// Sizes of the archive.
    Stats { archive: PathBuf },
    /// Remove documents: the files named (by any spelling of their path, or the path as
    /// added) and the documents of each `--id` (the first column of `list`).
    #[command(group = clap::ArgGroup::new("keys").required(true).multiple(true).args(["paths", "id"]))]
    Remove {
        archive: PathBuf,
        /// Files to remove, as archived.
        paths: Vec<PathBuf>,
        /// The id of a document to remove (may be given more than once).
        #[arg(long, value_name = "N")]
        id: Vec<u32>,
    },
    /// Near-duplicate groups of more than one document (representative first).
    Groups { archive: PathBuf },
    /// Drop documents older than DATE (their publication date, else the day added).
    Expire {
        archive: PathBuf,
        #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
        before: String,
    },
    /// Check the catalog, every segment and every stored text.
    Verify { archive: PathBuf },
    /// Merge the postings segments of each kind into one, so that a check looks up each
    /// hash in one file (`add` merges in tiers and leaves a few). Checks may run meanwhile.
    Compact { archive: PathBuf },
    /// Let a PostgreSQL role use a shared archive: --read to check, list and see stats
    /// and groups; --write also to add, remove, expire and compact. Run by the archive's
    /// owner.
    #[command(group = clap::ArgGroup::new("access").required(true).args(["read", "write"]))]
    Grant {
        archive: PathBuf,
        role: String,
        #[arg(long)]
        read: bool,
        #[arg(long)]
        write: bool,
    },
    /// Take every permission on a shared archive from a PostgreSQL role.
    Revoke { archive: PathBuf, role: String },
}

/// Fingerprint settings; an archive keeps the ones it was made with and refuses others.
#[derive(Debug, Args)]
pub struct Shape {
    /// Tokens per k-gram (default: the archive's, or the engine's for a new archive).
    #[arg(short = 'k', long, value_parser = whole_in(K_RANGE))]
    pub k: Option<u64>,
    /// Winnowing window (default: the archive's, or the engine's for a new archive).
    #[arg(short = 'w', long, value_parser = whole_in(W_RANGE))]
    pub w: Option<u64>,
}

/// Options of `twinspot archive check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    pub archive: PathBuf,
    /// Suspect files or folders.
    #[arg(required = true)]
    pub suspects: Vec<PathBuf>,
    /// Write the result as JSON to OUT ('-' for standard output).
    #[arg(long, value_name = "OUT")]
    pub json: Option<PathBuf>,
    /// Write one CSV row per pair to OUT ('-' for standard output).
    #[arg(long, value_name = "OUT")]
    pub csv: Option<PathBuf>,
    /// Write a self-contained HTML report to OUT.
    #[arg(long, value_name = "OUT")]
    pub html: Option<PathBuf>,
    /// Language of the HTML report: en or zh.
    #[arg(long, value_name = "LANG", default_value = "en", ignore_case = true)]
    pub lang: Lang,
    #[command(flatten)]
    pub passages: PassageFlags,
    /// Do not look for short edited copies in the archived documents read for a suspect
    /// (an archive holds no character grams: a document that only a short edited copy
    /// ties to a suspect is not read, and not found).
    #[arg(long)]
    pub no_short_copies: bool,
    #[command(flatten)]
    pub shape: Shape,
    /// Say on standard error where the matching spent its time: finding each suspect's
    /// candidates in the archive, and aligning the archived documents read (each
    /// suspect's time, summed over the suspects).
    #[arg(long)]
    pub timings: bool,
    /// No progress bar and no summary.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

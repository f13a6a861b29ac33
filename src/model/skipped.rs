//! A path that collecting the inputs passed over, and why, typed: its `Display` is the
//! English line reports and the command line write; the window may say it in another language.

use serde::Serialize;

/// A path that was passed over, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The path as it would have been named (unprintable bytes escaped).
    pub path: String,
    pub reason: SkipReason,
}

/// Why a path given (or found in a folder given) was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// A symbolic link whose target does not exist.
    BrokenLink,
    /// A symbolic link in a loop of links (`a` → `b` → `a`).
    LinkLoop,
    /// A link to a folder that holds the folder being read (`up` → `..`): following it
    /// would read the folder again, or read folders that were not given.
    LinkAbove { folder: String },
    /// One file given both as suspect and as reference.
    BothRoles,
    /// `count` files given both as suspect and as reference (this one and the others).
    BothRolesMany { count: usize },
    /// The same file given again; `taken` is the name it was taken under.
    SameFileAs { taken: String },
    /// `count` files given twice.
    GivenTwiceMany { count: usize },
    /// Files of other formats in the folders given.
    Unsupported { count: usize, extensions: String },
    /// An HTML report Twinspot wrote.
    OwnReport,
    /// A folder nested too deep.
    TooDeep { max: usize },
    /// A folder that cannot be opened.
    CannotOpenFolder { detail: String },
    /// A link back to a folder already read.
    LinkBack { folder: String },
    /// A folder that cannot be listed.
    CannotListFolder { detail: String },
    /// An entry of a folder that cannot be read.
    UnreadableEntry { detail: String },
    /// A file that cannot be read.
    CannotRead { detail: String },
    /// `count` receipts of a Blackboard export (one text file per attempt), not submissions.
    Receipts { count: usize },
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::BrokenLink => f.write_str("a link to nothing (its target does not exist)"),
            Self::LinkLoop => f.write_str("a link in a loop of links (it leads back to itself): skipped"),
            Self::LinkAbove { folder } => {
                write!(f, "a link to {folder}, a folder that holds the folder being read: skipped")
            }
            Self::BothRoles => {
                f.write_str("given both as suspect and as reference: read once, never compared with itself")
            }
            Self::BothRolesMany { count } => write!(
                f,
                "{count} files (this one and {} more) given both as suspect and as reference: each read once, \
                 compared with the others but never with itself",
                count - 1
            ),
            Self::SameFileAs { taken } => write!(f, "the same file as {taken}: read once"),
            Self::GivenTwiceMany { count } => {
                write!(f, "{count} files (this one and {} more) given twice: each read once", count - 1)
            }
            Self::Unsupported { count, extensions } => write!(
                f,
                "{count} file(s) in the folders given are not of a supported format ({extensions}) and were not read"
            ),
            Self::OwnReport => f.write_str("a Twinspot report, not a document: not read"),
            Self::TooDeep { max } => write!(f, "folder nested deeper than {max} levels: not read"),
            Self::CannotOpenFolder { detail } => write!(f, "cannot open the folder: {detail}"),
            Self::LinkBack { folder } => write!(f, "a link back to a folder already read ({folder}): skipped"),
            Self::CannotListFolder { detail } => write!(f, "cannot list the folder: {detail}"),
            Self::UnreadableEntry { detail } => write!(f, "an entry of the folder cannot be read: {detail}"),
            Self::CannotRead { detail } => write!(f, "cannot be read: {detail}"),
            Self::Receipts { count } => {
                write!(f, "{count} Blackboard receipt(s) in the zip (one per attempt, not a submission): not read")
            }
        }
    }
}

/// Written as its English text, as reports always had it.
impl Serialize for SkipReason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

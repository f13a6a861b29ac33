//! The archive: a persistent, incremental, crash-safe store of documents, their texts and
//! fingerprints, checked against without reading or fingerprinting any of them again.
//!
//! Two stores keep it: a folder ([`folder`]: a SQLite catalog of documents, groups and
//! settings beside immutable sorted segment files of postings, [`folder::segments`]) and a
//! schema of a PostgreSQL server shared by a department ([`server`]). Front ends open
//! either as an [`AnyArchive`]. What both stores share lives here: how a file is read
//! for adding ([`prepare`]), how a document is read back ([`read_back`]), the signals kept
//! ([`signals`]), groups ([`groups`]), stored settings ([`stored_settings`]), errors; and
//! the verbs written once for both ([`verbs`]) above the seam they implement ([`store`]).

mod access;
mod any;
mod codec;
mod cut_spreads;
mod date;
mod error;
pub mod folder;
mod groups;
mod location;
mod lookups;
mod outcomes;
mod prepare;
mod read_back;
mod records;
#[cfg(feature = "server")]
pub mod server;
mod signals;
mod store;
mod stored_settings;
mod verbs;
mod verify_text;

pub use access::Access;
pub use any::{AnyArchive, Compacted, Location};
pub use date::parse_date;
pub use error::ArchiveError;
pub use folder::check::check_against;
pub use folder::index::ArchiveIndex;
pub use folder::lock::{LOCK_FILE, WhenBusy};
pub use folder::{Archive, FORMAT_VERSION};
pub use groups::Group;
pub use location::{is_server_url, redacted, refuse_unsupported};
pub use outcomes::{AddOptions, AddSummary, VerifyReport};
pub use records::{DocumentInfo, Stats};
pub use verbs::remove::{ArchivedElsewhere, RemoveSummary};

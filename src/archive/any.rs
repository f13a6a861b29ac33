//! Either store behind one name: an archive named by a folder, or by a `postgresql://`
//! URL and a schema. Front ends open an [`AnyArchive`] and ask it what they would ask
//! either; each verb goes to the store that holds the archive, and both answer alike.

use std::path::{Path, PathBuf};

use super::access::Access;
use super::error::ArchiveError;
use super::folder::Archive;
use super::folder::lock::WhenBusy;
use super::groups::Group;
use super::location::is_server_url;
use super::outcomes::{AddOptions, AddSummary, VerifyReport};
use super::records::{DocumentInfo, Stats};
#[cfg(feature = "server")]
use super::server::{Schema, ServerArchive, ServerLocation};
use super::verbs::remove::RemoveSummary;
use crate::engine::{CancelFlag, CheckRequest, DocumentInput, ProgressSink, Report};
use crate::settings::Settings;

/// Where an archive lives.
#[derive(Clone, Debug)]
pub enum Location {
    /// A folder on this machine.
    Folder(PathBuf),
    /// A schema of a PostgreSQL server.
    #[cfg(feature = "server")]
    Server(Box<ServerLocation>, Schema),
}

impl Location {
    /// The archive `name` names: a `postgresql://` URL (in `schema`, default
    /// [`super::server::DEFAULT_SCHEMA`]), or a folder. Any other URL is refused, and a
    /// password is never shown.
    pub fn parse(name: &Path, schema: Option<&str>) -> Result<Self, ArchiveError> {
        let text = name.to_string_lossy();
        if is_server_url(&text) {
            return Self::server(&text, schema);
        }
        super::location::refuse_unsupported(name)?;
        Ok(Self::Folder(name.to_path_buf()))
    }

    /// The schema `schema` (default [`super::server::DEFAULT_SCHEMA`]) of the server `url`.
    #[cfg(feature = "server")]
    fn server(url: &str, schema: Option<&str>) -> Result<Self, ArchiveError> {
        let schema = Schema::new(schema.unwrap_or(super::server::DEFAULT_SCHEMA))?;
        Ok(Self::Server(Box::new(ServerLocation::parse(url)?), schema))
    }

    /// A build without the shared archive refuses a server's URL, its password hidden.
    #[cfg(not(feature = "server"))]
    fn server(url: &str, _schema: Option<&str>) -> Result<Self, ArchiveError> {
        Err(ArchiveError::NoServerInThisBuild { shown: super::location::redacted(url) })
    }

    /// With `password` for a server's login (a folder has none).
    #[cfg_attr(not(feature = "server"), allow(unused_mut))]
    pub fn with_password(mut self, password: Option<&str>) -> Self {
        #[cfg(feature = "server")]
        if let (Self::Server(location, _), Some(password)) = (&mut self, password) {
            location.set_password(password);
        }
        #[cfg(not(feature = "server"))]
        let _ = password;
        self
    }

    /// Whether this is an archive on a server.
    pub fn is_server(&self) -> bool {
        match self {
            Self::Folder(_) => false,
            #[cfg(feature = "server")]
            Self::Server(..) => true,
        }
    }

    /// The location as it may be shown (no password).
    pub fn shown(&self) -> String {
        match self {
            Self::Folder(dir) => dir.display().to_string(),
            #[cfg(feature = "server")]
            Self::Server(location, schema) => format!("{} (schema {})", location.shown(), schema.name()),
        }
    }

    /// Whether an archive exists here (a folder with a catalog; a server is asked when
    /// the archive is opened).
    fn folder_holds_archive(dir: &Path) -> bool {
        dir.join(super::folder::catalog::CATALOG).exists()
    }

    /// The fingerprint settings the archive stores, or `None` when there is no archive
    /// here yet (then a new one takes the defaults).
    pub fn stored_settings(&self) -> Result<Option<Settings>, ArchiveError> {
        match self {
            Self::Folder(dir) if !Self::folder_holds_archive(dir) => Ok(None),
            Self::Folder(dir) => Archive::stored_settings(dir).map(Some),
            #[cfg(feature = "server")]
            Self::Server(location, schema) => match ServerArchive::stored_settings(location, schema) {
                Ok(settings) => Ok(Some(settings)),
                Err(ArchiveError::NoSuchSchema { .. }) => Ok(None),
                Err(e) => Err(e),
            },
        }
    }
}

/// What `compact` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compacted {
    /// A folder's segments: whether any were merged, and how many of each kind are left.
    Segments { merged: bool, kgram_segments: u64, sentence_segments: u64 },
    /// A server's postings of removed documents dropped, their space reclaimed.
    Server { purged: u64 },
}

/// An open archive, in a folder or on a server.
#[derive(Debug)]
pub enum AnyArchive {
    Folder(Box<Archive>),
    #[cfg(feature = "server")]
    Server(Box<ServerArchive>),
}

impl AnyArchive {
    /// Opens the archive at `location` for checking.
    pub fn open(location: &Location, settings: &Settings) -> Result<Self, ArchiveError> {
        Ok(match location {
            Location::Folder(dir) => Self::Folder(Box::new(Archive::open(dir, settings)?)),
            #[cfg(feature = "server")]
            Location::Server(server, schema) => Self::Server(Box::new(ServerArchive::open(server, schema, settings)?)),
        })
    }

    /// Opens the archive at `location` for changes (with `create`, making it when there
    /// is none); a folder's other writer is waited for as `busy` says, a server's
    /// writers take turns per batch. `action` names the change for a refusal.
    pub fn open_for_changes(
        location: &Location,
        settings: &Settings,
        create: bool,
        busy: WhenBusy<'_>,
        action: &'static str,
    ) -> Result<Self, ArchiveError> {
        #[cfg(not(feature = "server"))]
        let _ = action;
        Ok(match location {
            Location::Folder(dir) => Self::Folder(Box::new(Archive::open_for_changes(dir, settings, create, busy)?)),
            #[cfg(feature = "server")]
            Location::Server(server, schema) => {
                Self::Server(Box::new(ServerArchive::open_for_changes(server, schema, settings, create, action)?))
            }
        })
    }

    /// Adds `inputs` (see [`Archive::add`]).
    pub fn add(
        &self,
        inputs: &[DocumentInput],
        options: &AddOptions,
        sink: &dyn ProgressSink,
        cancel: &CancelFlag,
    ) -> Result<AddSummary, ArchiveError> {
        match self {
            Self::Folder(a) => a.add(inputs, options, sink, cancel),
            #[cfg(feature = "server")]
            Self::Server(a) => a.add(inputs, options, sink, cancel),
        }
    }

    /// Checks the documents of `request` against the archive (see
    /// [`super::check_against`]).
    pub fn check(
        &self,
        request: &CheckRequest,
        sink: &dyn ProgressSink,
        cancel: &CancelFlag,
    ) -> Result<Report, ArchiveError> {
        match self {
            Self::Folder(a) => super::folder::check::check_against(a, request, sink, cancel),
            #[cfg(feature = "server")]
            Self::Server(a) => super::server::check_against(a, request, sink, cancel),
        }
    }

    /// Every document, by id.
    pub fn list(&self) -> Result<Vec<DocumentInfo>, ArchiveError> {
        match self {
            Self::Folder(a) => a.list(),
            #[cfg(feature = "server")]
            Self::Server(a) => a.list(),
        }
    }

    /// The paths (as added) of the members of `groups`, by id: what a list of groups shows
    /// of them. A folder archive looks each up (at 1.57 million documents, reading every
    /// row to name them took 13.7 s and 434 MB on a cold page cache); a shared archive's
    /// list is read whole, as before, unless there is no member to name.
    pub fn member_paths(&self, groups: &[Group]) -> Result<std::collections::HashMap<u32, String>, ArchiveError> {
        let ids: Vec<u32> = groups.iter().flat_map(|g| g.members.iter().copied()).collect();
        if ids.is_empty() {
            return Ok(std::collections::HashMap::new());
        }
        match self {
            Self::Folder(a) => Ok(a.paths_of(&ids)?.into_iter().collect()),
            #[cfg(feature = "server")]
            Self::Server(a) => {
                let wanted: std::collections::HashSet<u32> = ids.into_iter().collect();
                Ok(a.list()?.into_iter().filter(|d| wanted.contains(&d.id)).map(|d| (d.id, d.path)).collect())
            }
        }
    }

    /// Sizes of the archive.
    pub fn stats(&self) -> Result<Stats, ArchiveError> {
        match self {
            Self::Folder(a) => a.stats(),
            #[cfg(feature = "server")]
            Self::Server(a) => a.stats(),
        }
    }

    /// Near-duplicate groups of more than one document.
    pub fn groups(&self) -> Result<Vec<Group>, ArchiveError> {
        match self {
            Self::Folder(a) => a.groups(),
            #[cfg(feature = "server")]
            Self::Server(a) => a.groups(),
        }
    }

    /// Removes documents by id and by path.
    pub fn remove(&self, ids: &[u32], paths: &[PathBuf]) -> Result<RemoveSummary, ArchiveError> {
        match self {
            Self::Folder(a) => a.remove(ids, paths),
            #[cfg(feature = "server")]
            Self::Server(a) => a.remove(ids, paths),
        }
    }

    /// Drops every document older than `before` (YYYY-MM-DD).
    pub fn expire(&self, before: &str) -> Result<usize, ArchiveError> {
        match self {
            Self::Folder(a) => a.expire(before),
            #[cfg(feature = "server")]
            Self::Server(a) => a.expire(before),
        }
    }

    /// Checks what the archive holds.
    pub fn verify(&self) -> Result<VerifyReport, ArchiveError> {
        match self {
            Self::Folder(a) => a.verify(),
            #[cfg(feature = "server")]
            Self::Server(a) => a.verify(),
        }
    }

    /// Compacts the archive: a folder merges its segments, a server drops the postings
    /// of removed documents and reclaims their space.
    pub fn compact(&self) -> Result<Compacted, ArchiveError> {
        match self {
            Self::Folder(a) => {
                let merged = a.merge_all()?;
                let stats = a.stats()?;
                Ok(Compacted::Segments {
                    merged,
                    kgram_segments: stats.kgram_segments,
                    sentence_segments: stats.sentence_segments,
                })
            }
            #[cfg(feature = "server")]
            Self::Server(a) => Ok(Compacted::Server { purged: a.compact()? }),
        }
    }

    /// Gives `role` access to a shared archive; a folder has no roles (its files'
    /// permissions decide who may read or change it).
    pub fn grant(&self, role: &str, access: Access) -> Result<(), ArchiveError> {
        #[cfg(not(feature = "server"))]
        let _ = (role, access);
        match self {
            Self::Folder(a) => Err(ArchiveError::NoRoles(a.dir().to_path_buf())),
            #[cfg(feature = "server")]
            Self::Server(a) => a.grant(role, access),
        }
    }

    /// Takes every permission on a shared archive from `role`.
    pub fn revoke(&self, role: &str) -> Result<(), ArchiveError> {
        #[cfg(not(feature = "server"))]
        let _ = role;
        match self {
            Self::Folder(a) => Err(ArchiveError::NoRoles(a.dir().to_path_buf())),
            #[cfg(feature = "server")]
            Self::Server(a) => a.revoke(role),
        }
    }

    /// Whether this is an archive on a server.
    pub fn is_server(&self) -> bool {
        match self {
            Self::Folder(_) => false,
            #[cfg(feature = "server")]
            Self::Server(_) => true,
        }
    }

    /// The archive's settings.
    pub fn settings(&self) -> &Settings {
        match self {
            Self::Folder(a) => a.settings(),
            #[cfg(feature = "server")]
            Self::Server(a) => a.settings(),
        }
    }
}

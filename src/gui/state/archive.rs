//! The window's archive source as plain data: the open archive's sizes, the job running on
//! it, and the last error or add to show. Which archive is chosen is persisted
//! ([`super::Persisted::archive`]); the app changes this on worker events.

use std::time::Instant;

use crate::Progress;
use crate::gui::archive_jobs::{AddOutcome, ArchiveInfo};
use crate::gui::worker::JobId;

/// The job running on the archive, if any.
#[derive(Clone, Debug, Default)]
pub enum ArchiveTask {
    #[default]
    Idle,
    Opening {
        job: JobId,
    },
    Adding {
        job: JobId,
        started: Instant,
        progress: Option<Progress>,
        /// Cancel was pressed: the add stops after the batch being read.
        cancelling: bool,
    },
}

/// The form of "Open shared archive…": a PostgreSQL URL, the schema, a user and a
/// password. The password never leaves memory: the URL the window keeps has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedForm {
    pub url: String,
    pub schema: String,
    pub user: String,
    pub password: String,
}

impl Default for SharedForm {
    fn default() -> Self {
        Self { url: "postgresql://".into(), schema: "twinspot".into(), user: String::new(), password: String::new() }
    }
}

impl SharedForm {
    /// The form filled from a shared archive's `name` (a URL without password) and schema.
    pub fn of(name: &str, schema: Option<&str>) -> Self {
        let (url, user) = split_user(name);
        Self { url, user, schema: schema.unwrap_or("twinspot").to_owned(), password: String::new() }
    }

    /// The URL to keep and show, with the user and without any password, and the
    /// password to log in with (the field's, else one typed into the URL); `None` when
    /// the URL is not a PostgreSQL one.
    pub fn target(&self) -> Option<(String, Option<String>)> {
        let url = self.url.trim();
        if !crate::archive::is_server_url(url) {
            return None;
        }
        let (scheme, rest) = url.split_once("://")?;
        let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(authority_end);
        let (userinfo, host) = authority.rsplit_once('@').unwrap_or(("", authority));
        let (url_user, url_password) = userinfo.split_once(':').unwrap_or((userinfo, ""));
        let user = if self.user.trim().is_empty() { url_user } else { self.user.trim() };
        let at = if user.is_empty() { String::new() } else { format!("{user}@") };
        let password = [self.password.as_str(), url_password].into_iter().find(|p| !p.is_empty()).map(str::to_owned);
        Some((format!("{scheme}://{at}{host}{tail}"), password))
    }
}

/// A URL split into the URL without its user and the user.
fn split_user(name: &str) -> (String, String) {
    let Some((scheme, rest)) = name.split_once("://") else {
        return (name.to_owned(), String::new());
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split_once(':').map_or(userinfo, |(u, _)| u);
            (format!("{scheme}://{host}{tail}"), user.to_owned())
        }
        None => (name.to_owned(), String::new()),
    }
}

/// What the sidebar's Archive group shows.
#[derive(Clone, Debug, Default)]
pub struct ArchiveState {
    /// The chosen archive's sizes: `None` until it is open, or when opening failed.
    pub info: Option<ArchiveInfo>,
    pub task: ArchiveTask,
    /// Why the last open or add failed, shown until the next success.
    pub error: Option<String>,
    /// What the last add did.
    pub last_add: Option<AddOutcome>,
    /// The form of "Open shared archive…", while it is open.
    pub shared_form: Option<SharedForm>,
    /// The password of the shared archive in use, as typed: in memory only, never saved.
    pub password: Option<String>,
}

impl ArchiveState {
    /// The id of the job running on the archive.
    pub fn job(&self) -> Option<JobId> {
        match self.task {
            ArchiveTask::Idle => None,
            ArchiveTask::Opening { job } | ArchiveTask::Adding { job, .. } => Some(job),
        }
    }

    pub fn is_busy(&self) -> bool {
        !matches!(self.task, ArchiveTask::Idle)
    }

    pub fn is_adding(&self) -> bool {
        matches!(self.task, ArchiveTask::Adding { .. })
    }

    /// Forgets everything about the archive (it was closed or another one is opened),
    /// but for the password of the shared archive about to be opened.
    pub fn reset(&mut self) {
        let password = self.password.take();
        *self = Self { password, ..Self::default() };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_form_keeps_the_password_out_of_the_url() {
        let form = SharedForm {
            url: "postgresql://db.example:6543/news?sslmode=require".into(),
            user: "editor".into(),
            password: "secret".into(),
            ..SharedForm::default()
        };
        let (url, password) = form.target().unwrap();
        assert_eq!(url, "postgresql://editor@db.example:6543/news?sslmode=require");
        assert_eq!(password.as_deref(), Some("secret"));
        let typed = SharedForm { url: "postgres://me:pw@h/db".into(), ..SharedForm::default() };
        assert_eq!(typed.target().unwrap(), ("postgres://me@h/db".to_owned(), Some("pw".to_owned())));
        let again = SharedForm::of("postgresql://editor@db.example/news", Some("sports"));
        assert_eq!(
            (again.url.as_str(), again.user.as_str(), again.schema.as_str()),
            ("postgresql://db.example/news", "editor", "sports")
        );
        assert!(SharedForm { url: "/srv/archive".into(), ..SharedForm::default() }.target().is_none());
    }
}

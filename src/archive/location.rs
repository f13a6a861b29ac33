//! Where a folder archive may live: a name that looks like a URL (`s3://…`, `file://…`)
//! is refused here, in one place, before anything is created or opened, and never echoed
//! with its password. A `postgresql://` URL names a shared archive instead
//! ([`super::Location`] tells the two apart before a folder is ever made of one).

use std::path::Path;

use super::error::ArchiveError;

/// Refuses an archive named by a URL (`scheme://…`), with the password of its
/// `user:password@` part hidden; a local folder passes.
pub fn refuse_unsupported(dir: &Path) -> Result<(), ArchiveError> {
    let name = dir.to_string_lossy();
    match url_scheme(&name) {
        Some(scheme) => Err(ArchiveError::UnsupportedLocation { scheme: scheme.to_string(), shown: redacted(&name) }),
        None => Ok(()),
    }
}

/// The scheme of `name` when it reads as a URL: letters, digits, `+`, `-` or `.` after a
/// first letter, then `://`.
fn url_scheme(name: &str) -> Option<&str> {
    let (scheme, _) = name.split_once("://")?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    let valid = first.is_ascii_alphabetic() && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    valid.then_some(scheme)
}

/// `name` with the password of a `scheme://user:password@host` written as `***`.
pub fn redacted(name: &str) -> String {
    let Some((scheme, rest)) = name.split_once("://") else {
        return name.to_string();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split_once(':').map_or(userinfo, |(user, _)| user);
            let hidden = if userinfo.contains(':') { format!("{user}:***") } else { user.to_string() };
            format!("{scheme}://{hidden}@{host}{tail}")
        }
        None => name.to_string(),
    }
}

/// Refuses a `dir` that is a symbolic link to nothing (a folder not made yet): creating
/// the archive through it would fail with a bare "file exists".
pub fn refuse_dangling_link(dir: &Path) -> Result<(), ArchiveError> {
    let is_link = std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink());
    if is_link && !dir.exists() {
        let target = std::fs::read_link(dir).unwrap_or_default();
        return Err(ArchiveError::DanglingLink { path: dir.to_path_buf(), target });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_refused_without_their_password_and_folders_pass() {
        for url in
            ["postgresql://user:secret@host/db", "postgres://u:secret@h:5432/d", "s3://bucket/x", "file:///tmp/a"]
        {
            let error = refuse_unsupported(Path::new(url)).unwrap_err().to_string();
            assert!(error.contains("cannot use") && !error.contains("secret"), "{error}");
        }
        let error = refuse_unsupported(Path::new("postgresql://user:secret@host/db")).unwrap_err().to_string();
        assert!(error.contains("postgresql://user:***@host/db"), "{error}");
        for folder in ["arc", "./arc", "/srv/archives/a", "C:\\archives\\a", "a:b"] {
            assert!(refuse_unsupported(Path::new(folder)).is_ok(), "{folder}");
        }
        assert_eq!(redacted("https://host/p@x"), "https://host/p@x");
        assert_eq!(redacted("https://me@host/"), "https://me@host/");
    }
}

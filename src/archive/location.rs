//! Where a folder archive may live: a name that looks like a URL (`s3://…`, `file://…`,
//! or one typed with a slash missing, `postgresql:/…`) is refused here, in one place,
//! before anything is created or opened, and never echoed with its password. A `postgresql://` URL names a shared archive instead
//! ([`super::Location`] tells the two apart before a folder is ever made of one).

use std::path::Path;

use super::error::ArchiveError;

/// Refuses an archive named by a URL (`scheme://…`), or by what reads as a mistyped one
/// (`postgresql:/user:password@host/db`, one slash), with the password of its
/// `user:password@` part hidden; a local folder passes.
pub fn refuse_unsupported(dir: &Path) -> Result<(), ArchiveError> {
    let name = dir.to_string_lossy();
    if let Some(scheme) = url_scheme(&name) {
        return Err(ArchiveError::UnsupportedLocation { scheme: scheme.to_string(), shown: redacted(&name) });
    }
    match mistyped_scheme(&name) {
        Some(scheme) => Err(ArchiveError::MistypedUrl { scheme: scheme.to_string(), shown: redacted(&name) }),
        None => Ok(()),
    }
}

/// Whether `scheme` has the letters of a URL's scheme: letters, digits, `+`, `-` or `.`
/// after a first letter.
fn is_scheme(scheme: &str) -> bool {
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
}

/// The scheme of `name` when it reads as a URL: a scheme, then `://`.
fn url_scheme(name: &str) -> Option<&str> {
    let (scheme, _) = name.split_once("://")?;
    is_scheme(scheme).then_some(scheme)
}

/// The scheme of `name` when it reads as a URL typed wrong: a scheme of two letters or
/// more (a Windows drive is one) then `:/` or `:\\` (a slash missing), or `postgres:` /
/// `postgresql:` followed by anything. A folder of such a name is written `./name`.
fn mistyped_scheme(name: &str) -> Option<&str> {
    let (scheme, rest) = name.split_once(':')?;
    let postgres = ["postgres", "postgresql"].iter().any(|p| scheme.eq_ignore_ascii_case(p));
    let slashed = scheme.len() > 1 && (rest.starts_with('/') || rest.starts_with('\\'));
    (is_scheme(scheme) && (postgres || slashed)).then_some(scheme)
}

/// Where the `user:password` part of a URL's text after `scheme://` ends: at the last `@`
/// before the query (a password may hold `@`, `/`, `:` unencoded), or, when none comes
/// before the query, at the last `@` before the query's first `=` (a password holding
/// `?`). `None` when the URL has no such part.
pub(super) fn userinfo_end(rest: &str) -> Option<usize> {
    let query = rest.find('?').unwrap_or(rest.len());
    if let Some(at) = rest[..query].rfind('@') {
        return Some(at);
    }
    let first_value = rest[query..].find('=').map_or(rest.len(), |i| query + i);
    rest[..first_value].rfind('@')
}

/// `name` with everything between `scheme://` and the last `@` of its `user:password@`
/// part hidden but the user's name: `scheme://user:***@host`. A URL typed with a slash
/// missing (`postgresql:/user:password@host`) is hidden as well.
pub fn redacted(name: &str) -> String {
    let (scheme, rest) = match name.split_once("://") {
        Some((scheme, rest)) => (format!("{scheme}://"), rest),
        None => match name.split_once(':') {
            Some((scheme, rest)) if is_scheme(scheme) && scheme.len() > 1 => {
                let unslashed = rest.trim_start_matches(['/', '\\']);
                (name[..name.len() - unslashed.len()].to_string(), unslashed)
            }
            _ => return name.to_string(),
        },
    };
    let Some(end) = userinfo_end(rest) else {
        return name.to_string();
    };
    let (userinfo, host) = (&rest[..end], &rest[end + 1..]);
    let hidden = match userinfo.split_once(':') {
        Some((user, _)) if !user.contains('@') => format!("{user}:***"),
        None if !userinfo.contains('@') => userinfo.to_string(),
        _ => "***".to_string(),
    };
    format!("{scheme}{hidden}@{host}")
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

/// True when `name` names a PostgreSQL server (`postgresql://` or `postgres://`).
pub fn is_server_url(name: &str) -> bool {
    let lower = name.get(..13).unwrap_or(name).to_ascii_lowercase();
    lower.starts_with("postgresql://") || lower.starts_with("postgres://")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_urls_are_told_from_folders() {
        assert!(is_server_url("postgresql://u@h/db"));
        assert!(is_server_url("POSTGRES://h/db"));
        assert!(!is_server_url("postgresql:/folder"));
        assert!(!is_server_url("archive"));
        assert!(!is_server_url("s3://bucket"));
    }

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
        assert_eq!(redacted("https://me@host/"), "https://me@host/");
        assert_eq!(redacted("postgresql://h/db?sslrootcert=/a@b"), "postgresql://h/db?sslrootcert=/a@b");
    }

    #[test]
    fn a_password_is_hidden_up_to_the_last_at_whatever_it_holds() {
        for (url, shown) in [
            ("postgresql://odd:p@ss@host/db", "postgresql://odd:***@host/db"),
            ("postgresql://odd:p@s/s:w@host:5432/db", "postgresql://odd:***@host:5432/db"),
            ("postgresql://odd:a?b@host/db?sslmode=disable", "postgresql://odd:***@host/db?sslmode=disable"),
            ("postgresql://p@ss@host/db", "postgresql://***@host/db"),
            ("postgresql:/odd:p@ss@host/db", "postgresql:/odd:***@host/db"),
        ] {
            assert_eq!(redacted(url), shown);
        }
    }

    #[test]
    fn a_url_with_one_slash_is_refused_as_mistyped() {
        for url in ["postgresql:/user:secret@host/db", "postgres:/u@h/d", "POSTGRESQL:u:secret@h", "s3:/bucket/x"] {
            let error = refuse_unsupported(Path::new(url)).unwrap_err().to_string();
            assert!(error.contains("mistyped") && !error.contains("secret"), "{error}");
        }
        for folder in ["C:/archives", "a:/b", "./postgresql:/x", "notes:2024"] {
            assert!(refuse_unsupported(Path::new(folder)).is_ok(), "{folder}");
        }
    }
}

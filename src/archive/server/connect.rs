//! From a `postgresql://` URL to a connection: the URL read as libpq reads it (host, port,
//! dbname, user, password, sslmode, options; what it leaves out from `PGHOST`, `PGPORT`,
//! `PGDATABASE`, `PGUSER`, and a password from `PGPASSWORD` or the password file), TLS as
//! its `sslmode` asks. The password is never kept beyond the connection's configuration:
//! what is shown of the URL is [`super::super::redacted`].

use std::path::PathBuf;
use std::time::Duration;

use tokio_postgres::config::{Config, Host, SslMode};

use super::super::error::ArchiveError;
use super::super::location::redacted;
use super::db::{Db, Deadlines, MAINTENANCE_SETTING, STATEMENT_SETTING};

/// How long a connection may take before the server counts as unreachable.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(8);

/// Idle time of a connection before TCP asks whether the server is still there, then
/// the time between asks and how many unanswered asks mean it is gone: 2 + 2 × 3 = 8 s.
const KEEPALIVE_IDLE: Duration = Duration::from_secs(2);
const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(2);
const KEEPALIVE_RETRIES: u32 = 3;

/// The libpq default port.
const DEFAULT_PORT: u16 = 5432;

/// How much the TLS of a connection must prove (libpq's `sslmode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tls {
    /// No TLS.
    Disable,
    /// TLS when the server offers it, no certificate check (libpq's default).
    Prefer,
    /// TLS or nothing, no certificate check.
    Require,
    /// TLS with a certificate signed by a trusted authority, any host name.
    VerifyCa,
    /// TLS with a trusted certificate for the host connected to.
    VerifyFull,
}

/// A PostgreSQL server named by a URL: how to connect, and how to show it.
#[derive(Clone)]
pub struct ServerLocation {
    config: Config,
    tls: Tls,
    /// A certificate authority to trust beside the system's (`sslrootcert`).
    root_cert: Option<PathBuf>,
    /// The deadlines of statements ([`super::db`]).
    deadlines: Deadlines,
    shown: String,
}

impl std::fmt::Debug for ServerLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerLocation").field("shown", &self.shown).field("tls", &self.tls).finish()
    }
}

impl ServerLocation {
    /// Reads `url`; a malformed one is refused with its password hidden.
    pub fn parse(url: &str) -> Result<Self, ArchiveError> {
        let shown = redacted(url);
        let bad = |why: String| ArchiveError::BadServerUrl { shown: shown.clone(), why };
        // The query starts at the first `?` after the user and password (which may hold one).
        let after = url.find("://").map_or(0, |i| i + 3);
        let start = super::super::location::userinfo_end(&url[after..]).map_or(after, |end| after + end);
        let (base, query) = match url[start..].find('?') {
            Some(i) => (&url[..start + i], &url[start + i + 1..]),
            None => (url, ""),
        };
        let mut tls = Tls::Prefer;
        let mut root_cert = None;
        let mut deadlines = Deadlines::default();
        let mut passed = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            match key {
                "sslmode" => {
                    tls = match value {
                        "disable" => Tls::Disable,
                        "allow" | "prefer" => Tls::Prefer,
                        "require" => Tls::Require,
                        "verify-ca" => Tls::VerifyCa,
                        "verify-full" => Tls::VerifyFull,
                        other => return Err(bad(format!("sslmode '{other}' is not one libpq knows"))),
                    }
                }
                "sslrootcert" => root_cert = Some(PathBuf::from(value)),
                STATEMENT_SETTING => deadlines.statement = seconds(key, value).map_err(bad)?,
                MAINTENANCE_SETTING => deadlines.maintenance = seconds(key, value).map_err(bad)?,
                _ => passed.push(pair),
            }
        }
        let base = userinfo_encoded(base);
        let rebuilt = if passed.is_empty() { base } else { format!("{base}?{}", passed.join("&")) };
        let mut config: Config = rebuilt.parse().map_err(|e: tokio_postgres::Error| bad(e.to_string()))?;
        fill_from_environment(&mut config);
        config.ssl_mode(match tls {
            Tls::Disable => SslMode::Disable,
            Tls::Prefer => SslMode::Prefer,
            Tls::Require | Tls::VerifyCa | Tls::VerifyFull => SslMode::Require,
        });
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        // A server lost during a statement (its machine gone, the network cut) is found
        // by TCP within about the connection timeout: unanswered keepalives, or data
        // left unacknowledged.
        config.keepalives(true).keepalives_idle(KEEPALIVE_IDLE).keepalives_interval(KEEPALIVE_INTERVAL);
        config.keepalives_retries(KEEPALIVE_RETRIES).tcp_user_timeout(CONNECT_TIMEOUT);
        config.application_name("twinspot");
        Ok(Self { config, tls, root_cert, deadlines, shown })
    }

    /// Uses `password` for the login (one typed into the window, kept in memory only).
    pub fn set_password(&mut self, password: &str) {
        self.config.password(password);
    }

    /// The URL as it may be shown: without its password.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// `host:port` of the server, for messages.
    pub fn address(&self) -> String {
        let host = match self.config.get_hosts().first() {
            Some(Host::Tcp(name)) => name.clone(),
            #[cfg(unix)]
            Some(Host::Unix(path)) => path.display().to_string(),
            None => "localhost".to_string(),
        };
        format!("{host}:{}", self.config.get_ports().first().copied().unwrap_or(DEFAULT_PORT))
    }

    /// The role connected as.
    pub fn user(&self) -> String {
        self.config.get_user().unwrap_or_default().to_string()
    }

    /// A new connection, with TLS as the URL asks; an unreachable server, a refused login,
    /// a failed TLS handshake or a server that takes the connection and never answers is
    /// one clear error without the password, within the connection timeout: the whole
    /// connection (address, TCP, TLS, login) has that deadline, not only its TCP part.
    /// A connection given up on is left to its thread, which ends with it.
    pub fn connect(&self) -> Result<Db, ArchiveError> {
        let deadline = self.config.get_connect_timeout().copied().unwrap_or(CONNECT_TIMEOUT);
        let unreachable =
            |why: String| ArchiveError::Unreachable { shown: self.shown.clone(), address: self.address(), why };
        let (sender, receiver) = std::sync::mpsc::channel();
        let location = self.clone();
        std::thread::Builder::new()
            .name("archive-connect".to_string())
            .spawn(move || {
                // A send fails only when the caller gave up waiting, and said so: what
                // comes late (a connection, closed as it is dropped, or an error) is
                // dropped here.
                drop(sender.send(location.connect_now()));
            })
            .map_err(|e| unreachable(format!("no thread to connect on: {e}")))?;
        match receiver.recv_timeout(deadline) {
            Ok(connected) => connected,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(unreachable(format!(
                "no answer within {} s (the server took the connection and said nothing)",
                deadline.as_secs()
            ))),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                Err(unreachable("the connection ended before the server answered".to_string()))
            }
        }
    }

    /// A new connection, waiting as long as the server takes to answer: on a runtime of
    /// its own, which the connection keeps ([`Db`]).
    fn connect_now(&self) -> Result<Db, ArchiveError> {
        let unreachable =
            |why: String| ArchiveError::Unreachable { shown: self.shown.clone(), address: self.address(), why };
        let failed = |e: tokio_postgres::Error| unreachable(connect_reason(&e));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| unreachable(format!("no runtime to connect on: {e}")))?;
        match self.tls {
            Tls::Disable => {
                let connected = runtime.block_on(self.config.connect(tokio_postgres::NoTls)).map_err(failed)?;
                Ok(Db::new(runtime, connected, self.deadlines))
            }
            _ => {
                let tls = postgres_native_tls::MakeTlsConnector::new(self.tls_connector()?);
                let connected = runtime.block_on(self.config.connect(tls)).map_err(failed)?;
                Ok(Db::new(runtime, connected, self.deadlines))
            }
        }
    }

    /// The TLS connector `sslmode` asks for: `prefer` and `require` encrypt without
    /// checking the certificate (as libpq), `verify-ca` checks who signed it,
    /// `verify-full` also the host name.
    fn tls_connector(&self) -> Result<native_tls::TlsConnector, ArchiveError> {
        let mut builder = native_tls::TlsConnector::builder();
        match self.tls {
            Tls::Disable | Tls::Prefer | Tls::Require => {
                builder.danger_accept_invalid_certs(true).danger_accept_invalid_hostnames(true);
            }
            Tls::VerifyCa => {
                builder.danger_accept_invalid_hostnames(true);
            }
            Tls::VerifyFull => {}
        }
        if let Some(path) = &self.root_cert {
            let pem = std::fs::read(path).map_err(|e| ArchiveError::io(path, e))?;
            let cert = native_tls::Certificate::from_pem(&pem).map_err(|e| ArchiveError::BadServerUrl {
                shown: self.shown.clone(),
                why: format!("sslrootcert {}: {e}", path.display()),
            })?;
            builder.add_root_certificate(cert);
        }
        builder.build().map_err(|e| ArchiveError::BadServerUrl { shown: self.shown.clone(), why: e.to_string() })
    }
}

/// The seconds of deadline `key` (a whole number, at least 1).
fn seconds(key: &str, value: &str) -> Result<Duration, String> {
    match value.parse::<u64>() {
        Ok(n) if n > 0 => Ok(Duration::from_secs(n)),
        _ => Err(format!("{key} '{value}' is not a number of seconds (a whole number, at least 1)")),
    }
}

/// `url` (without its query) with its user and password percent-encoded, so that a
/// password holding `@`, `/`, `:` or `?` unencoded is read whole and the host is what
/// follows the last `@` ([`super::super::location::userinfo_end`]); `%` is kept, for
/// what is encoded already.
fn userinfo_encoded(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let Some(end) = super::super::location::userinfo_end(rest) else {
        return url.to_string();
    };
    let encode = |part: &str| -> String {
        part.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'%' => char::from(b).to_string(),
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    let userinfo = &rest[..end];
    let encoded = match userinfo.split_once(':') {
        Some((user, password)) => format!("{}:{}", encode(user), encode(password)),
        None => encode(userinfo),
    };
    format!("{scheme}://{encoded}@{}", &rest[end + 1..])
}

/// Why a connection failed, in words: the server's own message when it answered (a wrong
/// password, an unknown database), else the network's.
fn connect_reason(error: &tokio_postgres::Error) -> String {
    if let Some(db) = error.as_db_error() {
        return db.message().to_string();
    }
    let mut why = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(inner) = source {
        let said = inner.to_string();
        if !why.contains(&said) {
            why = format!("{why}: {said}");
        }
        source = inner.source();
    }
    why
}

/// Fills what the URL left out as libpq does: `PGHOST`, `PGPORT`, `PGDATABASE`, `PGUSER`,
/// then the password from `PGPASSWORD` or the password file.
fn fill_from_environment(config: &mut Config) {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    if config.get_hosts().is_empty() {
        match var("PGHOST") {
            Some(host) => {
                config.host(&host);
            }
            None => {
                config.host("localhost");
            }
        }
    }
    if config.get_ports().is_empty()
        && let Some(port) = var("PGPORT").and_then(|p| p.parse().ok())
    {
        config.port(port);
    }
    if config.get_user().is_none() {
        let user = var("PGUSER").or_else(|| var("USER")).unwrap_or_else(|| "postgres".to_string());
        config.user(&user);
    }
    if config.get_dbname().is_none()
        && let Some(db) = var("PGDATABASE")
    {
        config.dbname(&db);
    }
    if config.get_password().is_none() {
        if let Some(password) = var("PGPASSWORD") {
            config.password(password);
        } else if let Some(password) = password_file_entry(config) {
            config.password(password);
        }
    }
}

/// The password the password file (`PGPASSFILE`, else `~/.pgpass`) gives this host,
/// port, database and user: the first line that matches, `*` matching anything.
fn password_file_entry(config: &Config) -> Option<String> {
    let path = std::env::var_os("PGPASSFILE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".pgpass")))?;
    let text = std::fs::read_to_string(path).ok()?;
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(name)) => name.clone(),
        _ => "localhost".to_string(),
    };
    let port = config.get_ports().first().copied().unwrap_or(DEFAULT_PORT).to_string();
    let user = config.get_user().unwrap_or_default().to_string();
    let dbname = config.get_dbname().map_or_else(|| user.clone(), str::to_string);
    password_for(&text, [&host, &port, &dbname, &user])
}

/// The password of the first line of a password file's `text` whose host, port, database
/// and user match `wanted` (`*` matches anything; `\:` and `\\` are escapes).
fn password_for(text: &str, wanted: [&str; 4]) -> Option<String> {
    text.lines().filter(|line| !line.trim_start().starts_with('#')).find_map(|line| {
        let fields = split_escaped(line);
        if fields.len() != 5 {
            return None;
        }
        let matches = fields.iter().zip(wanted).all(|(field, want)| field == "*" || field == want);
        matches.then(|| fields[4].clone())
    })
}

/// The `:`-separated fields of a password file line, its escapes undone.
fn split_escaped(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next()
                    && let Some(last) = fields.last_mut()
                {
                    last.push(next);
                }
            }
            ':' => fields.push(String::new()),
            _ => {
                if let Some(last) = fields.last_mut() {
                    last.push(c);
                }
            }
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_read_with_its_tls_and_shown_without_its_password() {
        let location =
            ServerLocation::parse("postgresql://editor:secret@db.example:6543/news?sslmode=verify-full").unwrap();
        assert_eq!(location.tls, Tls::VerifyFull);
        assert_eq!(location.address(), "db.example:6543");
        assert_eq!(location.user(), "editor");
        assert_eq!(location.shown(), "postgresql://editor:***@db.example:6543/news?sslmode=verify-full");
        assert!(!format!("{location:?}").contains("secret"));
        let error = ServerLocation::parse("postgresql://u:secret@h/db?sslmode=sometimes").unwrap_err().to_string();
        assert!(error.contains("sslmode") && !error.contains("secret"), "{error}");
    }

    #[test]
    fn statement_deadlines_are_read_from_the_url() {
        let location = ServerLocation::parse("postgresql://u:secret@h/db?sslmode=disable").unwrap();
        assert_eq!(location.deadlines, Deadlines::default());
        let url = "postgresql://u:secret@h/db?twinspot_deadline=5&sslmode=disable&twinspot_maintenance_deadline=600";
        let location = ServerLocation::parse(url).unwrap();
        assert_eq!(location.deadlines.statement, Duration::from_secs(5));
        assert_eq!(location.deadlines.maintenance, Duration::from_secs(600));
        assert_eq!(location.tls, Tls::Disable);
        for bad in ["0", "-3", "2.5", "soon", ""] {
            let url = format!("postgresql://u:secret@h/db?twinspot_deadline={bad}");
            let error = ServerLocation::parse(&url).unwrap_err().to_string();
            assert!(error.contains("twinspot_deadline") && !error.contains("secret"), "{error}");
        }
    }

    #[test]
    fn a_password_holding_at_signs_and_slashes_is_read_whole() {
        for password in ["p@ss", "p@s/s:w@rd", "a?b@c", "50%off"] {
            let url = format!("postgresql://odd:{password}@db.example:6543/news?sslmode=disable");
            let location = ServerLocation::parse(&url).unwrap();
            assert_eq!(location.address(), "db.example:6543", "{password}");
            assert_eq!(location.user(), "odd");
            assert_eq!(location.config.get_password(), Some(password.as_bytes()), "{password}");
            assert_eq!(location.config.get_dbname(), Some("news"));
            assert_eq!(location.tls, Tls::Disable);
            assert_eq!(location.shown(), "postgresql://odd:***@db.example:6543/news?sslmode=disable");
        }
    }

    #[test]
    fn the_password_file_is_read_as_libpq_reads_it() {
        let text = "# comment\nother:5432:*:*:wrong\ndb.example:*:news:editor:pa\\:ss\n*:*:*:*:fallback\n";
        assert_eq!(password_for(text, ["db.example", "5432", "news", "editor"]).as_deref(), Some("pa:ss"));
        assert_eq!(password_for(text, ["elsewhere", "1", "x", "y"]).as_deref(), Some("fallback"));
        assert_eq!(password_for("h:1:d:u\n", ["h", "1", "d", "u"]), None);
    }
}

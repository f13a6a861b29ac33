//! A throw-away PostgreSQL server for the shared archive's tests: `initdb` and `pg_ctl`
//! (Debian's `postgresql` package, which `.ci/setup` installs) in a temporary folder, on
//! a free loopback port, with password logins over TCP; stopped when dropped. Run as root,
//! the server runs as the `postgres` user the package makes (PostgreSQL refuses root).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The superuser of the throw-away server.
pub const ADMIN: &str = "twinspot_admin";
/// Its password.
pub const ADMIN_PASSWORD: &str = "admin-Pw-4417";

/// A running throw-away server.
pub struct PgServer {
    folder: tempfile::TempDir,
    bin: PathBuf,
    pub port: u16,
    /// The certificate of a server started with TLS (self-signed, for `localhost` and
    /// `127.0.0.1`).
    pub certificate: Option<PathBuf>,
}

impl PgServer {
    /// Makes and starts a new server.
    pub fn start() -> Self {
        Self::make(false)
    }

    /// Makes and starts a new server that offers TLS, with a self-signed certificate.
    pub fn start_with_tls() -> Self {
        Self::make(true)
    }

    fn make(tls: bool) -> Self {
        let bin = server_binaries();
        let folder = tempfile::tempdir().expect("a folder for the server");
        open_to_all(folder.path());
        let data = folder.path().join("data");
        let pwfile = folder.path().join("pw");
        std::fs::write(&pwfile, ADMIN_PASSWORD).unwrap();
        open_to_all(&pwfile);
        let port = free_port();
        let mut server = Self { folder, bin, port, certificate: None };
        server.run_as_owner(
            "initdb",
            &[
                "-D",
                path_str(&data),
                "-U",
                ADMIN,
                "--pwfile",
                path_str(&pwfile),
                "--auth-local=trust",
                "--auth-host=scram-sha-256",
                "-E",
                "UTF8",
                "--locale=C",
            ],
        );
        if tls {
            server.certificate = Some(server.make_certificate());
        }
        server.start_again();
        server
    }

    /// A self-signed certificate and its key in the server's folder, readable by the
    /// server's user only (as PostgreSQL demands); the certificate's path.
    fn make_certificate(&self) -> PathBuf {
        let (cert, key) = (self.folder.path().join("server.crt"), self.folder.path().join("server.key"));
        let made = Command::new("openssl")
            .args(["req", "-new", "-x509", "-days", "2", "-nodes", "-subj", "/CN=localhost"])
            .args(["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout"])
            .arg(&key)
            .arg("-out")
            .arg(&cert)
            .output()
            .expect("run openssl");
        assert!(made.status.success(), "openssl: {}", String::from_utf8_lossy(&made.stderr));
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
        open_to_all(&cert);
        if is_root() {
            let owned = Command::new("chown").args(["postgres"]).arg(&key).status().expect("run chown");
            assert!(owned.success(), "chown the key");
        }
        cert
    }

    /// Starts the (stopped) server.
    pub fn start_again(&self) {
        let mut options =
            format!("-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off", self.port, path_str(self.folder.path()));
        if let Some(cert) = &self.certificate {
            let key = self.folder.path().join("server.key");
            options.push_str(&format!(
                " -c ssl=on -c ssl_cert_file={} -c ssl_key_file={}",
                path_str(cert),
                path_str(&key)
            ));
        }
        let log = self.folder.path().join("log");
        self.run_as_owner(
            "pg_ctl",
            &["-D", path_str(&self.data()), "-l", path_str(&log), "-o", &options, "-w", "start"],
        );
    }

    /// Stops the server at once (connections are cut).
    pub fn stop(&self) {
        self.run_as_owner("pg_ctl", &["-D", path_str(&self.data()), "-m", "fast", "-w", "stop"]);
    }

    fn data(&self) -> PathBuf {
        self.folder.path().join("data")
    }

    /// A URL for `user` with `password` to database `postgres`.
    pub fn url_as(&self, user: &str, password: &str) -> String {
        format!("postgresql://{user}:{password}@127.0.0.1:{}/postgres?sslmode=disable", self.port)
    }

    /// The superuser's URL.
    pub fn url(&self) -> String {
        self.url_as(ADMIN, ADMIN_PASSWORD)
    }

    /// What the server has written to its log so far.
    pub fn log(&self) -> Vec<u8> {
        std::fs::read(self.folder.path().join("log")).unwrap_or_default()
    }

    /// Runs `sql` as the superuser.
    pub fn sql(&self, sql: &str) {
        let mut client = postgres::Client::connect(&self.url(), postgres::NoTls).expect("connect as the superuser");
        client.batch_execute(sql).expect("run the statements");
    }

    /// Runs a server program as the user the server runs as.
    fn run_as_owner(&self, program: &str, args: &[&str]) -> Output {
        let program = self.bin.join(program);
        let output = if is_root() {
            Command::new("runuser").args(["-u", "postgres", "--"]).arg(&program).args(args).output()
        } else {
            Command::new(&program).args(args).output()
        }
        .unwrap_or_else(|e| panic!("run {}: {e}", program.display()));
        assert!(
            output.status.success(),
            "{} {args:?} failed:\n{}\n{}",
            program.display(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        let program = self.bin.join("pg_ctl");
        let data = self.data();
        let args = ["-D", path_str(&data), "-m", "immediate", "-w", "stop"];
        if is_root() {
            Command::new("runuser").args(["-u", "postgres", "--"]).arg(&program).args(args).output()
        } else {
            Command::new(&program).args(args).output()
        }.ok();
    }
}

/// The folder of the server's programs (`initdb`, `pg_ctl`): Debian's newest version.
fn server_binaries() -> PathBuf {
    let root = Path::new("/usr/lib/postgresql");
    let mut versions: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|entries| entries.flatten().map(|e| e.path().join("bin")).filter(|b| b.join("initdb").exists()).collect())
        .unwrap_or_default();
    versions.sort();
    versions.pop().expect("PostgreSQL's server programs (Debian's postgresql package: run .ci/setup)")
}

fn is_root() -> bool {
    // SAFETY: geteuid only reads the process's effective user id.
    unsafe { libc::geteuid() == 0 }
}

/// Lets the server's user (another user when the tests run as root) into `path`.
fn open_to_all(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mode = if path.is_dir() { 0o777 } else { 0o644 };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A loopback port nobody listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("a temporary path in UTF-8")
}

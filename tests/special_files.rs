//! Named pipes, sockets and devices among the files of a folder: a check or an add reads
//! the regular files, gives each of the others one error saying what it is, and never
//! waits in `open()` for a pipe's writer or reads a device without end. Every run here is
//! killed after a time limit, so a run that hangs fails instead of hanging the tests.

use std::os::unix::net::UnixListener;
use std::path::Path;
use std::time::Duration;

use crate::pg::PgServer;
use crate::util::{success, twinspot_within};

/// What a run may take: seconds on a debug build; a hang is killed here.
const LIMIT: Duration = Duration::from_secs(60);

/// A folder `docs` with two documents that share a sentence and, beside them, a named
/// pipe (as `.txt` and as `.html`, which a check opens to tell its own reports apart), a
/// socket and a link to an endless device, all named as documents. The socket's listener
/// is kept for as long as the folder.
fn folder_with_special_files() -> (tempfile::TempDir, UnixListener) {
    let dir = tempfile::tempdir().unwrap();
    let docs = dir.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    let shared = "Debian packages are built from source packages, which hold the upstream sources and \
                  the packaging in a debian directory, and the build daemons compile them.";
    std::fs::write(docs.join("a.txt"), format!("The first essay begins here. {shared}")).unwrap();
    std::fs::write(docs.join("b.txt"), format!("The second essay begins elsewhere. {shared}")).unwrap();
    for name in ["pipe.txt", "pipe.html"] {
        let path = std::ffi::CString::new(docs.join(name).to_str().unwrap()).unwrap();
        // SAFETY: mkfifo(3) on a NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0, "mkfifo {name}");
    }
    let socket = UnixListener::bind(docs.join("socket.txt")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", docs.join("zero.txt")).unwrap();
    (dir, socket)
}

/// Runs `args` in `dir` within [`LIMIT`]; its standard output and error.
fn run(dir: &Path, args: &[&str]) -> (String, String) {
    let output = twinspot_within(dir, args, LIMIT);
    let stdout = success(&output);
    (stdout, String::from_utf8_lossy(&output.stderr).into_owned())
}

/// Each special file of the folder has its error, saying what it is, on stderr.
fn assert_named(stderr: &str) {
    for (name, kind) in [
        ("pipe.txt", "a named pipe"),
        ("pipe.html", "a named pipe"),
        ("socket.txt", "a socket"),
        ("zero.txt", "a device"),
    ] {
        let said = stderr.lines().any(|l| l.contains(&format!("docs/{name}")) && l.contains(kind));
        assert!(said, "no error for {name} ({kind}):\n{stderr}");
    }
}

#[test]
fn a_check_of_a_folder_reads_its_files_and_names_the_pipes_sockets_and_devices() {
    let (dir, _socket) = folder_with_special_files();
    let (stdout, stderr) = run(dir.path(), &["compare", "--all", "docs", "--json", "-", "-q"]);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["pairs"].as_array().map(Vec::len), Some(1), "{report:#}");
    assert_named(&stderr);
}

/// The first add reads every file; the second hashes the files whose stamps it cannot
/// trust, which used to open the pipe and wait for a writer forever.
#[test]
fn adds_into_a_folder_archive_name_the_pipes_sockets_and_devices_and_go_on() {
    let (dir, _socket) = folder_with_special_files();
    let (first, stderr) = run(dir.path(), &["archive", "add", "arc", "docs"]);
    assert!(first.contains("2 added") && first.contains("4 failed"), "{first}");
    assert_named(&stderr);
    let (second, stderr) = run(dir.path(), &["archive", "add", "arc", "docs"]);
    assert!(second.contains("2 unchanged") && second.contains("4 failed"), "{second}");
    assert_named(&stderr);
    let (checked, _) = run(dir.path(), &["archive", "check", "arc", "docs/a.txt", "--json", "-", "-q"]);
    let report: serde_json::Value = serde_json::from_str(&checked).unwrap();
    let b = crate::util::doc_id(&report, "docs/b.txt");
    assert!(report["pairs"].as_array().unwrap().iter().any(|p| p["b"] == b), "{report:#}");
}

/// The shared archive hashes every file before it asks the server which are archived:
/// its first add used to wait on the pipe.
#[test]
fn adds_into_a_shared_archive_name_the_pipes_sockets_and_devices_and_go_on() {
    let server = PgServer::start();
    let url = server.url();
    let (dir, _socket) = folder_with_special_files();
    let (first, stderr) = run(dir.path(), &["archive", "add", &url, "docs"]);
    assert!(first.contains("2 added") && first.contains("4 failed"), "{first}");
    assert_named(&stderr);
    let (second, stderr) = run(dir.path(), &["archive", "add", &url, "docs"]);
    assert!(second.contains("2 unchanged") && second.contains("4 failed"), "{second}");
    assert_named(&stderr);
}

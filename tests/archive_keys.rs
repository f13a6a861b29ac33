//! What names an archive and what a remove names, on the folder and the shared archive:
//! a path given to `remove` is the file it resolves to where the command runs (two
//! classes' `sub/e1.txt` are two files), a URL's password is never shown whatever it
//! holds and a mistyped URL never becomes a folder, a server that takes the connection
//! and never answers is one message within the timeout, and schemas and paths no archive
//! can live in are refused for what they are.

use std::io::Read;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use crate::pg::PgServer;
use crate::util::{command, streams, success, twinspot};

/// A run that must fail with `code`; its standard error.
fn fails_with(code: i32, dir: &Path, args: &[&str]) -> String {
    let out = twinspot(dir, args);
    assert_eq!(out.status.code(), Some(code), "{args:?}\n{}", streams(&out));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Two classes, each with its own `sub/e1.txt`, in `dir/classA` and `dir/classB`.
fn two_classes(dir: &Path) {
    for (class, words) in [("classA", "apples ripen slowly"), ("classB", "rivers carve canyons")] {
        std::fs::create_dir_all(dir.join(class).join("sub")).unwrap();
        let body: String =
            (0..40).map(|i| format!("In {class} essay line {i}: {words} over {i} long years. ")).collect();
        std::fs::write(dir.join(class).join("sub/e1.txt"), body).unwrap();
    }
}

/// The list of `archive`'s documents, one line each.
fn listed(dir: &Path, archive: &str) -> Vec<String> {
    success(&twinspot(dir, &["archive", "list", archive])).lines().map(str::to_string).collect()
}

/// Each class adds its `sub` from inside its own folder; a remove run in one class
/// removes that class's file only, and a remove where the path names no file removes
/// nothing and names what is archived under that path.
fn remove_takes_the_file_the_path_resolves_to(dir: &Path, archive: &str) {
    two_classes(dir);
    for class in ["classA", "classB"] {
        let said = success(&twinspot(&dir.join(class), &["archive", "add", archive, "sub", "-q"]));
        assert!(said.starts_with("1 added"), "{said}");
    }
    let list = listed(dir, archive);
    assert_eq!(list.len(), 2, "{list:?}");
    let real = std::fs::canonicalize(dir).unwrap();
    for class in ["classA", "classB"] {
        let from = format!("(from {})", real.join(class).join("sub/e1.txt").display());
        assert!(list.iter().any(|l| l.contains("sub/e1.txt") && l.contains(&from)), "{from}: {list:?}");
    }
    // Where the path names no file: nothing removed, and the two documents named.
    let out = twinspot(dir, &["archive", "remove", archive, "sub/e1.txt"]);
    assert_eq!(out.status.code(), Some(1), "{}", streams(&out));
    let (said, told) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("0 removed; not in the archive: sub/e1.txt"), "{said}");
    assert!(told.contains("id 1 from") && told.contains("id 2 from") && told.contains("--id"), "{told}");
    assert_eq!(listed(dir, archive).len(), 2);
    // In class A: its own document goes, class B's stays.
    let said = success(&twinspot(&dir.join("classA"), &["archive", "remove", archive, "sub/e1.txt"]));
    assert_eq!(said.trim(), "1 removed");
    let list = listed(dir, archive);
    assert_eq!(list.len(), 1, "{list:?}");
    assert!(list[0].split_whitespace().next() == Some("2"), "class B's document went: {list:?}");
}

#[test]
fn remove_in_one_class_keeps_another_class_s_file_of_the_same_path_in_a_folder_archive() {
    let tmp = tempfile::tempdir().unwrap();
    let archive = tmp.path().join("arc");
    remove_takes_the_file_the_path_resolves_to(tmp.path(), archive.to_str().unwrap());
}

#[test]
fn remove_in_one_class_keeps_another_class_s_file_of_the_same_path_in_a_shared_archive() {
    let server = PgServer::start();
    let tmp = tempfile::tempdir().unwrap();
    remove_takes_the_file_the_path_resolves_to(tmp.path(), &server.url());
}

/// Every file under `dir`, read whole.
fn files_under(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_under(&path));
        } else if let Ok(bytes) = std::fs::read(&path) {
            found.push((path.display().to_string(), bytes));
        }
    }
    found
}

#[test]
fn a_password_holding_at_signs_and_slashes_is_never_shown_and_a_mistyped_url_makes_nothing() {
    // Pieces of the password, each unlike anything else a run or the server writes.
    const PIECES: [&str; 5] = ["qzv", "Wm7r", "kLp", "Hj9", "Xy4t"];
    let password = "qzv@Wm7r/kLp:Hj9@Xy4t";
    let server = PgServer::start();
    server.sql(&format!("CREATE ROLE odd LOGIN PASSWORD '{password}'; GRANT CREATE ON DATABASE postgres TO odd"));
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    two_classes(dir);
    let port = server.port;
    let url = format!("postgresql://odd:{password}@127.0.0.1:{port}/postgres?sslmode=disable");
    let mut outputs: Vec<Output> = Vec::new();
    // The password is read whole: the add reaches the server and logs in.
    let out = twinspot(dir, &["archive", "add", &url, "classA", "-q"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("1 added"), "{}", streams(&out));
    outputs.push(out);
    for args in [
        &["archive", "check", &url, "classB", "-q", "--json", "report.json", "--html", "report.html"][..],
        &["archive", "list", &url],
        &["archive", "stats", &url],
    ] {
        let out = twinspot(dir, args);
        assert!(out.status.success(), "{args:?}: {}", streams(&out));
        outputs.push(out);
    }
    // A wrong password, a server named after a password's last `@`, a mistyped URL.
    let wrong = format!("postgresql://odd:{password}x@127.0.0.1:{port}/postgres?sslmode=disable");
    let out = twinspot(dir, &["archive", "list", &wrong]);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(said.contains("postgresql://odd:***@127.0.0.1"), "{said}");
    outputs.push(out);
    let unknown = format!("postgresql://odd:{password}@nosuchhost.invalid:{port}/postgres");
    let out = twinspot(dir, &["archive", "list", &unknown]);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(said.contains(&format!("server nosuchhost.invalid:{port} ")), "the name sent to the resolver: {said}");
    outputs.push(out);
    for mistyped in [
        format!("postgresql:/odd:{password}@127.0.0.1:{port}/postgres"),
        format!("postgres:/odd:{password}@127.0.0.1:{port}/postgres"),
        format!("postgresql:odd:{password}@127.0.0.1:{port}/postgres"),
    ] {
        for args in [&["archive", "add", &mistyped, "classA", "-q"][..], &["archive", "check", &mistyped, "classA"]] {
            let out = twinspot(dir, args);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {}", streams(&out));
            assert!(String::from_utf8_lossy(&out.stderr).contains("mistyped"), "{}", streams(&out));
            outputs.push(out);
        }
    }
    let mut made: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    made.sort();
    assert_eq!(made, ["classA", "classB", "report.html", "report.json"], "a mistyped URL made a folder");
    // Nowhere a piece of the password: outputs, files written, the server's log.
    let mut seen: Vec<(String, Vec<u8>)> = files_under(dir);
    for (i, out) in outputs.iter().enumerate() {
        seen.push((format!("stdout of run {i}"), out.stdout.clone()));
        seen.push((format!("stderr of run {i}"), out.stderr.clone()));
    }
    seen.push(("the server's log".to_string(), server.log()));
    assert!(!server.log().is_empty(), "the server's log is read");
    for (what, bytes) in &seen {
        let text = String::from_utf8_lossy(bytes);
        for piece in PIECES {
            assert!(!text.contains(piece), "{what} holds '{piece}' of the password:\n{text}");
        }
    }
}

/// A loopback port that takes connections and never says a word, for `for_how_long`;
/// then it closes them and stops.
fn silent_server(for_how_long: Duration) -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    std::thread::Builder::new()
        .name("silent-server".to_string())
        .spawn(move || {
            let started = Instant::now();
            let mut held = Vec::new();
            while started.elapsed() < for_how_long {
                match listener.accept() {
                    Ok((stream, _)) => held.push(stream),
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
            }
        })
        .unwrap();
    port
}

/// Runs `args` in `dir`, killed after `limit`; its output and how long it took.
pub(crate) fn run_bounded(dir: &Path, args: &[&str], limit: Duration) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = command()
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            child.kill().unwrap();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let elapsed = started.elapsed();
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    child.stdout.take().unwrap().read_to_end(&mut stdout).unwrap();
    child.stderr.take().unwrap().read_to_end(&mut stderr).unwrap();
    (Output { status, stdout, stderr }, elapsed)
}

#[test]
fn a_server_that_takes_the_connection_and_never_answers_is_one_message_within_the_timeout() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    two_classes(dir);
    let port = silent_server(Duration::from_secs(40));
    let plain = format!("postgresql://u:pw@127.0.0.1:{port}/db?sslmode=disable");
    let tls = format!("postgresql://u:pw@127.0.0.1:{port}/db");
    let short = format!("postgresql://u:pw@127.0.0.1:{port}/db?connect_timeout=2");
    for (url, args, limit) in [
        (&plain, &["archive", "check", "URL", "classA", "-q"][..], 8),
        (&tls, &["archive", "add", "URL", "classA", "-q"], 8),
        (&short, &["archive", "check", "URL", "classA", "-q"], 2),
    ] {
        let args: Vec<&str> = args.iter().map(|a| if *a == "URL" { url.as_str() } else { a }).collect();
        let (out, took) = run_bounded(dir, &args, Duration::from_secs(limit + 10));
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(took < Duration::from_secs(limit + 1), "{args:?} took {took:?}: {}", streams(&out));
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", streams(&out));
        assert!(said.contains(&format!("no answer within {limit} s")), "{said}");
        assert_eq!(said.lines().count(), 1, "one message: {said}");
    }
}

#[test]
fn schemas_no_archive_can_live_in_are_refused_for_what_they_are() {
    let server = PgServer::start();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    two_classes(dir);
    let url = server.url();
    // Another application's tables in `public`: refused, nothing added beside them.
    server.sql(
        "CREATE TABLE public.customers (id int PRIMARY KEY, name text); INSERT INTO public.customers VALUES (1, 'x')",
    );
    let said = fails_with(1, dir, &["archive", "add", &url, "classA", "--schema", "public", "-q"]);
    assert!(said.contains("schema public holds tables of another application"), "{said}");
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let tables: i64 =
        client.query_one("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", &[]).unwrap().get(0);
    assert_eq!(tables, 1, "tables were made beside the application's");
    // The server's own schemas, and a name longer than PostgreSQL keeps.
    for system in ["information_schema", "pg_catalog"] {
        let said = fails_with(2, dir, &["archive", "add", &url, "classA", "--schema", system, "-q"]);
        assert!(said.contains("a schema of the PostgreSQL server itself") && !said.contains("owner"), "{said}");
    }
    let long = "a".repeat(64);
    let said = fails_with(2, dir, &["archive", "list", &url, "--schema", &long]);
    assert!(
        said.contains("64 letters long") && said.contains("at most 63") && !said.contains("letters, digits"),
        "{said}"
    );
    // A role that may read is told who may grant, with no flag that does not exist.
    success(&twinspot(dir, &["archive", "add", &url, "classA", "-q"]));
    server.sql("CREATE ROLE reader LOGIN PASSWORD 'reader-pw'");
    success(&twinspot(dir, &["archive", "grant", &url, "reader", "--read"]));
    let reader = server.url_as("reader", "reader-pw");
    let said = fails_with(1, dir, &["archive", "grant", &reader, "reader", "--write"]);
    assert!(
        said.contains("only the archive's owner (the role that owns its schema)") && !said.contains("--owner"),
        "{said}"
    );
}

#[test]
fn a_folder_archive_at_a_path_too_long_for_its_catalog_is_told_so_not_read_only() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    two_classes(dir);
    // Its longest file, `catalog.sqlite.new-journal`, must stay within SQLite's 512: an
    // archive at a path of 485 characters is made, one of 486 is refused for its length.
    let folder_of = |length: usize| {
        let mut deep = std::fs::canonicalize(dir).unwrap().join("deep");
        while deep.as_os_str().len() + 41 < length {
            deep.push("a-rather-long-folder-name-of-forty-chars");
        }
        let last = length - deep.as_os_str().len() - 1;
        deep.join("z".repeat(last))
    };
    let fits = folder_of(485);
    assert_eq!(fits.as_os_str().len(), 485);
    success(&twinspot(dir, &["archive", "add", fits.to_str().unwrap(), "classA", "-q"]));
    for length in [486, 520] {
        let archive = folder_of(length);
        let said = fails_with(1, dir, &["archive", "add", archive.to_str().unwrap(), "classA", "-q"]);
        assert!(said.contains(&format!("path of {length} characters")), "{said}");
        assert!(said.contains("at most 485") && !said.contains("read-only"), "{said}");
    }
}

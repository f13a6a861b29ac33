//! The archive under pressure, through the real binary under memory and time bounds:
//! damaged segments are never merged into sound ones and a check meeting damage says so;
//! `remove` keys mean one thing; two writers never meet; a read-only archive is checked;
//! a file is one document however its path is spelled; URLs and foreign databases are
//! refused untouched; leftovers are reported and removed; files inside the archive folder
//! are never archived; impossible dates are refused.

use std::path::Path;
use std::process::Command;

use crate::util::{Limited, MEMORY_LIMIT, command, run_limited, streams};

/// Runs `command` under the memory limit and checks it stayed below it.
fn bounded(command: Command) -> Limited {
    let run = run_limited(command);
    assert!(run.peak_bytes < MEMORY_LIMIT, "peak memory {} bytes\n{}", run.peak_bytes, streams(&run.output));
    // A bound against hangs, far above what these small archives take, not a speed test.
    assert!(run.elapsed.as_secs() < 180, "took {:?}\n{}", run.elapsed, streams(&run.output));
    run
}

/// Runs `twinspot args…` in `dir` under the bounds.
fn run(dir: &Path, args: &[&str]) -> Limited {
    let mut command = command();
    command.current_dir(dir).args(args);
    bounded(command)
}

/// Standard output of a run that must succeed.
fn ok(dir: &Path, args: &[&str]) -> String {
    let run = run(dir, args);
    assert!(run.output.status.success(), "{args:?} failed\n{}", streams(&run.output));
    String::from_utf8_lossy(&run.output.stdout).into_owned()
}

/// Standard error of a run that must fail.
fn fails(dir: &Path, args: &[&str]) -> String {
    let run = run(dir, args);
    assert!(!run.output.status.success(), "{args:?} succeeded\n{}", streams(&run.output));
    String::from_utf8_lossy(&run.output.stderr).into_owned()
}

/// An English or Chinese document of about 60 words, different for each `seed`.
fn text(seed: usize) -> String {
    if seed.is_multiple_of(2) {
        (0..12)
            .map(|j| {
                format!("Report {seed} notes that river {j} carried {} tonnes of sand to the delta. ", seed * 97 + j)
            })
            .collect()
    } else {
        (0..12).map(|j| format!("第{seed}号报告说明第{j}条河流向三角洲运送了{}吨泥沙。", seed * 97 + j)).collect()
    }
}

fn write(path: &Path, content: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

/// The files of the archive's segments of `kind` (0 k-grams, 1 sentences), oldest first.
fn segments(arc: &Path, kind: i64) -> Vec<String> {
    let conn =
        rusqlite::Connection::open_with_flags(arc.join("catalog.sqlite"), rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let mut stmt = conn.prepare("SELECT file FROM segments WHERE kind = ?1 ORDER BY id").unwrap();
    stmt.query_map([kind], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap()
}

/// Rewrites the bytes `range` of the entries of segment `file` with `fill(offset, old byte)`.
fn damage(
    arc: &Path,
    file: &str,
    range: impl Fn(usize) -> std::ops::Range<usize>,
    mut fill: impl FnMut(usize, u8) -> u8,
) {
    let path = arc.join(file);
    let mut bytes = std::fs::read(&path).unwrap();
    // The entries lie between the 40-byte header and the sparse index (2^bits + 1 u64),
    // the filter (its words counted in the header) and the checksum, whatever their width.
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    let bits = u32::from_le_bytes(bytes[12..16].try_into().unwrap());
    let entries = bytes.len() - 40 - ((1usize << bits) + 1) * 8 - word(24) * 8 - 8;
    for at in range(entries) {
        let at = 40 + at;
        bytes[at] = fill(at, bytes[at]);
    }
    std::fs::write(&path, bytes).unwrap();
}

#[test]
fn a_damaged_segment_is_never_merged_into_a_sound_one_and_a_check_meeting_damage_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for batch in 0..4 {
        for i in 0..3 {
            write(&dir.join(format!("b{batch}/d{i}.txt")), &text(batch * 3 + i));
        }
    }
    write(&dir.join("suspect.txt"), &format!("An opening of my own.\n{}\n{}", text(3), text(4)));
    for batch in ["b0", "b1", "b2"] {
        ok(dir, &["archive", "add", "arc", batch, "-q"]);
    }
    let arc = dir.join("arc");
    let first = segments(&arc, 0)[0].clone();
    // 64 bytes flipped in the middle of the first batch's k-gram postings.
    damage(&arc, &first, |n| n / 2..n / 2 + 64, |_, b| !b);

    // The fourth add fills the tier: the damaged segment is left out of the merge.
    let run = run(dir, &["archive", "add", "arc", "b3", "-q"]);
    let said = String::from_utf8_lossy(&run.output.stderr).into_owned();
    assert_eq!(run.output.status.code(), Some(1), "{}", streams(&run.output));
    assert!(said.contains(&first) && said.contains("damaged"), "{said}");
    assert!(segments(&arc, 0).contains(&first), "the damaged segment was merged away");
    let compacted = fails(dir, &["archive", "compact", "arc"]);
    assert!(compacted.contains(&first) && compacted.contains("damaged"), "{compacted}");
    let verified = fails(dir, &["archive", "verify", "arc"]);
    assert!(verified.contains(&format!("segment {first}: checksum does not match")), "{verified}");
    // The documents of the damaged batch are named, and none beyond the range of
    // documents the segment holds (1 to 3, packed in two bits: a damaged entry may read
    // as document 4, never as 5).
    assert!(verified.contains("(b0/d0.txt)") && !verified.contains("(b1/d1.txt)"), "{verified}");

    // Every posting of the second batch overwritten: a check that meets them says so
    // instead of answering with fewer pairs.
    let second = segments(&arc, 0)[1].clone();
    assert!(second.starts_with("k-4-"), "{second}");
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let noise = move |_: usize, _: u8| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as u8
    };
    damage(&arc, &second, |n| 0..n, noise);
    let checked = fails(dir, &["archive", "check", "arc", "suspect.txt", "--json", "-", "-q"]);
    // The first damaged segment is still there too, and the segments are read in
    // parallel: the check names whichever damaged one it met first.
    assert!((checked.contains(&second) || checked.contains(&first)) && checked.contains("damaged"), "{checked}");
}

#[test]
fn remove_tells_ids_from_paths_and_names_what_it_did_not_find() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(&dir.join("docs/a.txt"), &text(0));
    write(&dir.join("docs/b.txt"), &text(1));
    write(&dir.join("2"), &text(2));
    ok(dir, &["archive", "add", "arc", "docs", "-q"]);
    ok(dir, &["archive", "add", "arc", "2", "-q"]);
    let list = ok(dir, &["archive", "list", "arc"]);
    assert_eq!(list.lines().count(), 3, "{list}");
    // "2" is the file named 2, not the document with id 2.
    assert!(ok(dir, &["archive", "remove", "arc", "2"]).contains("1 removed"));
    let list = ok(dir, &["archive", "list", "arc"]);
    assert!(list.contains("docs/a.txt") && list.contains("docs/b.txt") && !list.contains(" 2\n"), "{list}");
    // An id is said as one.
    assert!(ok(dir, &["archive", "remove", "arc", "--id", "1"]).contains("1 removed"));
    let list = ok(dir, &["archive", "list", "arc"]);
    assert!(!list.contains("docs/a.txt") && list.contains("docs/b.txt"), "{list}");
    // A key that matches nothing is named, and the run says it failed.
    let run = run(dir, &["archive", "remove", "arc", "docs/b.txt", "nosuch.txt", "--id", "99"]);
    assert_eq!(run.output.status.code(), Some(1), "{}", streams(&run.output));
    let said = String::from_utf8_lossy(&run.output.stdout);
    assert!(said.contains("1 removed; not in the archive: id 99, nosuch.txt"), "{said}");
}

/// Writes `count` documents to `dir/name`, distinct from those of any other name.
fn documents(dir: &Path, name: &str, count: usize) {
    let salt = name.bytes().map(usize::from).sum::<usize>() * 1000;
    for i in 0..count {
        write(&dir.join(format!("{name}/{i:03}.txt")), &text(salt + i));
    }
}

#[test]
fn two_adds_at_once_both_finish_and_keep_every_document() {
    for round in 0..3 {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        documents(&dir, "one", 40);
        documents(&dir, "two", 40);
        // On an archive that does not exist yet, then on one that does.
        if round == 2 {
            documents(&dir, "seed", 5);
            ok(&dir, &["archive", "add", "arc", "seed", "-q"]);
        }
        let adds: Vec<_> = ["one", "two"]
            .into_iter()
            .map(|name| {
                let dir = dir.clone();
                std::thread::spawn(move || run(&dir, &["archive", "add", "arc", name, "-q"]))
            })
            .collect();
        for add in adds {
            let run = add.join().unwrap();
            assert!(run.output.status.success(), "round {round}: {}", streams(&run.output));
            assert!(!String::from_utf8_lossy(&run.output.stderr).contains("damaged"), "{}", streams(&run.output));
        }
        let expected = if round == 2 { 85 } else { 80 };
        assert_eq!(ok(&dir, &["archive", "list", "arc"]).lines().count(), expected, "round {round}");
        let verified = ok(&dir, &["archive", "verify", "arc"]);
        assert!(verified.contains(" 0 problems") && verified.contains(" 0 leftover"), "{verified}");
    }
}

#[test]
fn an_add_waits_with_a_message_while_another_writer_holds_the_archive() {
    use std::io::BufRead;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    documents(dir, "first", 3);
    documents(dir, "later", 3);
    ok(dir, &["archive", "add", "arc", "first", "-q"]);
    let lock = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join("arc/twinspot.lock"))
        .unwrap();
    lock.lock().unwrap();
    let mut child = command()
        .current_dir(dir)
        .args(["archive", "add", "arc", "later", "-q"])
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            tx.send(line).ok();
        }
    });
    // The add says it waits, and does, as long as the lock is held.
    let line = rx.recv_timeout(std::time::Duration::from_secs(120)).unwrap_or_default();
    assert!(line.contains("waiting for another"), "{line:?}: {:?}", child.try_wait());
    assert!(child.try_wait().unwrap().is_none(), "the add did not wait");
    drop(lock);
    let status = child.wait().unwrap();
    assert!(status.success());
    assert_eq!(ok(dir, &["archive", "list", "arc"]).lines().count(), 6);
}

/// Makes `path` and everything below it read-only (or writable again).
#[cfg(unix)]
fn read_only(path: &Path, on: bool) {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path).unwrap();
    let mode = match (meta.is_dir(), on) {
        (true, true) => 0o555,
        (true, false) => 0o755,
        (false, true) => 0o444,
        (false, false) => 0o644,
    };
    if meta.is_dir() && !on {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    if meta.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            read_only(&entry.unwrap().path(), on);
        }
    }
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// The binary run by a user who may only read the archive: as `nobody` when the tests
/// run as root (whom permissions do not stop).
#[cfg(unix)]
fn as_reader(dir: &Path, args: &[&str]) -> Limited {
    use std::os::unix::process::CommandExt;
    // SAFETY: geteuid has no preconditions.
    let as_nobody = unsafe { libc::geteuid() } == 0;
    // `nobody` may not be able to enter the build folder: it runs a copy of the binary.
    let copy = as_nobody.then(crate::util::binary_for_other_users);
    let mut command = match &copy {
        Some((_, binary)) => Command::new(binary),
        None => command(),
    };
    command.current_dir(dir).args(args).env("TWINSPOT_CACHE_DIR", dir.join("no-cache"));
    if as_nobody {
        // SAFETY: the closure runs in the forked child before exec and only calls
        // setgroups, setgid and setuid, which are async-signal-safe.
        unsafe {
            command.pre_exec(|| {
                if libc::setgroups(0, std::ptr::null()) != 0 || libc::setgid(65534) != 0 || libc::setuid(65534) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    bounded(command)
}

#[cfg(unix)]
#[test]
fn a_read_only_archive_is_checked_listed_and_verified_by_a_user_who_may_only_read_it() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    write(&dir.join("docs/a.txt"), &text(0));
    write(&dir.join("docs/b.txt"), &format!("{} {}", text(1), text(1)));
    write(&dir.join("docs/c.txt"), &format!("{} {} Nothing more.", text(1), text(1)));
    write(&dir.join("suspect.txt"), &format!("My own opening line.\n{}", text(0)));
    ok(dir, &["archive", "add", "arc", "docs", "-q"]);
    read_only(&dir.join("arc"), true);
    for args in [
        &["archive", "check", "arc", "suspect.txt", "--json", "-", "-q"][..],
        &["archive", "list", "arc"],
        &["archive", "stats", "arc"],
        &["archive", "groups", "arc"],
        &["archive", "verify", "arc"],
    ] {
        let run = as_reader(dir, args);
        assert!(run.output.status.success(), "{args:?}\n{}", streams(&run.output));
        if args[1] == "check" {
            let report: serde_json::Value = serde_json::from_slice(&run.output.stdout).unwrap();
            assert_eq!(report["pairs"].as_array().map(Vec::len), Some(1), "{report:#}");
        }
    }
    let refused = as_reader(dir, &["archive", "add", "arc", "suspect.txt", "-q"]);
    assert!(!refused.output.status.success());
    assert!(String::from_utf8_lossy(&refused.output.stderr).contains("read-only here"), "{}", streams(&refused.output));
    read_only(&dir.join("arc"), false);
}

#[test]
fn a_file_is_one_document_however_its_path_is_spelled_and_swapped_files_are_both_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = dir.join("docs/f.txt");
    write(&file, &text(0));
    ok(dir, &["archive", "add", "arc", "docs/f.txt", "-q"]);
    let absolute = file.to_str().unwrap().to_string();
    for (n, (cwd, arc, name)) in
        [(dir, "arc", "./docs/f.txt"), (dir, "arc", absolute.as_str()), (&dir.join("docs"), "../arc", "f.txt")]
            .into_iter()
            .enumerate()
    {
        std::fs::write(&file, text(n + 1)).unwrap();
        let said = ok(cwd, &["archive", "add", arc, name, "-q"]);
        assert!(said.contains("0 added, 1 replaced, 0 unchanged"), "{name}: {said}");
    }
    let list = ok(dir, &["archive", "list", "arc"]);
    assert_eq!(list.lines().count(), 1, "{list}");

    // Two files that swap contents are both replaced.
    write(&dir.join("pair/a.txt"), &text(10));
    write(&dir.join("pair/b.txt"), &text(11));
    assert!(ok(dir, &["archive", "add", "arc", "pair", "-q"]).contains("2 added"));
    write(&dir.join("pair/a.txt"), &text(11));
    write(&dir.join("pair/b.txt"), &text(10));
    let said = ok(dir, &["archive", "add", "arc", "pair", "-q"]);
    assert!(said.contains("0 added, 2 replaced, 0 unchanged"), "{said}");
    assert_eq!(ok(dir, &["archive", "list", "arc"]).lines().count(), 3);
}

#[test]
fn archives_named_by_a_url_are_refused_without_echoing_a_password_or_making_anything() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(&dir.join("doc.txt"), &text(0));
    let local = dir.join("made-through-file-url");
    let file_url = format!("file://{}", local.display());
    let urls = ["s3://key:secret@bucket/archive", "https://user:secret@example.org/archive", file_url.as_str()];
    // A PostgreSQL URL is a shared archive: here a server that is not there (port 1 of
    // this machine refuses at once), never a folder.
    let servers = ["postgresql://user:secret@127.0.0.1:1/db", "postgres://user:secret@127.0.0.1:1/db"];
    for url in urls.iter().chain(&servers) {
        for args in [
            &["archive", "add", url, "doc.txt", "-q"][..],
            &["archive", "check", url, "doc.txt", "-q"],
            &["archive", "list", url],
            &["archive", "verify", url],
        ] {
            let said = fails(dir, args);
            let refused = if servers.contains(url) { "cannot connect to the archive server" } else { "cannot use" };
            assert!(said.contains(refused) && !said.contains("secret"), "{args:?}: {said}");
        }
    }
    let said = fails(dir, &["archive", "add", servers[0], "doc.txt"]);
    assert!(said.contains("postgresql://user:***@127.0.0.1:1/db"), "{said}");
    let entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(entries, ["doc.txt"], "something was made");
    assert!(!local.exists());
}

#[test]
fn a_foreign_database_is_refused_and_left_byte_for_byte_as_it_was() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(&dir.join("doc.txt"), &text(0));
    std::fs::create_dir(dir.join("app")).unwrap();
    let conn = rusqlite::Connection::open(dir.join("app/catalog.sqlite")).unwrap();
    conn.execute_batch(
        "CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT);
         INSERT INTO settings VALUES ('theme', 'dark');
         CREATE TABLE documents(id INTEGER PRIMARY KEY, body TEXT);",
    )
    .unwrap();
    drop(conn);
    let before = std::fs::read(dir.join("app/catalog.sqlite")).unwrap();
    for args in [
        &["archive", "add", "app", "doc.txt", "-q"][..],
        &["archive", "remove", "app", "doc.txt"],
        &["archive", "compact", "app"],
        &["archive", "check", "app", "doc.txt", "-q"],
    ] {
        let said = fails(dir, args);
        assert!(said.contains("no format version"), "{args:?}: {said}");
    }
    assert_eq!(std::fs::read(dir.join("app/catalog.sqlite")).unwrap(), before, "the database was changed");
    let mut entries: Vec<_> = std::fs::read_dir(dir.join("app")).unwrap().map(|e| e.unwrap().file_name()).collect();
    entries.sort();
    assert_eq!(entries, ["catalog.sqlite"], "files were made beside the database");
}

#[test]
fn leftovers_of_a_killed_writer_are_reported_by_verify_and_removed_by_the_next_add() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    documents(dir, "docs", 3);
    ok(dir, &["archive", "add", "arc", "docs", "-q"]);
    // As a writer killed while writing a segment leaves them, under both namings.
    for name in ["k-4-187a9c3e2b1f0000-3039.tmp", "s-m7-187a9c3e2b1f0001-3039.seg.tmp"] {
        std::fs::write(dir.join("arc").join(name), b"TWSEG02\n half a segment").unwrap();
    }
    let verified = ok(dir, &["archive", "verify", "arc"]);
    assert!(verified.contains("2 leftover"), "{verified}");
    let run = run(dir, &["archive", "verify", "arc"]);
    assert!(String::from_utf8_lossy(&run.output.stderr).contains("k-4-187a9c3e2b1f0000-3039.tmp"));
    documents(dir, "more", 1);
    ok(dir, &["archive", "add", "arc", "more", "-q"]);
    let verified = ok(dir, &["archive", "verify", "arc"]);
    assert!(verified.contains(" 0 leftover") && verified.contains(" 0 problems"), "{verified}");
    assert!(!dir.join("arc/k-4-187a9c3e2b1f0000-3039.tmp").exists());
}

#[test]
fn files_inside_the_archive_folder_are_never_archived() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    documents(dir, "class", 2);
    ok(dir, &["archive", "add", "class/arc", "class", "-q"]);
    // The window keeps its stop passages and review marks beside the catalog.
    write(&dir.join("class/arc/twinspot-stop-passages.txt"), &text(99));
    write(&dir.join("class/arc/notes.md"), &text(98));
    let run = run(dir, &["archive", "add", "class/arc", "class", "-q"]);
    assert!(run.output.status.success(), "{}", streams(&run.output));
    assert!(String::from_utf8_lossy(&run.output.stdout).contains("0 added, 0 replaced, 2 unchanged"));
    let list = ok(dir, &["archive", "list", "class/arc"]);
    assert!(!list.contains("twinspot-stop-passages") && !list.contains("notes.md"), "{list}");
}

#[cfg(unix)]
#[test]
fn an_archive_path_linking_to_nothing_impossible_dates_and_a_damaged_catalog_are_said_clearly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(&dir.join("doc.txt"), &text(0));
    std::os::unix::fs::symlink("not-made-yet/arc", dir.join("link")).unwrap();
    let said = fails(dir, &["archive", "add", "link", "doc.txt", "-q"]);
    assert!(said.contains("is a link to not-made-yet/arc, which does not exist"), "{said}");

    let said = fails(dir, &["archive", "add", "arc", "doc.txt", "--date", "2023-02-29", "-q"]);
    assert!(said.contains("not a date"), "{said}");
    ok(dir, &["archive", "add", "arc", "doc.txt", "--date", "2024-02-29", "-q"]);
    let said = fails(dir, &["archive", "expire", "arc", "--before", "2024-02-30"]);
    assert!(said.contains("not a date"), "{said}");

    std::fs::create_dir(dir.join("junk")).unwrap();
    std::fs::write(dir.join("junk/catalog.sqlite"), "this is not a database at all, not even close").unwrap();
    let said = fails(dir, &["archive", "verify", "junk"]);
    assert!(said.contains("catalog.sqlite") && said.contains("damaged or not a twinspot archive"), "{said}");
}

#[test]
fn a_text_cut_at_the_character_limit_is_said_by_add_as_by_compare() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // Each U+FDFA counts as 54 normalized characters (NFKC gives 18, case folding may
    // triple them): 160,000 of them pass the 8,000,000-character limit in 640 KB.
    let huge = format!("{}{}", text(0), "\u{fdfa} ".repeat(160_000));
    write(&dir.join("huge.txt"), &huge);
    let run = run(dir, &["archive", "add", "arc", "huge.txt", "-q"]);
    assert!(run.output.status.success(), "{}", streams(&run.output));
    let said = String::from_utf8_lossy(&run.output.stderr);
    assert!(said.contains("note: only the first") && said.contains("huge.txt"), "{said}");
}

#[test]
fn a_segment_write_that_fails_for_want_of_space_keeps_the_archive_and_leaves_no_temporary() {
    use std::os::unix::process::CommandExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    documents(dir, "first", 2);
    ok(dir, &["archive", "add", "arc", "first", "-q"]);
    let before = ok(dir, &["archive", "list", "arc"]);
    // A long document whose segment outgrows what the process may write to one file
    // (RLIMIT_FSIZE: writes past it fail with EFBIG, as on a full disk the write fails).
    write(&dir.join("big/long.txt"), &(0..400).map(text).collect::<String>());
    let mut add = command();
    add.current_dir(dir).args(["archive", "add", "arc", "big", "-q"]);
    // SAFETY: the closure runs in the forked child before exec and only calls signal and
    // setrlimit, which are async-signal-safe, on a struct it owns.
    unsafe {
        add.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            // Above the 32 KiB of SQLite's shared-memory file, below the segment's size.
            let limit = libc::rlimit { rlim_cur: 40 * 1024, rlim_max: 40 * 1024 };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let run = bounded(add);
    assert!(!run.output.status.success(), "{}", streams(&run.output));
    let said = String::from_utf8_lossy(&run.output.stderr);
    assert!(said.contains("too large"), "{said}");
    let mut names: Vec<String> =
        std::fs::read_dir(dir.join("arc")).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    names.sort();
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "a temporary was left: {names:?}");
    assert_eq!(ok(dir, &["archive", "list", "arc"]), before);
    let verified = ok(dir, &["archive", "verify", "arc"]);
    assert!(verified.contains(" 0 leftover") && verified.contains(" 0 problems"), "{verified}");
}

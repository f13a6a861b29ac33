//! The daily add of a whole folder: unchanged files are known by their size and times
//! without being read, a touched file with the same bytes is hashed once and then known
//! again, a changed file (even one whose size and modification time were put back) is
//! replaced, and `add --sync` removes the documents of files gone from the folder, and
//! only those.

use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::util::{success, twinspot};

/// Sets the modification time of `path` to `secs_ago` seconds ago (a file modified just
/// now has not settled: its size and times are not recorded yet).
fn aged(path: &Path, secs_ago: u64) {
    let when = SystemTime::now() - Duration::from_secs(secs_ago);
    std::fs::File::options().write(true).open(path).unwrap().set_modified(when).unwrap();
}

fn text(seed: &str) -> String {
    (0..12).map(|i| format!("{seed} writes line {i} about the evening's articles and their sources. ")).collect()
}

/// Writes `docs/NAME` with `body`, modified a minute ago.
fn write_aged(docs: &Path, name: &str, body: &str) {
    let path = docs.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, body).unwrap();
    aged(&path, 60);
}

#[test]
fn an_unchanged_folder_is_known_without_reading_its_files_and_a_touched_file_is_hashed_once() {
    let tmp = tempfile::tempdir().unwrap();
    let docs = tmp.path().join("docs");
    for name in ["a.txt", "b.txt", "c.txt"] {
        write_aged(&docs, name, &text(name));
    }
    let add = |what: &str| success(&twinspot(tmp.path(), &["archive", "add", "arc", what, "-q"]));
    let said = add("docs");
    assert!(said.contains("3 added, 0 replaced, 0 unchanged, 0 failed"), "{said}");
    // Added again, under other spellings of the folder: no file is read, not even hashed.
    let absolute = docs.to_string_lossy().into_owned();
    for spelling in ["docs", "./docs", absolute.as_str()] {
        let said = add(spelling);
        assert_eq!(said.trim(), "0 added, 0 replaced, 3 unchanged, 0 failed", "{spelling}: {said}");
    }
    // Touched, same bytes: hashed once, not fingerprinted, then known by its times again.
    aged(&docs.join("b.txt"), 30);
    let said = add("docs");
    assert_eq!(said.trim(), "0 added, 0 replaced, 3 unchanged, 0 failed; 1 unchanged file read to compare its bytes");
    let said = add("docs");
    assert_eq!(said.trim(), "0 added, 0 replaced, 3 unchanged, 0 failed", "{said}");
    // Changed with the same size and the old modification time put back: the
    // status-change time tells, and the file is replaced.
    let c = docs.join("c.txt");
    let before = std::fs::metadata(&c).unwrap().modified().unwrap();
    let changed = text("c.txt").replace("evening", "morning");
    assert_eq!(changed.len(), text("c.txt").len());
    std::fs::write(&c, &changed).unwrap();
    std::fs::File::options().write(true).open(&c).unwrap().set_modified(before).unwrap();
    let said = add("docs");
    assert!(said.contains("0 added, 1 replaced, 2 unchanged, 0 failed"), "{said}");
    let list = success(&twinspot(tmp.path(), &["archive", "list", "arc"]));
    assert_eq!(list.lines().filter(|l| l.contains("c.txt")).count(), 1, "{list}");
    let report: serde_json::Value = serde_json::from_str(&success(&twinspot(
        tmp.path(),
        &["archive", "check", "arc", "docs/c.txt", "--json", "-", "-q"],
    )))
    .unwrap();
    // (The other two files differ from it by a word a line: they are shown too.)
    let docs = report["documents"].as_array().unwrap();
    let archived = docs.iter().position(|d| d["path"] == "docs/c.txt" && d["role"] == "reference");
    let archived = archived.unwrap_or_else(|| panic!("no archived c.txt: {report:#}"));
    let pairs = report["pairs"].as_array().unwrap();
    let pair = pairs.iter().find(|p| p["b"].as_u64() == Some(archived as u64));
    assert_eq!(pair.and_then(|p| p["score"].as_f64()), Some(1.0), "the new text is archived: {report:#}");
}

#[test]
fn a_file_changed_just_now_is_hashed_again_until_it_has_settled() {
    let tmp = tempfile::tempdir().unwrap();
    let docs = tmp.path().join("docs");
    write_aged(&docs, "a.txt", &text("a"));
    std::fs::write(docs.join("fresh.txt"), text("fresh")).unwrap();
    let add = || success(&twinspot(tmp.path(), &["archive", "add", "arc", "docs", "-q"]));
    assert!(add().contains("2 added"));
    // Modified within the last two seconds: its times are not trusted yet.
    let said = add();
    assert!(said.contains("2 unchanged, 0 failed; 1 unchanged file read to compare its bytes"), "{said}");
    aged(&docs.join("fresh.txt"), 60);
    let said = add();
    assert!(said.contains("read to compare"), "settled now, hashed once more to record it: {said}");
    assert_eq!(add().trim(), "0 added, 0 replaced, 2 unchanged, 0 failed");
}

#[test]
fn sync_removes_the_documents_of_files_gone_from_the_folder_and_only_those() {
    let tmp = tempfile::tempdir().unwrap();
    let docs = tmp.path().join("docs");
    let other = tmp.path().join("other");
    for name in ["a.txt", "b.txt", "sub/c.txt", "sub/d.txt"] {
        write_aged(&docs, name, &text(name));
    }
    write_aged(&other, "e.txt", &text("e"));
    let run = |args: &[&str]| success(&twinspot(tmp.path(), args));
    assert!(run(&["archive", "add", "arc", "docs", "other", "-q"]).contains("5 added"));
    std::fs::remove_file(docs.join("b.txt")).unwrap();
    std::fs::remove_file(docs.join("sub/c.txt")).unwrap();
    std::fs::remove_file(other.join("e.txt")).unwrap();
    // Without --sync nothing is removed.
    let said = run(&["archive", "add", "arc", "docs", "-q"]);
    assert_eq!(said.trim(), "0 added, 0 replaced, 2 unchanged, 0 failed", "{said}");
    assert_eq!(run(&["archive", "list", "arc"]).lines().count(), 5);
    // With it, the two files gone from docs go; e.txt, gone from a folder not given, stays.
    write_aged(&docs, "new.txt", &text("new"));
    let said = run(&["archive", "add", "arc", "./docs", "--sync", "-q"]);
    assert_eq!(said.trim(), "1 added, 0 replaced, 2 unchanged, 0 failed, 2 removed (their files are gone)", "{said}");
    let list = run(&["archive", "list", "arc"]);
    let kept: Vec<&str> = list.lines().filter_map(|l| l.split_whitespace().last()).collect();
    assert_eq!(kept.len(), 4, "{list}");
    for name in ["a.txt", "d.txt", "e.txt", "new.txt"] {
        assert!(kept.iter().any(|p| p.ends_with(name)), "{name} kept: {list}");
    }
    for name in ["b.txt", "c.txt"] {
        assert!(!kept.iter().any(|p| p.ends_with(name)), "{name} removed: {list}");
    }
    let said = run(&["archive", "add", "arc", "docs", "--sync", "-q"]);
    assert_eq!(said.trim(), "0 added, 0 replaced, 3 unchanged, 0 failed, 0 removed (their files are gone)");
    assert!(run(&["archive", "verify", "arc"]).contains("0 problems"));
}

/// An add of a few files into an archive twenty times their number or more asks the
/// catalog for those files' versions alone instead of reading every version: it decides
/// as a whole read does (known by size and times, hashed when touched, a copy of another
/// archived file not archived again, a change replaced), under every spelling of a path.
#[test]
fn a_few_files_added_to_a_large_archive_are_known_as_when_every_version_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let docs = tmp.path().join("docs");
    for i in 0..60 {
        write_aged(&docs, &format!("d{i:02}.txt"), &text(&format!("d{i:02}")));
    }
    let run = |args: &[&str]| success(&twinspot(tmp.path(), args));
    assert!(run(&["archive", "add", "arc", "docs", "-q"]).contains("60 added"));
    let one = "docs/d07.txt";
    let absolute = docs.join("d07.txt").to_string_lossy().into_owned();
    for spelling in [one, "./docs/d07.txt", absolute.as_str()] {
        let said = run(&["archive", "add", "arc", spelling, "-q"]);
        assert_eq!(said.trim(), "0 added, 0 replaced, 1 unchanged, 0 failed", "{spelling}: {said}");
    }
    // Touched, same bytes: hashed once, then known by its times again.
    aged(&docs.join("d07.txt"), 30);
    let said = run(&["archive", "add", "arc", one, "-q"]);
    assert_eq!(said.trim(), "0 added, 0 replaced, 1 unchanged, 0 failed; 1 unchanged file read to compare its bytes");
    assert_eq!(run(&["archive", "add", "arc", one, "-q"]).trim(), "0 added, 0 replaced, 1 unchanged, 0 failed");
    // A new file with the bytes of an archived one is a copy, and a new text is added.
    write_aged(&tmp.path().join("elsewhere"), "copy.txt", &text("d12"));
    write_aged(&tmp.path().join("elsewhere"), "new.txt", &text("new"));
    let said = run(&["archive", "add", "arc", "elsewhere", "-q"]);
    assert_eq!(said.trim(), "1 added, 0 replaced, 1 unchanged, 0 failed; 1 unchanged file read to compare its bytes");
    // Changed: replaced.
    write_aged(&docs, "d07.txt", &text("d07").replace("evening", "morning"));
    let said = run(&["archive", "add", "arc", one, "-q"]);
    assert_eq!(said.trim(), "0 added, 1 replaced, 0 unchanged, 0 failed", "{said}");
    let list = run(&["archive", "list", "arc"]);
    assert_eq!(list.lines().count(), 61, "{list}");
    assert!(run(&["archive", "verify", "arc"]).contains("0 problems"));
}

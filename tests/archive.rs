//! The archive from the command line: the same answer as `compare --reference`, adds that
//! skip unchanged files and replace changed ones, groups and expiry, one clear error for
//! a foreign, damaged, newer or differently made archive, an add killed midway, older
//! formats upgraded, and token keys checked by `verify`.

use std::path::{Path, PathBuf};

use crate::util::{success, twinspot};

pub(crate) fn devset() -> Option<PathBuf> {
    let dir = std::env::var_os("TWINSPOT_DEVSET")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/devset"));
    dir.join("truth.json").exists().then_some(dir)
}

/// Adds the references of the devset at `dir` to `archive` in two adds (each half in
/// name order); the references, as added (`reference/…`), in that order.
pub(crate) fn add_devset_in_halves(dir: &Path, archive: &str) -> Vec<String> {
    let mut references: Vec<String> = std::fs::read_dir(dir.join("reference"))
        .unwrap()
        .map(|e| format!("reference/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    references.sort();
    let (first, second) = references.split_at(references.len() / 2);
    for half in [first, second] {
        let mut args = vec!["archive", "add", archive, "-q"];
        args.extend(half.iter().map(String::as_str));
        success(&twinspot(dir, &args));
    }
    references
}

/// (suspect path, reference path, passages, both scores) of every pair
/// of a report, sorted; the documents of alternative twins named by path too, as the two
/// reports number documents differently.
pub(crate) fn pairs_by_path(report: &serde_json::Value) -> Vec<(String, String, String, String)> {
    let docs = report["documents"].as_array().unwrap();
    let path = |id: &serde_json::Value| docs[id.as_u64().unwrap() as usize]["path"].as_str().unwrap().to_string();
    let mut out: Vec<_> = report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            // Counted passages, then those shown but not counted (common text, quotations).
            let mut passages = serde_json::json!([p["passages"], p["excluded"]]);
            for passage in passages.as_array_mut().unwrap().iter_mut().filter_map(|l| l.as_array_mut()).flatten() {
                for alt in passage["alternatives"].as_array_mut().into_iter().flatten() {
                    if let Some(id) = alt.get("reference").cloned() {
                        alt["reference"] = path(&id).into();
                    }
                }
            }
            let verdict = format!("{} {}", p["score"], p["score_b"]);
            (path(&p["a"]), path(&p["b"]), passages.to_string(), verdict)
        })
        .collect();
    out.sort();
    out
}

/// The passages of [`pairs_by_path`] without the other references listed beside each.
fn without_alternatives(passages: &str) -> String {
    let mut passages: serde_json::Value = serde_json::from_str(passages).unwrap();
    for passage in passages.as_array_mut().unwrap().iter_mut().filter_map(|l| l.as_array_mut()).flatten() {
        passage["alternatives"] = serde_json::Value::Null;
    }
    passages.to_string()
}

/// The near-duplicate pairs of a report, by path, sorted.
pub(crate) fn near_duplicates_by_path(report: &serde_json::Value) -> Vec<(String, String)> {
    let docs = report["documents"].as_array().unwrap();
    let path = |id: &serde_json::Value| docs[id.as_u64().unwrap() as usize]["path"].as_str().unwrap().to_string();
    let mut out: Vec<_> =
        report["near_duplicates"].as_array().unwrap().iter().map(|p| (path(&p[0]), path(&p[1]))).collect();
    out.sort();
    out
}

/// Writes `count` small documents to `dir/docs` and starts `twinspot archive add arc docs`
/// in `dir`, in the background.
fn start_adding(dir: &Path, count: usize) -> std::process::Child {
    let docs = dir.join("docs");
    std::fs::create_dir(&docs).unwrap();
    for i in 0..count {
        let body: String = (0..30).map(|j| format!("document {i} line {j} says {} things. ", i * 31 + j)).collect();
        std::fs::write(docs.join(format!("{i:05}.txt")), body).unwrap();
    }
    crate::util::command().current_dir(dir).args(["archive", "add", "arc", "docs", "-q"]).spawn().unwrap()
}

fn json_of(dir: &Path, args: &[&str]) -> serde_json::Value {
    let stdout = success(&twinspot(dir, args));
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("bad JSON ({e}):\n{stdout}"))
}

fn failure(dir: &Path, args: &[&str]) -> String {
    let out = twinspot(dir, args);
    assert!(!out.status.success(), "expected a failure of {args:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn archive_check_reports_the_same_passages_as_compare_on_the_devset() {
    let Some(dir) = devset() else {
        assert!(std::env::var_os("CI").is_none(), "CI must have ../shared/devset");
        eprintln!("NOTE: ../shared/devset not found: same-answer test skipped");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let archive = tmp.path().join("a");
    let archive = archive.to_str().unwrap();
    // Two adds, so that the archive holds more than one segment of each kind.
    add_devset_in_halves(&dir, archive);
    // Without the short-copy search, the very answer of compare (of its word passes: the
    // archive keeps no meaning signal, so compare's translated passages are left out).
    let compared = json_of(
        &dir,
        &["compare", "-r", "reference", "-s", "suspect", "--no-short-copies", "--no-meaning", "--json", "-", "-q"],
    );
    let checked = json_of(&dir, &["archive", "check", archive, "suspect", "--no-short-copies", "--json", "-", "-q"]);
    let (want, got) = (pairs_by_path(&compared), pairs_by_path(&checked));
    assert!(want.len() > 30);
    assert_eq!(got, want);
    // With it (the default), compare's answer: the archive holds every document's
    // character grams, so a reference that only a short edited copy ties to a suspect is
    // found too (the devset has such a pair, and one whose only passage is a short copy in
    // a reference that its k-gram hits read).
    // (The short copies of other references listed beside a passage may start a letter
    // apart: a gram that many references hold is passed over in the whole collection, not
    // among a few.)
    let searched = json_of(&dir, &["compare", "-r", "reference", "-s", "suspect", "--no-meaning", "--json", "-", "-q"]);
    let found = pairs_by_path(&json_of(&dir, &["archive", "check", archive, "suspect", "--json", "-", "-q"]));
    let everywhere = pairs_by_path(&searched);
    let key = |p: &(String, String, String, String)| (p.0.clone(), p.1.clone());
    let shown = |p: &(String, String, String, String)| (key(p), without_alternatives(&p.2), p.3.clone());
    for pair in &found {
        assert!(everywhere.iter().any(|e| shown(e) == shown(pair)), "not what compare gives: {pair:?}");
    }
    assert!(want.iter().all(|p| found.iter().any(|f| key(f) == key(p))), "a pair lost to the search");
    assert!(
        found.len() > want.len() && found.len() == everywhere.len(),
        "{} {} {}",
        want.len(),
        found.len(),
        everywhere.len()
    );
    assert_eq!(near_duplicates_by_path(&checked), near_duplicates_by_path(&compared));
    let overall = |r: &serde_json::Value| -> Vec<String> {
        let docs = r["documents"].as_array().unwrap();
        docs.iter().filter(|d| d["role"] == "suspect").map(|d| format!("{} {}", d["path"], d["overall"])).collect()
    };
    assert_eq!(overall(&checked), overall(&compared));
    let verify = success(&twinspot(&dir, &["archive", "verify", archive]));
    assert!(verify.contains("60 documents") && verify.contains("0 problems"), "{verify}");

    // Compacted into one segment of each kind (k-grams, sentences, character grams), it
    // answers the same.
    let compacted = success(&twinspot(&dir, &["archive", "compact", archive]));
    assert!(compacted.contains("merged: 1 k-gram and 1 sentence segments"), "{compacted}");
    let again = json_of(&dir, &["archive", "check", archive, "suspect", "--json", "-", "-q"]);
    assert_eq!(pairs_by_path(&again), found);
    let verify = success(&twinspot(&dir, &["archive", "verify", archive]));
    assert!(verify.contains("60 documents, 3 segments") && verify.contains("0 problems"), "{verify}");
    let nothing = success(&twinspot(&dir, &["archive", "compact", archive]));
    assert!(nothing.contains("nothing to merge"), "{nothing}");
}

#[test]
fn adding_again_skips_unchanged_files_and_replaces_changed_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let docs = tmp.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    let text = |seed: &str| {
        format!(
            "{seed} 软件包管理系统可以帮助用户安装、升级和删除软件包。The quick brown fox jumps over the lazy dog again and again.\n"
        )
    };
    std::fs::write(docs.join("a.txt"), text("one")).unwrap();
    std::fs::write(docs.join("b.txt"), text("two").repeat(3)).unwrap();
    let run = |args: &[&str]| success(&twinspot(tmp.path(), args));
    assert!(run(&["archive", "add", "arc", "docs", "-q"]).contains("2 added, 0 replaced, 0 unchanged"));
    std::fs::write(docs.join("a.txt"), text("changed").repeat(2)).unwrap();
    assert!(run(&["archive", "add", "arc", "docs", "-q"]).contains("0 added, 1 replaced, 1 unchanged"));
    let list = run(&["archive", "list", "arc"]);
    assert_eq!(list.lines().count(), 2, "{list}");
    assert!(run(&["archive", "remove", "arc", "docs/b.txt"]).contains("1 removed"));
    assert!(run(&["archive", "verify", "arc"]).contains("1 documents"));
    let report = json_of(tmp.path(), &["archive", "check", "arc", "docs/a.txt", "--json", "-", "-q"]);
    assert_eq!(report["pairs"].as_array().unwrap().len(), 1, "{report:#}");
    assert_eq!(report["documents"][1]["path"], "docs/a.txt");
    assert_eq!(report["documents"][1]["role"], "reference");
}

#[test]
fn near_duplicates_share_a_group_with_the_earliest_as_representative_until_they_expire() {
    let tmp = tempfile::tempdir().unwrap();
    let base: String =
        (0..40).map(|i| format!("Sentence number {i} talks about the archive and its groups. ")).collect();
    std::fs::write(tmp.path().join("first.txt"), &base).unwrap();
    std::fs::write(tmp.path().join("second.txt"), format!("{base} One more line.")).unwrap();
    std::fs::write(tmp.path().join("other.txt"), "Something else entirely, nothing like the others at all here.")
        .unwrap();
    let run = |args: &[&str]| success(&twinspot(tmp.path(), args));
    run(&["archive", "add", "arc", "first.txt", "--date", "2020-01-01", "-q"]);
    run(&["archive", "add", "arc", "second.txt", "other.txt", "--cluster", "-q"]);
    let groups = run(&["archive", "groups", "arc"]);
    assert!(groups.starts_with("group 1 (2 documents)"), "{groups}");
    assert!(groups.contains("second.txt") && !groups.contains("other.txt"), "{groups}");
    assert!(run(&["archive", "expire", "arc", "--before", "2021-01-01"]).contains("1 expired"));
    let list = run(&["archive", "list", "arc"]);
    assert!(!list.contains("first.txt") && list.contains("second.txt"), "{list}");
    assert!(run(&["archive", "stats", "arc"]).contains("documents        2"));
    let bad = failure(tmp.path(), &["archive", "expire", "arc", "--before", "2021-13-01"]);
    assert!(bad.contains("not a date"), "{bad}");
}

#[test]
fn foreign_damaged_newer_and_differently_made_archives_are_refused_clearly() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("doc.txt"), "A short document for the archive tests, long enough to index.")
        .unwrap();
    std::fs::create_dir(tmp.path().join("notes")).unwrap();
    std::fs::write(tmp.path().join("notes/x.txt"), "x").unwrap();
    let err = failure(tmp.path(), &["archive", "add", "notes", "doc.txt"]);
    assert!(err.contains("not a twinspot archive"), "{err}");

    std::fs::create_dir(tmp.path().join("junk")).unwrap();
    std::fs::write(tmp.path().join("junk/catalog.sqlite"), "this is not a database at all, not even close").unwrap();
    let err = failure(tmp.path(), &["archive", "check", "junk", "doc.txt"]);
    assert!(err.contains("damaged or not a twinspot archive"), "{err}");

    success(&twinspot(tmp.path(), &["archive", "add", "arc", "doc.txt", "-q"]));
    let err = failure(tmp.path(), &["archive", "check", "arc", "doc.txt", "-k", "7"]);
    assert!(err.contains("made with k = 5") && err.contains("uses 7"), "{err}");

    let conn = rusqlite::Connection::open(tmp.path().join("arc/catalog.sqlite")).unwrap();
    conn.execute("UPDATE settings SET value = '99' WHERE key = 'format'", []).unwrap();
    drop(conn);
    let err = failure(tmp.path(), &["archive", "stats", "arc"]);
    assert!(err.contains("newer twinspot (format 99)"), "{err}");
}

#[test]
fn an_add_killed_midway_leaves_an_archive_that_verifies_and_a_second_add_completes() {
    let tmp = tempfile::tempdir().unwrap();
    let count = 2500;
    let mut child = start_adding(tmp.path(), count);
    // Killed (SIGKILL) as soon as the first batch has committed, with later batches
    // still to come (if the add finished first, the assertions still hold).
    let arc = tmp.path().join("arc");
    let committed = || -> i64 {
        rusqlite::Connection::open_with_flags(arc.join("catalog.sqlite"), rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .and_then(|c| c.query_row("SELECT count(*) FROM documents", [], |r| r.get(0)))
            .unwrap_or(0)
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut seen = 0;
    while seen == 0 && std::time::Instant::now() < deadline && child.try_wait().unwrap().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(5));
        seen = committed();
    }
    child.kill().ok();
    child.wait().ok();
    if tmp.path().join("arc/catalog.sqlite").exists() {
        let verify = success(&twinspot(tmp.path(), &["archive", "verify", "arc"]));
        assert!(verify.contains(" 0 problems"), "{verify}");
    }
    let again = success(&twinspot(tmp.path(), &["archive", "add", "arc", "docs", "-q"]));
    println!("after the kill, add again: {again}");
    let numbers: Vec<usize> = again.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
    assert_eq!(numbers[0] + numbers[2], count, "{again}");
    assert!(numbers[2] as i64 >= seen, "a committed batch was lost: {again}");
    let verify = success(&twinspot(tmp.path(), &["archive", "verify", "arc"]));
    assert!(verify.contains(&format!("{count} documents")) && verify.contains(" 0 leftover"), "{verify}");
}

#[test]
fn a_suspect_with_the_bytes_of_an_archived_document_is_a_whole_copy_as_in_compare() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("refs")).unwrap();
    let text = "归档中的文章被原样转载。每一句都一样，连标点也一样。这样的转载应当被认出是完全相同的副本。\n".repeat(3);
    std::fs::write(dir.join("refs/original.txt"), &text).unwrap();
    std::fs::write(dir.join("repost.txt"), &text).unwrap();
    success(&twinspot(dir, &["archive", "add", "a", "refs", "-q"]));
    let checked = json_of(dir, &["archive", "check", "a", "repost.txt", "--json", "-", "-q"]);
    let compared = json_of(dir, &["compare", "-r", "refs", "-s", "repost.txt", "--no-meaning", "--json", "-", "-q"]);
    let (got, want) = (pairs_by_path(&checked), pairs_by_path(&compared));
    assert_eq!(got, want);
    assert_eq!(got.len(), 1);
    assert!(got[0].3.starts_with("1.0 1.0"), "{got:?}");
    assert_eq!(checked["near_duplicates"].as_array().map(Vec::len), Some(1));
}

#[test]
fn a_reader_checks_while_the_command_line_adds_to_the_same_archive() {
    use twinspot::archive::{Archive, check_against};
    use twinspot::engine::{CancelFlag, CheckRequest, DocumentInput, NoProgress, Role};
    let tmp = tempfile::tempdir().unwrap();
    let seed_text: String =
        (0..40).map(|j| format!("The seed essay argues point {j} about rivers and the sea at length. ")).collect();
    std::fs::create_dir(tmp.path().join("seed")).unwrap();
    std::fs::write(tmp.path().join("seed/seed.txt"), &seed_text).unwrap();
    std::fs::write(tmp.path().join("suspect.txt"), &seed_text).unwrap();
    success(&twinspot(tmp.path(), &["archive", "add", "arc", "seed", "-q"]));
    let mut child = start_adding(tmp.path(), 2500);
    let arc = tmp.path().join("arc");
    let settings = Archive::stored_settings(&arc).unwrap();
    let request = CheckRequest {
        documents: vec![DocumentInput::new(tmp.path().join("suspect.txt"), Role::Suspect)],
        settings: settings.clone(),
        ..CheckRequest::default()
    };
    // Checks run one after another while the writer commits its batches: each opens the
    // archive, sees a consistent catalog and finds the seed.
    let mut during = 0;
    while child.try_wait().unwrap().is_none() {
        let store = Archive::open(&arc, &settings).unwrap();
        let report = check_against(&store, &request, &NoProgress, &CancelFlag::new()).unwrap();
        let found = report.pairs.iter().any(|p| report.documents[p.b].path.ends_with("seed.txt"));
        assert!(found, "the seed was not found while the add ran: {:?}", report.pairs.len());
        if child.try_wait().unwrap().is_none() {
            during += 1;
        }
    }
    assert!(child.wait().unwrap().success(), "the add failed beside the reader");
    assert!(during > 0, "no check ran while the add was under way");
    let verify = success(&twinspot(tmp.path(), &["archive", "verify", "arc"]));
    assert!(verify.contains("2501 documents") && verify.contains(" 0 problems"), "{verify}");
}

/// Turns the format-2 catalog at `dir` back into format 1: texts inline in `documents`.
/// Gives the catalog at `dir` the SimHash bands formats 1 to 7 kept instead of halves.
fn downgrade_to_bands(conn: &rusqlite::Connection) {
    conn.execute_batch(
        "DROP INDEX documents_h0; DROP INDEX documents_h1;
         ALTER TABLE documents DROP COLUMN h0; ALTER TABLE documents DROP COLUMN h1;
         ALTER TABLE documents ADD COLUMN b0 INTEGER; ALTER TABLE documents ADD COLUMN b1 INTEGER;
         ALTER TABLE documents ADD COLUMN b2 INTEGER; ALTER TABLE documents ADD COLUMN b3 INTEGER;
         UPDATE documents SET b0 = simhash & 65535, b1 = (simhash >> 16) & 65535,
             b2 = (simhash >> 32) & 65535, b3 = (simhash >> 48) & 65535;
         CREATE INDEX documents_b0 ON documents(b0, simhash, group_id, nshash);
         CREATE INDEX documents_b1 ON documents(b1, simhash, group_id, nshash);
         CREATE INDEX documents_b2 ON documents(b2, simhash, group_id, nshash);
         CREATE INDEX documents_b3 ON documents(b3, simhash, group_id, nshash);",
    )
    .unwrap();
}

fn downgrade_to_format_1(dir: &Path) {
    let conn = rusqlite::Connection::open(dir.join("catalog.sqlite")).unwrap();
    downgrade_to_bands(&conn);
    conn.execute_batch(
        "ALTER TABLE documents ADD COLUMN text BLOB;
         UPDATE documents SET text = (SELECT text FROM texts WHERE texts.id = documents.id);
         DROP TABLE texts;
         DROP TABLE token_keys;
         UPDATE settings SET value = '1' WHERE key = 'format';",
    )
    .unwrap();
}

#[test]
fn an_archive_of_format_1_is_upgraded_when_opened_and_answers_as_before() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("refs")).unwrap();
    let copied = "旧格式的归档把文本放在文档表里。升级之后文本移到自己的表中，查询近似重复时不再读取文本的页面。\n";
    std::fs::write(dir.join("refs/a.txt"), copied.repeat(2)).unwrap();
    std::fs::write(
        dir.join("refs/b.txt"),
        "另一篇文章，与上面的内容毫无关系，只是为了让归档里有两篇文档。\n".repeat(2),
    )
    .unwrap();
    std::fs::write(dir.join("suspect.txt"), format!("开头是新写的句子。\n{copied}结尾也是新写的。\n")).unwrap();
    success(&twinspot(dir, &["archive", "add", "arc", "refs", "-q"]));
    let before = json_of(dir, &["archive", "check", "arc", "suspect.txt", "--json", "-", "-q"]);
    downgrade_to_format_1(&dir.join("arc"));

    // A check (read-only use) upgrades it and gives the same answer.
    let after = json_of(dir, &["archive", "check", "arc", "suspect.txt", "--json", "-", "-q"]);
    assert_eq!(pairs_by_path(&after), pairs_by_path(&before));
    assert_eq!(pairs_by_path(&after).len(), 1);
    let conn = rusqlite::Connection::open(dir.join("arc/catalog.sqlite")).unwrap();
    let format: String = conn.query_row("SELECT value FROM settings WHERE key = 'format'", [], |r| r.get(0)).unwrap();
    assert_eq!(format, twinspot::archive::FORMAT_VERSION.to_string());
    drop(conn);
    let verified = success(&twinspot(dir, &["archive", "verify", "arc"]));
    assert!(verified.starts_with("2 documents") && verified.contains(" 0 problems"), "{verified}");

    // An add upgrades it too, and a removed document takes its text with it.
    downgrade_to_format_1(&dir.join("arc"));
    std::fs::write(dir.join("refs/c.txt"), "第三篇文章在升级以后加入归档。\n".repeat(3)).unwrap();
    success(&twinspot(dir, &["archive", "add", "arc", "refs", "-q"]));
    success(&twinspot(dir, &["archive", "remove", "arc", "refs/b.txt"]));
    let conn = rusqlite::Connection::open(dir.join("arc/catalog.sqlite")).unwrap();
    let (documents, texts): (i64, i64) = conn
        .query_row("SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM texts)", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!((documents, texts), (2, 2));

    // The halves the upgrade took from the stored SimHash are those an add writes: a
    // near duplicate added now (the same words, one more line break) has a's SimHash and
    // halves, and joins its group.
    let a = std::fs::read_to_string(dir.join("refs/a.txt")).unwrap();
    std::fs::write(dir.join("refs/a2.txt"), format!("{a}\n")).unwrap();
    success(&twinspot(dir, &["archive", "add", "arc", "refs/a2.txt", "-q"]));
    let conn = rusqlite::Connection::open(dir.join("arc/catalog.sqlite")).unwrap();
    let distinct: (i64, i64, i64, i64) = conn
        .query_row(
            "SELECT count(DISTINCT simhash), count(DISTINCT h0), count(DISTINCT h1), count(DISTINCT group_id)
             FROM documents WHERE path LIKE '%a.txt' OR path LIKE '%a2.txt'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(distinct, (1, 1, 1, 1));
}

#[test]
fn token_keys_are_verified_and_damaged_ones_stop_a_check_naming_the_document() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("refs")).unwrap();
    let copied = "The maintainer uploads the new version to the archive after the freeze has ended.";
    // Ten words: long enough for winnowing to keep one of its k-grams in b.
    let shared = "Please read the whole manual twice before you ask anyone.";
    std::fs::write(dir.join("refs/a.txt"), format!("{copied} Nothing else is said here.\n").repeat(3)).unwrap();
    std::fs::write(
        dir.join("refs/b.txt"),
        format!("A recipe for bread needs flour, water, salt and time. {shared} Then bake it well.\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("suspect.txt"),
        format!("An essay about weather and sport begins here. {copied} {shared} It ends with rain.\n"),
    )
    .unwrap();
    success(&twinspot(dir, &["archive", "add", "arc", "refs", "-q"]));
    let before = json_of(dir, &["archive", "check", "arc", "suspect.txt", "--json", "-", "-q"]);
    assert!(pairs_by_path(&before).iter().any(|p| p.1.ends_with("a.txt")), "{before}");
    assert!(success(&twinspot(dir, &["archive", "verify", "arc"])).contains(" 0 problems"));

    let conn = rusqlite::Connection::open(dir.join("arc/catalog.sqlite")).unwrap();
    let b: i64 = conn.query_row("SELECT id FROM documents WHERE path LIKE '%b.txt'", [], |r| r.get(0)).unwrap();
    conn.execute("UPDATE token_keys SET keys = X'0102' WHERE id = ?1", [b]).unwrap();
    let verified = twinspot(dir, &["archive", "verify", "arc"]);
    assert!(!verified.status.success());
    let said = String::from_utf8_lossy(&verified.stdout).into_owned() + &String::from_utf8_lossy(&verified.stderr);
    assert!(said.contains(&format!("document {b}: its token keys do not match its text")), "{said}");

    // Keys of one byte each (as written now) told to be of two: three bytes are not a
    // whole number of them.
    conn.execute("UPDATE token_keys SET keys = X'010203', width = 2 WHERE id = ?1", [b]).unwrap();
    drop(conn);
    let error = failure(dir, &["archive", "check", "arc", "suspect.txt", "--json", "-", "-q"]);
    assert!(error.contains(&format!("the token keys of document {b}: not a whole number")), "{error}");
}

#[test]
fn an_archive_of_format_5_keeps_its_two_byte_keys_and_answers_as_before() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("refs")).unwrap();
    let copied = "The maintainer uploads the new version to the archive after the freeze has ended.";
    let texts = [
        ("a.txt", format!("{copied} Nothing else is said here.\n").repeat(3)),
        ("b.txt", "A recipe for bread needs flour, water, salt and time. Then bake it well.\n".to_string()),
    ];
    for (name, text) in &texts {
        std::fs::write(dir.join("refs").join(name), text).unwrap();
    }
    std::fs::write(dir.join("suspect.txt"), format!("An essay about weather begins here. {copied} It ends.\n"))
        .unwrap();
    success(&twinspot(dir, &["archive", "add", "arc", "refs", "-q"]));
    let before = json_of(dir, &["archive", "check", "arc", "suspect.txt", "--json", "-", "-q"]);
    assert!(pairs_by_path(&before).iter().any(|p| p.1.ends_with("a.txt")), "{before}");

    // The catalog as format 5 left it: keys of two bytes, no width column.
    let conn = rusqlite::Connection::open(dir.join("arc/catalog.sqlite")).unwrap();
    let narrow: i64 = conn.query_row("SELECT count(*) FROM token_keys WHERE width = 1", [], |r| r.get(0)).unwrap();
    assert_eq!(narrow, 2, "an add keeps keys of one byte");
    for (name, text) in &texts {
        let tokens = twinspot::normalize::tokenize(text, Default::default()).tokens;
        let keys = twinspot::fingerprint::TokenKeys::of(&tokens);
        let id: i64 =
            conn.query_row("SELECT id FROM documents WHERE path LIKE ?1", [format!("%{name}")], |r| r.get(0)).unwrap();
        conn.execute("UPDATE token_keys SET keys = ?1 WHERE id = ?2", rusqlite::params![keys.as_bytes(), id]).unwrap();
    }
    downgrade_to_bands(&conn);
    conn.execute_batch(
        "ALTER TABLE token_keys DROP COLUMN width; UPDATE settings SET value = '5' WHERE key = 'format';",
    )
    .unwrap();
    drop(conn);
    assert!(success(&twinspot(dir, &["archive", "verify", "arc"])).contains(" 0 problems"));
    let after = json_of(dir, &["archive", "check", "arc", "suspect.txt", "--json", "-", "-q"]);
    assert_eq!(pairs_by_path(&after), pairs_by_path(&before));
    let conn = rusqlite::Connection::open(dir.join("arc/catalog.sqlite")).unwrap();
    let wide: i64 = conn.query_row("SELECT count(*) FROM token_keys WHERE width = 2", [], |r| r.get(0)).unwrap();
    assert_eq!(wide, 2, "the upgrade keeps the keys as they are");
}

#[test]
fn a_group_whose_representative_is_removed_keeps_its_members_under_the_earliest_left() {
    let tmp = tempfile::tempdir().unwrap();
    let base: String =
        (0..40).map(|i| format!("Line {i} of the shared notice says where the archive keeps its groups. ")).collect();
    std::fs::write(tmp.path().join("a.txt"), &base).unwrap();
    std::fs::write(tmp.path().join("b.txt"), format!("{base} One more line.")).unwrap();
    std::fs::write(tmp.path().join("c.txt"), format!("{base} Two more lines here.")).unwrap();
    std::fs::write(tmp.path().join("d.txt"), "Something else entirely, nothing like the others at all.").unwrap();
    let run = |args: &[&str]| success(&twinspot(tmp.path(), args));
    run(&["archive", "add", "arc", "a.txt", "-q"]);
    run(&["archive", "add", "arc", "b.txt", "c.txt", "d.txt", "--cluster", "-q"]);
    // id and group of each file, from `list` (id, group, characters, date, path).
    let rows = || -> Vec<(String, String, String)> {
        run(&["archive", "list", "arc"])
            .lines()
            .filter_map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                (f.len() >= 5 && f[0].parse::<u32>().is_ok())
                    .then(|| (f[4].to_string(), f[0].to_string(), f[1].to_string()))
            })
            .collect()
    };
    let find = |rows: &[(String, String, String)], name: &str| {
        rows.iter().find(|r| r.0.ends_with(name)).cloned().unwrap_or_else(|| panic!("{name} in {rows:?}"))
    };
    let before = rows();
    let a = find(&before, "a.txt");
    assert!(["b.txt", "c.txt"].iter().all(|n| find(&before, n).2 == a.1), "a represents the group: {before:?}");
    assert!(run(&["archive", "remove", "arc", "a.txt"]).contains("1 removed"));
    let after = rows();
    let (b, c, d) = (find(&after, "b.txt"), find(&after, "c.txt"), find(&after, "d.txt"));
    assert_eq!(
        (b.2.as_str(), c.2.as_str()),
        (b.1.as_str(), b.1.as_str()),
        "b, the earliest left, represents: {after:?}"
    );
    assert_eq!(d.2, d.1, "the other document keeps its own group: {after:?}");
    let groups = run(&["archive", "groups", "arc"]);
    assert!(groups.starts_with(&format!("group {} (2 documents)", b.1)), "{groups}");
    assert!(groups.contains("b.txt") && groups.contains("c.txt") && !groups.contains("a.txt"), "{groups}");
}

/// The catalog keeps its number of documents and of their characters beside them (a count
/// would read an index of the whole catalog in every check, a sum every row for `stats`):
/// right after adds, replacements, removals, expiry and `--sync`; added by the first writer
/// to a catalog made without them (which readers count meanwhile); and `verify` says when
/// one is wrong.
#[test]
fn the_catalog_keeps_its_number_of_documents_through_every_writer() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let docs = dir.join("docs");
    std::fs::create_dir(&docs).unwrap();
    for i in 0..12 {
        std::fs::write(
            docs.join(format!("{i:02}.txt")),
            format!("document {i} tells its own story about the sea. ").repeat(20),
        )
        .unwrap();
    }
    let run = |args: &[&str]| success(&twinspot(dir, args));
    let catalog = dir.join("arc/catalog.sqlite");
    let kept_and_counted = || -> (i64, i64) {
        let conn = rusqlite::Connection::open(&catalog).unwrap();
        let kept = conn.query_row("SELECT n FROM counts WHERE name = 'documents'", [], |r| r.get(0)).unwrap();
        let (chars, summed): (i64, i64) = (
            conn.query_row("SELECT n FROM counts WHERE name = 'chars'", [], |r| r.get(0)).unwrap(),
            conn.query_row("SELECT sum(chars) FROM documents", [], |r| r.get(0)).unwrap(),
        );
        assert_eq!(chars, summed, "the characters kept");
        (kept, conn.query_row("SELECT count(*) FROM documents", [], |r| r.get(0)).unwrap())
    };
    run(&["archive", "add", "arc", "docs", "--date", "2020-01-01", "-q"]);
    assert_eq!(kept_and_counted(), (12, 12));
    std::fs::write(docs.join("03.txt"), "a new text for document three, about the mountains. ".repeat(20)).unwrap();
    std::fs::write(docs.join("12.txt"), "a thirteenth document about rivers and their bridges. ".repeat(20)).unwrap();
    run(&["archive", "add", "arc", "docs", "-q"]);
    assert_eq!(kept_and_counted(), (13, 13));
    run(&["archive", "remove", "arc", "docs/00.txt"]);
    assert_eq!(kept_and_counted(), (12, 12));
    // 00.txt is still in the folder: added again; 01.txt is gone: removed.
    std::fs::remove_file(docs.join("01.txt")).unwrap();
    let said = run(&["archive", "add", "arc", "docs", "--sync", "-q"]);
    assert!(said.contains("1 added") && said.contains("1 removed"), "{said}");
    assert_eq!(kept_and_counted(), (12, 12));
    run(&["archive", "expire", "arc", "--before", "2021-01-01"]);
    let (kept, counted) = kept_and_counted();
    assert!(kept == counted && counted < 12, "{kept} {counted}");
    let stats = run(&["archive", "stats", "arc"]);
    assert!(stats.lines().any(|l| l.split_whitespace().eq(["documents", &counted.to_string()])), "{stats}");
    // A catalog made without it: counted by readers, kept again after the next writer.
    let conn = rusqlite::Connection::open(&catalog).unwrap();
    conn.execute_batch(
        "DROP TRIGGER documents_counted_in; DROP TRIGGER documents_counted_out;
         DROP TRIGGER documents_chars_in; DROP TRIGGER documents_chars_out; DROP TABLE counts;",
    )
    .unwrap();
    drop(conn);
    let before = run(&["archive", "stats", "arc"]);
    let conn = rusqlite::Connection::open(&catalog).unwrap();
    drop(conn);
    let checked = json_of(dir, &["archive", "check", "arc", "docs/05.txt", "--json", "-", "-q"]);
    assert!(!checked["pairs"].as_array().unwrap().is_empty(), "{checked:#}");
    // (The expired documents' files are still there: added again.)
    run(&["archive", "add", "arc", "docs", "-q"]);
    assert_eq!(kept_and_counted(), (12, 12));
    assert!(run(&["archive", "verify", "arc"]).contains("0 problems"));
    // The characters of the stats: summed before, kept after; the same but for what the
    // add put back.
    let chars_of = |stats: &str| stats.lines().find(|l| l.starts_with("characters")).unwrap().to_string();
    let after = run(&["archive", "stats", "arc"]);
    assert!(chars_of(&before).split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() > 0, "{before}");
    let summed: i64 = rusqlite::Connection::open(&catalog)
        .unwrap()
        .query_row("SELECT sum(chars) FROM documents", [], |r| r.get(0))
        .unwrap();
    assert!(after.lines().any(|l| l.split_whitespace().eq(["characters", &summed.to_string()])), "{after}");
    let conn = rusqlite::Connection::open(&catalog).unwrap();
    conn.execute("UPDATE counts SET n = n + 3 WHERE name = 'chars'", []).unwrap();
    drop(conn);
    let out = twinspot(dir, &["archive", "verify", "arc"]);
    let said = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(said.contains(&format!("it says it holds {} characters, and holds {summed}", summed + 3)), "{said}");
    let conn = rusqlite::Connection::open(&catalog).unwrap();
    conn.execute("UPDATE counts SET n = n - 3 WHERE name = 'chars'", []).unwrap();
    drop(conn);
    // Wrong: said.
    let conn = rusqlite::Connection::open(&catalog).unwrap();
    conn.execute("UPDATE counts SET n = n + 5 WHERE name = 'documents'", []).unwrap();
    drop(conn);
    let out = twinspot(dir, &["archive", "verify", "arc"]);
    let said = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("it says it holds 17 documents, and holds 12"), "{said}");
}

/// Thirty references in `dir`/docs, `00.txt` to `29.txt`, each a sentence made of
/// `pattern` (its `{i}` replaced by the file's number) said 40 times.
fn thirty_documents(dir: &Path, pattern: &str) -> Vec<twinspot::engine::DocumentInput> {
    let docs = dir.join("docs");
    std::fs::create_dir(&docs).unwrap();
    (0..30)
        .map(|i| {
            let path = docs.join(format!("{i:02}.txt"));
            std::fs::write(&path, pattern.replace("{i}", &i.to_string()).repeat(40)).unwrap();
            twinspot::engine::DocumentInput::new(path, twinspot::engine::Role::Reference)
        })
        .collect()
}

#[test]
fn an_add_leaves_no_log_beside_an_archive_kept_open() {
    use twinspot::archive::{AddOptions, Archive};
    use twinspot::engine::{CancelFlag, NoProgress};
    let tmp = tempfile::tempdir().unwrap();
    let inputs = thirty_documents(tmp.path(), "letter {i} crosses the bay {i} in the fog. ");
    let arc = tmp.path().join("arc");
    // As the window keeps it: open for changes between adds.
    let writer = Archive::open_or_create(&arc, &twinspot::settings::Settings::default()).unwrap();
    let (first, second) = inputs.split_at(15);
    writer.add(first, &AddOptions::default(), &NoProgress, &CancelFlag::new()).unwrap();
    let log = std::fs::metadata(arc.join("catalog.sqlite-wal")).map(|m| m.len()).unwrap_or(0);
    assert_eq!(log, 0, "the add left a log of {log} bytes beside the archive it keeps open");
    // Its connection still waits for a lock, as before: another connection writing to
    // the catalog for a moment does not make the next add fail.
    let (locked, wait) = std::sync::mpsc::channel();
    let catalog = arc.join("catalog.sqlite");
    let other = std::thread::spawn(move || {
        let conn = rusqlite::Connection::open(catalog).unwrap();
        conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        locked.send(()).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        conn.execute_batch("COMMIT").unwrap();
    });
    wait.recv().unwrap();
    let summary = writer.add(second, &AddOptions::default(), &NoProgress, &CancelFlag::new()).unwrap();
    other.join().unwrap();
    assert_eq!(summary.added, 15, "{summary:?}");
    assert_eq!(writer.stats().unwrap().documents, 30);
}

#[test]
fn a_writer_that_closes_beside_an_open_reader_leaves_no_log_to_replay() {
    use twinspot::archive::{AddOptions, Archive};
    use twinspot::engine::{CancelFlag, NoProgress};
    let tmp = tempfile::tempdir().unwrap();
    let inputs = thirty_documents(tmp.path(), "document {i} follows the river {i} down to the sea. ");
    let arc = tmp.path().join("arc");
    success(&twinspot(tmp.path(), &["archive", "add", "arc", "docs/00.txt", "-q"]));
    let settings = Archive::stored_settings(&arc).unwrap();
    // A check's connection is open (between checks, in no transaction) while the add
    // commits and closes: SQLite leaves the log to the last connection, and a reader's
    // cannot empty it.
    let reader = Archive::open(&arc, &settings).unwrap();
    let writer = Archive::open_or_create(&arc, &settings).unwrap();
    writer.add(&inputs, &AddOptions::default(), &NoProgress, &CancelFlag::new()).unwrap();
    drop(writer);
    drop(reader);
    let log = std::fs::metadata(arc.join("catalog.sqlite-wal")).map(|m| m.len()).unwrap_or(0);
    assert_eq!(log, 0, "the writer left a log of {log} bytes for every later reader to replay");
    // Everything is in the catalog file itself: a reader that may only open it as
    // immutable (and so ignores any log) sees every document.
    let conn = rusqlite::Connection::open_with_flags(
        format!("file:{}?immutable=1", arc.join("catalog.sqlite").display()),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI,
    )
    .unwrap();
    let documents: i64 = conn.query_row("SELECT count(*) FROM documents", [], |r| r.get(0)).unwrap();
    assert_eq!(documents, 30);
}

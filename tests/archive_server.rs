//! The shared archive on a real PostgreSQL server (a throw-away one, `pg.rs`): the same
//! answers as a folder archive of the same files, adders and checkers at once, an adder
//! killed midway, a server that goes away during a check, a role that may only read, a
//! wrong password and an unreachable server; postings folded by `compact` and newer ones
//! beside them, and an archive of the format before.

use std::path::Path;

use crate::archive::{add_devset_in_halves, devset, near_duplicates_by_path, pairs_by_path};
use crate::pg::{ADMIN, ADMIN_PASSWORD, PgServer};
use crate::util::{success, twinspot};

fn json_of(dir: &Path, args: &[&str]) -> serde_json::Value {
    let stdout = success(&twinspot(dir, args));
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("bad JSON ({e}):\n{stdout}"))
}

/// Standard error of a run that must fail.
fn failure(dir: &Path, args: &[&str]) -> String {
    let out = twinspot(dir, args);
    assert!(!out.status.success(), "expected a failure of {args:?}: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Writes `count` small documents to `dir/docs`.
fn write_docs(dir: &Path, count: usize) {
    let docs = dir.join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    for i in 0..count {
        let body: String = (0..30).map(|j| format!("document {i} line {j} says {} things. ", i * 31 + j)).collect();
        std::fs::write(docs.join(format!("{i:05}.txt")), body).unwrap();
    }
}

/// Word `n` of seven letters (digits are all one to the tokenizer), each its own.
fn word(n: usize) -> String {
    let mixed = (n as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (0..7).map(|d| char::from(b'a' + (mixed >> (8 * d) & 0xff) as u8 % 26)).collect()
}

/// A count the superuser reads from the server.
fn count(server: &PgServer, query: &str) -> i64 {
    let mut client = postgres::Client::connect(&server.url(), postgres::NoTls).unwrap();
    client.query_one(query, &[]).map(|r| r.get(0)).unwrap_or(0)
}

/// The count `query` answers; a failed query fails the test.
fn exact_count(server: &PgServer, query: &str) -> i64 {
    let mut client = postgres::Client::connect(&server.url(), postgres::NoTls).unwrap();
    client.query_one(query, &[]).unwrap().get(0)
}

#[test]
fn a_shared_archive_answers_as_a_folder_archive_of_the_same_files() {
    let Some(dir) = devset() else {
        assert!(std::env::var_os("CI").is_none(), "CI must have ../shared/devset");
        eprintln!("NOTE: ../shared/devset not found: same-answer test skipped");
        return;
    };
    let server = PgServer::start();
    let url = server.url();
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("a");
    let folder = folder.to_str().unwrap();
    let references = add_devset_in_halves(&dir, folder);
    add_devset_in_halves(&dir, &url);
    let check = |archive: &str| json_of(&dir, &["archive", "check", archive, "suspect", "--json", "-", "-q"]);
    let same = |what: &str| {
        let (want, got) = (check(folder), check(&url));
        assert!(pairs_by_path(&want).len() > 30);
        assert_eq!(pairs_by_path(&got), pairs_by_path(&want), "{what}");
        assert_eq!(near_duplicates_by_path(&got), near_duplicates_by_path(&want), "{what}");
        for verb in ["list", "groups"] {
            let of = |archive: &str| success(&twinspot(&dir, &["archive", verb, archive]));
            assert_eq!(of(&url), of(folder), "{verb} {what}");
        }
    };
    same("after adding");
    // Removed from both, and the server's archive compacted: still the same answers.
    for archive in [folder, url.as_str()] {
        let said = success(&twinspot(&dir, &["archive", "remove", archive, &references[3], "--id", "7"]));
        assert_eq!(said.trim(), "2 removed");
    }
    same("after removing");
    let compacted = success(&twinspot(&dir, &["archive", "compact", &url]));
    assert!(compacted.contains("compacted"), "{compacted}");
    same("after compacting");
    let verify = success(&twinspot(&dir, &["archive", "verify", &url]));
    assert!(verify.contains("58 documents") && verify.contains(" 0 problems"), "{verify}");
    let stats = success(&twinspot(&dir, &["archive", "stats", &url]));
    assert!(stats.contains("documents        58") && stats.contains("bytes per char"), "{stats}");
    // Compacting folded every posting into one row a hash.
    assert_eq!(exact_count(&server, "SELECT count(*) FROM twinspot.kgrams"), 0);
    assert!(exact_count(&server, "SELECT count(*) FROM twinspot.kgrams_packed") > 1000);
    // Adding the folder again stores the two removed documents and nothing else: their
    // postings newer rows beside the folded ones, which a check asks together.
    let again = success(&twinspot(&dir, &["archive", "add", &url, "reference", "-q"]));
    assert!(again.starts_with("2 added, 0 replaced, 58 unchanged"), "{again}");
    success(&twinspot(&dir, &["archive", "add", folder, "reference", "-q"]));
    assert!(exact_count(&server, "SELECT count(*) FROM twinspot.kgrams") > 0);
    same("after adding to a compacted archive");
    success(&twinspot(&dir, &["archive", "compact", &url]));
    same("after folding what was added");
    // A folded document removed: skipped by checks until the next fold drops it.
    for archive in [folder, url.as_str()] {
        let said = success(&twinspot(&dir, &["archive", "remove", archive, "--id", "12"]));
        assert_eq!(said.trim(), "1 removed");
    }
    same("after removing a folded document");
    success(&twinspot(&dir, &["archive", "compact", &url]));
    let holding_12 = "SELECT count(*) FROM twinspot.kgrams_packed WHERE 12 = ANY(docs)";
    assert_eq!(exact_count(&server, holding_12), 0);
    same("after compacting again");
}

/// Text most documents hold is sent by the server in part (a hash's first postings and
/// how many documents hold it): checks must still judge it as a folder archive does.
/// Two phrases, each written nine times in a document: one in 8 of 200 documents (64
/// postings kept, over the 50 that make it frequent, under the 10 documents that make it
/// common), one in 12 (common, counted past its first 51 postings); the first document
/// holding the common one removed from both archives.
#[test]
fn frequent_and_common_text_is_judged_as_by_a_folder_archive() {
    const FREQUENT: &str = "amber falcons orbit the quiet lighthouse while copper kettles whistle softly tonight";
    const COMMON: &str = "velvet glaciers remember every crimson harbor that the wandering cartographers forgot";
    let server = PgServer::start();
    let url = server.url();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let docs = dir.join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    // Words of letters (digits are all one to the tokenizer): each line its own.
    let line = |i: usize, j: usize| {
        let n = i * 31 + j;
        format!("{} {} {} {} {}. ", word(4 * n), word(4 * n + 1), word(4 * n + 2), word(4 * n + 3), word(n % 7))
    };
    for i in 0..200 {
        let phrase = match i {
            0..8 => Some(FREQUENT),
            20..32 => Some(COMMON),
            _ => None,
        };
        let body: String = (0..30)
            .map(|j| match phrase {
                Some(phrase) if j % 3 == 0 => format!("{}{phrase}. ", line(i, j)),
                _ => line(i, j),
            })
            .collect();
        std::fs::write(docs.join(format!("{i:05}.txt")), body).unwrap();
    }
    // Copies of a holder of each phrase, and of a document that holds neither.
    let copy = |i: usize, phrase: &str| -> String {
        (2..9).map(|j| if j % 3 == 0 { format!("{}{phrase}. ", line(i, j)) } else { line(i, j) }).collect()
    };
    let (frequent, common, plain) = (copy(5, FREQUENT), copy(23, COMMON), copy(100, ""));
    std::fs::create_dir_all(dir.join("suspect")).unwrap();
    let suspect = format!(
        "Words of its own come first here. {frequent} Then more. {common} Again. {plain} Each phrase alone \
         follows, common text: {COMMON}. And frequent text: {FREQUENT}. The end."
    );
    std::fs::write(dir.join("suspect/s.txt"), &suspect).unwrap();
    let folder = dir.join("a");
    let folder = folder.to_str().unwrap();
    for archive in [folder, url.as_str()] {
        success(&twinspot(dir, &["archive", "add", archive, "docs", "-q"]));
        let said = success(&twinspot(dir, &["archive", "remove", archive, "docs/00020.txt"]));
        assert_eq!(said.trim(), "1 removed");
    }
    // The archive holds both kinds: hashes with more than 50 postings in under 10
    // documents, and in 10 or more.
    let held = |documents: &str| {
        exact_count(
            &server,
            &format!(
                "SELECT count(*) FROM (SELECT hash FROM twinspot.kgrams GROUP BY hash HAVING count(*) > 50 AND count(DISTINCT doc) {documents}) AS h"
            ),
        )
    };
    assert!(held("< 10") > 0 && held(">= 10") > 0);
    let check = |archive: &str| json_of(dir, &["archive", "check", archive, "suspect", "--json", "-", "-q"]);
    let (want, got) = (check(folder), check(&url));
    let pairs = pairs_by_path(&want);
    assert!(pairs.iter().any(|(_, b, _, _)| b.ends_with("00100.txt")), "{pairs:?}");
    assert_eq!(pairs_by_path(&got), pairs);
    let suspect_of = |report: &serde_json::Value| {
        let mut doc = report["documents"][0].clone();
        doc.as_object_mut().unwrap().retain(|key, _| !["path", "display"].contains(&key.as_str()));
        doc
    };
    assert_eq!(suspect_of(&got), suspect_of(&want));
    // Each copy is found against the document it was copied from; each phrase alone
    // against a holder of it (of equally close holders, the one sharing most with the
    // suspect), never the removed 00020: the frequent one counted, the common one shown
    // as common text and not counted.
    let holders: Vec<&str> = pairs.iter().map(|(_, b, _, _)| b.as_str()).collect();
    for source in ["docs/00005.txt", "docs/00023.txt", "docs/00100.txt"] {
        assert!(holders.contains(&source), "{source}: {pairs:#?}");
    }
    assert!(pairs.iter().all(|(_, b, passages, _)| b != "docs/00020.txt" && !passages.contains("00020")), "{pairs:#?}");
    let alone = |phrase: &str| {
        let at = suspect.rfind(phrase).unwrap() as u64;
        (at, at + phrase.len() as u64)
    };
    // The holders of the pairs with a passage over `span` in `list` (0 counted, 1 shown).
    let shown_by = |span: (u64, u64), list: usize| -> Vec<u32> {
        let number = |b: &str| b.trim_start_matches("docs/").trim_end_matches(".txt").parse::<u32>().unwrap();
        pairs
            .iter()
            .filter(|(_, _, passages, _)| {
                let passages: serde_json::Value = serde_json::from_str(passages).unwrap();
                passages[list].as_array().into_iter().flatten().any(|p| {
                    let (start, end) = (p["a_start"].as_u64().unwrap(), p["a_end"].as_u64().unwrap());
                    start < span.1 && span.0 < end
                })
            })
            .map(|(_, b, _, _)| number(b))
            .collect()
    };
    let frequent_alone = shown_by(alone(FREQUENT), 0);
    assert!(frequent_alone.len() == 1 && frequent_alone[0] < 8, "{frequent_alone:?} {pairs:#?}");
    let common_alone = shown_by(alone(COMMON), 1);
    assert!(common_alone.len() == 1 && (21..32).contains(&common_alone[0]), "{common_alone:?} {pairs:#?}");
    assert!(shown_by(alone(COMMON), 0).is_empty(), "{pairs:#?}");
    // Folded into one row a hash: judged the same.
    success(&twinspot(dir, &["archive", "compact", &url]));
    assert_eq!(exact_count(&server, "SELECT count(*) FROM twinspot.kgrams"), 0);
    let same = |what: &str| {
        let (want, got) = (check(folder), check(&url));
        assert_eq!(pairs_by_path(&got), pairs_by_path(&want), "{what}");
        assert_eq!(suspect_of(&got), suspect_of(&want), "{what}");
        pairs_by_path(&want)
    };
    assert_eq!(same("folded"), pairs);
    // More holders of each phrase added, then folded: only the rows of the hashes they
    // hold are written anew (nothing was removed since), their postings in order.
    let more = |i: usize, phrase: &str| {
        std::fs::create_dir_all(dir.join("more")).unwrap();
        let body: String = (0..12).map(|j| format!("{}{phrase}. ", line(i, j))).collect();
        std::fs::write(dir.join(format!("more/{i}.txt")), body).unwrap();
        for archive in [folder, url.as_str()] {
            success(&twinspot(dir, &["archive", "add", archive, "more", "-q"]));
        }
    };
    more(300, FREQUENT);
    more(301, COMMON);
    let compacted = success(&twinspot(dir, &["archive", "compact", &url]));
    assert!(compacted.contains("compacted"), "{compacted}");
    let unsorted = "SELECT count(*) FROM twinspot.kgrams_packed
                    WHERE docs <> (SELECT array_agg(d ORDER BY d) FROM unnest(docs) AS d)";
    assert_eq!(exact_count(&server, unsorted), 0);
    let widest = "SELECT max(documents)::bigint FROM twinspot.kgrams_packed";
    assert_eq!(exact_count(&server, widest), 12, "the common phrase's 11 live holders and 301");
    same("folded again");
    // Then a holder of each phrase removed (its postings stay in the folded rows until
    // the next fold) and one more holder of both added (newer rows): a hash's postings
    // are in both parts, some of them of a removed document.
    for archive in [folder, url.as_str()] {
        let said = success(&twinspot(dir, &["archive", "remove", archive, "docs/00001.txt", "docs/00021.txt"]));
        assert_eq!(said.trim(), "2 removed");
    }
    more(302, &format!("{FREQUENT}. {COMMON}"));
    let pairs = same("folded and newer, with removed documents");
    let holders: Vec<&str> = pairs.iter().map(|(_, b, _, _)| b.as_str()).collect();
    assert!(pairs.len() >= 4 && !holders.contains(&"docs/00001.txt"), "{pairs:#?}");
    assert!(!pairs.iter().any(|p| p.1.contains("00021") || p.2.contains("00021")), "{pairs:#?}");
}

#[test]
fn adders_and_checkers_work_at_once_and_each_file_is_stored_once() {
    let server = PgServer::start();
    let url = server.url();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_docs(dir, 600);
    std::fs::write(dir.join("suspect.txt"), std::fs::read_to_string(dir.join("docs/00003.txt")).unwrap()).unwrap();
    // The archive exists before the checkers start.
    success(&twinspot(dir, &["archive", "add", &url, "docs/00003.txt", "-q"]));
    let adders: Vec<_> = (0..3)
        .map(|_| crate::util::command().current_dir(dir).args(["archive", "add", &url, "docs", "-q"]).spawn().unwrap())
        .collect();
    let mut checks = 0;
    let mut adders = adders;
    while adders.iter_mut().any(|a| a.try_wait().unwrap().is_none()) || checks == 0 {
        let report = json_of(dir, &["archive", "check", &url, "suspect.txt", "--json", "-", "-q"]);
        let found = report["documents"].as_array().unwrap().iter().any(|d| d["path"] == "docs/00003.txt");
        assert!(found, "the archived copy was not found during the adds");
        checks += 1;
    }
    for mut adder in adders {
        assert!(adder.wait().unwrap().success(), "an adder failed beside the others");
    }
    assert_eq!(count(&server, "SELECT count(*) FROM twinspot.documents"), 600);
    assert_eq!(count(&server, "SELECT count(DISTINCT sha256) FROM twinspot.documents"), 600);
    // A file whose bytes another adder (or this batch) stored first is counted unchanged
    // before any posting of it is copied: no id is left listed as removed.
    assert_eq!(exact_count(&server, "SELECT count(*) FROM twinspot.removed"), 0);
    let verify = success(&twinspot(dir, &["archive", "verify", &url]));
    assert!(verify.contains("600 documents") && verify.contains(" 0 problems"), "{verify}");
}

#[test]
fn an_adder_killed_midway_leaves_no_half_document_and_a_second_add_completes() {
    let server = PgServer::start();
    let url = server.url();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let total = 2500;
    write_docs(dir, total);
    let mut child =
        crate::util::command().current_dir(dir).args(["archive", "add", &url, "docs", "-q"]).spawn().unwrap();
    let committed = || count(&server, "SELECT count(*) FROM twinspot.documents");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let mut seen = 0;
    while seen == 0 && std::time::Instant::now() < deadline && child.try_wait().unwrap().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(20));
        seen = committed();
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    // Every stored document has its postings: no batch was kept in part.
    let bare = "SELECT count(*) FROM twinspot.documents d WHERE NOT EXISTS (SELECT 1 FROM twinspot.kgrams k WHERE k.doc = d.id)";
    assert_eq!(count(&server, bare), 0);
    assert_eq!(committed() % 1000, 0, "a batch was kept in part");
    let again = success(&twinspot(dir, &["archive", "add", &url, "docs", "-q"]));
    let numbers: Vec<usize> = again.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
    assert_eq!(numbers[0] + numbers[2], total, "{again}");
    assert!(numbers[2] as i64 >= seen, "a committed batch was lost: {again}");
    assert_eq!(committed(), total as i64);
    // Postings are copied beside their batch's transaction: those of a batch the killed
    // adder never committed belong to ids listed as removed (checks skip them), and
    // compact deletes them.
    let orphans = "SELECT count(*) FROM twinspot.kgrams k WHERE NOT EXISTS (SELECT 1 FROM twinspot.documents d WHERE d.id = k.doc)";
    let unlisted = format!("{orphans} AND NOT EXISTS (SELECT 1 FROM twinspot.removed r WHERE r.id = k.doc)");
    assert_eq!(exact_count(&server, &unlisted), 0);
    success(&twinspot(dir, &["archive", "compact", &url]));
    assert_eq!(exact_count(&server, orphans), 0);
    assert_eq!(exact_count(&server, "SELECT count(*) FROM twinspot.removed"), 0);
    // A lookup reads postings from the index alone.
    let mut client = postgres::Client::connect(&server.url(), postgres::NoTls).unwrap();
    client.batch_execute("SET enable_seqscan = off").unwrap();
    let plan = client.query("EXPLAIN SELECT hash, doc, position FROM twinspot.kgrams_3 WHERE hash = ANY('{1,2}')", &[]);
    let plan: Vec<String> = plan.unwrap().iter().map(|r| r.get(0)).collect();
    assert!(plan.iter().any(|line| line.contains("Index Only Scan")), "{plan:?}");
}

#[test]
fn a_server_gone_during_a_check_is_one_clear_error_and_a_retry_works() {
    use twinspot::archive::server::{Schema, ServerArchive, ServerLocation, check_against};
    use twinspot::engine::{CancelFlag, CheckRequest, DocumentInput, NoProgress, Role};
    let server = PgServer::start();
    let url = server.url();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_docs(dir, 20);
    success(&twinspot(dir, &["archive", "add", &url, "docs", "-q"]));
    let location = ServerLocation::parse(&url).unwrap();
    let schema = Schema::new("twinspot").unwrap();
    let settings = ServerArchive::stored_settings(&location, &schema).unwrap();
    let request = CheckRequest {
        documents: vec![DocumentInput::new(dir.join("docs/00004.txt"), Role::Suspect)],
        settings: settings.clone(),
        ..CheckRequest::default()
    };
    let archive = ServerArchive::open(&location, &schema, &settings).unwrap();
    server.stop();
    let started = std::time::Instant::now();
    let error = check_against(&archive, &request, &NoProgress, &CancelFlag::new()).unwrap_err().to_string();
    assert!(started.elapsed().as_secs() < 30, "the lost server was waited for");
    assert!(error.contains("archive server") && !error.contains(ADMIN_PASSWORD), "{error}");
    drop(archive);
    server.start_again();
    let archive = ServerArchive::open(&location, &schema, &settings).unwrap();
    let report = check_against(&archive, &request, &NoProgress, &CancelFlag::new()).unwrap();
    assert!(report.documents.iter().any(|d| d.path == "docs/00004.txt" && d.id > 0), "the retry found nothing");
}

#[test]
fn a_role_granted_read_checks_but_is_refused_changes_until_granted_write() {
    let server = PgServer::start();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_docs(dir, 10);
    success(&twinspot(dir, &["archive", "add", &server.url(), "docs/00001.txt", "-q"]));
    server.sql("CREATE ROLE reader LOGIN PASSWORD 'reader-pw'");
    let reader = server.url_as("reader", "reader-pw");
    // Not granted yet: refused, clearly.
    let said = failure(dir, &["archive", "list", &reader]);
    assert!(said.contains("permission denied") && !said.contains("reader-pw"), "{said}");
    let granted = success(&twinspot(dir, &["archive", "grant", &server.url(), "reader", "--read"]));
    assert!(granted.contains("reader may now check"), "{granted}");
    assert!(success(&twinspot(dir, &["archive", "list", &reader])).contains("docs/00001.txt"));
    let report = json_of(dir, &["archive", "check", &reader, "docs/00002.txt", "--json", "-", "-q"]);
    assert!(report["documents"].as_array().is_some());
    for args in [
        &["archive", "add", &reader, "docs", "-q"][..],
        &["archive", "remove", &reader, "--id", "1"],
        &["archive", "expire", &reader, "--before", "2100-01-01"],
        &["archive", "compact", &reader],
    ] {
        let said = failure(dir, args);
        assert!(said.contains("reader may not") && said.contains("write permission"), "{args:?}: {said}");
    }
    let said = failure(dir, &["archive", "grant", &reader, "reader", "--write"]);
    assert!(said.contains("owner"), "{said}");
    success(&twinspot(dir, &["archive", "grant", &server.url(), "reader", "--write"]));
    let added = success(&twinspot(dir, &["archive", "add", &reader, "docs", "-q"]));
    assert!(added.starts_with("9 added"), "{added}");
    // A role that may write folds the postings as the owner would.
    success(&twinspot(dir, &["archive", "compact", &reader]));
    assert_eq!(exact_count(&server, "SELECT count(*) FROM twinspot.kgrams"), 0);
    success(&twinspot(dir, &["archive", "revoke", &server.url(), "reader"]));
    let said = failure(dir, &["archive", "check", &reader, "docs/00002.txt", "-q"]);
    assert!(said.contains("permission denied"), "{said}");
    // Creating an archive needs the right to make a schema.
    let said = failure(dir, &["archive", "add", &reader, "docs", "--schema", "other", "-q"]);
    assert!(said.contains("reader may not create") || said.contains("permission denied"), "{said}");
}

/// An archive as format 8 left it (every posting a row, no folded rows) is checked as it
/// is; its owner's next change upgrades it, and a role granted before the upgrade reads
/// the folded rows too.
#[test]
fn an_archive_of_the_format_before_is_checked_as_it_is_and_upgraded_by_its_owner() {
    let server = PgServer::start();
    let url = server.url();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let words = |i: usize, j: usize| (0..6).map(|w| word((i * 97 + j) * 6 + w)).collect::<Vec<_>>().join(" ");
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    for i in 0..6 {
        let body: String = (0..40).map(|j| format!("{}. ", words(i, j))).collect();
        std::fs::write(dir.join(format!("docs/{i:05}.txt")), body).unwrap();
    }
    let copied: String = (10..25).map(|j| format!("{}. ", words(3, j))).collect();
    std::fs::write(dir.join("suspect.txt"), format!("Some words of its own to begin with. {copied} The end.")).unwrap();
    success(&twinspot(dir, &["archive", "add", &url, "docs", "-q"]));
    server.sql(
        "DROP TABLE twinspot.kgrams_packed, twinspot.sentences_packed, twinspot.chargrams, twinspot.chargrams_packed;
         DELETE FROM twinspot.settings WHERE key = 'char_grams_from';
         UPDATE twinspot.settings SET value = '8' WHERE key = 'format'",
    );
    server.sql("CREATE ROLE reader LOGIN PASSWORD 'reader-pw'");
    success(&twinspot(dir, &["archive", "grant", &url, "reader", "--read"]));
    let reader = server.url_as("reader", "reader-pw");
    let check = || pairs_by_path(&json_of(dir, &["archive", "check", &reader, "suspect.txt", "--json", "-", "-q"]));
    let before = check();
    assert_eq!(before.iter().map(|p| p.1.as_str()).collect::<Vec<_>>(), ["docs/00003.txt"], "{before:?}");
    let format = "SELECT value::bigint FROM twinspot.settings WHERE key = 'format'";
    assert_eq!(exact_count(&server, format), 8, "reading leaves the format as it is");
    success(&twinspot(dir, &["archive", "compact", &url]));
    assert_eq!(exact_count(&server, format), 10);
    assert_eq!(exact_count(&server, "SELECT count(*) FROM twinspot.kgrams"), 0);
    assert!(exact_count(&server, "SELECT count(*) FROM twinspot.kgrams_packed") > 0);
    assert_eq!(check(), before);
}

#[test]
fn a_wrong_password_and_an_unreachable_server_fail_quickly_and_never_show_the_password() {
    let server = PgServer::start();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("doc.txt"), "one small document about rivers and the sea").unwrap();
    let wrong = server.url_as(ADMIN, "not-the-Pw-9");
    for url in [wrong.as_str(), "postgresql://someone:hidden-Pw-3@127.0.0.1:1/db"] {
        let started = std::time::Instant::now();
        let said = failure(dir, &["archive", "check", url, "doc.txt", "-q"]);
        assert!(started.elapsed().as_secs() < 20, "took {:?}", started.elapsed());
        assert!(said.contains("cannot connect to the archive server"), "{said}");
        assert!(!said.contains("not-the-Pw-9") && !said.contains("hidden-Pw-3"), "{said}");
    }
    let said = failure(dir, &["archive", "check", &wrong, "doc.txt", "-q"]);
    assert!(said.contains("password authentication failed"), "{said}");
    // The password may come from PGPASSWORD instead of the URL.
    let bare = format!("postgresql://{ADMIN}@127.0.0.1:{}/postgres?sslmode=disable", server.port);
    let out = crate::util::command()
        .current_dir(dir)
        .env("PGPASSWORD", ADMIN_PASSWORD)
        .args(["archive", "add", &bare, "doc.txt", "-q"])
        .output()
        .unwrap();
    assert!(success(&out).starts_with("1 added"));
    // Nothing was made on this machine for the URL.
    let entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(entries, ["doc.txt"]);
}

#[test]
fn tls_is_used_when_asked_and_verify_full_checks_the_certificate() {
    use twinspot::archive::server::{ServerLocation, Sql};
    let server = PgServer::start_with_tls();
    let cert = server.certificate.clone().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_docs(dir, 3);
    let base = format!("postgresql://{ADMIN}:{ADMIN_PASSWORD}@127.0.0.1:{}/postgres", server.port);
    let encrypted = |url: &str| -> bool {
        let mut client = ServerLocation::parse(url).unwrap().connect().unwrap();
        client.query_one("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", &[]).unwrap().get(0)
    };
    // require: encrypted, the self-signed certificate not checked (as libpq).
    let require = format!("{base}?sslmode=require");
    assert!(encrypted(&require));
    let added = success(&twinspot(dir, &["archive", "add", &require, "docs", "-q"]));
    assert!(added.starts_with("3 added"), "{added}");
    // verify-full: refused while the certificate's signer is not trusted…
    let said = failure(dir, &["archive", "list", &format!("{base}?sslmode=verify-full")]);
    assert!(said.contains("cannot connect to the archive server") && !said.contains(ADMIN_PASSWORD), "{said}");
    // …accepted with it, for the names the certificate holds…
    let trusted = format!("sslmode=verify-full&sslrootcert={}", cert.display());
    assert!(encrypted(&format!("{base}?{trusted}")));
    let by_name = format!("postgresql://{ADMIN}:{ADMIN_PASSWORD}@localhost:{}/postgres?{trusted}", server.port);
    assert_eq!(success(&twinspot(dir, &["archive", "list", &by_name])).lines().count(), 3);
    // …and a server without TLS is refused when TLS is required.
    let plain = PgServer::start();
    let said =
        failure(dir, &["archive", "list", &format!("{}?sslmode=require", plain.url().split('?').next().unwrap())]);
    assert!(said.contains("cannot connect to the archive server"), "{said}");
}

/// A shared archive is verified as a folder archive is: a document whose token keys no
/// longer match its text is a problem (the server's `verify` once read the texts only).
/// And a stored value no archive writes (a negative position) is damage a check says,
/// never read as the first token (it once was).
#[test]
fn verify_and_a_check_find_damage_on_the_server_as_in_a_folder() {
    let server = PgServer::start();
    let url = server.url();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_docs(dir, 6);
    success(&twinspot(dir, &["archive", "add", &url, "docs", "-q"]));
    let sound = success(&twinspot(dir, &["archive", "verify", &url]));
    assert!(sound.contains("6 documents") && sound.contains(" 0 problems"), "{sound}");

    // One more key than tokens on the first document.
    server.sql("UPDATE twinspot.documents SET keys = keys || '\\x0100'::bytea WHERE id = (SELECT min(id) FROM twinspot.documents)");
    let said = failure(dir, &["archive", "verify", &url]);
    assert!(said.contains("its token keys do not match its text"), "{said}");

    // Every k-gram posting's position made negative: the check says the archive is damaged.
    server.sql("UPDATE twinspot.kgrams SET position = -1");
    let checked = failure(dir, &["archive", "check", &url, "docs/00002.txt", "--json", "-"]);
    assert!(checked.contains("damaged") && checked.contains("position -1"), "{checked}");
    assert!(!checked.contains(crate::pg::ADMIN_PASSWORD), "{checked}");
}

/// A folded row's count of documents is a stored value too: a negative one is damage a
/// check says, never read as a hash in no document (it once was, `unwrap_or(0)`).
#[test]
fn a_damaged_document_count_of_folded_postings_is_said_by_a_check() {
    let server = PgServer::start();
    let url = server.url();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_docs(dir, 6);
    success(&twinspot(dir, &["archive", "add", &url, "docs", "-q"]));
    success(&twinspot(dir, &["archive", "compact", &url]));
    assert!(exact_count(&server, "SELECT count(*) FROM twinspot.kgrams_packed") > 0, "compact folds the postings");
    success(&twinspot(dir, &["archive", "check", &url, "docs/00002.txt", "--json", "-"]));

    server.sql("UPDATE twinspot.kgrams_packed SET documents = -1");
    let checked = failure(dir, &["archive", "check", &url, "docs/00002.txt", "--json", "-"]);
    assert!(checked.contains("damaged") && checked.contains("-1 documents"), "{checked}");
}

/// An archive opened for checking refuses every change, on a server as in a folder, though
/// the role it was opened with may write; nothing is changed.
#[test]
fn an_archive_opened_for_checking_refuses_every_change_on_a_server_as_in_a_folder() {
    use twinspot::archive::{AddOptions, AnyArchive, ArchiveError, Location};
    use twinspot::engine::{CancelFlag, DocumentInput, NoProgress, Role};
    use twinspot::settings::Settings;
    let server = PgServer::start();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_docs(dir, 3);
    let folder = dir.join("archive").display().to_string();
    for name in [server.url(), folder] {
        success(&twinspot(dir, &["archive", "add", &name, "docs/00000.txt", "docs/00001.txt", "-q"]));
        let location = Location::parse(Path::new(&name), None).unwrap();
        let archive = AnyArchive::open(&location, &Settings::default()).unwrap();
        let refused = |what: &str, result: Result<(), ArchiveError>| match result {
            Err(ArchiveError::ReadOnly(_) | ArchiveError::OpenedToCheck { .. }) => {}
            other => panic!("{what} of an archive opened for checking ({}): {other:?}", location.shown()),
        };
        let third = [DocumentInput::new(dir.join("docs/00002.txt"), Role::Reference)];
        let added = archive.add(&third, &AddOptions::default(), &NoProgress, &CancelFlag::new());
        refused("an add", added.map(|_| ()));
        refused("a remove", archive.remove(&[1], &[]).map(|_| ()));
        refused("an expire", archive.expire("2100-01-01").map(|_| ()));
        refused("a compact", archive.compact().map(|_| ()));
        assert_eq!(archive.list().unwrap().len(), 2, "{}", location.shown());
    }
}

/// A document whose group names no archived document: `verify` says so of a folder as of
/// a shared archive (a folder's verify checked no group before).
#[test]
fn verify_finds_a_group_without_its_representative_in_a_folder_as_on_a_server() {
    let server = PgServer::start();
    let url = server.url();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_docs(dir, 4);
    let folder = dir.join("archive");
    let folder = folder.to_str().unwrap();
    for archive in [url.as_str(), folder] {
        success(&twinspot(dir, &["archive", "add", archive, "docs", "-q"]));
        let sound = success(&twinspot(dir, &["archive", "verify", archive]));
        assert!(sound.contains(" 0 problems"), "{archive}: {sound}");
    }
    server.sql("UPDATE twinspot.documents SET group_id = 999 WHERE id = (SELECT max(id) FROM twinspot.documents)");
    let catalog = rusqlite::Connection::open(dir.join("archive/catalog.sqlite")).unwrap();
    catalog.execute("UPDATE documents SET group_id = 999 WHERE id = (SELECT max(id) FROM documents)", []).unwrap();
    drop(catalog);
    for archive in [url.as_str(), folder] {
        let said = failure(dir, &["archive", "verify", archive]);
        assert!(said.contains("its group 999 has no such document"), "{archive}: {said}");
    }
}

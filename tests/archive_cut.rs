//! Archived documents longer than a check compares (its first 8,000,000 normalized
//! characters), in a folder and on a shared server: a check that reports one says it was
//! cut, as `compare` says of its own documents, every suspect is told that text copied
//! from past the cut is not found, and `list` marks it; an archive written
//! before the compared characters were recorded lists it unmarked and is checked as before.

use std::path::Path;

use crate::util::{success, twinspot};

/// The characters a check compares of a document (ASCII text: one normalized character
/// each).
const COMPARED: usize = 8_000_000;

/// Where the suspect's second copied passage starts in the long document: past the cut.
const PAST_THE_CUT: usize = 8_500_000;

/// About 9,000,000 characters of sentences of words from a vocabulary of 20,000, each
/// sentence its own: every k-gram is rare.
fn long_text() -> String {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let word = |n: u64| -> String {
        let len = 3 + (n % 7) as usize;
        (0..len).map(|d| char::from(b'a' + ((n >> (5 * d + 3)) % 26) as u8)).collect()
    };
    let vocabulary: Vec<String> = (0..20_000).map(|_| word(next())).collect();
    let mut text = String::with_capacity(9_100_000);
    while text.len() < 9_000_000 {
        for w in 0..12 {
            if w > 0 {
                text.push(' ');
            }
            text.push_str(&vocabulary[(next() % 20_000) as usize]);
        }
        text.push_str(". ");
    }
    text
}

/// Writes `long.txt`, `short.txt` and `suspect.txt` (a passage of the long document's
/// compared part and one of its part past the cut) to `dir`; the long document's length.
fn write_documents(dir: &Path) -> usize {
    let long = long_text();
    std::fs::write(dir.join("long.txt"), &long).unwrap();
    std::fs::write(dir.join("short.txt"), "A short document that is compared whole, every word of it.\n").unwrap();
    let suspect = format!(
        "An essay of its own begins here and says a few things first. {} Then it goes on in its own words. {} The end.\n",
        &long[100_000..103_000],
        &long[PAST_THE_CUT..PAST_THE_CUT + 3_000]
    );
    std::fs::write(dir.join("suspect.txt"), suspect).unwrap();
    long.len()
}

/// The report of `archive check ARCHIVE suspect.txt`.
fn check(dir: &Path, archive: &str) -> serde_json::Value {
    let stdout = success(&twinspot(dir, &["archive", "check", archive, "suspect.txt", "--json", "-", "-q"]));
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("bad JSON ({e}):\n{stdout}"))
}

/// Asserts that the report names the long reference's cut, as compare names its own.
fn assert_cut_named(report: &serde_json::Value, chars: usize) {
    let documents = report["documents"].as_array().unwrap();
    let long = documents.iter().find(|d| d["path"] == "long.txt").unwrap_or_else(|| panic!("no long.txt: {report}"));
    assert_eq!(long["role"], "reference");
    assert_eq!(long["chars"], chars);
    let said = format!(
        "only the first {COMPARED} of its {chars} characters are compared: a document may take at most {COMPARED} \
         normalized characters"
    );
    assert_eq!(long["warnings"], serde_json::json!([said]), "{long}");
    let suspect = documents.iter().find(|d| d["path"] == "suspect.txt").unwrap();
    assert!(suspect["overall"].as_f64().unwrap() > 0.3, "the passage of the compared part is found: {suspect}");
    assert_eq!(suspect["warnings"], serde_json::json!([stored_cut_said()]), "{suspect}");
}

/// What a suspect checked against an archive holding the long document is told.
fn stored_cut_said() -> String {
    format!(
        "1 archived document is longer than {COMPARED} characters and compared by that first part only: text \
         copied from past it is not found"
    )
}

/// A suspect that copies only from past the cut: the long reference is never found, and
/// the suspect is told why it may read as its own work.
fn assert_copy_past_the_cut_is_told(dir: &Path, archive: &str) {
    let long = std::fs::read_to_string(dir.join("long.txt")).unwrap();
    let past = format!("My own opening. {} My own end.\n", &long[PAST_THE_CUT..PAST_THE_CUT + 3_000]);
    std::fs::write(dir.join("past.txt"), past).unwrap();
    let stdout = success(&twinspot(dir, &["archive", "check", archive, "past.txt", "--json", "-", "-q"]));
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let suspect = &report["documents"][0];
    assert_eq!(suspect["path"], "past.txt");
    assert_eq!(suspect["warnings"], serde_json::json!([stored_cut_said()]), "{suspect}");
}

/// The line `list` gives of `path`.
fn listed(dir: &Path, archive: &str, path: &str) -> String {
    let list = success(&twinspot(dir, &["archive", "list", archive]));
    let line = list.lines().find(|l| l.split_whitespace().nth(4) == Some(path));
    line.unwrap_or_else(|| panic!("{path} not listed:\n{list}")).to_string()
}

/// What `list` says of a document cut to the first `COMPARED` of `chars` characters.
fn cut_mark(chars: usize) -> String {
    format!("  (cut: first {COMPARED} of {chars} characters compared)")
}

#[test]
fn a_cut_document_of_a_folder_archive_is_named_by_a_check_and_marked_by_list() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let chars = write_documents(dir);
    let added = twinspot(dir, &["archive", "add", "arc", "long.txt"]);
    success(&added);
    assert!(String::from_utf8_lossy(&added.stderr).contains("only the first 8000000"));
    assert_cut_named(&check(dir, "arc"), chars);
    assert_copy_past_the_cut_is_told(dir, "arc");
    assert!(listed(dir, "arc", "long.txt").ends_with(&cut_mark(chars)));

    // An archive written before the compared characters were recorded: the same format,
    // without the column. It is listed unmarked, and a check names the cut from the text.
    let catalog = dir.join("arc/catalog.sqlite");
    let conn = rusqlite::Connection::open(&catalog).unwrap();
    conn.execute_batch("ALTER TABLE documents DROP COLUMN compared").unwrap();
    drop(conn);
    assert!(!listed(dir, "arc", "long.txt").contains("(cut"));
    assert_cut_named(&check(dir, "arc"), chars);
    // A writer adds the column: the documents added then have it, those before do not.
    success(&twinspot(dir, &["archive", "add", "arc", "short.txt", "-q"]));
    let conn = rusqlite::Connection::open(&catalog).unwrap();
    let compared = |path: &str| -> (Option<i64>, i64) {
        let query = "SELECT compared, chars FROM documents WHERE path = ?1";
        conn.query_row(query, [path], |r| Ok((r.get(0)?, r.get(1)?))).unwrap()
    };
    assert_eq!(compared("long.txt"), (None, chars as i64));
    let (short, short_chars) = compared("short.txt");
    assert_eq!(short, Some(short_chars));
    assert!(!listed(dir, "arc", "long.txt").contains("(cut"));
    assert!(!listed(dir, "arc", "short.txt").contains("(cut"));
}

#[cfg(unix)]
#[test]
fn a_cut_document_of_a_shared_archive_is_named_by_a_check_and_marked_by_list() {
    let server = crate::pg::PgServer::start();
    let url = server.url();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let chars = write_documents(dir);
    success(&twinspot(dir, &["archive", "add", &url, "long.txt", "-q"]));
    assert_cut_named(&check(dir, &url), chars);
    assert_copy_past_the_cut_is_told(dir, &url);
    assert!(listed(dir, &url, "long.txt").ends_with(&cut_mark(chars)));

    // An archive made before the column: listed unmarked; a writer that does not own it
    // adds without the column, its owner's next change adds the column.
    server.sql("ALTER TABLE twinspot.documents DROP COLUMN compared");
    assert!(!listed(dir, &url, "long.txt").contains("(cut"));
    server.sql("CREATE ROLE writer LOGIN PASSWORD 'writer-pw'");
    success(&twinspot(dir, &["archive", "grant", &url, "writer", "--write"]));
    let writer = server.url_as("writer", "writer-pw");
    success(&twinspot(dir, &["archive", "add", &writer, "short.txt", "-q"]));
    assert!(!listed(dir, &writer, "short.txt").contains("(cut"));
    std::fs::write(dir.join("third.txt"), "A third document, added by the archive's owner.\n").unwrap();
    success(&twinspot(dir, &["archive", "add", &url, "third.txt", "-q"]));
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let compared: Vec<(String, Option<i64>)> = client
        .query("SELECT path, compared, chars FROM twinspot.documents ORDER BY id", &[])
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get::<_, Option<i64>>(1).filter(|&c| c == r.get::<_, i64>(2))))
        .collect();
    let whole = Some(std::fs::read_to_string(dir.join("third.txt")).unwrap().chars().count() as i64);
    let want = [("long.txt", None), ("short.txt", None), ("third.txt", whole)];
    assert_eq!(compared, want.map(|(p, c)| (p.to_string(), c)), "recorded, and all compared");
    assert!(!listed(dir, &url, "long.txt").contains("(cut"));
}

//! Short edited copies against an archive that keeps every document's character grams: a
//! folder archive and a shared one find a document that nothing but a short edited copy
//! ties to a suspect, as `compare` does; an archive written before they were kept is
//! checked as before, verifies, and gets its older documents' grams from `compact`.

use std::path::Path;

use crate::pg::PgServer;
use crate::short_copies::{EDITED, HOST, OTHER, OTHER_EDITED, REFERENCE, VERBATIM};
use crate::util::{success, twinspot};

/// Writes the references (one the suspect copies a paragraph of word for word, one it
/// copies only a short edited sentence of) and the suspect under `dir`.
fn write_set(dir: &Path) {
    std::fs::create_dir_all(dir.join("reference")).unwrap();
    std::fs::write(dir.join("reference/r.txt"), format!("{VERBATIM}{REFERENCE}")).unwrap();
    std::fs::write(dir.join("reference/other.txt"), OTHER).unwrap();
    let suspect = format!("{HOST}{VERBATIM}{HOST}{EDITED} {HOST}{OTHER_EDITED} {HOST}");
    std::fs::write(dir.join("suspect.txt"), suspect).unwrap();
}

/// The passages of the suspect's pair with `reference` in a check of `archive`.
fn passages_with(dir: &Path, archive: &str, reference: &str, more: &[&str]) -> usize {
    let mut args = vec!["archive", "check", archive, "suspect.txt", "--json", "-", "-q"];
    args.extend(more);
    let stdout = success(&twinspot(dir, &args));
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let docs = report["documents"].as_array().unwrap();
    let pairs = report["pairs"].as_array().unwrap();
    let pair = pairs.iter().find(|p| docs[p["b"].as_u64().unwrap() as usize]["path"] == reference);
    pair.map_or(0, |p| p["passages"].as_array().unwrap().len())
}

#[test]
fn a_folder_archive_finds_a_document_tied_only_by_a_short_edited_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_set(dir);
    success(&twinspot(dir, &["archive", "add", "arc", "reference", "-q"]));
    assert_eq!(passages_with(dir, "arc", "reference/r.txt", &[]), 2);
    assert_eq!(passages_with(dir, "arc", "reference/other.txt", &[]), 1);
    assert_eq!(passages_with(dir, "arc", "reference/other.txt", &["--no-short-copies"]), 0);
    let grams = std::fs::read_dir(dir.join("arc")).unwrap().flatten();
    assert!(grams.into_iter().any(|f| f.file_name().to_string_lossy().starts_with("c-")), "a segment of grams");
}

/// Makes the folder archive `arc` look as format 9 wrote it: no segments of character
/// grams, no record of which documents have them.
fn downgrade_to_format_9(arc: &Path) {
    let conn = rusqlite::Connection::open(arc.join("catalog.sqlite")).unwrap();
    let files: Vec<String> = conn
        .prepare("SELECT file FROM segments WHERE kind = 2")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(!files.is_empty());
    for file in files {
        std::fs::remove_file(arc.join(file)).unwrap();
    }
    conn.execute_batch(
        "DELETE FROM segments WHERE kind = 2;
         DELETE FROM settings WHERE key = 'char_grams_from';
         UPDATE settings SET value = '9' WHERE key = 'format';",
    )
    .unwrap();
}

fn setting(arc: &Path, key: &str) -> Option<String> {
    let conn = rusqlite::Connection::open(arc.join("catalog.sqlite")).unwrap();
    conn.query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| r.get(0)).ok()
}

#[test]
fn a_folder_archive_of_the_format_before_checks_as_before_and_compact_takes_its_grams() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_set(dir);
    success(&twinspot(dir, &["archive", "add", "arc", "reference", "-q"]));
    let arc = dir.join("arc");
    downgrade_to_format_9(&arc);
    // As before: the short copy is found in the document read for its verbatim paragraph
    // only.
    assert_eq!(passages_with(dir, "arc", "reference/r.txt", &[]), 2);
    assert_eq!(passages_with(dir, "arc", "reference/other.txt", &[]), 0);
    assert_eq!(setting(&arc, "format").as_deref(), Some("10"));
    assert_eq!(setting(&arc, "char_grams_from").as_deref(), Some("3"), "the documents after those held");
    success(&twinspot(dir, &["archive", "verify", "arc"]));
    // A document added now has its grams, the older ones not yet: still as before.
    std::fs::write(dir.join("late.txt"), HOST).unwrap();
    success(&twinspot(dir, &["archive", "add", "arc", "late.txt", "-q"]));
    assert_eq!(passages_with(dir, "arc", "reference/other.txt", &[]), 0);
    success(&twinspot(dir, &["archive", "compact", "arc"]));
    assert_eq!(setting(&arc, "char_grams_from").as_deref(), Some("1"));
    assert_eq!(passages_with(dir, "arc", "reference/other.txt", &[]), 1);
    assert_eq!(passages_with(dir, "arc", "reference/r.txt", &[]), 2);
    success(&twinspot(dir, &["archive", "verify", "arc"]));
}

#[test]
fn a_shared_archive_finds_a_document_tied_only_by_a_short_edited_copy() {
    let server = PgServer::start();
    let url = server.url();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_set(dir);
    success(&twinspot(dir, &["archive", "add", &url, "reference", "-q"]));
    assert_eq!(passages_with(dir, &url, "reference/r.txt", &[]), 2);
    assert_eq!(passages_with(dir, &url, "reference/other.txt", &[]), 1);
    // Folded by `compact`, the grams are found the same.
    success(&twinspot(dir, &["archive", "compact", &url]));
    assert_eq!(passages_with(dir, &url, "reference/other.txt", &[]), 1);
}

#[test]
fn a_shared_archive_of_the_format_before_checks_as_before_and_compact_takes_its_grams() {
    let server = PgServer::start();
    let url = server.url();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_set(dir);
    success(&twinspot(dir, &["archive", "add", &url, "reference", "-q"]));
    server.sql(
        "DROP TABLE twinspot.chargrams, twinspot.chargrams_packed;
         DELETE FROM twinspot.settings WHERE key = 'char_grams_from';
         UPDATE twinspot.settings SET value = '9' WHERE key = 'format'",
    );
    assert_eq!(passages_with(dir, &url, "reference/r.txt", &[]), 2);
    assert_eq!(passages_with(dir, &url, "reference/other.txt", &[]), 0);
    success(&twinspot(dir, &["archive", "verify", &url]));
    // The owner's next change upgrades it; the documents held before get their grams
    // from `compact`.
    success(&twinspot(dir, &["archive", "compact", &url]));
    assert_eq!(passages_with(dir, &url, "reference/other.txt", &[]), 1);
    assert_eq!(passages_with(dir, &url, "reference/r.txt", &[]), 2);
}

//! Helpers: run the `twinspot` binary and show everything it printed when a check fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The folder of the test fixtures.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("fixtures")
}

/// Runs `twinspot args…` in `dir`.
pub fn twinspot(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_twinspot")).current_dir(dir).args(args).output().expect("run twinspot")
}

/// Standard output as text; panics showing both streams if the command failed.
pub fn success(output: &Output) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "twinspot failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        stdout,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// Runs a compare that writes JSON to standard output, and parses it.
pub fn compare_json(dir: &Path, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["compare", "--json", "-", "-q"];
    all.extend_from_slice(args);
    let stdout = success(&twinspot(dir, &all));
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("bad JSON ({e}):\n{stdout}"))
}

/// The characters `[start, end)` of a document's extracted text.
pub fn slice(dir: &Path, path: &str, start: u64, end: u64) -> String {
    let text = success(&twinspot(dir, &["extract", path]));
    text.chars().skip(start as usize).take((end - start) as usize).collect()
}

/// The document id whose path is `path`.
pub fn doc_id(report: &serde_json::Value, path: &str) -> u64 {
    report["documents"]
        .as_array()
        .and_then(|docs| docs.iter().find(|d| d["path"] == path))
        .and_then(|d| d["id"].as_u64())
        .unwrap_or_else(|| panic!("no document {path} in {report:#}"))
}

/// The pair (suspect, reference) of a report, if any.
pub fn pair<'a>(report: &'a serde_json::Value, a: &str, b: &str) -> Option<&'a serde_json::Value> {
    let (a, b) = (doc_id(report, a), doc_id(report, b));
    report["pairs"].as_array()?.iter().find(|p| p["a"] == a && p["b"] == b)
}

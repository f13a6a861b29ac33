//! Quality floor on the development corpus (`../shared/devset`), scored with the
//! project's scorer: a regression in matching fails here. The floors sit a little under
//! what the engine reaches (see README).

use std::path::PathBuf;
use std::process::Command;

use crate::util::{success, twinspot};

fn devset() -> Option<PathBuf> {
    let dir = std::env::var_os("TWINSPOT_DEVSET")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/devset"));
    dir.join("truth.json").exists().then_some(dir)
}

#[test]
fn devset_plagdet_stays_above_its_floor() {
    let Some(dir) = devset() else {
        assert!(std::env::var_os("CI").is_none(), "CI must have ../shared/devset");
        eprintln!("NOTE: ../shared/devset not found (set TWINSPOT_DEVSET): quality floor not checked");
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("devset.json");
    success(&twinspot(&dir, &["compare", "-r", "reference", "-s", "suspect", "--json", json.to_str().unwrap(), "-q"]));
    let scorer = dir.join("../eval/score.py");
    let output = Command::new("python3")
        .arg(&scorer)
        .arg(dir.join("truth.json"))
        .arg(&json)
        .output()
        .expect("python3 runs the scorer");
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{table}\n{}", String::from_utf8_lossy(&output.stderr));
    let last = table.lines().last().unwrap_or_default();
    let value = |name: &str| -> f64 {
        last.split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in: {last}"))
    };
    println!("{table}");
    assert!(value("plagdet") >= 0.90, "{table}");
    assert!(value("precision") >= 0.93, "{table}");
    assert!(value("recall") >= 0.87, "{table}");
    assert!(value("granularity") <= 1.05, "{table}");
    assert_eq!(value("dup_recall"), 1.0, "{table}");
    assert_eq!(value("dup_precision"), 1.0, "{table}");
}

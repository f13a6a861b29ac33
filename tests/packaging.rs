//! What the Debian package ships besides the program, checked on the build: the version
//! `--version` shows, and the man pages and shell completions build.rs writes from the
//! command line's grammar (one page per command, every command completed).

use std::path::Path;

use super::util::{success, twinspot};

/// The commands a user can type (the hidden extraction helper aside).
const COMMANDS: &[&str] = &["compare", "archive", "extract", "simhash", "keywords"];

fn generated() -> &'static Path {
    Path::new(concat!(env!("OUT_DIR"), "/generated"))
}

#[test]
fn version_is_the_packages() {
    let out = success(&twinspot(Path::new("."), &["--version"]));
    assert_eq!(out.trim(), format!("twinspot {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn a_man_page_for_the_program_and_each_command() {
    let man = generated().join("man");
    let main = std::fs::read_to_string(man.join("twinspot.1")).unwrap();
    assert!(main.contains(env!("CARGO_PKG_VERSION")), "twinspot.1 does not carry the version");
    for command in COMMANDS {
        assert!(man.join(format!("twinspot-{command}.1")).is_file(), "no page for {command}");
        assert!(main.contains(&format!("twinspot\\-{command}")), "twinspot.1 does not list {command}");
    }
    for command in ["add", "check", "remove", "verify"] {
        assert!(man.join(format!("twinspot-archive-{command}.1")).is_file(), "no page for archive {command}");
    }
    let compare = std::fs::read_to_string(man.join("twinspot-compare.1")).unwrap();
    assert!(compare.contains("\\-\\-reference") && compare.contains("default: 5"), "compare's options are missing");
    let pages = std::fs::read_dir(&man).unwrap().count();
    assert!(!man.join("twinspot-__extract-worker.1").exists() && pages > 10, "{pages} pages");
}

#[test]
fn completions_for_bash_zsh_and_fish_know_every_command() {
    let dir = generated().join("completions");
    for file in ["twinspot.bash", "_twinspot", "twinspot.fish"] {
        let script = std::fs::read_to_string(dir.join(file)).unwrap();
        for command in COMMANDS {
            assert!(script.contains(command), "{file} does not complete {command}");
        }
        assert!(!script.contains("__extract-worker"), "{file} offers the hidden helper");
    }
}

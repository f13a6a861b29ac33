//! Writes the man pages (clap_mangen: `twinspot.1` and one page per subcommand) and the
//! bash, zsh and fish completions (clap_complete) from the command line's grammar,
//! src/cli/grammar, which this script mounts as a module of its own.
//!
//! They go to OUT_DIR, and for a build with the window and the distributed commands (what
//! the Debian package ships) also to `target/<profile>/generated/`, where
//! `[package.metadata.deb]` finds them (`target/release/generated/…`).

#[allow(dead_code)]
#[path = "src/cli/grammar/mod.rs"]
mod grammar;

use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};

use clap::CommandFactory;
use clap_complete::Shell;

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo::rerun-if-changed=src/cli/grammar");
    println!("cargo::rerun-if-changed=build.rs");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("OUT_DIR is not set")?);
    let generated = out_dir.join("generated");
    write_all(&generated)?;
    if cfg!(all(feature = "gui", feature = "distributed")) {
        // OUT_DIR is <target>/<profile>/build/twinspot-<hash>/out.
        let profile_dir = out_dir.ancestors().nth(3).ok_or("OUT_DIR is not inside a profile folder")?;
        write_all(&profile_dir.join("generated"))?;
    }
    Ok(())
}

/// Writes man/*.1 and completions/{twinspot.bash,_twinspot,twinspot.fish} below `dir`,
/// replacing what an earlier build left there.
fn write_all(dir: &Path) -> Result<(), Box<dyn Error>> {
    let man = dir.join("man");
    let completions = dir.join("completions");
    for sub in [&man, &completions] {
        if sub.exists() {
            fs::remove_dir_all(sub)?;
        }
        fs::create_dir_all(sub)?;
    }
    let command = grammar::Cli::command();
    clap_mangen::generate_to(command.clone(), &man)?;
    let mut command = command;
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        clap_complete::generate_to(shell, &mut command, "twinspot", &completions)?;
    }
    Ok(())
}

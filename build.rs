//! Writes the man pages (clap_mangen: `twinspot.1` and one page per subcommand, each also
//! gzipped as Debian installs them) and the bash, zsh and fish completions (clap_complete)
//! from the command line's grammar, src/cli/grammar, which this script mounts as a module
//! of its own.
//!
//! They go to OUT_DIR, and for a build with the window and the distributed commands (what
//! the Debian package ships) also to `target/<profile>/generated/`, where
//! `[package.metadata.deb]` finds them (`target/release/generated/…`).

#[allow(dead_code)]
#[path = "src/cli/grammar/mod.rs"]
mod grammar;

use std::error::Error;
use std::fs;
use std::io::Write;
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

/// Writes man/*.1, man/*.1.gz and completions/{twinspot.bash,_twinspot,twinspot.fish} below `dir`,
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
    gzip_pages(&man)?;
    let mut command = command;
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        clap_complete::generate_to(shell, &mut command, "twinspot", &completions)?;
    }
    Ok(())
}

/// Writes `page.1.gz` beside each `page.1` in `man`: gzip -9 with no name and no time
/// stamp in the header, so the same page always gives the same bytes.
fn gzip_pages(man: &Path) -> Result<(), Box<dyn Error>> {
    for entry in fs::read_dir(man)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "1") {
            let page = fs::read(&path)?;
            let mut gz = flate2::GzBuilder::new().mtime(0).write(Vec::new(), flate2::Compression::best());
            gz.write_all(&page)?;
            let mut name = path.clone().into_os_string();
            name.push(".gz");
            fs::write(name, gz.finish()?)?;
        }
    }
    Ok(())
}

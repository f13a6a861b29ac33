//! `twinspot simhash FILE...`: one line per file, the 64-bit SimHash in hex and the path.

use std::path::PathBuf;
use std::process::ExitCode;

use rayon::prelude::*;
use twinspot::Settings;
use twinspot::engine::{compared_part, display_path};
use twinspot::fingerprint::simhash::Dictionary;
use twinspot::ingest::{self, IngestLimits};

use super::output::{WriteFailure, print_stdout};

/// Exit status 0 when at least one file was hashed, 1 when none could be.
pub fn run(files: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let settings = Settings::default();
    let limits = IngestLimits { isolation: super::isolation(), ..IngestLimits::default() };
    let extractor = ingest::Extractor::new(limits.isolation.as_ref());
    let dictionary = Dictionary::new();
    let lines: Vec<Result<String, String>> = files
        .par_iter()
        .map(|file| {
            let extracted = extractor.extract(file, &limits).map_err(|e| format!("{e:#}"))?;
            // A giant document is hashed by the part a check compares, as a check does.
            let (compared, cut) = compared_part(&extracted.text, &settings);
            if let Some(cut) = cut {
                eprintln!("note: {cut}: {}", display_path(file));
            }
            let hash = dictionary.text_simhash(compared, settings.normalize);
            Ok(format!("{hash:016x}  {}\n", display_path(file)))
        })
        .collect();
    let mut out = String::new();
    for line in &lines {
        match line {
            Ok(line) => out.push_str(line),
            Err(error) => eprintln!("twinspot: {error}"),
        }
    }
    let hashed = lines.iter().filter(|l| l.is_ok()).count();
    match print_stdout(&out) {
        Ok(()) | Err(WriteFailure::StdoutClosed) => {}
        Err(failure) => {
            eprintln!("twinspot: {failure}");
            return Ok(ExitCode::from(1));
        }
    }
    if hashed == 0 {
        eprintln!("twinspot: no file could be read");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

//! `twinspot simhash FILE...`: one line per file, the 64-bit SimHash in hex and the path.

use std::path::PathBuf;
use std::process::ExitCode;

use rayon::prelude::*;
use twinspot::Settings;
use twinspot::fingerprint::simhash::text_simhash;
use twinspot::ingest::{self, IngestLimits};

pub fn run(files: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let settings = Settings::default();
    let limits = IngestLimits { isolation: super::isolation(), ..IngestLimits::default() };
    let extractor = ingest::Extractor::new(limits.isolation.as_ref());
    let lines: Vec<Result<String, String>> = files
        .par_iter()
        .map(|file| {
            let extracted = extractor.extract(file, &limits).map_err(|e| format!("{e:#}"))?;
            let hash = text_simhash(&extracted.text, settings.normalize);
            Ok(format!("{hash:016x}  {}", file.display()))
        })
        .collect();
    for line in lines {
        match line {
            Ok(line) => println!("{line}"),
            Err(error) => eprintln!("twinspot: {error}"),
        }
    }
    Ok(ExitCode::SUCCESS)
}

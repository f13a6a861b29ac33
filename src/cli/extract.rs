//! `twinspot extract FILE`: the extracted text, exactly as offsets count it.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use twinspot::ingest::{self, IngestLimits};

pub fn run(file: &Path) -> anyhow::Result<ExitCode> {
    let limits = IngestLimits { isolation: super::isolation(), ..IngestLimits::default() };
    let extracted = match ingest::extract(file, &limits) {
        Ok(extracted) => extracted,
        Err(error) => {
            eprintln!("twinspot: {error:#}");
            return Ok(ExitCode::from(1));
        }
    };
    for warning in &extracted.warnings {
        eprintln!("twinspot: warning: {warning}: {}", file.display());
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(extracted.text.as_bytes()).context("writing the text to standard output")?;
    stdout.flush().context("writing the text to standard output")?;
    Ok(ExitCode::SUCCESS)
}

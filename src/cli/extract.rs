//! `twinspot extract FILE`: the extracted text, exactly as offsets count it.

use std::path::Path;
use std::process::ExitCode;

use twinspot::engine::display_path;
use twinspot::ingest::{self, IngestLimits};

use super::output::{WriteFailure, print_stdout};

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
        eprintln!("twinspot: warning: {warning}: {}", display_path(file));
    }
    match print_stdout(&extracted.text) {
        Ok(()) | Err(WriteFailure::StdoutClosed) => Ok(ExitCode::SUCCESS),
        Err(failure) => {
            eprintln!("twinspot: {failure}");
            Ok(ExitCode::from(1))
        }
    }
}

//! `twinspot keywords FILE...`: the keyword fingerprint of each file — its key in hex,
//! the path, then its top keywords (folded), heaviest first.

use std::path::PathBuf;
use std::process::ExitCode;

use rayon::prelude::*;
use twinspot::Settings;
use twinspot::fingerprint::keywords::{TOP_KEYWORDS, keyword_print};
use twinspot::fingerprint::simhash::Dictionary;
use twinspot::ingest::{self, IngestLimits};
use twinspot::normalize::folded_text;

pub fn run(files: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let settings = Settings::default();
    let dictionary = Dictionary::new();
    let lines: Vec<Result<String, String>> = files
        .par_iter()
        .map(|file| {
            let extracted = ingest::extract(file, &IngestLimits::default()).map_err(|e| format!("{e:#}"))?;
            let print = keyword_print(
                &dictionary.weighted_words(&folded_text(&extracted.text, settings.normalize)),
                TOP_KEYWORDS,
            );
            Ok(format!("{:016x}  {}  {}", print.key, file.display(), print.keywords.join(" ")))
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

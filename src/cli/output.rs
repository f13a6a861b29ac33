//! Writing the reports of `align` and `merge`: JSON, CSV and HTML to files or standard
//! output, and a one-line summary.

use std::path::Path;

use anyhow::Context;
use twinspot::Report;
use twinspot::report::{csv::to_csv, html::to_html, json::to_json};

/// Writes each report that has an output, then (unless `quiet` or a report went to
/// standard output) a summary line.
pub fn write_reports(
    report: &Report,
    json: Option<&Path>,
    csv: Option<&Path>,
    html: Option<&Path>,
    quiet: bool,
) -> anyhow::Result<()> {
    for doc in report.errors() {
        eprintln!("twinspot: {}", doc.error.as_deref().unwrap_or_default());
    }
    if let Some(out) = json {
        write_output(out, &to_json(report))?;
    }
    if let Some(out) = csv {
        write_output(out, &to_csv(report))?;
    }
    if let Some(out) = html {
        write_output(out, &to_html(report))?;
    }
    let to_stdout = |o: Option<&Path>| o == Some(Path::new("-"));
    if !quiet && !to_stdout(json) && !to_stdout(csv) {
        println!(
            "{} documents, {} pairs with shared text, {} near duplicates in {} groups",
            report.documents.len(),
            report.pairs.len(),
            report.near_duplicates.len(),
            report.groups.len()
        );
    }
    Ok(())
}

fn write_output(out: &Path, content: &str) -> anyhow::Result<()> {
    if out == Path::new("-") {
        print!("{content}");
        return Ok(());
    }
    std::fs::write(out, content).with_context(|| format!("cannot write {}", out.display()))
}

//! `twinspot merge`: joins the partial JSON reports of `align` runs over slices of the
//! same pairs into one report.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use twinspot::distributed::merge::merge_reports;

use super::grammar::distributed::MergeArgs;
use super::output::{ReportOutputs, summary_line};

pub fn run(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let outputs = ReportOutputs { json: args.json.clone(), csv: args.csv.clone(), ..Default::default() };
    if let Err(e) = outputs.check(args.reports.iter().map(PathBuf::as_path)) {
        eprintln!("twinspot: {e}");
        return Ok(ExitCode::from(2));
    }
    let mut parts = Vec::with_capacity(args.reports.len());
    for path in &args.reports {
        let content = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        parts.push((path.clone(), content));
    }
    let report = merge_reports(&parts).context("the reports were not merged")?;
    for doc in report.errors() {
        eprintln!("twinspot: {}", doc.error.as_ref().map(ToString::to_string).unwrap_or_default());
    }
    let inputs = args.reports.iter().map(PathBuf::as_path);
    Ok(outputs.finish(&report, inputs, (!args.quiet).then(|| summary_line(&report))))
}

//! `twinspot archive`: add documents to an archive, check suspects against it, and look
//! after it (list, stats, remove, groups, expire, verify, compact; grant and revoke on a
//! shared archive). The archive is a folder or a PostgreSQL server: [`AnyArchive`].

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use twinspot::archive::Access;
use twinspot::archive::{AddOptions, AnyArchive, Compacted, Location, WhenBusy};
use twinspot::engine::{CheckRequest, InputSet, Skipped, display_path};
use twinspot::{CancelFlag, DocumentInput, Role, Settings};

use super::compare::{read_by_the_run, report_lang, skipped_line, summary};
use super::grammar::archive::{ArchiveArgs, ArchiveCommand, CheckArgs, Shape};
use super::output::ReportOutputs;
use super::progress_bar::TerminalProgress;
use twinspot::model::usize_from;

/// The settings to open the archive at `location` with: the archive's own, or the
/// defaults for a new one, with `shape` on top (a differing value is then refused when
/// the archive opens).
fn settings_for(location: &Location, shape: &Shape) -> anyhow::Result<Settings> {
    let mut settings = location.stored_settings()?.unwrap_or_default();
    // The parsers bound both values, so these conversions are exact.
    if let Some(k) = shape.k {
        settings.k = usize_from(k);
    }
    if let Some(w) = shape.w {
        settings.w = usize_from(w);
    }
    Ok(settings)
}

fn open_read(location: &Location) -> anyhow::Result<AnyArchive> {
    let settings = location.stored_settings()?.unwrap_or_default();
    Ok(AnyArchive::open(location, &settings)?)
}

/// Opens an existing archive for a change (`action` names it for a refusal).
fn open_write(location: &Location, action: &'static str) -> anyhow::Result<AnyArchive> {
    let settings = location.stored_settings()?.unwrap_or_default();
    Ok(AnyArchive::open_for_changes(location, &settings, false, WhenBusy::Wait(&say_waiting), action)?)
}

/// Said when another writer holds the archive: this one waits for it.
fn say_waiting() {
    eprintln!("twinspot: waiting for another add (or remove, expire, compact) of this archive to finish…");
}

/// The archive's name of a command, whatever the command.
fn archive_of(command: &ArchiveCommand) -> &Path {
    match command {
        ArchiveCommand::Add { archive, .. }
        | ArchiveCommand::List { archive }
        | ArchiveCommand::Stats { archive }
        | ArchiveCommand::Remove { archive, .. }
        | ArchiveCommand::Groups { archive }
        | ArchiveCommand::Expire { archive, .. }
        | ArchiveCommand::Verify { archive }
        | ArchiveCommand::Compact { archive }
        | ArchiveCommand::Grant { archive, .. }
        | ArchiveCommand::Revoke { archive, .. } => archive,
        ArchiveCommand::Check(args) => &args.archive,
    }
}

pub fn run(args: ArchiveArgs) -> anyhow::Result<ExitCode> {
    // An archive is a folder or a PostgreSQL URL; any other URL is refused before
    // anything is read, made or echoed, and a password is never shown.
    let location = match Location::parse(archive_of(&args.command), Some(&args.schema)) {
        Ok(location) => location,
        Err(e) => {
            // A name that is no archive (another URL, a mistyped one, a bad schema name)
            // is a bad argument.
            eprintln!("twinspot: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    match args.command {
        ArchiveCommand::Add { paths, date, cluster, sync, shape, quiet, .. } => {
            let sync = if sync { paths.iter().filter(|p| p.is_dir()).cloned().collect() } else { Vec::new() };
            return add(&location, &paths, AddOptions { published: date, cluster, sync }, &shape, quiet);
        }
        ArchiveCommand::Check(args) => return check(&location, args),
        ArchiveCommand::List { .. } => list(&open_read(&location)?.list()?),
        ArchiveCommand::Stats { .. } => stats(&open_read(&location)?)?,
        ArchiveCommand::Remove { paths, id, .. } => {
            let summary = open_write(&location, "remove from")?.remove(&id, &paths)?;
            for elsewhere in &summary.elsewhere {
                say_archived_elsewhere(elsewhere);
            }
            if summary.not_found.is_empty() {
                println!("{} removed", summary.removed);
            } else {
                println!("{} removed; not in the archive: {}", summary.removed, summary.not_found.join(", "));
                return Ok(ExitCode::from(1));
            }
        }
        ArchiveCommand::Groups { .. } => groups(&open_read(&location)?)?,
        ArchiveCommand::Expire { before, .. } => {
            let dropped = open_write(&location, "expire documents of")?.expire(&before)?;
            println!("{dropped} expired");
        }
        ArchiveCommand::Compact { .. } => match open_write(&location, "compact")?.compact()? {
            Compacted::Segments { merged, kgram_segments, sentence_segments } => println!(
                "{}: {kgram_segments} k-gram and {sentence_segments} sentence segments",
                if merged { "merged" } else { "nothing to merge" }
            ),
            Compacted::Server { purged } => {
                println!("compacted: {purged} postings of removed documents dropped, space reclaimed")
            }
        },
        ArchiveCommand::Grant { role, write, .. } => {
            let access = if write { Access::Write } else { Access::Read };
            open_read(&location)?.grant(&role, access)?;
            let what = if write { "check and change" } else { "check" };
            println!("{role} may now {what} {}", location.shown());
        }
        ArchiveCommand::Revoke { role, .. } => {
            open_read(&location)?.revoke(&role)?;
            println!("{role} may no longer use {}", location.shown());
        }
        ArchiveCommand::Verify { .. } => {
            let report = open_read(&location)?.verify()?;
            for problem in &report.problems {
                eprintln!("twinspot: {problem}");
            }
            for leftover in &report.leftovers {
                eprintln!("twinspot: note: {leftover}: left by a writer that did not finish; the next add removes it");
            }
            println!(
                "{} documents, {} segments, {} leftover files of an interrupted add, {} problems",
                report.documents,
                report.segments,
                report.leftovers.len(),
                report.problems.len()
            );
            if !report.problems.is_empty() {
                return Ok(ExitCode::from(1));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `twinspot archive stats`: the archive's sizes, a line each.
fn stats(store: &AnyArchive) -> anyhow::Result<()> {
    let s = store.stats()?;
    println!("documents        {}", s.documents);
    println!("characters       {}", s.chars);
    println!("groups           {}", s.groups);
    if !store.is_server() {
        println!("segments         {} k-gram, {} sentence", s.kgram_segments, s.sentence_segments);
    }
    println!("postings         {}", s.postings);
    println!("bytes on disk    {}", s.bytes);
    if s.chars > 0 {
        println!("bytes per char   {:.2}", s.bytes as f64 / s.chars as f64);
    }
    Ok(())
}

/// `twinspot archive groups`: each group of near duplicates with its members' paths.
fn groups(store: &AnyArchive) -> anyhow::Result<()> {
    let groups = store.groups()?;
    let paths = store.member_paths(&groups)?;
    for g in groups {
        println!("group {} ({} documents)", g.representative, g.members.len());
        for id in g.members {
            println!("  {:>8} {}", id, paths.get(&id).map(String::as_str).unwrap_or("?"));
        }
    }
    Ok(())
}

/// `twinspot archive list`: a line a document; a path listed more than once (the same
/// relative path added from two folders) says the file each was archived from, and a
/// document a check compares by its first part only says so.
fn list(documents: &[twinspot::archive::DocumentInfo]) {
    let mut times = std::collections::HashMap::<&str, usize>::new();
    for d in documents {
        *times.entry(d.path.as_str()).or_default() += 1;
    }
    for d in documents {
        let from = match &d.source {
            Some(source) if times.get(d.path.as_str()).is_some_and(|&n| n > 1) => format!("  (from {source})"),
            _ => String::new(),
        };
        let cut = match d.cut() {
            Some(compared) => format!("  (cut: first {compared} of {} characters compared)", d.chars),
            None => String::new(),
        };
        println!(
            "{:>8} {:>8} {:>8} {:<10} {}{from}{cut}",
            d.id,
            d.group,
            d.chars,
            d.published.as_deref().unwrap_or("-"),
            d.path
        );
    }
}

/// Said when a path given to `remove` resolves to no archived file here, while documents
/// of other files are archived under that path as added.
fn say_archived_elsewhere(elsewhere: &twinspot::archive::ArchivedElsewhere) {
    let documents: Vec<String> =
        elsewhere.documents.iter().map(|(id, source)| format!("id {id} from {source}")).collect();
    eprintln!(
        "twinspot: {} is {} here, which is not archived; kept what is archived under that path from other files ({}): remove one with --id N",
        elsewhere.given,
        elsewhere.here,
        documents.join(", ")
    );
}

/// `twinspot archive add`: waits for another writer, then adds and says what it did.
fn add(
    location: &Location,
    paths: &[PathBuf],
    options: AddOptions,
    shape: &Shape,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    let mut settings = settings_for(location, shape)?;
    settings.ingest.isolation = super::isolation();
    let Some((inputs, _)) = gather(paths, Role::Reference) else {
        return Ok(ExitCode::from(2));
    };
    let store = AnyArchive::open_for_changes(location, &settings, true, WhenBusy::Wait(&say_waiting), "add to")?;
    let progress = TerminalProgress::new(quiet);
    let synced = !options.sync.is_empty();
    let summary = store.add(&inputs, &options, &progress, &CancelFlag::new())?;
    progress.finish();
    for (path, error) in &summary.failed {
        eprintln!("twinspot: {path}: {error}");
    }
    for (path, warning) in &summary.warnings {
        eprintln!("twinspot: note: {warning}: {path}");
    }
    if !summary.inside_archive.is_empty() {
        eprintln!(
            "twinspot: {} files inside the archive folder itself were not archived (first: {})",
            summary.inside_archive.len(),
            summary.inside_archive[0]
        );
    }
    for file in &summary.damaged_segments {
        eprintln!(
            "twinspot: segment {file} is damaged and was not merged; run `twinspot archive verify` and restore the archive from a copy"
        );
    }
    let sync = sync_said(&summary, synced);
    let hashed = match summary.hashed {
        0 => String::new(),
        1 => "; 1 unchanged file read to compare its bytes".to_string(),
        n => format!("; {n} unchanged files read to compare their bytes"),
    };
    println!(
        "{} added, {} replaced, {} unchanged, {} failed{sync}{hashed}",
        summary.added,
        summary.replaced,
        summary.unchanged,
        summary.failed.len()
    );
    Ok(if summary.damaged_segments.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// What `add --sync` says: how many archived documents went with their files.
fn sync_said(summary: &twinspot::archive::AddSummary, synced: bool) -> String {
    if synced { format!(", {} removed (their files are gone)", summary.dropped) } else { String::new() }
}

/// The documents under `paths`, each real file once, and what was passed over (said on
/// standard error); `None`, said too, when a path does not exist.
fn gather(paths: &[PathBuf], role: Role) -> Option<(Vec<DocumentInput>, Vec<Skipped>)> {
    let mut set = InputSet::new();
    set.add(paths, role);
    if let Some(missing) = set.missing().first() {
        eprintln!("twinspot: no such file or folder: {}", display_path(missing));
        return None;
    }
    let (documents, skipped) = set.finish();
    for s in &skipped {
        eprintln!("twinspot: {}", skipped_line(s));
    }
    Some((documents, skipped))
}

fn check(location: &Location, args: CheckArgs) -> anyhow::Result<ExitCode> {
    let mut settings = settings_for(location, &args.shape)?;
    args.passages.apply(&mut settings);
    settings.short_copies = !args.no_short_copies;
    settings.ingest.isolation = super::isolation();
    let Some((documents, skipped)) = gather(&args.suspects, Role::Suspect) else {
        return Ok(ExitCode::from(2));
    };
    if documents.is_empty() {
        eprintln!("twinspot: no documents found in the paths given");
        return Ok(ExitCode::from(2));
    }
    let outputs = ReportOutputs {
        json: args.json.clone(),
        csv: args.csv.clone(),
        html: args.html.clone(),
        lang: report_lang(args.lang),
        ..ReportOutputs::default()
    };
    if let Err(e) = outputs.check(read_by_the_run(&documents, None)) {
        eprintln!("twinspot: {e}");
        return Ok(ExitCode::from(2));
    }
    let store = AnyArchive::open(location, &settings)?;
    let request = CheckRequest { documents, settings, skipped, ..CheckRequest::default() };
    let progress = TerminalProgress::new(args.quiet).with_timings(args.timings);
    let report = store.check(&request, &progress, &CancelFlag::new()).context("the check did not finish")?;
    progress.finish();
    for doc in &report.documents {
        match &doc.error {
            Some(error) => eprintln!("twinspot: {error}"),
            None => doc.warnings.iter().for_each(|w| eprintln!("twinspot: note: {w}: {}", doc.path)),
        }
    }
    let summary = (!args.quiet).then(|| {
        let suspects = report.documents.iter().filter(|d| d.role == Role::Suspect);
        let overall: String =
            suspects.map(|d| format!("{:>6.1}% overall  {}\n", report.overall(d.id) * 100.0, d.path)).collect();
        overall + &summary(&report)
    });
    Ok(outputs.finish(&report, read_by_the_run(&request.documents, None), summary))
}

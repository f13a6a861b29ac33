//! The daily add, as an editor runs it every evening on the whole articles folder:
//! `twinspot archive add ARCHIVE FOLDER` on N generated documents into a new archive (the
//! first add), the same folder again unchanged, and again after 1,000 of its files were
//! edited. Each round runs the three in turn (first add, unchanged, 1,000 changed,
//! unchanged), so that a noisy machine spreads over all of them, and the medians of the
//! rounds are printed. Run by the archive benchmark when `TWINSPOT_ARCHIVE_DAILY` is set
//! (its value: the number of rounds); `TWINSPOT_BIN` names the `twinspot` to time.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

use super::corpus::{Rng, TextGen};

/// Files edited between two adds.
const CHANGED: usize = 1_000;

/// The `twinspot` to time: `TWINSPOT_BIN` when set (a release build of the command line
/// alone, built without the window), else the one built with this benchmark.
fn twinspot() -> PathBuf {
    std::env::var_os("TWINSPOT_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_twinspot")), PathBuf::from)
}

/// Runs `twinspot archive add ARCHIVE DOCS -q` and returns its wall time and what it said.
fn timed_add(archive: &Path, docs: &Path) -> (f64, String) {
    let start = Instant::now();
    let output = Command::new(twinspot())
        .arg("archive")
        .arg("add")
        .arg(archive)
        .arg(docs)
        .arg("-q")
        .output()
        .expect("start twinspot");
    let secs = start.elapsed().as_secs_f64();
    assert!(output.status.success(), "twinspot archive add failed: {}", String::from_utf8_lossy(&output.stderr));
    (secs, String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// Edits `CHANGED` files of `paths` (round `round` picks its own), as an editor does during
/// the day: a few words changed, saved a minute before the add. The edits differ from one
/// run to the next (seeded by the clock): documents kept from an earlier run
/// (`TWINSPOT_ARCHIVE_DIR`) would otherwise be edited back into versions already archived.
fn edit_files(paths: &[PathBuf], textgen: &TextGen, round: usize) {
    let step = (paths.len() / CHANGED).max(1);
    let now = SystemTime::now();
    let earlier = now - Duration::from_secs(60);
    let run = now.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    for (i, path) in paths.iter().skip(round % step).step_by(step).take(CHANGED).enumerate() {
        let text = std::fs::read_to_string(path).expect("read doc");
        let mut rng = Rng::new(0x5eed ^ run ^ ((round as u64) << 32) ^ i as u64);
        std::fs::write(path, textgen.lightly_edited(&mut rng, &text, 0.05)).expect("edit doc");
        std::fs::File::options().write(true).open(path).and_then(|f| f.set_modified(earlier)).expect("set time");
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The daily-add benchmark on the `paths` of the folder `docs` (already written).
pub fn run(root: &Path, docs: &Path, paths: &[PathBuf], textgen: &TextGen, rounds: usize) {
    let archive = root.join("archive-daily");
    let (mut first, mut unchanged, mut changed) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        if archive.exists() {
            std::fs::remove_dir_all(&archive).expect("remove the archive of the last round");
        }
        let (secs, said) = timed_add(&archive, docs);
        println!("round {round}: first add {secs:.1} s: {said}");
        first.push(secs);
        let (secs, said) = timed_add(&archive, docs);
        println!("round {round}: unchanged {secs:.2} s: {said}");
        unchanged.push(secs);
        edit_files(paths, textgen, round);
        let (secs, said) = timed_add(&archive, docs);
        println!("round {round}: {CHANGED} changed {secs:.2} s: {said}");
        assert!(said.contains(&format!("{CHANGED} replaced")), "the edited files were not all replaced: {said}");
        changed.push(secs);
        let (secs, said) = timed_add(&archive, docs);
        println!("round {round}: unchanged after the change {secs:.2} s: {said}");
        unchanged.push(secs);
    }
    let (first, unchanged, changed) = (median(first), median(unchanged), median(changed));
    println!(
        "{} documents, medians of {rounds} rounds: first add {first:.1} s; unchanged again {unchanged:.2} s ({:.1} %); \
         {CHANGED} changed {changed:.2} s ({:.1} %)",
        paths.len(),
        100.0 * unchanged / first,
        100.0 * changed / first
    );
}

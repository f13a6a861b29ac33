//! Every verb of the archive, asked of a folder and of a shared archive on a throw-away
//! PostgreSQL server (`pg.rs`) through the one front ends use ([`AnyArchive`]), answers
//! alike: add (new, unchanged, replaced, failed, published, kept in step), check, list,
//! groups (by SimHash and by the check's rule), stats, verify, remove (by id, by path, of
//! nothing), expire, compact; and a change asked of an archive opened for checking is
//! refused by both, changing nothing.

use std::path::{Path, PathBuf};

use crate::pg::PgServer;
use twinspot::archive::{AddOptions, AddSummary, AnyArchive, ArchiveError, Location, WhenBusy};
use twinspot::engine::{CancelFlag, CheckRequest, DocumentInput, NoProgress, Report, Role};
use twinspot::settings::Settings;

/// Word `n`: seven letters, each its own (digits are all one to the tokenizer).
fn word(n: usize) -> String {
    let mixed = (n as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (0..7).map(|d| char::from(b'a' + (mixed >> (8 * d) & 0xff) as u8 % 26)).collect()
}

/// Sentences `from..to` of a text of its own words (seed `seed`), ten words each.
fn sentences(seed: usize, range: std::ops::Range<usize>) -> String {
    range
        .map(|s| {
            let words: Vec<String> = (0..10).map(|w| word(seed * 10_000 + s * 10 + w)).collect();
            format!("{}. ", words.join(" "))
        })
        .collect()
}

/// The files added: unique texts; a near copy of the first (two words changed), which
/// SimHash groups with it; a copy of the second with a word of every sentence changed,
/// which only the check's rule groups with it; and a file that cannot be read.
fn write_files(docs: &Path) -> Vec<PathBuf> {
    std::fs::create_dir_all(docs).unwrap();
    let mut texts: Vec<(String, String)> = (0..6).map(|i| (format!("unique-{i}.txt"), sentences(i, 0..40))).collect();
    let near = sentences(0, 0..40).replacen(&word(5), "changed", 1).replacen(&word(205), "altered", 1);
    texts.push(("near-copy.txt".into(), near));
    let edited: String =
        (0..40).map(|s| sentences(1, s..s + 1).replacen(&word(10_000 + s * 10 + 4), &word(777 + s), 1)).collect();
    texts.push(("edited-copy.txt".into(), edited));
    let mut paths: Vec<PathBuf> = texts
        .into_iter()
        .map(|(name, text)| {
            let path = docs.join(name);
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect();
    let broken = docs.join("broken.pdf");
    std::fs::write(&broken, b"%PDF-1.4 this is no PDF at all").unwrap();
    paths.push(broken);
    paths.sort();
    paths
}

fn inputs(paths: &[PathBuf]) -> Vec<DocumentInput> {
    paths.iter().map(|p| DocumentInput::new(p, Role::Reference)).collect()
}

/// What an add says, as both stores count it (a folder knows unchanged files by their
/// stamps without reading them, a server by their hash: `hashed` is each store's own).
fn counted(summary: &AddSummary) -> (usize, usize, usize, usize, usize, usize) {
    (
        summary.added,
        summary.replaced,
        summary.unchanged,
        summary.dropped,
        summary.failed.len(),
        summary.checked_for_groups,
    )
}

/// Each pair of a report: its two paths and scores.
type PairsSaid = Vec<(String, String, String)>;

/// What a report says: each pair's two paths and scores, and the near duplicates.
fn said(report: &Report) -> (PairsSaid, Vec<(String, String)>) {
    let path = |i: usize| report.documents[i].path.clone();
    let mut pairs: Vec<_> =
        report.pairs.iter().map(|p| (path(p.a), path(p.b), format!("{:.4} {:.4}", p.score, p.score_b))).collect();
    pairs.sort();
    let mut near: Vec<_> = report.near_duplicates.iter().map(|&[a, b]| (path(a), path(b))).collect();
    near.sort();
    (pairs, near)
}

/// One archive's answers to the same questions, in order.
#[derive(Debug, PartialEq)]
struct Answers {
    steps: Vec<String>,
}

impl Answers {
    fn note(&mut self, step: &str, answer: impl std::fmt::Debug) {
        self.steps.push(format!("{step}: {answer:?}"));
    }
}

/// Asks every verb of the archive at `name`, whose files are under `dir`.
fn ask_every_verb(name: &str, dir: &Path) -> Answers {
    let docs = dir.join("docs");
    let paths = write_files(&docs);
    let location = Location::parse(Path::new(name), None).unwrap();
    let settings = Settings::default();
    let open = || AnyArchive::open_for_changes(&location, &settings, true, WhenBusy::Refuse, "add to").unwrap();
    let (none, cancel) = (AddOptions::default(), CancelFlag::new());
    let mut answers = Answers { steps: Vec::new() };
    let archive = open();
    answers.note("add", counted(&archive.add(&inputs(&paths), &none, &NoProgress, &cancel).unwrap()));
    answers.note("add again", counted(&archive.add(&inputs(&paths), &none, &NoProgress, &cancel).unwrap()));
    let list = |archive: &AnyArchive| -> Vec<(u32, String, String, u64, u32)> {
        let docs = archive.list().unwrap();
        docs.into_iter().map(|d| (d.id, d.path, d.sha256, d.chars, d.group)).collect()
    };
    answers.note("list", list(&archive));
    answers.note("groups", archive.groups().unwrap());
    let simhash = |id: u32| archive.list().unwrap().into_iter().find(|d| d.id == id).and_then(|d| d.simhash).unwrap();
    let near = (simhash(1) ^ simhash(4)).count_ones() <= settings.simhash_threshold;
    answers.note("simhash distance of the edited copy", near);
    let stats = archive.stats().unwrap();
    answers.note("stats", (stats.documents, stats.chars, stats.groups));
    let verified = archive.verify().unwrap();
    answers.note("verify", (verified.documents, &verified.problems));
    // A suspect that takes part of the third file and of the near copy.
    let suspect = dir.join("suspect.txt");
    std::fs::write(&suspect, format!("{}{}", sentences(2, 5..25), sentences(0, 10..30))).unwrap();
    let request = CheckRequest {
        documents: vec![DocumentInput::new(&suspect, Role::Suspect)],
        settings: settings.clone(),
        ..CheckRequest::default()
    };
    answers.note("check", said(&archive.check(&request, &NoProgress, &cancel).unwrap()));
    // A file rewritten: its old version is replaced.
    std::fs::write(docs.join("unique-3.txt"), sentences(33, 0..40)).unwrap();
    answers.note("replace", counted(&archive.add(&inputs(&paths), &none, &NoProgress, &cancel).unwrap()));
    let removed = archive.remove(&[2, 999], &[docs.join("unique-4.txt"), docs.join("no-such.txt")]).unwrap();
    answers.note("remove", &removed);
    // Dated documents, then expired.
    let dated: Vec<PathBuf> = (0..3)
        .map(|i| {
            let path = docs.join(format!("dated-{i}.txt"));
            std::fs::write(&path, sentences(50 + i, 0..30)).unwrap();
            path
        })
        .collect();
    let published = AddOptions { published: Some("2001-05-04".into()), ..AddOptions::default() };
    answers.note("add dated", counted(&archive.add(&inputs(&dated), &published, &NoProgress, &cancel).unwrap()));
    answers.note("expire nothing", archive.expire("2001-05-04").unwrap());
    answers.note("expire", archive.expire("2001-05-05").unwrap());
    answers.note("expire a bad day", archive.expire("2001-02-30").map_err(|e| e.to_string()));
    // A file gone from a folder kept in step.
    std::fs::remove_file(docs.join("unique-5.txt")).unwrap();
    let sync = AddOptions { sync: vec![docs.clone()], ..AddOptions::default() };
    let still: Vec<PathBuf> = paths.iter().filter(|p| p.exists()).cloned().collect();
    answers.note("add in step", counted(&archive.add(&inputs(&still), &sync, &NoProgress, &cancel).unwrap()));
    answers.note("list after changes", list(&archive));
    answers.note("groups after changes", archive.groups().unwrap());
    archive.compact().unwrap();
    answers.note("list after compact", list(&archive));
    answers.note("check after compact", said(&archive.check(&request, &NoProgress, &cancel).unwrap()));
    let verified = archive.verify().unwrap();
    answers.note("verify after changes", (verified.documents, &verified.problems));
    drop(archive);
    // Opened for checking: every change refused, nothing changed.
    let reader = AnyArchive::open(&location, &settings).unwrap();
    let refused = |result: Result<(), ArchiveError>| match result {
        Err(ArchiveError::ReadOnly(_) | ArchiveError::OpenedToCheck { .. }) => "refused".to_string(),
        other => format!("{other:?}"),
    };
    answers.note("add when reading", refused(reader.add(&inputs(&still), &none, &NoProgress, &cancel).map(|_| ())));
    answers.note("remove when reading", refused(reader.remove(&[1], &[]).map(|_| ())));
    answers.note("expire when reading", refused(reader.expire("2100-01-01").map(|_| ())));
    answers.note("compact when reading", refused(reader.compact().map(|_| ())));
    answers.note("list when reading", list(&reader));
    answers
}

#[test]
fn every_verb_answers_alike_in_a_folder_and_on_a_server() {
    let server = PgServer::start();
    let tmp = tempfile::tempdir().unwrap();
    // The same files at the same paths for both: each archive is asked in turn, the
    // folder of files made afresh for it.
    let work = tmp.path().join("work");
    let folder = tmp.path().join("archive");
    let in_folder = ask_every_verb(folder.to_str().unwrap(), &work);
    std::fs::remove_dir_all(&work).unwrap();
    let on_server = ask_every_verb(&server.url(), &work);
    for (want, got) in in_folder.steps.iter().zip(&on_server.steps) {
        assert_eq!(got, want, "the server answered otherwise than the folder");
    }
    assert_eq!(in_folder.steps.len(), on_server.steps.len());
    // The questions were worth asking: each step found something to answer.
    let step = |name: &str| in_folder.steps.iter().find(|s| s.starts_with(&format!("{name}: "))).unwrap().clone();
    assert!(step("add").starts_with("add: (8, 0, 0, 0, 1,"), "{}", step("add"));
    assert!(step("add again").starts_with("add again: (0, 0, 8, 0, 1,"), "{}", step("add again"));
    assert!(step("replace").starts_with("replace: (0, 1, 7, 0, 1,"), "{}", step("replace"));
    // SimHash groups the near copy with its original; only the check's rule the edited one.
    assert!(
        step("groups").contains("members: [1, 4]") && step("groups").contains("members: [2, 3]"),
        "{}",
        step("groups")
    );
    assert!(
        step("simhash distance of the edited copy").ends_with(": false"),
        "{}",
        step("simhash distance of the edited copy")
    );
    assert!(step("remove").contains("removed: 2"), "{}", step("remove"));
    assert_eq!(step("expire"), "expire: 3");
    // The two removed are added again, the gone one dropped.
    assert!(step("add in step").starts_with("add in step: (2, 0, 5, 1, 1,"), "{}", step("add in step"));
    assert!(step("check").contains("unique-2.txt"), "{}", step("check"));
    assert!(step("verify after changes").ends_with("[])"), "{}", step("verify after changes"));
    for refused in ["add when reading", "remove when reading", "expire when reading", "compact when reading"] {
        assert_eq!(step(refused), format!("{refused}: \"refused\""));
    }
}

//! The window's archive source, driven through egui_kittest: create an archive through the
//! window's commands, add documents with progress, read its sizes, check a suspect against
//! it and open the pair; review marks kept in the archive folder across a restart; an add
//! cancelled; the command line adding to the archive the window uses; a foreign folder and
//! a newer archive refused with one message each.

use std::path::Path;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use twinspot::gui::i18n::Lang;
use twinspot::gui::state::{CheckSource, ListKind, ResultsTab, Status};
use twinspot::gui::{Action, TwinspotApp, install_fonts};
use twinspot::report::marks::{MARKS_FILE, Mark};
use twinspot::{Mode, Settings};

use super::gui::{COPIED_1, MemoryStorage, fixtures, marks_dir, wait_for_check};
use crate::util::{success, twinspot};

/// A window started from `storage`, in English, keeping its marks (while no archive is
/// used) in `marks`.
fn harness_on<'a>(storage: &'a MemoryStorage, marks: &Path) -> Harness<'a, TwinspotApp> {
    let mut harness =
        Harness::builder().with_size([1280.0, 800.0]).with_context_setup(install_fonts).build_eframe(|cc| {
            cc.storage = Some(storage);
            TwinspotApp::new(cc, vec![])
        });
    let persisted = &mut harness.state_mut().state.persisted;
    persisted.lang = Lang::En;
    persisted.settings = Settings::default();
    harness.state_mut().set_marks_path(marks.join(MARKS_FILE));
    harness.run();
    harness
}

/// Steps the window until the job on the archive has ended.
fn wait_for_archive(harness: &mut Harness<'_, TwinspotApp>) {
    let start = Instant::now();
    while harness.state().state.archive.is_busy() {
        assert!(start.elapsed() < Duration::from_secs(120), "the archive job did not end");
        std::thread::sleep(Duration::from_millis(20));
        harness.step();
    }
    harness.run();
}

fn documents_in(harness: &Harness<'_, TwinspotApp>) -> u64 {
    let state = &harness.state().state;
    let info = state.archive.info.as_ref().unwrap_or_else(|| panic!("no open archive: {:?}", state.archive.error));
    info.stats.documents
}

#[test]
fn an_archive_made_in_the_window_finds_the_copy_and_keeps_the_marks_across_a_restart() {
    let (dir, suspect, reference) = fixtures();
    let archive = dir.path().join("arc");
    let home = marks_dir();
    let empty = MemoryStorage::default();
    let mut saved = MemoryStorage::default();
    {
        let mut harness = harness_on(&empty, &home);
        harness.get_by_label("No archive open.");
        harness.state_mut().apply(Action::UseArchive(archive.clone()));
        wait_for_archive(&mut harness);
        assert_eq!(documents_in(&harness), 0, "a new, empty archive");
        assert!(archive.join("catalog.sqlite").is_file());
        assert_eq!(harness.state().state.source(), CheckSource::Archive, "a chosen archive is the source");
        harness.get_by_label("In use: the suspects are checked against this archive.");

        harness.state_mut().apply(Action::AddToArchive(vec![reference.clone()]));
        assert!(harness.state().state.archive.is_adding());
        wait_for_archive(&mut harness);
        assert_eq!(documents_in(&harness), 1);
        let outcome = harness.state().state.archive.last_add.clone().expect("the add's summary");
        assert_eq!((outcome.summary.added, outcome.cancelled), (1, false));
        harness.get_by_label_contains("1 documents ·");
        harness.get_by_label_contains("1 added · 0 replaced · 0 unchanged");

        // The reference and template lists are not used; the check button names the archive.
        harness.state_mut().state.inputs.add(ListKind::Suspect, [suspect.clone()]);
        harness.run();
        assert_eq!(harness.query_all_by_label("Not used: the suspects are checked against the archive.").count(), 2);
        harness.get_by_label("Check against the archive").click();
        harness.step();
        wait_for_check(&mut harness);
        let report = harness.state().state.report.clone().expect("a report");
        assert!(matches!(harness.state().state.status, Some(Status::Finished { pairs: 1, .. })), "{report:#?}");
        assert_eq!(report.pairs[0].passages.len(), 2, "{report:#?}");
        let archived = &report.documents[report.pairs[0].b];
        assert!(archived.path.ends_with("reference.txt") && archived.text.contains(COPIED_1), "read from the archive");

        // In the table, then side by side.
        harness.state_mut().state.tab = ResultsTab::Pairs;
        harness.run();
        harness.get_by_label_contains("suspect.txt ⇐").click();
        harness.run();
        harness.key_press(egui::Key::Enter);
        harness.run();
        assert!(harness.state().state.pair.is_some());
        harness.get_by_label("Passage 1 / 2");
        let folder = dir.path().file_name().unwrap().to_string_lossy().into_owned();
        harness.get_by_label(&format!("Reference: …/{folder}/reference.txt"));
        harness.get_by_label("Confirmed").click();
        harness.run();
        assert!(archive.join(MARKS_FILE).is_file(), "the marks are kept in the archive folder");
        assert!(!home.join(MARKS_FILE).exists(), "and not in the app's own folder");
        eframe::App::save(harness.state_mut(), &mut saved);
    }

    // A new window on the same storage: the archive is open again, the marks are back.
    let mut harness = harness_on(&saved, &home);
    wait_for_archive(&mut harness);
    assert_eq!(harness.state().state.persisted.archive.as_deref(), Some(archive.as_path()));
    assert_eq!(harness.state().state.source(), CheckSource::Archive);
    assert_eq!(documents_in(&harness), 1);
    assert_eq!(harness.state().state.marks_path.as_deref(), Some(archive.join(MARKS_FILE).as_path()));
    harness.state_mut().state.inputs.add(ListKind::Suspect, [suspect]);
    harness.state_mut().apply(Action::Check);
    wait_for_check(&mut harness);
    let state = &harness.state().state;
    let report = state.report.clone().expect("a report");
    let marks = state.marks.pair(&report, &report.pairs[0]).expect("the pair's marks came back");
    assert_eq!(marks.mark, Some(Mark::Confirmed));

    // Closed, the archive no longer holds the marks: the app's own folder does again.
    harness.state_mut().apply(Action::CloseArchive);
    harness.run();
    assert_eq!(harness.state().state.source(), CheckSource::References);
    assert_eq!(harness.state().state.marks_path.as_deref(), Some(home.join(MARKS_FILE).as_path()));
    assert!(harness.state().state.marks.pairs.is_empty());
    harness.get_by_label("No archive open.");
}

#[test]
fn a_session_checked_against_the_archive_comes_back_with_its_results_once_the_archive_is_open() {
    let (dir, suspect, reference) = fixtures();
    let archive = dir.path().join("arc");
    let home = marks_dir();
    let empty = MemoryStorage::default();
    let mut saved = MemoryStorage::default();
    {
        let mut harness = harness_on(&empty, &home);
        harness.state_mut().apply(Action::UseArchive(archive.clone()));
        wait_for_archive(&mut harness);
        harness.state_mut().apply(Action::AddToArchive(vec![reference]));
        wait_for_archive(&mut harness);
        harness.state_mut().state.inputs.add(ListKind::Suspect, [suspect]);
        harness.state_mut().apply(Action::Check);
        wait_for_check(&mut harness);
        assert_eq!(harness.state().state.report.as_ref().map(|r| r.pairs.len()), Some(1));
        eframe::App::save(harness.state_mut(), &mut saved);
    }
    // The archive opens on the worker after the window starts; the check waits for it.
    let mut harness = harness_on(&saved, &home);
    wait_for_archive(&mut harness);
    wait_for_check(&mut harness);
    let state = &harness.state().state;
    let report = state.report.clone().expect("the last session's results, made again");
    assert_eq!(report.pairs.len(), 1, "{report:#?}");
    assert_eq!(state.checked_archive.as_deref(), Some(archive.as_path()));
    assert!(!state.check_when_archive_opens);
}

#[test]
fn an_add_cancelled_at_once_keeps_the_archive_whole_and_says_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let docs = dir.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    for i in 0..200 {
        let body: String = (0..20).map(|j| format!("document {i} line {j} says {} things. ", i * 31 + j)).collect();
        std::fs::write(docs.join(format!("{i:04}.txt")), body).unwrap();
    }
    let storage = MemoryStorage::default();
    let mut harness = harness_on(&storage, &marks_dir());
    harness.state_mut().apply(Action::UseArchive(dir.path().join("arc")));
    wait_for_archive(&mut harness);
    harness.state_mut().apply(Action::AddToArchive(vec![docs]));
    harness.state_mut().apply(Action::CancelArchiveAdd);
    harness.run();
    wait_for_archive(&mut harness);
    let outcome = harness.state().state.archive.last_add.clone().expect("the add's summary");
    assert!(outcome.cancelled);
    assert_eq!(documents_in(&harness), outcome.summary.added as u64, "what was added is what the archive holds");
    harness.get_by_label_contains("(stopped)");
}

#[test]
fn the_command_line_adds_to_the_archive_the_window_checks_against() {
    let (dir, suspect, _reference) = fixtures();
    let storage = MemoryStorage::default();
    let mut harness = harness_on(&storage, &marks_dir());
    harness.state_mut().apply(Action::UseArchive(dir.path().join("arc")));
    wait_for_archive(&mut harness);
    assert_eq!(documents_in(&harness), 0);
    // The window holds nothing open between jobs: the command line adds meanwhile, and
    // leaves alone the review marks the window keeps there (and their atomic temporaries).
    let arc = dir.path().join("arc");
    std::fs::write(arc.join(MARKS_FILE), "{}").unwrap();
    std::fs::write(arc.join(".twinspot-marks.tmp"), "{}").unwrap();
    let added = success(&twinspot(dir.path(), &["archive", "add", "arc", "reference.txt", "-q"]));
    assert!(added.contains("1 added"), "{added}");
    assert!(arc.join(MARKS_FILE).is_file() && arc.join(".twinspot-marks.tmp").is_file());
    let verify = success(&twinspot(dir.path(), &["archive", "verify", "arc"]));
    assert!(verify.contains("0 leftover") && verify.contains("0 problems"), "{verify}");
    harness.state_mut().state.inputs.add(ListKind::Suspect, [suspect]);
    harness.state_mut().apply(Action::Check);
    wait_for_check(&mut harness);
    assert!(matches!(harness.state().state.status, Some(Status::Finished { pairs: 1, .. })));
    assert_eq!(documents_in(&harness), 1, "the sizes follow the check");
}

fn error_lines(harness: &Harness<'_, TwinspotApp>, part: &str) -> usize {
    harness.query_all_by_label_contains(part).count()
}

#[test]
fn a_foreign_folder_and_a_newer_archive_are_refused_with_one_message_each() {
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("papers");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "not an archive").unwrap();
    let storage = MemoryStorage::default();
    let mut harness = harness_on(&storage, &marks_dir());
    harness.state_mut().apply(Action::UseArchive(foreign.clone()));
    wait_for_archive(&mut harness);
    assert!(harness.state().state.archive.info.is_none());
    assert_eq!(error_lines(&harness, "is not a twinspot archive"), 1);
    assert!(!foreign.join("catalog.sqlite").exists(), "a foreign folder is left as it was");
    // Nothing to check against: the check button says why.
    harness.state_mut().state.inputs.add(ListKind::Suspect, [foreign.join("notes.txt")]);
    harness.run();
    assert!(harness.state().state.cannot_check().is_some());

    let newer = dir.path().join("newer");
    harness.state_mut().apply(Action::UseArchive(newer.clone()));
    wait_for_archive(&mut harness);
    assert_eq!(error_lines(&harness, "is not a twinspot archive"), 0, "the old error is gone");
    let conn = rusqlite::Connection::open(newer.join("catalog.sqlite")).unwrap();
    conn.execute("UPDATE settings SET value = '99' WHERE key = 'format'", []).unwrap();
    drop(conn);
    harness.state_mut().apply(Action::UseArchive(newer));
    wait_for_archive(&mut harness);
    assert_eq!(error_lines(&harness, "written by a newer twinspot"), 1);
    assert_eq!(harness.state().state.persisted.mode, Mode::SuspectsVsReferences);
}

#[test]
fn the_archive_group_speaks_chinese_too() {
    let dir = tempfile::tempdir().unwrap();
    let storage = MemoryStorage::default();
    let mut harness = harness_on(&storage, &marks_dir());
    harness.state_mut().state.persisted.lang = Lang::Zh;
    harness.state_mut().apply(Action::UseArchive(dir.path().join("库")));
    wait_for_archive(&mut harness);
    harness.get_by_label("文档库");
    harness.get_by_label_contains("0 个文档");
    harness.get_by_label("对比文档库检查");
    harness.get_by_label("待查文档对比文档库");
}

#[cfg(unix)]
#[test]
fn a_shared_archive_opened_in_the_window_finds_the_copy_and_its_password_is_never_saved() {
    use crate::pg::{ADMIN, ADMIN_PASSWORD, PgServer};
    use twinspot::gui::state::SharedForm;
    let server = PgServer::start();
    let (dir, suspect, reference) = fixtures();
    success(&twinspot(dir.path(), &["archive", "add", &server.url(), reference.to_str().unwrap(), "-q"]));
    let home = marks_dir();
    let empty = MemoryStorage::default();
    let mut saved = MemoryStorage::default();
    let mut harness = harness_on(&empty, &home);
    harness.get_by_label("Open shared archive…").click();
    harness.run();
    harness.get_by_label("Connect");
    // A wrong password: one clear line in the group, and the window goes on.
    let url = format!("postgresql://127.0.0.1:{}/postgres?sslmode=disable", server.port);
    let form = |password: &str| SharedForm {
        url: url.clone(),
        schema: "twinspot".into(),
        user: ADMIN.into(),
        password: password.into(),
    };
    harness.state_mut().apply(Action::EditSharedForm(form("wrong-Pw-5")));
    harness.state_mut().apply(Action::ConnectShared);
    wait_for_archive(&mut harness);
    let error = harness.state().state.archive.error.clone().expect("the refused login is said");
    assert!(error.contains("password authentication failed") && !error.contains("wrong-Pw-5"), "{error}");

    harness.state_mut().apply(Action::OpenSharedForm);
    harness.state_mut().apply(Action::EditSharedForm(form(ADMIN_PASSWORD)));
    harness.state_mut().apply(Action::ConnectShared);
    assert!(harness.state().state.archive.is_busy(), "connecting runs on the worker");
    wait_for_archive(&mut harness);
    assert_eq!(documents_in(&harness), 1);
    let kept = harness.state().state.persisted.archive.clone().unwrap();
    assert_eq!(
        kept.to_string_lossy(),
        format!("postgresql://{ADMIN}@127.0.0.1:{}/postgres?sslmode=disable", server.port)
    );
    harness.get_by_label("In use: the suspects are checked against this archive.");
    harness.get_by_label("Review marks are kept on this computer.");

    harness.state_mut().state.inputs.add(ListKind::Suspect, [suspect]);
    harness.run();
    harness.get_by_label("Check against the archive").click();
    harness.step();
    wait_for_check(&mut harness);
    let report = harness.state().state.report.clone().expect("a report");
    assert_eq!(report.pairs.len(), 1, "{report:#?}");
    let archived = &report.documents[report.pairs[0].b];
    assert!(archived.path.ends_with("reference.txt") && archived.text.contains(COPIED_1), "read from the server");
    assert_eq!(harness.state().state.marks_path.as_deref(), Some(home.join(MARKS_FILE).as_path()));

    eframe::App::save(harness.state_mut(), &mut saved);
    let everything: String = saved.0.values().cloned().collect();
    assert!(everything.contains("postgresql://") && !everything.contains(ADMIN_PASSWORD), "the password was saved");
}

/// The archive's buttons stay where they are through an add: its progress bar and the
/// summary lines after it come below them, so a second click lands on the same button.
#[test]
fn the_archive_buttons_do_not_move_when_an_add_runs_and_ends() {
    let (dir, _suspect, reference) = fixtures();
    let archive = dir.path().join("arc");
    let storage = MemoryStorage::default();
    let mut harness = harness_on(&storage, &marks_dir());
    harness.state_mut().apply(Action::UseArchive(archive));
    wait_for_archive(&mut harness);
    let close_button = |harness: &Harness<'_, TwinspotApp>| {
        let buttons: Vec<_> = harness.query_all_by_label("Close").map(|n| n.rect().min).collect();
        assert_eq!(buttons.len(), 1, "one Close button: the archive's");
        buttons[0]
    };
    let before = close_button(&harness);

    harness.state_mut().apply(Action::AddToArchive(vec![reference]));
    assert!(harness.state().state.archive.is_adding());
    harness.run();
    assert_eq!(close_button(&harness), before, "the add's progress does not push the buttons down");
    wait_for_archive(&mut harness);
    harness.get_by_label_contains("1 added · 0 replaced · 0 unchanged");
    assert_eq!(close_button(&harness), before, "the add's summary does not push the buttons down");
}

/// A file of an archive's near-duplicate group is a link once results are shown: a click
/// shows the pairs it is in (the name filter set, the Pairs tab open).
#[test]
fn an_archive_group_member_is_a_link_to_its_pairs() {
    let (dir, _suspect, reference) = fixtures();
    let twin = dir.path().join("reference-again.txt");
    let text = std::fs::read_to_string(&reference).unwrap();
    std::fs::write(&twin, format!("{text}\nOne more closing line.\n")).unwrap();
    let storage = MemoryStorage::default();
    let mut harness = harness_on(&storage, &marks_dir());
    harness.state_mut().apply(Action::UseArchive(dir.path().join("arc")));
    wait_for_archive(&mut harness);
    harness.state_mut().apply(Action::AddToArchive(vec![reference, twin]));
    wait_for_archive(&mut harness);
    harness.state_mut().show_report(std::sync::Arc::new(super::gui::ready_report(Mode::SuspectsVsReferences)));
    harness.run();
    harness.get_by_label("Archive near-duplicate groups (1)").click();
    harness.run();
    harness.get_by_label("reference-again.txt").click();
    harness.run();
    let state = &harness.state().state;
    assert_eq!(state.table.name_filter, "reference-again.txt");
    assert_eq!(state.tab, ResultsTab::Pairs);
}

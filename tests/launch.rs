//! What the desktop entry promises, checked on the window (egui_kittest): `twinspot A B`
//! compares the two files and opens their pair, more files become suspects, a window
//! opened on files leaves the remembered session for the next plain start, and the About
//! menu names the version the package carries.

use std::path::PathBuf;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use twinspot::Mode;
use twinspot::gui::i18n::Lang;
use twinspot::gui::state::ListKind;
use twinspot::gui::{Action, TwinspotApp, install_fonts};

use super::gui::{MemoryStorage, fixtures, marks_dir, wait_for_check};

fn launched<'a>(files: Vec<PathBuf>) -> Harness<'a, TwinspotApp> {
    let mut harness = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_context_setup(install_fonts)
        .build_eframe(move |cc| TwinspotApp::new(cc, files));
    harness.state_mut().state.persisted.lang = Lang::En;
    harness.run();
    harness
}

#[test]
fn two_files_open_their_pair() {
    let (_dir, suspect, reference) = fixtures();
    let mut harness = launched(vec![suspect.clone(), reference.clone()]);
    wait_for_check(&mut harness);
    let state = &harness.state().state;
    assert_eq!(state.inputs.list(ListKind::Suspect), &[suspect][..]);
    assert_eq!(state.inputs.list(ListKind::Reference), &[reference][..]);
    assert!(state.pair.is_some(), "the pair view is not open");
}

#[test]
fn more_files_become_suspects_without_a_check() {
    let (dir, suspect, reference) = fixtures();
    let third = dir.path().join("third.txt");
    std::fs::write(&third, "A third document.\n").unwrap();
    let harness = launched(vec![suspect.clone(), reference.clone(), third.clone()]);
    let state = &harness.state().state;
    assert_eq!(state.inputs.list(ListKind::Suspect), &[suspect, reference, third][..]);
    assert!(!state.is_running() && state.report.is_none());
}

#[test]
fn the_about_menu_names_the_version() {
    let mut harness = launched(vec![]);
    harness.get_by_label("About").click();
    harness.run();
    harness.get_by_label(&format!("Twinspot {}", env!("CARGO_PKG_VERSION")));
}

/// A window started from `storage` on `files` (none: a plain start), keeping its marks in
/// a folder of its own; nothing of the remembered state is changed here.
fn started_on<'a>(storage: &'a MemoryStorage, files: Vec<PathBuf>) -> Harness<'a, TwinspotApp> {
    let mut harness =
        Harness::builder().with_size([1280.0, 800.0]).with_context_setup(install_fonts).build_eframe(|cc| {
            cc.storage = Some(storage);
            TwinspotApp::new(cc, files)
        });
    harness.state_mut().set_marks_path(marks_dir().join("twinspot-review.json"));
    harness.run();
    harness
}

/// A teacher's session: a class and its sources against its classmates, a named check
/// and a setting of their own, saved as the window saves it on closing.
fn a_class_session(class: &[PathBuf], sources: &[PathBuf]) -> MemoryStorage {
    let empty = MemoryStorage::default();
    let mut saved = MemoryStorage::default();
    let mut harness = started_on(&empty, vec![]);
    let state = &mut harness.state_mut().state;
    state.persisted.lang = Lang::En;
    state.inputs.add(ListKind::Suspect, class.iter().cloned());
    state.inputs.add(ListKind::Reference, sources.iter().cloned());
    state.persisted.mode = Mode::Classmates;
    state.persisted.mode_chosen = true;
    state.persisted.settings.min_chars = 77;
    state.check_name = Some("Class 3B, essay 2".into());
    harness.run();
    eframe::App::save(harness.state_mut(), &mut saved);
    saved
}

#[test]
fn a_quick_pair_from_the_command_line_leaves_the_remembered_session_for_the_next_start() {
    let (dir, suspect, reference) = fixtures();
    let class = vec![dir.path().join("class")];
    std::fs::create_dir(&class[0]).unwrap();
    let sources = vec![reference.clone()];
    let remembered = a_class_session(&class, &sources);

    // `twinspot A B`: the pair is compared and shown, the lists folded away, then closed.
    let mut after_pair = MemoryStorage::default();
    {
        let mut harness = started_on(&remembered, vec![suspect.clone(), reference.clone()]);
        wait_for_check(&mut harness);
        assert!(harness.state().state.pair.is_some(), "the pair view is not open");
        harness.state_mut().apply(Action::ToggleSidebar);
        harness.run();
        eframe::App::save(harness.state_mut(), &mut after_pair);
    }

    // A plain start: the class's session is back, with the window's own choice kept.
    let harness = started_on(&after_pair, vec![]);
    let state = &harness.state().state;
    assert_eq!(state.inputs.list(ListKind::Suspect), &class[..]);
    assert_eq!(state.inputs.list(ListKind::Reference), &sources[..]);
    assert_eq!(state.persisted.mode, Mode::Classmates);
    assert!(state.persisted.mode_chosen);
    assert_eq!(state.persisted.settings.min_chars, 77);
    assert_eq!(state.check_name.as_deref(), Some("Class 3B, essay 2"));
    assert!(state.persisted.sidebar_hidden, "the folded lists are the window's choice, kept");
}

#[test]
fn a_quick_pair_whose_lists_are_changed_becomes_the_remembered_session() {
    let (dir, suspect, reference) = fixtures();
    let class = vec![dir.path().join("class")];
    std::fs::create_dir(&class[0]).unwrap();
    let remembered = a_class_session(&class, std::slice::from_ref(&reference));
    let mut after = MemoryStorage::default();
    {
        let mut harness = started_on(&remembered, vec![suspect.clone(), reference.clone()]);
        wait_for_check(&mut harness);
        let third = dir.path().join("third.txt");
        std::fs::write(&third, "A third document.\n").unwrap();
        harness.state_mut().state.inputs.add(ListKind::Suspect, [third]);
        eframe::App::save(harness.state_mut(), &mut after);
    }
    let harness = started_on(&after, vec![]);
    let state = &harness.state().state;
    assert_eq!(state.inputs.list(ListKind::Reference), &[reference][..]);
    assert_eq!(state.inputs.list(ListKind::Suspect).first(), Some(&suspect));
    assert_eq!(state.persisted.mode, Mode::SuspectsVsReferences);
}

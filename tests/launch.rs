//! What the desktop entry promises, checked on the window (egui_kittest): `twinspot A B`
//! compares the two files and opens their pair, more files become suspects, and the About
//! menu names the version the package carries.

use std::path::PathBuf;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use twinspot::gui::i18n::Lang;
use twinspot::gui::state::ListKind;
use twinspot::gui::{TwinspotApp, install_fonts};

use super::gui::{fixtures, wait_for_check};

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

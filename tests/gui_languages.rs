//! The window on a suspect whose references are in another script: its row in the overview
//! says the check was within one language only, not "no shared text found", in English and
//! in Chinese.

use egui_kittest::kittest::Queryable as _;
use twinspot::gui::i18n::Lang;
use twinspot::gui::state::ListKind;

use crate::gui::{harness_with_marks, marks_dir, wait_for_check};
use crate::other_languages::{SAID, SAID_ZH, folder};

#[test]
fn the_overview_says_a_suspect_was_compared_within_its_language_only() {
    let dir = folder();
    let mut harness = harness_with_marks(&marks_dir());
    // With the meaning layer off: on, it compares English with Chinese.
    harness.state_mut().state.persisted.settings.meaning = false;
    harness.state_mut().state.inputs.add(ListKind::Suspect, [dir.path().join("suspect/essay.txt")]);
    harness.state_mut().state.inputs.add(ListKind::Reference, [dir.path().join("reference")]);
    harness.run();
    harness.get_by_label("Check").click();
    harness.step();
    wait_for_check(&mut harness);
    harness.get_by_label(SAID);
    assert!(harness.query_by_label("no shared text found").is_none());

    harness.state_mut().state.persisted.lang = Lang::Zh;
    harness.run();
    harness.get_by_label(SAID_ZH);
}

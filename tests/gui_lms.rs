//! The window with a class's zip from the LMS: dropped on the window, it counts as its
//! students' files, and the check names each document by its student.

use std::sync::Arc;

use egui_kittest::kittest::Queryable as _;
use twinspot::gui::state::ListKind;

use crate::gui::{Dropped, harness_with_marks, marks_dir, wait_for_check};
use crate::lms::{EN_COPIED, ZH_COPIED, class, docx};

#[test]
fn a_moodle_zip_dropped_on_the_window_is_checked_student_by_student() {
    let (dir, zip) = class(&[
        ("王芳_101_assignsubmission_file_论文.docx", &docx(ZH_COPIED)),
        ("Oliver Smith_102_assignsubmission_file/essay.docx", &docx(EN_COPIED)),
        ("Oliver Smith_102_assignsubmission_file/notes.txt", b"Notes on the library, written by hand."),
        ("Oliver Smith_102_assignsubmission_file/photo.png", b"\x89PNG\r\n"),
    ]);
    let mut harness = harness_with_marks(&marks_dir());
    harness.hover_at(egui::pos2(900.0, 600.0));
    harness.input_mut().dropped_files.push(Arc::new(Dropped(zip.clone())));
    harness.step();
    harness.run();
    assert_eq!(harness.state().state.inputs.list(ListKind::Suspect), &[zip]);
    // The zip counts as the three documents inside it, not as one file.
    harness.get_by_label("3 files");
    harness.state_mut().state.inputs.add(ListKind::Reference, [dir.path().join("reference")]);
    harness.run();
    harness.get_by_label("Check").click();
    harness.step();
    wait_for_check(&mut harness);
    let report = harness.state().state.report.clone().expect("a report");
    let mut names: Vec<&str> =
        report.documents.iter().filter(|d| d.role == twinspot::Role::Suspect).map(|d| d.path.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["Oliver Smith — essay.docx", "Oliver Smith — notes.txt", "王芳"], "{report:#?}");
    assert!(report.documents.iter().all(|d| d.error.is_none()), "{report:#?}");
    assert_eq!(report.pairs.len(), 2, "{report:#?}");
    // The overview names the students.
    harness.get_by_label_contains("王芳");
    harness.get_by_label_contains("Oliver Smith — essay.docx");
}

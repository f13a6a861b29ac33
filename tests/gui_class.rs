//! A class's check in the window and on the command line: every student listed (0 %
//! included), classmates and references in one run, results that say which check they
//! come from after a cancel, a passage counter that counts dismissed passages, and a
//! sidebar that folds away at 1024×700 (by itself under a pair), and a pairs table whose
//! last columns stay in view there.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use twinspot::gui::state::{CheckSource, ListKind, ResultsTab};
use twinspot::gui::{Action, TwinspotApp, install_fonts};
use twinspot::report::marks::Mark;
use twinspot::{DocumentEntry, Mode, Role, Settings};

use crate::gui::{fixtures, harness_with_marks, marks_dir, ready_report, wait_for_check};
use crate::util::{compare_json, doc_id};

const SHARED_CLASS: &str = "The committee met every Thursday evening in the old library to argue about the new timetable, and after many long hours the members finally agreed that the buses should leave the square twenty minutes earlier during the winter months.";
const SHARED_SOURCE: &str = "Photosynthesis converts light energy into chemical energy stored in sugar molecules, releasing oxygen as a by-product that most living organisms on the surface of the planet need in order to breathe and to survive.";
const SHARED_REFS: &str = "Volcanic islands form when magma rises through cracks in the ocean floor, cools into layers of dark basalt rock, and slowly builds a cone that one day breaks through the surface of the sea as new land.";
const OWN_1: &str =
    "My grandmother keeps bees behind her cottage and sells the honey at the Saturday market beside the church.";
const OWN_2: &str =
    "Our football team lost the final on penalties after a long and muddy afternoon in the pouring rain.";
const OWN_3: &str = "The museum reopened its gallery of ancient maps after three years of careful restoration work.";
const OWN_4: &str = "Tomorrow the orchestra rehearses the second symphony for the spring concert in the town hall.";
const OWN_5: &str =
    "Lighthouse keepers once climbed two hundred steps each night to trim the wick and wind the clockwork.";
const OWN_6: &str =
    "Every autumn the swallows gather on the telegraph wires before their long journey south to Africa.";
const OWN_7: &str =
    "A good loaf of sourdough needs a lively starter, patience, and a very hot oven with plenty of steam.";

/// A class: `s1` shares a paragraph with its classmate `s2` and one with reference `r1`;
/// `s3` shares nothing; the references `r1` and `r2` share a paragraph with each other.
fn class_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let write = |sub: &str, name: &str, text: String| {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        std::fs::write(dir.path().join(sub).join(name), text).unwrap();
    };
    write("class", "s1.txt", format!("{OWN_1}\n{SHARED_CLASS}\n{OWN_2}\n{SHARED_SOURCE}\n"));
    write("class", "s2.txt", format!("{OWN_3}\n{SHARED_CLASS}\n{OWN_4}\n"));
    write("class", "s3.txt", format!("{OWN_5}\n{OWN_6}\n"));
    write("sources", "r1.txt", format!("{SHARED_SOURCE}\n{SHARED_REFS}\n"));
    write("sources", "r2.txt", format!("{OWN_7}\n{SHARED_REFS}\n"));
    dir
}

fn harness_at(size: [f32; 2]) -> Harness<'static, TwinspotApp> {
    let marks = marks_dir();
    let mut harness = Harness::builder()
        .with_size(size)
        .with_context_setup(install_fonts)
        .build_eframe(|cc| TwinspotApp::new(cc, vec![]));
    harness.state_mut().state.persisted.lang = twinspot::gui::i18n::Lang::En;
    harness.state_mut().state.persisted.settings = Settings::default();
    harness.state_mut().state.persisted.mode = Mode::SuspectsVsReferences;
    harness.state_mut().state.persisted.mode_chosen = false;
    harness.state_mut().state.persisted.sidebar_hidden = false;
    harness.state_mut().set_marks_path(marks.join("twinspot-review.json"));
    harness.run();
    harness
}

/// The ready-made report with one more suspect, `z.txt`, that shares nothing.
fn report_with_a_clean_student() -> twinspot::Report {
    let mut report = ready_report(Mode::SuspectsVsReferences);
    let text = "A clean essay of its own.";
    let chars = text.chars().count();
    report.documents.push(DocumentEntry {
        id: report.documents.len(),
        path: "z.txt".into(),
        source: PathBuf::from("z.txt"),
        role: Role::Suspect,
        chars,
        countable_chars: chars,
        simhash: Some(7),
        sha256: Some(format!("{:064x}", 0xfeed)),
        error: None,
        warnings: vec![],
        flags: vec![],
        text: Arc::from(text),
    });
    report
}

#[test]
fn a_student_with_no_shared_text_is_listed_at_zero_in_the_overview_and_the_pairs_tab() {
    let mut harness = harness_with_marks(&marks_dir());
    harness.state_mut().show_report(Arc::new(report_with_a_clean_student()));
    harness.run();
    assert_eq!(harness.state().state.tab, ResultsTab::Overview);
    harness.get_by_label("z.txt");
    harness.get_by_label("no shared text found");
    // The unreadable file is a problem, not a result.
    assert!(harness.query_by_label("bad.pdf").is_none());

    harness.get_by_label("Pairs").click();
    harness.run();
    harness.get_by_label("1 with no shared text found (listed in the overview)");
}

#[test]
fn the_passage_counter_counts_dismissed_passages_too() {
    let mut harness = harness_with_marks(&marks_dir());
    harness.state_mut().show_report(Arc::new(ready_report(Mode::SuspectsVsReferences)));
    harness.state_mut().apply(Action::OpenPair(0));
    harness.run();
    harness.get_by_label("Passage 1 / 3");
    harness.state_mut().apply(Action::MarkPassage(0, 1, Some(Mark::Dismissed)));
    harness.run();
    harness.get_by_label("Passage 1 / 3");
    harness.key_press(Key::P);
    harness.run();
    // Never "Passage 3 / 2": the list and the steps count the dismissed passage.
    harness.get_by_label("Passage 3 / 3");
    harness.key_press(Key::N);
    harness.run();
    harness.get_by_label("Passage 1 / 3");
}

#[test]
fn after_a_cancel_the_results_say_which_check_they_come_from_and_stay_out_of_date() {
    let (_dir, suspect, reference) = fixtures();
    let mut harness = harness_with_marks(&marks_dir());
    harness.state_mut().state.inputs.add(ListKind::Suspect, [suspect]);
    harness.state_mut().state.inputs.add(ListKind::Reference, [reference]);
    harness.state_mut().apply(Action::Check);
    wait_for_check(&mut harness);
    assert!(harness.state().state.report.is_some());
    assert!(!harness.state().state.is_stale());
    harness.get_by_label_contains("Results of check 1 · suspects against references · 2 documents");

    // Another mode, a check started and cancelled at once: the first check's results stay.
    harness.state_mut().apply(Action::SetSource(CheckSource::AllVsAll));
    harness.state_mut().apply(Action::Check);
    assert!(harness.state().state.is_running());
    harness.state_mut().apply(Action::Cancel);
    harness.run();
    for _ in 0..10 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.step();
    }
    let state = &harness.state().state;
    assert_eq!(state.report.as_ref().map(|r| r.mode), Some(Mode::SuspectsVsReferences));
    assert!(state.is_stale(), "the results are of another mode than the one now chosen");
    harness.get_by_label_contains("Out of date: the inputs or settings changed");
    harness.get_by_label_contains("Results of check 1 · suspects against references");
    harness.get_by_label("Check 2 was cancelled: these are still the earlier results.");

    // Back to the mode the results were made with: they are up to date again.
    harness.state_mut().apply(Action::SetSource(CheckSource::References));
    harness.run();
    assert!(!harness.state().state.is_stale());
    assert!(harness.query_by_label_contains("Out of date: the inputs or settings changed").is_none());
}

#[test]
fn a_pair_at_1024_folds_the_lists_by_itself_and_ctrl_b_and_the_button_still_work() {
    let mut harness = harness_at([1024.0, 700.0]);
    harness.state_mut().show_report(Arc::new(ready_report(Mode::SuspectsVsReferences)));
    harness.get_by_label("Suspects");
    harness.state_mut().apply(Action::OpenPair(0));
    harness.run();
    // A text's column: from the left side's overview strip to the right side's.
    let width = |h: &Harness<'_, TwinspotApp>| {
        h.get_by_label("minimap 1").rect().left() - h.get_by_label("minimap 0").rect().left()
    };
    assert!(harness.query_by_label("Suspects").is_none(), "a narrow pair view folds the lists away");
    assert!(!harness.state().state.persisted.sidebar_hidden, "and does not remember that as a choice");
    let wide = width(&harness);
    assert!(wide > 300.0, "a text pane at 1024 px is wide enough to read: {wide}");

    harness.get_by_label("» Show lists").click();
    harness.run();
    harness.get_by_label("Suspects");
    let narrow = width(&harness);
    assert!(wide > narrow + 100.0, "each text gives the lists room: {wide} → {narrow}");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::B);
    harness.run();
    assert!(harness.query_by_label("Suspects").is_none());
    harness.key_press_modifiers(Modifiers::COMMAND, Key::B);
    harness.run();
    harness.get_by_label("Suspects");

    // Closed, the pair gives the lists back; folded by hand, they stay folded.
    harness.state_mut().apply(Action::ClosePair);
    harness.run();
    harness.get_by_label("Suspects");
    harness.get_by_label("« Hide lists").click();
    harness.run();
    assert!(harness.state().state.persisted.sidebar_hidden);
    assert!(harness.query_by_label("Suspects").is_none(), "the lists are folded away");
    harness.get_by_label("» Show lists");
}

#[test]
fn at_1024_with_the_lists_shown_the_pairs_table_keeps_its_review_and_near_duplicate_columns() {
    let mut harness = harness_at([1024.0, 700.0]);
    harness.state_mut().show_report(Arc::new(ready_report(Mode::SuspectsVsReferences)));
    harness.state_mut().state.tab = twinspot::gui::state::ResultsTab::Pairs;
    harness.run();
    harness.get_by_label("Suspects");
    // The filter bar's review menu and the column's header.
    let review: Vec<_> = harness.query_all_by_label("Review").map(|n| n.rect()).collect();
    assert_eq!(review.len(), 2);
    assert!(review.iter().all(|r| r.right() <= 1024.0), "the review column runs past the edge: {review:?}");
    let near = harness.query_all_by_label("near duplicate").next().expect("the near duplicate is said").rect();
    assert!(near.left() + 20.0 < 1024.0, "the near-duplicate column is out of view: {near:?}");
}

fn drop_on(harness: &mut Harness<'_, TwinspotApp>, kind: ListKind, dir: &Path) {
    harness.state_mut().apply(Action::Dropped(Some(kind), vec![dir.to_path_buf()]));
}

#[test]
fn with_both_lists_filled_the_class_is_checked_against_classmates_and_references() {
    let dir = class_folder();
    let set_time = |name: &str, secs: u64| {
        let file = std::fs::File::options().write(true).open(dir.path().join("class").join(name)).unwrap();
        file.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs)).unwrap();
    };
    set_time("s1.txt", 1_772_366_400); // 2026-03-01 12:00 UTC
    set_time("s2.txt", 1_772_000_000); // 2026-02-25 06:13 UTC
    let mut harness = harness_with_marks(&marks_dir());
    harness.state_mut().state.persisted.mode_chosen = false;
    drop_on(&mut harness, ListKind::Suspect, &dir.path().join("class"));
    assert_eq!(harness.state().state.persisted.mode, Mode::SuspectsVsReferences, "one list: nothing to follow");
    drop_on(&mut harness, ListKind::Reference, &dir.path().join("sources"));
    assert_eq!(harness.state().state.persisted.mode, Mode::Classmates, "both lists filled: the class's default");
    harness.run();
    harness.get_by_label("Classmates and references");

    harness.state_mut().apply(Action::Check);
    wait_for_check(&mut harness);
    let report = harness.state().state.report.clone().expect("a report");
    assert_eq!(report.mode, Mode::Classmates);
    let name = |id: usize| report.documents[id].path.rsplit('/').next().unwrap_or_default().to_owned();
    let mut pairs: Vec<(String, String)> = report.pairs.iter().map(|p| (name(p.a), name(p.b))).collect();
    pairs.sort();
    assert_eq!(
        pairs,
        [("s1.txt".to_owned(), "r1.txt".to_owned()), ("s1.txt".to_owned(), "s2.txt".to_owned())],
        "classmates with each other and with the references; never two references: {pairs:?}"
    );

    // The overview lists the whole class, s3 at 0 %, and s2 with its classmate as source.
    harness.get_by_label("s3.txt");
    harness.get_by_label("no shared text found");
    harness.get_by_label("Pairs").click();
    harness.run();
    harness.get_by_label("Student");
    harness.get_by_label("Source");
    harness.get_by_label_contains("s1.txt ⇐ s2.txt (classmate)");
    harness.get_by_label_contains("s1.txt ⇐ r1.txt (reference)").click();
    harness.run();
    harness.key_press(Key::Enter);
    harness.run();
    harness.get_by_label_contains("Reference: r1.txt");
    harness.key_press(Key::Escape);
    harness.run();
    harness.get_by_label_contains("s1.txt ⇐ s2.txt (classmate)").click();
    harness.run();
    harness.key_press(Key::Enter);
    harness.run();
    harness.get_by_label_contains("Classmate: s2.txt");
    // Each side's file times, and which classmate's file was written first.
    harness.get_by_label("modified 2026-02-25 06:13");
    harness.get_by_label("modified 2026-03-01 12:00");
    harness.get_by_label("s2.txt was written first");
    harness.key_press(Key::Escape);
    harness.run();

    // The class's heat map: its students only, the sources left out.
    harness.get_by_label("Heat map").click();
    harness.run();
    assert_eq!(harness.state().state.tab, ResultsTab::Heatmap);
    assert_eq!(harness.query_all_by_label("Heat map").count(), 2, "the tab and the matrix");
    let rows: Vec<String> = twinspot::gui::heatmap::cluster_order(&report).into_iter().map(&name).collect();
    let mut first = rows[..2].to_vec();
    first.sort();
    assert_eq!(first, ["s1.txt".to_owned(), "s2.txt".to_owned()], "the copying pair first: {rows:?}");
    assert!(rows.contains(&"s3.txt".to_owned()), "a student with no pair is a row too: {rows:?}");
    assert!(!rows.contains(&"r1.txt".to_owned()), "no source is a row: {rows:?}");
}

#[test]
fn a_mode_picked_by_hand_does_not_follow_the_lists() {
    let dir = class_folder();
    let mut harness = harness_with_marks(&marks_dir());
    harness.state_mut().apply(Action::SetSource(CheckSource::References));
    drop_on(&mut harness, ListKind::Suspect, &dir.path().join("class"));
    drop_on(&mut harness, ListKind::Reference, &dir.path().join("sources"));
    assert_eq!(harness.state().state.persisted.mode, Mode::SuspectsVsReferences);
}

#[test]
fn compare_classmates_pairs_the_class_with_itself_and_its_sources_never_references_together() {
    let dir = class_folder();
    let report = compare_json(dir.path(), &["--classmates", "--suspect", "class", "--reference", "sources"]);
    assert_eq!(report["mode"], "classmates");
    let id = |p: &str| doc_id(&report, p);
    let pairs: Vec<(u64, u64)> = report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["a"].as_u64().unwrap(), p["b"].as_u64().unwrap()))
        .collect();
    assert!(pairs.contains(&(id("class/s1.txt"), id("class/s2.txt"))), "{report:#}");
    assert!(pairs.contains(&(id("class/s1.txt"), id("sources/r1.txt"))), "{report:#}");
    let references = [id("sources/r1.txt"), id("sources/r2.txt")];
    assert!(pairs.iter().all(|(a, b)| !(references.contains(a) && references.contains(b))), "{report:#}");
    assert_eq!(pairs.len(), 2, "{report:#}");
    // Every student has its overall similarity; s2 through its classmate.
    let overall = |p: &str| report["documents"][id(p) as usize]["overall"].as_f64();
    assert!(overall("class/s2.txt").unwrap() > 0.3, "{report:#}");
    assert_eq!(overall("class/s3.txt"), Some(0.0));
    assert_eq!(overall("sources/r1.txt"), None);

    // Suspects against references alone: no classmates, and no mode said in the JSON.
    let refs = compare_json(dir.path(), &["--suspect", "class", "--reference", "sources"]);
    assert!(refs.get("mode").is_none());
    assert_eq!(refs["pairs"].as_array().map(Vec::len), Some(1), "{refs:#}");
}

#[test]
fn compare_classmates_needs_no_references() {
    let dir = class_folder();
    let report = compare_json(dir.path(), &["--classmates", "--suspect", "class"]);
    assert_eq!(report["pairs"].as_array().map(Vec::len), Some(1), "{report:#}");
}

#[test]
fn with_the_lists_shown_at_1024_the_reference_text_ends_inside_the_window() {
    let mut harness = harness_at([1024.0, 700.0]);
    harness.state_mut().show_report(Arc::new(ready_report(Mode::SuspectsVsReferences)));
    harness.state_mut().apply(Action::OpenPair(0));
    harness.run();
    // Shown over the narrow pair view (Ctrl+B).
    harness.key_press_modifiers(Modifiers::COMMAND, Key::B);
    harness.run();
    harness.get_by_label("Suspects");
    let title = harness.get_by_label_contains("Reference: r.txt").rect();
    let strip = harness.get_by_label("minimap 1").rect();
    assert!(title.right() <= 1024.0, "the reference's title runs past the edge: {title:?}");
    assert!(strip.left() + 150.0 < 1024.0, "the reference's text has room left of the edge: {strip:?}");
}

#[test]
fn a_list_counts_one_file_in_the_singular() {
    let dir = class_folder();
    let mut harness = harness_at([1280.0, 800.0]);
    let one = dir.path().join("class").join("s1.txt");
    harness.state_mut().state.inputs.add(ListKind::Reference, [one]);
    drop_on(&mut harness, ListKind::Suspect, &dir.path().join("class"));
    harness.run();
    harness.get_by_label("1 file");
    harness.get_by_label("3 files in 1 folder");
    assert!(harness.query_by_label_contains("1 files").is_none());
}

#[test]
fn a_heat_map_too_large_to_draw_says_so_and_offers_the_groups() {
    let mut report = ready_report(Mode::AllVsAll);
    let extra = twinspot::gui::heatmap::MAX_MATRIX_DOCUMENTS + 1 - report.documents.len();
    for n in 0..extra {
        let text = format!("Essay number {n} of a very large class.");
        let chars = text.chars().count();
        report.documents.push(DocumentEntry {
            id: report.documents.len(),
            path: format!("big/{n}.txt"),
            source: PathBuf::from(format!("big/{n}.txt")),
            role: Role::Suspect,
            chars,
            countable_chars: chars,
            simhash: Some(n as u64),
            sha256: Some(format!("{n:064x}")),
            error: None,
            warnings: vec![],
            flags: vec![],
            text: Arc::from(text.as_str()),
        });
    }
    let mut harness = harness_at([1280.0, 800.0]);
    harness.state_mut().show_report(Arc::new(report));
    harness.state_mut().apply(Action::SetTab(ResultsTab::Heatmap));
    harness.run();
    harness.get_by_label_contains("This check has 601 documents: a heat map of more than 600");
    harness.get_by_label("Show the groups").click();
    harness.run();
    assert_eq!(harness.state().state.tab, ResultsTab::Groups);
}

/// A long pair whose one passage is near the end of both texts (the same lines on both
/// sides, so a line's place is the same share of each text's height).
fn long_pair_report() -> (twinspot::Report, f32) {
    let mut report = ready_report(Mode::SuspectsVsReferences);
    let lines = 400;
    let at = 360;
    let line = |i: usize| format!("Line {i:03} of an essay on the rivers, hills and old mills of the valley.\n");
    let text = |end: &str| (0..lines).map(line).collect::<String>() + end;
    let start: u32 = (0..at).map(|i| line(i).chars().count() as u32).sum();
    let end = start + line(at).chars().count() as u32 * 3;
    for (id, marker) in [(0, "SUSPECT-END"), (1, "REFERENCE-END")] {
        let doc = &mut report.documents[id];
        doc.text = Arc::from(text(marker));
        doc.chars = doc.text.chars().count();
        doc.countable_chars = doc.chars;
    }
    report.pairs[0].passages = vec![twinspot::Passage::copied((start, end), (start, end))];
    report.pairs[0].longest = end - start;
    (report, at as f32 / lines as f32)
}

/// Where the passage's first line is drawn on each side (its share of the text's height
/// below the text's top), in window points.
fn passage_rows(harness: &Harness<'_, TwinspotApp>, share: f32) -> [f32; 2] {
    ["SUSPECT-END", "REFERENCE-END"].map(|marker| {
        let text = harness.get_by_label_contains(marker).rect();
        text.top() + share * text.height()
    })
}

#[test]
fn after_ctrl_b_both_panes_still_show_the_passage_in_focus() {
    let (report, share) = long_pair_report();
    let mut harness = harness_at([1024.0, 700.0]);
    harness.state_mut().show_report(Arc::new(report));
    harness.state_mut().apply(Action::OpenPair(0));
    harness.run();
    let in_view = |rows: [f32; 2]| rows.iter().all(|&y| (0.0..700.0).contains(&y));
    let folded = passage_rows(&harness, share);
    assert!(in_view(folded), "the passage in focus is shown when the pair opens: {folded:?}");

    // The lists shown over the pair: each text is narrower, wrapped anew and taller.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::B);
    harness.run();
    harness.get_by_label("Suspects");
    let shown = passage_rows(&harness, share);
    assert!(in_view(shown), "both panes scroll the passage back into view after Ctrl+B: {shown:?}");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::B);
    harness.run();
    let again = passage_rows(&harness, share);
    assert!(in_view(again), "and again when the lists fold: {again:?}");
}

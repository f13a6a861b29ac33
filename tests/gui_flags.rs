//! Signs that a copy was hidden, in the window (egui_kittest): the badge says what it
//! counts, "Flagged only" keeps the flagged documents and their pairs (table and
//! overview, both languages), and the pair view's legend names the orange letters when
//! its texts have some.

use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use twinspot::gui::i18n::Lang;
use twinspot::gui::state::ResultsTab;
use twinspot::gui::{Action, TwinspotApp};
use twinspot::model::{Flag, FlagKind, LookAlikeScript};
use twinspot::{Mode, Report};

use super::gui::{harness_with_marks, marks_dir, ready_report};

/// The ready report with q.txt (the second pair's source) using look-alike letters.
fn flagged_report() -> Report {
    let mut report = ready_report(Mode::SuspectsVsReferences);
    let mut flag = Flag::new(FlagKind::LookAlikeLetters, Some(LookAlikeScript::Cyrillic));
    flag.add(12, 13, 1);
    report.documents[2].flags = vec![flag];
    report
}

fn showing(report: Report) -> Harness<'static, TwinspotApp> {
    let mut harness = harness_with_marks(&marks_dir());
    harness.state_mut().show_report(Arc::new(report));
    harness.state_mut().state.tab = ResultsTab::Pairs;
    harness.run();
    harness
}

#[test]
fn flagged_only_keeps_the_pairs_and_documents_with_signs_of_hiding() {
    let mut harness = showing(flagged_report());
    harness.get_by_label("a.txt ⇐ r.txt");
    harness.get_by_label("a.txt ⇐ q.txt");
    harness.get_by_label("! 1 sign of hiding");

    harness.get_by_label("Flagged only").click();
    harness.run();
    assert!(harness.state().state.table.flagged_only);
    harness.get_by_label("a.txt ⇐ q.txt");
    assert_eq!(harness.query_all_by_label("a.txt ⇐ r.txt").count(), 0, "an unflagged pair is left out");

    // The overview lists suspects: a.txt is not flagged itself, so it is left out too.
    harness.state_mut().apply(Action::SetTab(ResultsTab::Overview));
    harness.run();
    assert_eq!(harness.query_all_by_label("a.txt").count(), 0);
    harness.get_by_label("Flagged only").click();
    harness.run();
    harness.get_by_label("a.txt");

    harness.state_mut().state.persisted.lang = Lang::Zh;
    harness.run();
    harness.get_by_label("仅看可疑文档").click();
    harness.run();
    assert!(harness.state().state.table.flagged_only);
    assert_eq!(harness.query_all_by_label("a.txt").count(), 0);
}

#[test]
fn the_pair_view_names_the_orange_letters_when_its_texts_have_some() {
    let mut harness = showing(flagged_report());
    // By score: the pair with r.txt first, then the one with q.txt.
    harness.state_mut().apply(Action::OpenPair(0));
    harness.run();
    assert_eq!(harness.query_all_by_label("Flagged characters").count(), 0, "no flagged letters here");
    harness.state_mut().apply(Action::ClosePair);
    harness.state_mut().apply(Action::OpenPair(1));
    harness.run();
    harness.get_by_label("Flagged characters");
    harness.state_mut().state.persisted.lang = Lang::Zh;
    harness.run();
    harness.get_by_label("可疑字符");
}

/// The pairs table names its columns in plain words: no bare "SimHash" jargon, and the
/// near-duplicate column has a header of its own, in both languages.
#[test]
fn the_pairs_table_names_every_column_in_plain_words() {
    let mut harness = showing(ready_report(Mode::SuspectsVsReferences));
    harness.get_by_label("Wording distance");
    harness.get_by_label("Whole text");
    assert_eq!(harness.query_all_by_label("SimHash").count(), 0);

    harness.state_mut().state.persisted.lang = Lang::Zh;
    harness.run();
    harness.get_by_label("用词差异");
    harness.get_by_label("整体");
}

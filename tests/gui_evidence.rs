//! A translated passage in the pair view (egui_kittest): its list entry says
//! "translated", a line says from which language and how many sentences align, and the
//! legend names the underlined dictionary word pairs — in both window languages.

use std::sync::Arc;

use egui_kittest::kittest::Queryable as _;
use twinspot::gui::Action;
use twinspot::gui::i18n::Lang;
use twinspot::gui::state::ResultsTab;
use twinspot::model::{Span, Translation};
use twinspot::{Mode, Report};

use super::gui::{harness_with_marks, marks_dir, ready_report};

/// The ready report with the first passage of its first pair taken for a translation
/// from English: 7 of 9 sentences aligned, one word pair.
fn translated_report() -> Report {
    let mut report = ready_report(Mode::SuspectsVsReferences);
    let passage = &mut report.pairs[0].passages[0];
    let word = Span {
        a_start: passage.a_start,
        a_end: passage.a_start + 4,
        b_start: passage.b_start,
        b_end: passage.b_start + 4,
    };
    passage.translated =
        Some(Box::new(Translation { from: "en".into(), units: 9, aligned: vec![word; 7], words: vec![word] }));
    report
}

#[test]
fn the_pair_view_says_a_passage_was_translated_and_names_its_word_pairs() {
    let mut harness = harness_with_marks(&marks_dir());
    harness.state_mut().show_report(Arc::new(translated_report()));
    harness.state_mut().state.tab = ResultsTab::Pairs;
    harness.run();
    harness.state_mut().apply(Action::OpenPair(0));
    harness.run();
    harness.get_by_label("1: Translated from English: 7 of 9 sentences align");
    harness.get_by_label("Dictionary word pairs");
    harness.get_by_label_contains("translated · ");
    assert_eq!(harness.query_all_by_label_contains("copied · ").count(), 2, "the other passages stay copied");

    harness.state_mut().state.persisted.lang = Lang::Zh;
    harness.run();
    harness.get_by_label("1: 译自英文：9 句中有 7 句对齐");
    harness.get_by_label("词典词对");
    harness.get_by_label_contains("翻译 · ");
}

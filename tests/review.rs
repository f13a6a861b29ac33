//! The reviewer's workflow in the window, on injected reports: the overview, the pair
//! view's passage list (all four passage kinds), review marks kept across a restart,
//! filters applied without a new check, and the HTML report of the three export scopes.

use std::sync::Arc;

use egui_kittest::kittest::Queryable as _;
use twinspot::gui::Action;
use twinspot::gui::export::ExportKind;
use twinspot::gui::i18n::Lang;
use twinspot::gui::state::MarkFilter;
use twinspot::gui::state::ResultsTab;
use twinspot::report::html::{HtmlOptions, Scope};
use twinspot::report::marks::Mark;
use twinspot::report::{PassageKind, TOOL};
use twinspot::{Mode, Report};

use super::gui::{harness_with_marks, marks_dir, ready_report};

/// The ready report with passages of every kind: a⇐r holds copied, copied and quoted
/// text; a⇐q one common passage, and a template passage is added to a⇐r.
fn kinds_report() -> Report {
    let mut report = ready_report(Mode::SuspectsVsReferences);
    report.pairs[0].passages[2].kind = PassageKind::Quoted;
    report.pairs[1].passages[0].kind = PassageKind::Common;
    let mut template = report.pairs[0].passages[1].clone();
    template.kind = PassageKind::Template;
    template.a_end = template.a_start + 10;
    template.b_end = template.b_start + 10;
    report.pairs[0].passages.push(template);
    report
}

#[test]
fn the_overview_lists_each_suspect_with_its_overall_share_and_opens_its_sources() {
    let mut harness = harness_with_marks(&marks_dir());
    let report = Arc::new(ready_report(Mode::SuspectsVsReferences));
    harness.state_mut().show_report(report.clone());
    harness.run();
    assert_eq!(harness.state().state.tab, ResultsTab::Overview);
    harness.get_by_label("a.txt");
    harness.get_by_label(&format!("{:5.1} %", report.overall(0) * 100.0));
    harness.get_by_label("+").click();
    harness.run();
    harness.get_by_label("q.txt");
    harness.get_by_label("r.txt").click();
    harness.run();
    let open = harness.state().state.pair.as_ref().map(|v| v.pair);
    assert_eq!(open, Some(0), "the source opens its pair");
}

#[test]
fn the_pair_view_lists_every_passage_with_its_kind_and_swaps_sides() {
    let mut harness = harness_with_marks(&marks_dir());
    harness.state_mut().show_report(Arc::new(kinds_report()));
    harness.state_mut().apply(Action::OpenPair(0));
    harness.run();
    harness.get_by_label("Passages");
    for kind in ["copied", "quoted", "template"] {
        assert!(harness.get_all_by_label_contains(&format!("{kind} ·")).next().is_some(), "{kind}");
    }
    // The legend names all four kinds.
    harness.get_by_label(" common ");
    harness.get_by_label_contains("quoted ·").click();
    harness.run();
    assert_eq!(harness.state().state.pair.as_ref().and_then(|v| v.current), Some(2));
    harness.get_by_label("Passage 3 / 4");
    harness.get_by_label("← → Swap sides").click();
    harness.run();
    assert!(harness.state().state.pair.as_ref().is_some_and(|v| v.swapped) && harness.state().pair_laid_out());
    harness.get_by_label("Reference: r.txt");
    harness.get_by_label("minimap 0");
    harness.get_by_label("Select text").click();
    harness.run();
    assert!(harness.state().state.pair.as_ref().is_some_and(|v| v.select_text), "the text can be selected");
}

#[test]
fn marks_and_notes_are_kept_across_a_restart_and_dismissed_passages_leave_the_scores() {
    let dir = marks_dir();
    let report = Arc::new(ready_report(Mode::SuspectsVsReferences));
    {
        let mut harness = harness_with_marks(&dir);
        harness.state_mut().show_report(report.clone());
        harness.state_mut().apply(Action::OpenPair(0));
        harness.run();
        harness.get_by_label("Confirmed").click();
        harness.run();
        harness.get_all_by_label("Dismiss").next().expect("a dismiss button per passage").click();
        harness.run();
        harness.state_mut().apply(Action::SetNote(0, "spoke to the student".into()));
        harness.run();
        let view = harness.state().state.view.clone().unwrap();
        assert_eq!(view.report.pairs[0].passages.len(), 2, "the dismissed passage leaves the view");
        assert!(view.report.pairs[0].score < 0.5);
    }
    assert!(dir.join("twinspot-review.json").is_file());
    // A new window over the same files: the marks come back.
    let mut harness = harness_with_marks(&dir);
    harness.state_mut().show_report(report.clone());
    harness.run();
    let state = &harness.state().state;
    let marks = state.marks.pair(&report, &report.pairs[0]).expect("marks of the pair");
    assert_eq!(marks.mark, Some(Mark::Confirmed));
    assert_eq!(marks.note, "spoke to the student");
    assert_eq!(state.view.as_ref().unwrap().report.pairs[0].passages.len(), 2);
    // The table filters by mark.
    harness.state_mut().state.tab = ResultsTab::Pairs;
    harness.state_mut().state.table.mark_filter = MarkFilter::Only(Mark::Confirmed);
    harness.run();
    harness.get_by_label("a.txt ⇐ r.txt");
    assert!(harness.query_by_label("a.txt ⇐ q.txt").is_none());
    harness.state_mut().state.table.mark_filter = MarkFilter::Unmarked;
    harness.run();
    assert!(harness.query_by_label("a.txt ⇐ r.txt").is_none());
    harness.get_by_label("a.txt ⇐ q.txt");
}

#[test]
fn filters_apply_to_the_current_results_without_a_new_check() {
    let mut harness = harness_with_marks(&marks_dir());
    harness.state_mut().show_report(Arc::new(kinds_report()));
    harness.state_mut().state.tab = ResultsTab::Pairs;
    harness.run();
    harness.get_by_label("2 pairs");
    harness.get_by_label("Hide quoted").click();
    harness.run();
    let view = harness.state().state.view.clone().unwrap();
    assert!(view.report.pairs.iter().flat_map(|p| &p.passages).all(|p| p.kind != PassageKind::Quoted));
    harness.state_mut().state.filter.excluded.insert(2);
    harness.state_mut().apply(Action::FilterChanged);
    harness.run();
    harness.get_by_label("1 pair");
    harness.get_by_label_contains("q.txt (excluded)");
    assert!(!harness.state().state.is_running(), "no check was started");
    harness.get_by_label("Reset filters").click();
    harness.run();
    harness.get_by_label("2 pairs");
}

#[test]
fn the_html_report_of_each_scope_states_version_sha256_and_settings_in_the_window_language() {
    let mut harness = harness_with_marks(&marks_dir());
    harness.state_mut().show_report(Arc::new(kinds_report()));
    harness.state_mut().apply(Action::OpenPair(0));
    harness.run();
    let app = harness.state();
    let view = app.state.view.clone().unwrap();
    let scopes = [
        Scope::Run,
        Scope::Suspect(app.export_suspect().expect("a document to export")),
        Scope::Pair(app.export_pair().expect("the open pair")),
    ];
    for lang in [Lang::En, Lang::Zh] {
        for scope in scopes {
            let options = HtmlOptions {
                scope,
                lang: lang.report_lang(),
                date: "D".into(),
                marks: Some(&app.state.marks),
                ..HtmlOptions::default()
            };
            let html = ExportKind::Html.render(&view.report, &options);
            assert!(html.contains(TOOL), "{scope:?}");
            assert!(html.contains(&format!("{:064x}", 0xabc0)), "{scope:?}: the suspect's SHA-256");
            let settings = if lang == Lang::En { "<h2>Settings</h2>" } else { "<h2>设置</h2>" };
            assert!(html.contains(settings), "{scope:?}");
            assert!(html.contains("guarantee t") == (lang == Lang::En));
            let pairs = html.matches(" id=\"pair-").count();
            assert_eq!(pairs, if matches!(scope, Scope::Pair(_)) { 1 } else { 2 }, "{scope:?}");
            for kind in [PassageKind::Copied, PassageKind::Quoted, PassageKind::Common, PassageKind::Template] {
                let name = lang.words().kind(kind).0;
                assert!(html.contains(&format!(">{name}</mark>")), "{scope:?}: legend {name}");
            }
            if scope == Scope::Run {
                assert!(html.contains("bad.pdf"));
            } else {
                assert!(!html.contains("bad.pdf"), "{scope:?} holds only its documents");
            }
        }
    }
}

#[test]
fn at_1024_by_700_the_overview_table_and_pair_view_still_show_their_parts() {
    let mut harness = egui_kittest::Harness::builder()
        .with_size([1024.0, 700.0])
        .with_context_setup(twinspot::gui::install_fonts)
        .build_eframe(|cc| twinspot::gui::TwinspotApp::new(cc, vec![]));
    harness.state_mut().state.persisted.lang = Lang::En;
    harness.state_mut().set_marks_path(marks_dir().join("twinspot-review.json"));
    harness.state_mut().show_report(Arc::new(kinds_report()));
    harness.run();
    harness.get_by_label("a.txt");
    harness.state_mut().state.tab = ResultsTab::Pairs;
    harness.run();
    harness.get_by_label("a.txt ⇐ r.txt");
    assert!(harness.get_all_by_label("Review").count() >= 1, "the review column is in view");
    harness.state_mut().apply(Action::OpenPair(0));
    harness.run();
    harness.get_by_label("Passages");
    harness.get_by_label("Suspect: a.txt");
    harness.get_by_label("Reference: r.txt");
    harness.get_by_label("minimap 1");
}

#[test]
fn results_are_marked_out_of_date_when_the_settings_change_after_the_check() {
    let mut harness = harness_with_marks(&marks_dir());
    harness.state_mut().show_report(Arc::new(ready_report(Mode::SuspectsVsReferences)));
    let state = &mut harness.state_mut().state;
    state.checked = Some((state.inputs.clone(), state.persisted.mode, state.persisted.settings.clone()));
    harness.run();
    assert!(harness.query_by_label_contains("Out of date").is_none());
    harness.get_by_label("Strict").click();
    harness.run();
    harness.get_by_label_contains("Out of date");
}

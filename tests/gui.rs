//! The window, driven through egui_kittest (AccessKit queries, no GPU, no display): add
//! documents, run a real check on the worker thread, read the table, open a pair and step
//! through its passages; the viewer and table also with a ready-made report injected.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use twinspot::gui::export::{ExportKind, write};
use twinspot::gui::i18n::Lang;
use twinspot::gui::state::{ListKind, ResultsTab, Status};
use twinspot::gui::{Action, TwinspotApp, install_fonts};
use twinspot::report::html::HtmlOptions;
use twinspot::{DocumentEntry, Mode, Pair, Passage, Report, Role, Settings};

pub(crate) const COPIED_1: &str = "软件工程是一门研究用工程化方法构建和维护有效的、实用的和高质量的软件的学科。它涉及程序设计语言、数据库、软件开发工具、系统平台、标准、设计模式等方面。在现代社会中，软件应用于多个方面。";
const COPIED_2: &str = "典型的软件有电子邮件、嵌入式系统、人机界面、办公套件、操作系统、编译器、数据库、游戏等。同时，各个行业几乎都有计算机软件的应用，如工业、农业、银行、航空、政府部门等。这些应用促进了经济和社会的发展。";
const FILLER_1: &str =
    "今天天气很好，我们一起去公园散步。湖边的柳树发出了新芽，孩子们在草地上放风筝，老人们坐在长椅上聊天。";
const FILLER_2: &str = "晚上回到家里，妈妈已经做好了饭菜。我们围坐在桌子旁边，一边吃饭一边说着白天看到的有趣的事情。";
const FILLER_3: &str = "The library opens at nine in the morning and closes at six in the evening every weekday.";

/// eframe's storage in memory: what one window saves, the next one starts from.
#[derive(Default)]
pub(crate) struct MemoryStorage(pub(crate) HashMap<String, String>);

impl eframe::Storage for MemoryStorage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}

/// A fresh folder for the review marks of one test.
pub(crate) fn marks_dir() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("twinspot-gui-{}-{n}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    dir
}

fn harness<'a>() -> Harness<'a, TwinspotApp> {
    harness_with_marks(&marks_dir())
}

pub(crate) fn harness_with_marks<'a>(marks: &Path) -> Harness<'a, TwinspotApp> {
    let mut harness = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_context_setup(install_fonts)
        .build_eframe(|cc| TwinspotApp::new(cc, vec![]));
    harness.state_mut().state.persisted.lang = Lang::En;
    harness.state_mut().state.persisted.settings = Settings::default();
    harness.state_mut().state.persisted.mode = Mode::SuspectsVsReferences;
    harness.state_mut().set_marks_path(marks.join("twinspot-review.json"));
    harness.run();
    harness
}

/// A suspect with two passages copied from a reference, in a fresh folder.
pub(crate) fn fixtures() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let suspect = dir.path().join("suspect.txt");
    let reference = dir.path().join("reference.txt");
    std::fs::write(&suspect, format!("{FILLER_1}\n{COPIED_1}\n{FILLER_3}\n{COPIED_2}\n")).unwrap();
    std::fs::write(&reference, format!("{COPIED_2}\n{FILLER_2}\n{COPIED_1}\n")).unwrap();
    (dir, suspect, reference)
}

pub(crate) fn wait_for_check(harness: &mut Harness<'_, TwinspotApp>) {
    let start = Instant::now();
    while harness.state().state.is_running() {
        assert!(start.elapsed() < Duration::from_secs(120), "the check did not finish");
        std::thread::sleep(Duration::from_millis(20));
        harness.step();
    }
    harness.run();
}

fn doc(id: usize, path: &str, role: Role, text: &str) -> DocumentEntry {
    let chars = text.chars().count();
    DocumentEntry {
        id,
        path: path.into(),
        source: PathBuf::from(path),
        role,
        chars,
        countable_chars: chars,
        simhash: Some(id as u64),
        sha256: Some(format!("{:064x}", id + 0xabc0)),
        error: None,
        warnings: vec![],
        flags: vec![],
        text: Arc::from(text),
    }
}

fn span(text: &str, part: &str) -> (u32, u32) {
    let byte = text.find(part).unwrap();
    let start = text[..byte].chars().count() as u32;
    (start, start + part.chars().count() as u32)
}

/// A finished report: a.txt copied two passages from r.txt and one from q.txt; bad.pdf
/// could not be read.
pub(crate) fn ready_report(mode: Mode) -> Report {
    let a = format!("{FILLER_1}{COPIED_1}{FILLER_3}{COPIED_2}{FILLER_2}");
    let r = format!("{COPIED_2}{FILLER_2}{COPIED_1}");
    let q = format!("{FILLER_3}{FILLER_1}");
    let passage = |x: (u32, u32), y: (u32, u32)| Passage::copied(x, y);
    let mut bad = doc(3, "bad.pdf", Role::Reference, "");
    bad.error = Some("not a PDF: bad.pdf".into());
    Report {
        settings: Settings::default(),
        mode,
        documents: vec![
            doc(0, "a.txt", Role::Suspect, &a),
            doc(1, "r.txt", Role::Reference, &r),
            doc(2, "q.txt", Role::Reference, &q),
            bad,
        ],
        pairs: vec![
            Pair {
                a: 0,
                b: 1,
                score: 0.5,
                score_b: 0.8,
                simhash_distance: Some(12),
                passages: vec![
                    passage(span(&a, COPIED_1), span(&r, COPIED_1)),
                    passage(span(&a, COPIED_2), span(&r, COPIED_2)),
                    passage(span(&a, FILLER_2), span(&r, FILLER_2)),
                ],
                longest: 99,
                shared_sentences: 6,
                near_duplicate: true,
            },
            Pair {
                a: 0,
                b: 2,
                score: 0.1,
                score_b: 0.4,
                simhash_distance: Some(30),
                passages: vec![passage(span(&a, FILLER_1), span(&q, FILLER_1))],
                longest: 50,
                shared_sentences: 2,
                near_duplicate: false,
            },
        ],
        near_duplicates: vec![[0, 1]],
        groups: vec![vec![0, 1]],
        skipped: vec![],
    }
}

#[test]
fn the_window_opens_with_a_hint_and_switches_to_chinese() {
    let mut harness = harness();
    harness.get_by_label("Check");
    harness.get_by_label_contains("drop files anywhere on this window");
    harness.get_by_label("Reference");
    harness.get_by_label("Suspects");
    harness.get_by_label("Template (optional)");

    harness.get_by_label("Language").click();
    harness.run();
    harness.get_by_label("简体中文").click();
    harness.run();
    assert_eq!(harness.state().state.persisted.lang, Lang::Zh);
    harness.get_by_label("检查");
    harness.get_by_label("参考文档");
    harness.get_by_label_contains("拖到窗口任意位置");
}

#[test]
fn the_translated_passages_switch_turns_the_meaning_layer_off() {
    let mut harness = harness();
    assert!(harness.state().state.persisted.settings.meaning, "on by default");
    harness.get_by_label("Advanced").scroll_to_me();
    harness.run();
    harness.get_by_label("Advanced").click();
    harness.run();
    let switch = "Find passages translated between Chinese and English";
    harness.get_by_label(switch).scroll_to_me();
    harness.run();
    harness.get_by_label(switch).click();
    harness.run();
    assert!(!harness.state().state.persisted.settings.meaning, "the checkbox turned it off");
}

#[test]
fn a_check_finds_the_copied_passages_and_the_pair_view_steps_through_them() {
    let (_dir, suspect, reference) = fixtures();
    let mut harness = harness();
    harness.state_mut().state.inputs.add(ListKind::Suspect, [suspect]);
    harness.state_mut().state.inputs.add(ListKind::Reference, [reference]);
    harness.run();
    harness.get_by_label("suspect.txt");
    harness.get_by_label("Check").click();
    harness.step();
    wait_for_check(&mut harness);

    let report = harness.state().state.report.clone().expect("a report");
    assert_eq!(report.pairs.len(), 1, "{report:#?}");
    assert_eq!(report.pairs[0].passages.len(), 2, "{report:#?}");
    assert!(matches!(harness.state().state.status, Some(Status::Finished { pairs: 1, .. })));
    harness.get_by_label("Pairs").click();
    harness.run();

    // The table shows the pair; select it and open it with Enter.
    harness.get_by_label_contains("suspect.txt ⇐").click();
    harness.run();
    harness.key_press(Key::Enter);
    harness.run();
    assert!(harness.state().state.pair.is_some());
    harness.get_by_label("Passage 1 / 2");
    harness.get_by_label("↓ Next passage").click();
    harness.run();
    harness.get_by_label("Passage 2 / 2");
    harness.key_press(Key::N);
    harness.run();
    harness.get_by_label("Passage 1 / 2");
    harness.key_press(Key::P);
    harness.run();
    harness.get_by_label("Passage 2 / 2");

    // Esc goes back to the table.
    harness.key_press(Key::Escape);
    harness.run();
    assert!(harness.state().state.pair.is_none());
    harness.get_by_label_contains("suspect.txt ⇐");
}

#[test]
fn the_viewer_shows_an_injected_report_side_by_side() {
    let mut harness = harness();
    harness.state_mut().show_report(Arc::new(ready_report(Mode::SuspectsVsReferences)));
    harness.state_mut().state.tab = ResultsTab::Pairs;
    harness.run();
    harness.get_by_label("a.txt ⇐ r.txt");
    harness.get_by_label("a.txt ⇐ q.txt");
    harness.get_by_label("near duplicate");
    // The unreadable file is counted in the problems panel's toggle; its path shown once.
    harness.get_by_label("Problems (1) · Notes (0)").click();
    harness.run();
    harness.get_by_label("error: not a PDF");

    harness.state_mut().apply(Action::OpenPair(0));
    harness.run();
    harness.get_by_label("50.0 %");
    harness.get_by_label("80.0 %");
    harness.get_by_label("Passage 1 / 3");
    harness.get_by_label("Suspect: a.txt");
    harness.get_by_label("Reference: r.txt");
    harness.key_press(Key::P);
    harness.run();
    harness.get_by_label("Passage 3 / 3");
    harness.get_by_label("↑ Previous passage").click();
    harness.run();
    harness.get_by_label("Passage 2 / 3");
    let view = harness.state().state.pair.clone().expect("the pair is open");
    assert!(harness.state().pair_laid_out());
    assert_eq!(view.current, Some(1));

    harness.get_by_label("← Results").click();
    harness.run();
    assert!(harness.state().state.pair.is_none());
}

#[test]
fn the_table_sorts_and_filters() {
    let mut harness = harness();
    let report = Arc::new(ready_report(Mode::SuspectsVsReferences));
    harness.state_mut().show_report(report.clone());
    harness.state_mut().state.tab = ResultsTab::Pairs;
    harness.run();
    let rows = |h: &mut Harness<'_, TwinspotApp>| {
        let state = &mut h.state_mut().state;
        let view = state.view.clone().unwrap();
        state.table.rows(&view.report, &state.names, &state.marks).to_vec()
    };
    assert_eq!(rows(&mut harness), &[0, 1]);

    // Sorting by "% of reference" (descending) and then flipping it.
    harness.get_by_label("% of reference").click();
    harness.run();
    assert_eq!(rows(&mut harness), &[0, 1]);
    harness.get_by_label("% of reference ↓").click();
    harness.run();
    assert_eq!(rows(&mut harness), &[1, 0]);

    harness.state_mut().state.table.name_filter = "q.tx".into();
    harness.run();
    assert!(harness.query_by_label("a.txt ⇐ r.txt").is_none());
    harness.get_by_label("a.txt ⇐ q.txt");

    harness.state_mut().state.table.name_filter.clear();
    harness.state_mut().state.filter.min_share = 0.6;
    harness.state_mut().apply(Action::FilterChanged);
    harness.run();
    harness.get_by_label("1 pair");
    harness.get_by_label("a.txt ⇐ r.txt");
    assert!(harness.query_by_label("a.txt ⇐ q.txt").is_none());
}

#[test]
fn all_against_all_shows_the_heat_map_and_the_groups() {
    let mut harness = harness();
    harness.state_mut().show_report(Arc::new(ready_report(Mode::AllVsAll)));
    harness.run();
    harness.get_by_label("Heat map").click();
    harness.run();
    assert_eq!(harness.state().state.tab, ResultsTab::Heatmap);
    harness.get_by_label_contains("Click a cell to open the pair");
    harness.get_by_label("Near-duplicate groups").click();
    harness.run();
    harness.get_by_label("Group 1 · 2 files · 80.0 %");
    harness.get_by_label_contains("a.txt ⇄ r.txt").click();
    harness.run();
    assert!(harness.state().state.pair.is_some(), "a group's pair opens");
}

#[test]
fn escape_cancels_a_running_check_and_its_late_events_are_dropped() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..400 {
        let text = format!("{FILLER_1}{i}{COPIED_1}{FILLER_2}{COPIED_2}{i}").repeat(20);
        std::fs::write(dir.path().join(format!("s{i:03}.txt")), text).unwrap();
    }
    let mut harness = harness();
    harness.state_mut().state.persisted.mode = Mode::AllVsAll;
    harness.state_mut().state.inputs.add(ListKind::Suspect, [dir.path().to_path_buf()]);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, Key::Enter);
    harness.step();
    assert!(harness.state().state.is_running(), "Ctrl+Enter starts the check");
    harness.key_press(Key::Escape);
    harness.step();
    assert!(!harness.state().state.is_running());
    assert_eq!(harness.state().state.status, Some(Status::Cancelled));
    // Whatever the cancelled job still sends is ignored.
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(20));
        harness.step();
    }
    assert!(harness.state().state.report.is_none());
}

#[derive(Debug)]
pub(crate) struct Dropped(pub(crate) PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn two_files_dropped_on_an_empty_window_are_compared_at_once() {
    let (_dir, suspect, reference) = fixtures();
    let mut harness = harness();
    for path in [suspect, reference] {
        harness.input_mut().dropped_files.push(Arc::new(Dropped(path)));
    }
    harness.step();
    assert!(harness.state().state.is_running());
    wait_for_check(&mut harness);
    assert!(harness.state().state.pair.is_some(), "the pair opens by itself");
    harness.get_by_label("Passage 1 / 2");
}

#[test]
fn exports_write_json_csv_and_html() {
    let dir = tempfile::tempdir().unwrap();
    let report = ready_report(Mode::SuspectsVsReferences);
    for (kind, name, needle) in [
        (ExportKind::Json, "r.json", "\"version\": 1"),
        (ExportKind::Csv, "r.csv", "a.txt"),
        (ExportKind::Html, "r.html", "<mark"),
    ] {
        let path = dir.path().join(name);
        write(kind, &report, &HtmlOptions::default(), &path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(needle), "{name}:\n{text}");
    }
}

#[test]
fn the_worker_messages_carry_no_egui_types() {
    let source = include_str!("../src/gui/worker.rs");
    assert!(!source.contains("egui::") && !source.contains("use egui"), "src/gui/worker.rs must not use egui");
    fn is_send<T: Send + 'static>() {}
    is_send::<twinspot::gui::worker::Event>();
    is_send::<twinspot::gui::worker::Command>();
}

#[test]
fn a_pair_of_100000_character_documents_is_laid_out_once_and_stays_smooth() {
    let a: String = format!("{FILLER_1}{COPIED_1}\n{FILLER_3}\n{COPIED_2}{FILLER_2}\n").repeat(280);
    let b: String = format!("{COPIED_2}\n{FILLER_2}{COPIED_1}\n{FILLER_3}\n").repeat(380);
    assert!(a.chars().count() > 100_000 && b.chars().count() > 100_000);
    let passages: Vec<Passage> =
        (0..200u32).map(|i| Passage::copied((i * 500, i * 500 + 80), (i * 500 + 7, i * 500 + 87))).collect();
    let report = Report {
        settings: Settings::default(),
        mode: Mode::SuspectsVsReferences,
        documents: vec![doc(0, "long-a.txt", Role::Suspect, &a), doc(1, "long-b.txt", Role::Reference, &b)],
        pairs: vec![Pair {
            a: 0,
            b: 1,
            score: 0.2,
            score_b: 0.2,
            simhash_distance: None,
            passages,
            longest: 80,
            shared_sentences: 0,
            near_duplicate: false,
        }],
        near_duplicates: vec![],
        groups: vec![],
        skipped: vec![],
    };
    let mut harness = harness();
    harness.state_mut().show_report(Arc::new(report));
    harness.state_mut().apply(Action::OpenPair(0));
    harness.run();
    harness.get_by_label("Passage 1 / 200");
    // Stepping through passages scrolls but never lays the texts out again.
    let layouts = harness.state().pair_layouts();
    let start = Instant::now();
    for _ in 0..20 {
        harness.key_press(Key::N);
        harness.step();
    }
    let per_frame = start.elapsed() / 20;
    harness.run();
    harness.get_by_label("Passage 21 / 200");
    assert_eq!(harness.state().pair_layouts(), layouts);
    assert!(per_frame < Duration::from_millis(250), "a frame took {per_frame:?}");
}

#[test]
fn a_table_of_10000_pairs_sorts_and_scrolls_quickly() {
    let documents: Vec<DocumentEntry> =
        (0..200).map(|i| doc(i, &format!("doc{i:03}.txt"), Role::Suspect, FILLER_3)).collect();
    let pairs: Vec<Pair> = (0..10_000usize)
        .map(|i| Pair {
            a: i % 100,
            b: 100 + i / 100,
            score: (i % 997) as f64 / 997.0,
            score_b: (i % 13) as f64 / 13.0,
            simhash_distance: Some((i % 64) as u32),
            passages: vec![],
            longest: (i % 500) as u32,
            shared_sentences: 0,
            near_duplicate: false,
        })
        .collect();
    let report = Arc::new(Report {
        settings: Settings::default(),
        mode: Mode::AllVsAll,
        documents,
        pairs,
        near_duplicates: vec![],
        groups: vec![],
        skipped: vec![],
    });
    let mut harness = harness();
    harness.state_mut().show_report(report.clone());
    harness.state_mut().state.tab = ResultsTab::Pairs;
    harness.run();
    harness.get_by_label("10000 pairs");
    let start = Instant::now();
    harness.get_by_label("Longest").click();
    harness.run();
    for _ in 0..10 {
        harness.key_press(Key::ArrowDown);
        harness.step();
    }
    harness.run();
    let elapsed = start.elapsed();
    let state = &mut harness.state_mut().state;
    let view = state.view.clone().unwrap();
    let rows = state.table.rows(&view.report, &state.names, &state.marks).to_vec();
    assert_eq!(view.report.pairs[rows[0]].longest, 499);
    assert_eq!(harness.state().state.table.selected, Some(rows[9]));
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
}

#[test]
fn files_dropped_on_a_list_join_that_list_and_elsewhere_the_suspects() {
    let (_dir, suspect, reference) = fixtures();
    let mut harness = harness();
    // Dropped on the template list (the pointer is over it).
    let at = harness.get_by_label("Template (optional)").rect().center();
    harness.hover_at(at);
    harness.input_mut().dropped_files.push(Arc::new(Dropped(reference.clone())));
    harness.step();
    harness.run();
    assert_eq!(harness.state().state.inputs.list(ListKind::Template), &[reference]);
    // One file dropped anywhere else joins the suspects, and nothing starts by itself.
    harness.hover_at(egui::pos2(900.0, 600.0));
    harness.input_mut().dropped_files.push(Arc::new(Dropped(suspect.clone())));
    harness.step();
    harness.run();
    assert_eq!(harness.state().state.inputs.list(ListKind::Suspect), &[suspect]);
    assert!(!harness.state().state.is_running());
}

#[test]
fn a_chinese_window_says_read_errors_notes_and_skipped_paths_in_chinese() {
    let (dir, suspect, reference) = fixtures();
    let empty = dir.path().join("empty.txt");
    let blank = dir.path().join("blank.txt");
    std::fs::write(&empty, "").unwrap();
    std::fs::write(&blank, "   \n\n  ").unwrap();
    let pictures = dir.path().join("pictures");
    std::fs::create_dir(&pictures).unwrap();
    std::fs::write(pictures.join("photo.png"), "not a document").unwrap();
    let mut harness = harness();
    harness.state_mut().state.persisted.lang = Lang::Zh;
    harness.state_mut().state.inputs.add(ListKind::Suspect, [suspect, empty, blank, pictures]);
    harness.state_mut().state.inputs.add(ListKind::Reference, [reference]);
    harness.run();
    harness.get_by_label("检查").click();
    harness.step();
    wait_for_check(&mut harness);
    assert!(harness.state().state.show_problems, "an unreadable file opens the problems panel");
    harness.get_by_label("错误: 空文件（0 字节）");
    harness.get_by_label("提示: 未找到文字");
    // A path passed over is said too, in Chinese.
    harness.get_by_label_contains("提示: 所给文件夹中有 1 个文件不是支持的格式");
    harness.get_by_label("问题 (1) · 提示 (2)");
    // The report itself keeps the English text.
    let report = harness.state().state.report.clone().expect("a report");
    let errors: Vec<String> = report.documents.iter().filter_map(|d| d.error.as_ref().map(|e| e.to_string())).collect();
    assert!(errors.iter().any(|e| e.starts_with("empty file (0 bytes): ")), "{errors:?}");
}

#[test]
fn a_flagged_document_shows_a_badge_in_the_overview_and_the_table() {
    use twinspot::model::{Flag, FlagKind};
    let mut report = ready_report(Mode::SuspectsVsReferences);
    let mut flag = Flag::new(FlagKind::HiddenText, None);
    flag.add(3, 3, 40);
    report.documents[0].flags = vec![flag];
    let mut harness = harness();
    harness.state_mut().show_report(Arc::new(report));
    harness.state_mut().state.tab = ResultsTab::Overview;
    harness.run();
    assert_eq!(harness.query_all_by_label("! 1 sign of hiding").count(), 1, "one suspect, one badge");
    harness.state_mut().state.tab = ResultsTab::Pairs;
    harness.run();
    assert_eq!(harness.query_all_by_label("! 1 sign of hiding").count(), 2, "a badge in each of the suspect's rows");
    let unflagged = ready_report(Mode::SuspectsVsReferences);
    harness.state_mut().show_report(Arc::new(unflagged));
    harness.run();
    assert_eq!(harness.query_all_by_label("! 1 sign of hiding").count(), 0);
}

//! Tests of the HTML report on the sample report of [`crate::report::tests_support`].
#![allow(clippy::cast_possible_truncation, reason = "the tests' values are small")]

use super::*;
use crate::model::{Role, TOOL};
use crate::report::marks::Mark;
use crate::report::tests_support::sample;

fn options(scope: Scope, lang: ReportLang) -> HtmlOptions<'static> {
    HtmlOptions { scope, lang, date: "DATE".into(), ..HtmlOptions::default() }
}

#[test]
fn html_is_escaped_self_contained_and_lights_passages_on_both_sides() {
    let report = sample();
    let html = render(&report, &options(Scope::Run, ReportLang::En));
    assert!(html.contains("s&lt;1&gt;.txt"));
    assert!(!html.contains("s<1>"));
    assert!(html.contains("&amp; more"));
    let r = report.pairs.iter().position(|p| p.b == 1).unwrap();
    assert!(html.contains(&format!("id=\"p{r}a0\" data-twin=\"p{r}b0\"")));
    assert!(html.contains(&format!("id=\"p{r}b0\" data-twin=\"p{r}a0\"")));
    assert!(html.contains("<sup class=lbl>1</sup>软件工程是一门学科</mark>"));
    assert!(html.contains("not a PDF: bad.pdf"));
    assert!(html.contains("guarantee t"));
    assert!(!html.contains("http://") && !html.contains("https://"));
}

#[test]
fn a_report_states_tool_date_inputs_settings_legend_and_every_kind() {
    let report = sample();
    let html = render(&report, &options(Scope::Run, ReportLang::En));
    assert!(html.contains(TOOL));
    assert!(html.contains("Date: DATE"));
    assert!(html.contains(&"a".repeat(64)));
    assert!(html.contains("<h2>Settings</h2>"));
    for kind in ["copied", "quoted", "common", "template"] {
        assert!(html.contains(&format!(">{kind}</mark>")), "{kind}");
    }
    assert!(html.contains("font-style:italic"));
    assert!(html.contains("Overall similarity"));
}

#[test]
fn scopes_cover_one_suspect_or_one_pair_and_chinese_follows() {
    let report = sample();
    let pair = render(&report, &options(Scope::Pair(1), ReportLang::Zh));
    assert!(pair.contains("lang=\"zh-CN\""));
    assert!(pair.contains("id=\"pair-1\""));
    assert!(!pair.contains("id=\"pair-0\""));
    assert!(!pair.contains("bad.pdf"));
    assert!(pair.contains("参考资料"), "the other side is a source");
    let suspect = render(&report, &options(Scope::Suspect(0), ReportLang::En));
    assert!(suspect.contains("id=\"pair-0\"") && suspect.contains("id=\"pair-1\""));
    assert!(suspect.contains("<h1>s&lt;1&gt;.txt</h1>"));
}

#[test]
fn same_inputs_give_the_same_bytes_apart_from_the_date_line() {
    let report = sample();
    let one = render(&report, &HtmlOptions { date: "2026-01-01 00:00 UTC".into(), ..HtmlOptions::default() });
    let two = render(&report, &HtmlOptions { date: now_utc(), ..HtmlOptions::default() });
    let strip = |s: &str| s.lines().filter(|l| !l.contains("class=\"meta date\"")).collect::<Vec<_>>().join("\n");
    assert_eq!(strip(&one), strip(&two));
    assert_ne!(one, two);
    assert_eq!(now_utc().len(), "2026-01-01 00:00 UTC".len());
}

#[test]
fn page_one_of_a_student_holds_the_summary_and_the_appendix_comes_last() {
    let report = sample();
    let mut marks = Marks::default();
    let pair = &report.pairs[0];
    marks.set_pair(&report, pair, Some(Mark::Confirmed));
    marks.set_note(&report, pair, "talked <to> them");
    let html = render(&report, &HtmlOptions { marks: Some(&marks), ..options(Scope::Suspect(0), ReportLang::En) });
    let at = |needle: &str| html.find(needle).unwrap_or_else(|| panic!("{needle} missing"));
    let summary = at("class=\"summary\"");
    assert!(summary < at("class=\"sbs\""), "the summary before the texts");
    assert!(at("class=\"sbs\"") < at("<h2>Settings</h2>"), "the settings in the appendix at the end");
    assert!(at("class=\"sbs\"") < at(&"a".repeat(64)), "the hashes in the appendix");
    assert!(at("talked &lt;to&gt; them") < at("class=\"sbs\""), "the note on page 1");
    assert!(html[summary..at("class=\"sbs\"")].contains("confirmed"), "the verdict on page 1");
    assert!(html[summary..].contains("r.txt") && html[summary..].contains("q.txt"), "both sources");
}

#[test]
fn dismissed_passages_are_listed_and_said_not_to_count_and_the_numbers_drop() {
    let report = sample();
    let index = report.pairs.iter().position(|p| p.b == 1).unwrap();
    let pair = &report.pairs[index];
    let plain = render(&report, &options(Scope::Pair(index), ReportLang::En));
    let mut marks = Marks::default();
    marks.set_passage(&report, pair, &pair.passages[0], Some(Mark::Dismissed));
    marks.set_note(&report, pair, "shared template text");
    let html = render(&report, &HtmlOptions { marks: Some(&marks), ..options(Scope::Pair(index), ReportLang::En) });
    assert!(html.contains("1 passage dismissed by the reviewer: not counted"));
    assert!(html.contains("shared template text"));
    assert!(html.contains("<tr class=\"dis\">"), "the dismissed passage stays in the table");
    assert!(html.contains("class=dis data-twin"), "and in the text, struck through");
    assert!(html.contains("软件工程是一门学科"), "its text is still shown");
    assert!(html.contains("before the reviewer's dismissals"));
    assert_eq!(plain.matches("<tr class=\"dis\">").count(), 0);
    assert_eq!(html.matches("<tr class=\"dis\">").count(), 1, "one row marked, no other");
    // A pair whose every passage is dismissed is still there, at 0 %.
    let mut all = Marks::default();
    let other = &report.pairs[1 - index];
    all.set_passage(&report, other, &other.passages[0], Some(Mark::Dismissed));
    let html = render(&report, &HtmlOptions { marks: Some(&all), ..options(Scope::Suspect(0), ReportLang::En) });
    assert!(html.contains(&format!("id=\"pair-{}\"", 1 - index)), "the wholly dismissed pair is listed");
}

#[test]
fn the_class_report_lists_every_student_with_0_percent_in_a_sortable_table_and_a_histogram() {
    let mut report = sample();
    let mut quiet = report.documents[2].clone();
    quiet.id = 4;
    quiet.path = "/home/teacher/class/zoe.txt".into();
    quiet.role = Role::Suspect;
    report.documents.push(quiet);
    let html = render(&report, &options(Scope::Run, ReportLang::En));
    assert!(html.contains("<table class=\"wide sortable\">"));
    assert!(html.contains(">zoe.txt</a>"), "the 0 % student is listed");
    assert!(html.contains("No shared text found."));
    assert!(html.contains("class=\"hist\""));
    assert!(!html.contains("/home/teacher"), "no folder of the teacher's disk");
    assert_eq!(html.matches("<section class=\"student\">").count(), 2, "a section per student");
    let table = html.find("sortable").unwrap_or(usize::MAX);
    assert!(table < html.find("<h2>Settings</h2>").unwrap_or(0));
    assert!(table < html.find("class=\"sbs\"").unwrap_or(0));
}

#[test]
fn an_anonymised_hand_out_names_other_students_by_letters_only() {
    let mut report = sample();
    report.documents[2].role = Role::Suspect;
    report.documents[2].path = "/srv/class/bob smith.txt".into();
    report.documents[2].warnings = vec!["decoded as GBK: /srv/class/bob smith.txt".into()];
    let html = render(&report, &HtmlOptions { anonymize: true, ..options(Scope::Suspect(0), ReportLang::En) });
    assert!(html.contains("<h1>s&lt;1&gt;.txt</h1>"), "the student keeps the name");
    assert!(html.contains("Student A"));
    assert!(!html.contains("bob"), "no classmate's name anywhere");
    assert!(html.contains("r.txt"), "sources keep their names");
    assert!(html.contains("classmate"));
}

#[test]
fn flags_get_a_box_at_the_top_and_their_spans_are_marked_in_the_text() {
    use crate::model::{Flag, FlagKind, LookAlikeScript};
    let mut report = sample();
    let plain = render(&report, &options(Scope::Run, ReportLang::En));
    assert!(!plain.contains("class=\"flags\"") && !plain.contains("<u class=flag>"));
    let mut flag = Flag::new(FlagKind::LookAlikeLetters, Some(LookAlikeScript::Cyrillic));
    flag.add(3, 5, 2);
    report.documents[0].flags = vec![flag];
    let html = render(&report, &options(Scope::Suspect(0), ReportLang::En));
    let top = html.find("class=\"flags\"").unwrap_or(usize::MAX);
    assert!(top < html.find("class=\"sbs\"").unwrap_or(0), "the box comes before the texts");
    assert!(html.contains("Look-alike letters: 2 Cyrillic letters inside English words"));
    assert!(html.contains("<mark class=\"flag\">软件</mark>"), "the excerpt marks the span");
    assert!(html.contains("<u class=flag>软件</u>"), "the text marks the span");
    let zh = render(&report, &options(Scope::Run, ReportLang::Zh));
    assert!(zh.contains("形近字替换：英文单词中有 2 个西里尔字母"));
}

#[test]
fn a_hand_out_shows_of_a_classmate_only_the_shared_passage_and_nothing_of_the_file() {
    let mut report = sample();
    let q = "Private ZEBRAWORD thoughts of the classmate. The end of it all.";
    let start = q[..q.find("The end").unwrap_or(0)].chars().count() as u32;
    report.documents[2].role = Role::Suspect;
    report.documents[2].path = "/srv/class/bob smith.txt".into();
    report.documents[2].text = std::sync::Arc::from(q);
    report.documents[2].chars = q.chars().count();
    let index = report.pairs.iter().position(|p| p.b == 2).unwrap();
    let passage = &mut report.pairs[index].passages[0];
    (passage.b_start, passage.b_end) = (start, start + 18);
    let teacher = render(&report, &options(Scope::Suspect(0), ReportLang::En));
    assert!(teacher.contains("ZEBRAWORD") && teacher.contains("bob smith.txt") && teacher.contains(&"c".repeat(64)));
    let hand_out = render(&report, &HtmlOptions { anonymize: true, ..options(Scope::Suspect(0), ReportLang::En) });
    assert!(!hand_out.contains("ZEBRAWORD"), "the classmate's own words");
    assert!(!hand_out.contains("bob") && !hand_out.contains(&"c".repeat(64)), "the classmate's name or hash");
    assert!(hand_out.contains("The end of it all.") && hand_out.contains("Student A"));
    assert!(hand_out.contains(EN_HIDDEN), "the hand-out says why the text is missing");
    assert!(hand_out.contains(&"b".repeat(64)), "a source keeps its hash");
}

const EN_HIDDEN: &str = "A hand-out shows of a classmate";

#[test]
fn each_passage_is_listed_once_with_its_sources_and_the_full_texts_are_optional() {
    let report = sample();
    let html = render(&report, &options(Scope::Suspect(0), ReportLang::En));
    let body = &html[..html.find("class=\"optional fulltexts\"").unwrap_or(0)];
    assert!(body.contains("class=\"hit\""), "the passages before the optional appendix");
    assert!(!body.contains("class=\"sbs\""), "no full text before the appendix");
    assert_eq!(body.matches("软件工程是一门学科").count(), 1, "the passage once");
    assert!(body.contains("<b class=\"tok\">r.txt</b>") && body.contains("<b class=\"tok\">q.txt</b>"));
    assert!(html.contains("body:not(.print-all) .optional{display:none}"), "left out of print unless asked for");
}

/// The sample with q.txt in Chinese and its passage taken for a translation of it: two
/// sentences of the suspect, one aligned, and the dictionary's pair "end" ⇔ "结局".
fn translated_sample() -> (Report, usize) {
    use crate::model::{Span, Translation};
    let mut report = sample();
    let q = "这就是一切的结局。";
    report.documents[2].text = std::sync::Arc::from(q);
    report.documents[2].chars = q.chars().count();
    report.documents[2].countable_chars = q.chars().count();
    let index = report.pairs.iter().position(|p| p.b == 2).unwrap();
    let a = report.documents[0].text.clone();
    let at = |text: &str, part: &str| text[..text.find(part).unwrap()].chars().count() as u32;
    let (end, ending) = (at(&a, "end of it"), at(q, "结局"));
    let passage = &mut report.pairs[index].passages[0];
    passage.b_start = 0;
    passage.b_end = 9;
    passage.translated = Some(Box::new(Translation {
        from: "zh".into(),
        units: 2,
        aligned: vec![Span { a_start: passage.a_start, a_end: passage.a_end, b_start: 0, b_end: 9 }],
        words: vec![Span { a_start: end, a_end: end + 3, b_start: ending, b_end: ending + 2 }],
    }));
    (report, index)
}

#[test]
fn a_translated_passage_says_so_with_its_aligned_sentences_and_underlines_its_word_pairs() {
    let (report, index) = translated_sample();
    let html = render(&report, &options(Scope::Pair(index), ReportLang::En));
    assert!(html.contains("<td>translated</td>"), "the table names the kind");
    assert!(html.contains("Translated from Chinese: 1 of 2 sentences align"));
    assert!(html.contains("Underlined: word pairs the dictionary matched"));
    assert!(html.contains("\">end</u>") && html.contains("\">结局</u>"), "both sides lit");
    assert!(html.contains("<u class=tw title=\"结局\""), "hovering a word shows its partner");
    assert!(html.contains("<u class=tw title=\"end\""));
    let zh = render(&report, &options(Scope::Pair(index), ReportLang::Zh));
    assert!(zh.contains("<td>翻译</td>"));
    assert!(zh.contains("译自中文：2 句中有 1 句对齐"));
    let student = render(&report, &options(Scope::Suspect(0), ReportLang::En));
    assert!(student.contains(" · translated · "), "the student's passage list names the kind");
    assert!(student.contains("Translated from Chinese: 1 of 2 sentences align"));
    // Text that shares its words shows nothing of the kind.
    let plain = render(&sample(), &options(Scope::Run, ReportLang::En));
    assert!(!plain.contains("class=tw") && !plain.contains("Translated from") && !plain.contains("translated"));
}

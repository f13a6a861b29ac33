//! The pair view: a passage list (number, kind, lengths, position, review mark) beside both
//! texts; every passage lit on both sides in the style of its kind, numbered in the margin;
//! an overview strip (minimap) beside each text, clickable; selectable, copyable text;
//! (a toggle: clicks then select text instead of jumping to the twin); swap sides; the
//! pair's review mark and note. Each side is laid out once into a cached
//! galley (again only on resize, theme, swap or a changed mark).

use std::sync::Arc;

use egui::text::{CCursor, LayoutJob, LayoutSection, TextFormat, TextWrapping};
use egui::{Align, Color32, FontId, Galley, RichText, Sense, Stroke};

use super::action::Action;
use super::flag_badge::FLAG_COLOUR;
use super::i18n::Tr;
use super::i18n_class::ClassTr;
use super::i18n_review::ReviewTr;
use super::state::{PairView, State};
use crate::ingest::{FileDates, a_came_first};
use crate::model::{CharAt, CharIndex, Flag, Passage, saturating_u32};
use crate::report::marks::Mark;
use crate::report::palette::{KindStyle, WORD_COLOUR, kind_style, runs, word_ranges};
use crate::report::words::{KINDS, Words};
use crate::{DocumentEntry, Pair};

/// Font size of the texts.
const TEXT_SIZE: f32 = 15.0;
/// Room left of each text for passage numbers and the bar of the passage in focus.
const GUTTER: f32 = 26.0;
/// Width of the overview strip beside each text.
const MINIMAP: f32 = 12.0;
/// Width of the passage list.
const LIST_WIDTH: f32 = 250.0;

/// The texts of the open pair as last laid out, kept between frames (laying out a long
/// document costs more than a frame): the painter's own memo, not view state.
#[derive(Default)]
pub struct PairLayout {
    /// The pair (its index, and the report it belongs to) the sides were laid out for.
    of: Option<(usize, usize)>,
    sides: [Option<SideLayout>; 2],
    /// How many times a side was laid out (once per side, again only on resize, theme,
    /// swap or a changed mark).
    count: usize,
}

impl PairLayout {
    /// True when both sides have been laid out.
    pub fn laid_out(&self) -> bool {
        self.sides.iter().all(Option::is_some)
    }

    /// How many times a side was laid out so far.
    pub fn count(&self) -> usize {
        self.count
    }
}

struct SideLayout {
    width: f32,
    dark: bool,
    key: u64,
    galley: Arc<Galley>,
}

/// Passage ranges of one document of the pair (`first`: the suspect, document A).
fn ranges(pair: &Pair, first: bool) -> Vec<(u32, u32)> {
    pair.passages.iter().map(|p| if first { (p.a_start, p.a_end) } else { (p.b_start, p.b_end) }).collect()
}

fn rgb([r, g, b]: [u8; 3]) -> Color32 {
    Color32::from_rgb(r, g, b)
}

/// The format of a passage's text: its kind's style; a dismissed one struck through.
fn passage_format(style: KindStyle, dismissed: bool, font_id: FontId) -> TextFormat {
    let mut format = TextFormat {
        background: rgb(style.background),
        italics: style.italic,
        ..TextFormat::simple(font_id, rgb(style.text))
    };
    if style.underline {
        format.underline = Stroke::new(1.0, rgb(style.text));
    }
    if dismissed {
        format.background = Color32::from_gray(235);
        format.color = Color32::from_gray(120);
        format.strikethrough = Stroke::new(1.0, Color32::from_gray(120));
    }
    format
}

fn layout_job(
    doc: &DocumentEntry,
    pair: &Pair,
    first: bool,
    dismissed: &[bool],
    width: f32,
    text_color: Color32,
) -> LayoutJob {
    let text: &str = &doc.text;
    let index = CharIndex::new(text);
    let chars = index.chars();
    let font_id = FontId::proportional(TEXT_SIZE);
    let sections: Vec<LayoutSection> = runs(chars, &ranges(pair, first))
        .into_iter()
        .map(|run| {
            let format = match run.passage {
                None => TextFormat::simple(font_id.clone(), text_color),
                Some(i) => {
                    let kind = pair.passages.get(i).map(|p| p.kind).unwrap_or_default();
                    passage_format(kind_style(kind, i), dismissed.get(i).copied().unwrap_or(false), font_id.clone())
                }
            };
            LayoutSection {
                leading_space: 0.0,
                byte_range: egui::text::ByteIndex(index.byte(CharAt(run.start)))
                    ..egui::text::ByteIndex(index.byte(CharAt(run.end))),
                format,
            }
        })
        .collect();
    LayoutJob {
        text: text.to_owned(),
        sections: underline_flags(underline_words(sections, &index, pair, first), &index, &doc.flags),
        wrap: TextWrapping::wrap_at_width(width),
        break_on_newline: true,
        ..Default::default()
    }
}

/// `sections` with the flagged spans of the document (look-alike letters, odd spaces, …)
/// cut out as sections of their own, written and underlined in the flag colour.
fn underline_flags(sections: Vec<LayoutSection>, index: &CharIndex<'_>, flags: &[Flag]) -> Vec<LayoutSection> {
    let spans = flags.iter().flat_map(|f| &f.spans).filter(|s| s[1] > s[0]).map(|s| (s[0], s[1]));
    // Coloured as well as underlined: inside a lit passage, the background of the next
    // line covers an underline.
    restyle(sections, index, spans, |format| {
        format.underline = Stroke::new(2.0, FLAG_COLOUR);
        format.color = FLAG_COLOUR;
    })
}

/// `sections` with the dictionary word pairs of the pair's translated passages on this
/// side (`first`: the suspect's) written and underlined in [`WORD_COLOUR`].
fn underline_words(
    sections: Vec<LayoutSection>,
    index: &CharIndex<'_>,
    pair: &Pair,
    first: bool,
) -> Vec<LayoutSection> {
    let spans = word_ranges(&pair.passages, first).into_iter().map(|(_, s, e)| (s, e));
    restyle(sections, index, spans, |format| {
        format.underline = Stroke::new(2.0, rgb(WORD_COLOUR));
        format.color = rgb(WORD_COLOUR);
    })
}

/// `sections` with the character `spans` of the text `index` indexes cut out as sections
/// of their own, their format changed by `style`.
fn restyle(
    sections: Vec<LayoutSection>,
    index: &CharIndex<'_>,
    spans: impl Iterator<Item = (u32, u32)>,
    style: impl Fn(&mut TextFormat),
) -> Vec<LayoutSection> {
    let byte = |c: u32| index.byte(CharAt(c));
    let mut spans: Vec<(usize, usize)> = spans.map(|(s, e)| (byte(s), byte(e))).collect();
    if spans.is_empty() {
        return sections;
    }
    spans.sort_unstable();
    let mut out = Vec::with_capacity(sections.len() + 2 * spans.len());
    for section in sections {
        let end = section.byte_range.end.0;
        let mut at = section.byte_range.start.0;
        let piece = |from: usize, to: usize, flagged: bool| {
            let mut format = section.format.clone();
            if flagged {
                style(&mut format);
            }
            LayoutSection {
                leading_space: 0.0,
                byte_range: egui::text::ByteIndex(from)..egui::text::ByteIndex(to),
                format,
            }
        };
        let start = at;
        for &(s, e) in spans.iter().filter(|&&(s, e)| s < end && e > start) {
            if s > at {
                out.push(piece(at, s, false));
            }
            let to = e.min(end);
            if to > at.max(s) {
                out.push(piece(at.max(s), to, true));
            }
            at = at.max(to);
        }
        if at < end {
            out.push(piece(at, end, false));
        }
    }
    out
}

/// The legend of passage kinds, in the window's styles; with `flagged`, the words of the
/// flagged characters, written as the texts write them (orange, underlined).
pub fn legend_ui(ui: &mut egui::Ui, words: &Words, flagged: Option<&ReviewTr>) {
    ui.horizontal_wrapped(|ui| {
        for kind in KINDS {
            let (name, help) = words.kind(kind);
            let style = kind_style(kind, 0);
            let mut text =
                RichText::new(format!(" {name} ")).background_color(rgb(style.background)).color(rgb(style.text));
            if style.italic {
                text = text.italics();
            }
            if style.underline {
                text = text.underline();
            }
            ui.label(text).on_hover_text(help);
        }
        if let Some(review) = flagged {
            let text = RichText::new(review.legend_flagged).color(FLAG_COLOUR).underline();
            ui.label(text).on_hover_text(review.tip_legend_flagged);
        }
    });
}

/// For each translated passage of the pair, "3: Translated from English: 7 of 9
/// sentences align", and the legend of the underlined word pairs; nothing when it has none.
fn translations_ui(ui: &mut egui::Ui, words: &Words, review: &ReviewTr, pair: &Pair) {
    let lines = numbered_lines(pair, |p| p.translated.as_ref().map(|t| words.translated_line(t)));
    if lines.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        let legend = RichText::new(review.legend_word_pairs).color(rgb(WORD_COLOUR)).underline();
        ui.label(legend).on_hover_text(review.tip_legend_word_pairs);
        for line in lines {
            ui.separator();
            ui.label(line);
        }
    });
}

/// For each reworded passage of the pair, "2: Reworded: 3 sentences say the same in other
/// words"; nothing when it has none.
fn reworded_ui(ui: &mut egui::Ui, words: &Words, pair: &Pair) {
    let lines = numbered_lines(pair, |p| p.reworded.as_ref().map(|r| words.reworded_line(r)));
    if lines.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        for (n, line) in lines.into_iter().enumerate() {
            if n > 0 {
                ui.separator();
            }
            ui.label(line);
        }
    });
}

/// "n: line" for each passage of the pair (numbered from 1) that `line` says something of.
fn numbered_lines(pair: &Pair, line: impl Fn(&Passage) -> Option<String>) -> Vec<String> {
    pair.passages.iter().enumerate().filter_map(|(i, p)| line(p).map(|l| format!("{}: {l}", i + 1))).collect()
}

/// Draws the pair view; `layout` keeps the laid-out texts between frames.
pub fn pair_view_ui(ui: &mut egui::Ui, state: &State, layout: &mut PairLayout, actions: &mut Vec<Action>) {
    let tr = state.persisted.lang.tr();
    let words = state.persisted.lang.words();
    let Some(report) = state.report.as_ref() else {
        actions.push(Action::ClosePair);
        return;
    };
    let Some(view) = state.pair.as_ref() else {
        return;
    };
    let Some(pair) = report.pairs.get(view.pair) else {
        actions.push(Action::ClosePair);
        return;
    };
    let (Some(a), Some(b)) = (report.documents.get(pair.a), report.documents.get(pair.b)) else {
        actions.push(Action::ClosePair);
        return;
    };
    let of = Some((view.pair, Arc::as_ptr(report) as usize));
    if layout.of != of {
        layout.of = of;
        layout.sides = [None, None];
    }
    // The scores as filtered and marked, when the pair is still shown.
    let shown = state
        .view
        .as_ref()
        .and_then(|v| v.origin.iter().position(|&o| o == view.pair).and_then(|i| v.report.pairs.get(i)))
        .unwrap_or(pair);
    let dismissed: Vec<bool> = (0..pair.passages.len())
        .map(|i| matches!(view.marks.get(i), Some(Some(Mark::Dismissed | Mark::DismissedEverywhere))))
        .collect();
    let pair_mark = state.marks.pair(report, pair).and_then(|m| m.mark);
    let class = state.persisted.lang.class_tr();
    let (title_a, title_b) = match report.mode {
        crate::Mode::AllVsAll => (tr.doc_a, tr.doc_b),
        crate::Mode::SuspectsVsReferences => (tr.col_suspect, tr.col_reference),
        // A class's check: the source says whether it is a classmate or a reference.
        crate::Mode::Classmates if b.role == crate::Role::Suspect => (class.col_student, class.title_classmate),
        crate::Mode::Classmates => (class.col_student, class.title_reference),
    };
    // The counter counts every passage of the pair, dismissed ones included, as the
    // passage list and the steps do; the scores beside it are those of the view.
    header_ui(ui, tr, shown, pair.passages.len(), view, pair_mark, actions);
    // The flagged characters are named when this pair's texts have some to show.
    let has_spans = |d: &DocumentEntry| d.flags.iter().any(|f| f.spans.iter().any(|s| s[1] > s[0]));
    let flagged = (has_spans(a) || has_spans(b)).then(|| state.persisted.lang.review_tr());
    legend_ui(ui, words, flagged);
    translations_ui(ui, words, state.persisted.lang.review_tr(), pair);
    reworded_ui(ui, words, pair);
    if view.dates_compared(report) {
        came_first_ui(ui, class, view, [state.name(pair.a), state.name(pair.b)]);
    }
    ui.separator();
    let height = ui.available_height();
    let total = ui.available_width();
    let list_width = LIST_WIDTH.min(total * 0.3);
    ui.horizontal_top(|ui| {
        ui.allocate_ui_with_layout(egui::vec2(list_width, height), egui::Layout::top_down(Align::Min), |ui| {
            ui.set_width(list_width);
            let class = state.persisted.lang.class_tr();
            passage_list_ui(ui, (tr, class, words), pair, a.chars, view, actions);
        });
        ui.separator();
        // What the list and the separator left, so the second text never runs past the edge.
        let text_width = ui.available_width().max(200.0);
        ui.allocate_ui_with_layout(egui::vec2(text_width, height), egui::Layout::top_down(Align::Min), |ui| {
            ui.set_width(text_width);
            ui.columns(2, |columns| {
                let order = if view.swapped {
                    [(b, false, title_b), (a, true, title_a)]
                } else {
                    [(a, true, title_a), (b, false, title_b)]
                };
                for (column, (ui, (doc, first, title))) in columns.iter_mut().zip(order).enumerate() {
                    let name = state.names.get(doc.id).map_or(doc.path.as_str(), String::as_str);
                    ui.add(egui::Label::new(RichText::new(format!("{title}: {name}")).strong()).truncate())
                        .on_hover_text(doc.source.display().to_string());
                    if let Some(line) = dates_line(class, &view.dates[usize::from(!first)]) {
                        ui.add(egui::Label::new(RichText::new(line).weak().small()).truncate());
                    }
                    let side = Side { column, doc, pair, first, dismissed: &dismissed };
                    side_ui(ui, &side, view, layout, actions);
                }
            });
        });
    });
}

/// A file's times in one line ("modified … · created … · saved …"), or `None` when it
/// has none.
fn dates_line(class: &ClassTr, dates: &FileDates) -> Option<String> {
    let parts: Vec<String> = [
        (class.date_modified, &dates.modified),
        (class.date_created, &dates.created),
        (class.date_saved, &dates.saved),
    ]
    .into_iter()
    .filter_map(|(word, time)| time.as_ref().map(|t| format!("{word} {t}")))
    .collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// Which of two classmates' files was written first, with the hint's limits on hover.
fn came_first_ui(ui: &mut egui::Ui, class: &ClassTr, view: &PairView, names: [&str; 2]) {
    let Some(a_first) = a_came_first(&view.dates[0], &view.dates[1]) else {
        return;
    };
    let name = if a_first { names[0] } else { names[1] };
    ui.label(RichText::new(class.came_first.replace("{name}", name)).strong()).on_hover_text(class.tip_came_first);
}

fn header_ui(
    ui: &mut egui::Ui,
    tr: &Tr,
    pair: &Pair,
    total: usize,
    view: &PairView,
    mark: Option<Mark>,
    actions: &mut Vec<Action>,
) {
    ui.horizontal_wrapped(|ui| {
        if ui.button(tr.back).on_hover_text("Esc").clicked() {
            actions.push(Action::ClosePair);
        }
        ui.separator();
        ui.label(RichText::new(format!("{:.1} %", pair.score * 100.0)).strong().size(16.0)).on_hover_text(tr.tip_score);
        ui.label(tr.of_suspect);
        ui.label(RichText::new(format!("{:.1} %", pair.score_b * 100.0)).strong().size(16.0))
            .on_hover_text(tr.tip_score_b);
        ui.label(tr.of_reference);
        ui.separator();
        ui.label(format!("{}: {} · {}: {}", tr.col_passages, pair.passages.len(), tr.col_longest, pair.longest))
            .on_hover_text(tr.tip_longest);
        if pair.near_duplicate {
            ui.label(RichText::new(tr.near_duplicate).color(Color32::from_rgb(0xd0, 0x30, 0x30)));
        }
        ui.separator();
        if ui.button(tr.swap).on_hover_text(tr.tip_swap).clicked() {
            actions.push(Action::SwapSides);
        }
        let mut select_text = view.select_text;
        if ui.toggle_value(&mut select_text, tr.select_text).on_hover_text(tr.tip_select_text).changed() {
            actions.push(Action::SelectText(select_text));
        }
        ui.separator();
        find_ui(ui, tr.lang.class_tr(), view, actions);
    });
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(tr.review).strong());
        for (label, value) in [(tr.mark_confirmed, Mark::Confirmed), (tr.mark_dismissed, Mark::Dismissed)] {
            if ui.selectable_label(mark == Some(value), label).clicked() {
                let next = if mark == Some(value) { None } else { Some(value) };
                actions.push(Action::MarkPair(view.pair, next));
            }
        }
        let mut text = view.note.clone();
        let note = ui.add(egui::TextEdit::singleline(&mut text).hint_text(tr.note_hint).desired_width(260.0));
        let note = note.on_hover_text(tr.tip_note);
        if note.changed() {
            actions.push(Action::EditNote(text.clone()));
        }
        if note.lost_focus() || (note.changed() && ui.input(|i| i.key_pressed(egui::Key::Enter))) {
            actions.push(Action::SetNote(view.pair, text));
        }
        ui.separator();
        let n = total;
        let has = n > 0;
        if ui.add_enabled(has, egui::Button::new(tr.prev)).clicked() {
            actions.push(Action::StepPassage(-1));
        }
        if ui.add_enabled(has, egui::Button::new(tr.next)).clicked() {
            actions.push(Action::StepPassage(1));
        }
        let position = view.current.map_or("–".into(), |c| (c + 1).to_string());
        ui.label(RichText::new(format!("{} {position} / {n}", tr.passage_word)).strong());
        ui.label(RichText::new(tr.pair_keys).weak());
    });
}

/// The find field (Ctrl+F): typing searches both texts, Enter goes to the next match.
fn find_ui(ui: &mut egui::Ui, class: &ClassTr, view: &PairView, actions: &mut Vec<Action>) {
    let find = &view.find;
    let mut query = find.query.clone();
    let edit = egui::TextEdit::singleline(&mut query).hint_text(class.find).desired_width(140.0);
    let response = ui.add(edit).on_hover_text(class.tip_find);
    if find.focus {
        response.request_focus();
        actions.push(Action::FocusFind(false));
    }
    if response.changed() {
        actions.push(Action::Find(query));
    } else if response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
        let back = ui.input(|i| i.modifiers.shift);
        actions.push(Action::FindStep(if back { -1 } else { 1 }));
        // Enter leaves the field: it keeps the keyboard for the next Enter.
        response.request_focus();
    }
    if !find.query.is_empty() {
        let text = match find.at {
            Some(i) => {
                class.find_count.replace("{i}", &(i + 1).to_string()).replace("{n}", &find.hits.len().to_string())
            }
            None => class.no_match.to_owned(),
        };
        ui.label(RichText::new(text).weak());
    }
}

/// The passages of the pair, each with its kind, lengths and where it sits in the
/// suspect's text (`a_chars` long), and its review buttons.
fn passage_list_ui(
    ui: &mut egui::Ui,
    (tr, class, words): (&Tr, &ClassTr, &Words),
    pair: &Pair,
    a_chars: usize,
    view: &PairView,
    actions: &mut Vec<Action>,
) {
    ui.label(RichText::new(tr.passage_list).strong()).on_hover_text(tr.tip_passage_list);
    let row_height = 2.0 * ui.spacing().interact_size.y + ui.spacing().item_spacing.y * 2.0;
    egui::ScrollArea::vertical().id_salt("passage-list").auto_shrink(false).show_rows(
        ui,
        row_height,
        pair.passages.len(),
        |ui, rows| {
            for i in rows {
                let Some(p) = pair.passages.get(i) else {
                    continue;
                };
                let style = kind_style(p.kind, i);
                let mark = view.marks.get(i).copied().flatten();
                let selected = view.current == Some(i);
                ui.horizontal(|ui| {
                    let number = RichText::new(format!(" {} ", i + 1))
                        .background_color(rgb(style.background))
                        .color(rgb(style.text));
                    let at = if a_chars == 0 { 0.0 } else { f64::from(p.a_start) * 100.0 / a_chars as f64 };
                    let at = class.at_percent.replace("{p}", &format!("{at:.0}"));
                    let text =
                        format!("{} · {} / {} {} · {at}", words.passage_kind(p), p.a_len(), p.b_len(), tr.chars_word);
                    let row = ui.selectable_label(selected, number);
                    let label =
                        ui.add(egui::Button::selectable(selected, text).truncate()).on_hover_text(tr.tip_passage_row);
                    if row.clicked() || label.clicked() {
                        actions.push(Action::FocusPassage(i));
                    }
                });
                ui.horizontal(|ui| {
                    ui.add_space(18.0);
                    for (label, value, tip) in [
                        (class.confirm, Mark::Confirmed, class.tip_confirm),
                        (class.dismiss, Mark::Dismissed, class.tip_dismiss),
                        (class.dismiss_everywhere, Mark::DismissedEverywhere, class.tip_everywhere),
                    ] {
                        let on = mark == Some(value);
                        if ui.add(egui::Button::new(label).small().selected(on)).on_hover_text(tip).clicked() {
                            actions.push(Action::MarkPassage(view.pair, i, if on { None } else { Some(value) }));
                        }
                    }
                });
            }
        },
    );
}

/// What one side of the pair view shows.
struct Side<'a> {
    /// 0 = left.
    column: usize,
    doc: &'a DocumentEntry,
    pair: &'a Pair,
    /// The suspect (document A).
    first: bool,
    dismissed: &'a [bool],
}

/// The overview strip beside a text: where the passages sit in the whole text, the one in
/// focus outlined; a click focuses the nearest passage.
fn minimap_ui(ui: &mut egui::Ui, side: &Side, side_ranges: &[(u32, u32)], view: &PairView, actions: &mut Vec<Action>) {
    let Side { column, doc, pair, dismissed, .. } = *side;
    let chars = doc.chars.max(1) as f32;
    let height = ui.available_height();
    let (strip, strip_response) = ui.allocate_exact_size(egui::vec2(MINIMAP, height), Sense::click());
    strip_response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, format!("minimap {column}")));
    let painter = ui.painter_at(strip);
    painter.rect_filled(strip, 2.0, Color32::from_gray(225));
    for (i, &(start, end)) in side_ranges.iter().enumerate() {
        let kind = pair.passages.get(i).map(|p| p.kind).unwrap_or_default();
        let mut colour = rgb(kind_style(kind, i).background);
        if dismissed.get(i).copied().unwrap_or(false) {
            colour = Color32::from_gray(200);
        }
        let top = strip.top() + strip.height() * start as f32 / chars;
        let bottom = (strip.top() + strip.height() * end as f32 / chars).max(top + 2.0);
        let rect = egui::Rect::from_x_y_ranges(strip.x_range(), top..=bottom);
        painter.rect_filled(rect, 0.0, colour);
        if view.current == Some(i) {
            painter.rect_stroke(rect, 0.0, Stroke::new(1.5, Color32::BLACK), egui::StrokeKind::Inside);
        }
    }
    if strip_response.clicked()
        && let Some(pos) = strip_response.interact_pointer_pos()
    {
        let at = offset_at((pos.y - strip.top()) / strip.height(), chars);
        let nearest = side_ranges
            .iter()
            .enumerate()
            .min_by_key(|(_, (s, e))| if at < *s { s - at } else { at.saturating_sub(*e) })
            .map(|(i, _)| i);
        if let Some(i) = nearest {
            actions.push(Action::FocusPassage(i));
        }
    }
}

/// The matches of the find field in this side's text (`first`: the suspect's), outlined,
/// the one in focus filled and scrolled into view once.
fn find_marks(
    ui: &egui::Ui,
    galley: &Galley,
    origin: egui::Vec2,
    first: bool,
    view: &PairView,
    actions: &mut Vec<Action>,
) {
    let find = &view.find;
    let colour = Color32::from_rgb(0xff, 0x8c, 0x00);
    for (i, &(doc, start, end)) in find.hits.iter().enumerate() {
        if doc != first {
            continue;
        }
        let from = galley.pos_from_cursor(CCursor::new(start as usize)).translate(origin);
        let to = galley.pos_from_cursor(CCursor::new(end as usize)).translate(origin);
        // A match over a line break is outlined on its first line.
        let rect = if (to.top() - from.top()).abs() < 1.0 { from.union(to) } else { from };
        if find.at == Some(i) {
            ui.painter().rect_filled(rect, 2.0, colour.gamma_multiply(0.35));
            if find.pending_scroll {
                ui.scroll_to_rect(rect, Some(Align::Center));
                actions.push(Action::FindScrolled);
            }
        }
        ui.painter().rect_stroke(rect, 2.0, Stroke::new(1.5, colour), egui::StrokeKind::Outside);
    }
}

/// One side: the overview strip and the text, passages numbered; clicks become actions.
fn side_ui(ui: &mut egui::Ui, side: &Side, view: &PairView, layout: &mut PairLayout, actions: &mut Vec<Action>) {
    let Side { column, doc, pair, first, dismissed } = *side;
    let side_ranges = ranges(pair, first);
    let key = dismissed
        .iter()
        .enumerate()
        .fold(u64::from(first), |h, (i, &d)| h.wrapping_mul(31).wrapping_add(if d { i as u64 + 7 } else { 1 }));
    ui.horizontal_top(|ui| {
        minimap_ui(ui, side, &side_ranges, view, actions);
        egui::ScrollArea::vertical().id_salt(("pair-side", column)).auto_shrink(false).show(ui, |ui| {
            let width = (ui.available_width() - GUTTER).floor().max(50.0);
            let dark = ui.visuals().dark_mode;
            let stale = layout.sides[column]
                .as_ref()
                .is_none_or(|l| (l.width - width).abs() >= 1.0 || l.dark != dark || l.key != key);
            // Wrapped anew at another width (the lists folded or shown, the window resized):
            // the passage in focus moved, and is brought back into view.
            let rewrapped = layout.sides[column].as_ref().is_some_and(|l| (l.width - width).abs() >= 1.0);
            if stale {
                let job = layout_job(doc, pair, first, dismissed, width, ui.visuals().text_color());
                let galley = ui.fonts_mut(|f| f.layout_job(job));
                layout.sides[column] = Some(SideLayout { width, dark, key, galley });
                layout.count += 1;
            }
            let Some(laid_out) = layout.sides[column].as_ref() else {
                return;
            };
            let galley = laid_out.galley.clone();
            let top_left = ui.cursor().min;
            ui.horizontal_top(|ui| {
                ui.add_space(GUTTER);
                let response =
                    ui.add(egui::Label::new(galley.clone()).selectable(view.select_text).sense(Sense::click()));
                let origin = response.rect.min.to_vec2();
                let painter = ui.painter();
                // Numbers in the margin at each passage's first row; a bar for the one in focus.
                for (i, &(start, end)) in side_ranges.iter().enumerate() {
                    let row = galley.pos_from_cursor(CCursor::new(start as usize)).translate(origin);
                    painter.text(
                        egui::pos2(top_left.x + 2.0, row.top()),
                        egui::Align2::LEFT_TOP,
                        (i + 1).to_string(),
                        FontId::proportional(11.0),
                        ui.visuals().weak_text_color(),
                    );
                    if view.current == Some(i) {
                        let bottom =
                            galley.pos_from_cursor(CCursor::new(end.saturating_sub(1) as usize)).translate(origin);
                        let x = top_left.x + GUTTER - 4.0;
                        let kind = pair.passages.get(i).map(|p| p.kind).unwrap_or_default();
                        painter.line_segment(
                            [egui::pos2(x, row.top()), egui::pos2(x, bottom.bottom())],
                            Stroke::new(4.0, rgb(kind_style(kind, i).background).gamma_multiply(0.8)),
                        );
                    }
                }
                find_marks(ui, &galley, origin, first, view, actions);
                let rewrapped_focus = if rewrapped { view.current } else { None };
                if let Some(i) = view.pending_scroll[column].or(rewrapped_focus) {
                    if let Some(&(start, _)) = side_ranges.get(i) {
                        let target = galley.pos_from_cursor(CCursor::new(start as usize)).translate(origin);
                        ui.scroll_to_rect(target, Some(Align::Center));
                    }
                    if view.pending_scroll[column].is_some() {
                        actions.push(Action::ScrolledSide { side: column, passage: i });
                    }
                }
                if response.clicked()
                    && let Some(pos) = response.interact_pointer_pos()
                {
                    let at = saturating_u32(galley.cursor_from_pos(pos - response.rect.min).index.0);
                    if let Some(passage) = side_ranges.iter().position(|&(s, e)| s <= at && at < e) {
                        actions.push(Action::PassageClicked { side: column, passage });
                    }
                }
            });
        });
    });
}

/// The character at `share` (0 at the top of the strip, 1 at its bottom) of `chars`.
#[expect(clippy::cast_possible_truncation, reason = "a share of a text's length; `as` saturates")]
fn offset_at(share: f32, chars: f32) -> u32 {
    (share * chars) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FlagKind, LookAlikeScript, Passage};

    /// Document 0 against document 1, with `passages`, the longest `longest` characters.
    fn pair_of(passages: Vec<Passage>, longest: u32) -> Pair {
        Pair {
            a: 0,
            b: 1,
            score: 1.0,
            score_b: 1.0,
            simhash_distance: None,
            passages,
            longest,
            shared_sentences: 0,
            near_duplicate: false,
        }
    }

    #[test]
    fn flagged_spans_are_written_and_underlined_in_the_flag_colour() {
        let mut doc = DocumentEntry::unread(0, "s.txt".into(), "s.txt".into(), crate::model::Role::Suspect);
        doc.text = std::sync::Arc::from("Intro. The cоmmittee reviewed every submission.");
        let mut flag = Flag::new(FlagKind::LookAlikeLetters, Some(LookAlikeScript::Cyrillic));
        flag.add(12, 13, 1);
        doc.flags = vec![flag];
        let pair = pair_of(vec![Passage::copied((7, 47), (0, 40))], 40);
        let job = layout_job(&doc, &pair, true, &[false], 400.0, Color32::WHITE);
        let underlined: Vec<_> = job.sections.iter().filter(|s| s.format.underline.color == FLAG_COLOUR).collect();
        assert_eq!(underlined.len(), 1, "{:?}", job.sections);
        assert_eq!(underlined[0].format.color, FLAG_COLOUR);
        assert_eq!(&job.text[underlined[0].byte_range.start.0..underlined[0].byte_range.end.0], "о");
    }

    #[test]
    fn word_pairs_of_a_translated_passage_are_underlined_in_both_texts() {
        use crate::model::{Span, Translation};
        let mut a = DocumentEntry::unread(0, "a.txt".into(), "a.txt".into(), crate::model::Role::Suspect);
        a.text = std::sync::Arc::from("软件工程是一门学科。");
        let mut b = DocumentEntry::unread(1, "b.txt".into(), "b.txt".into(), crate::model::Role::Reference);
        b.text = std::sync::Arc::from("Software engineering is a discipline.");
        let mut passage = Passage::copied((0, 10), (0, 37));
        let word = Span { a_start: 0, a_end: 2, b_start: 0, b_end: 8 };
        passage.translated =
            Some(Box::new(Translation { from: "en".into(), units: 1, aligned: vec![], words: vec![word] }));
        let pair = pair_of(vec![passage], 10);
        for (doc, first, word) in [(&a, true, "软件"), (&b, false, "Software")] {
            let job = layout_job(doc, &pair, first, &[false], 400.0, Color32::WHITE);
            let lit: Vec<&str> = job
                .sections
                .iter()
                .filter(|s| s.format.underline.color == rgb(WORD_COLOUR))
                .map(|s| &job.text[s.byte_range.start.0..s.byte_range.end.0])
                .collect();
            assert_eq!(lit, [word], "{:?}", job.sections);
        }
    }
}

//! The pair view: both texts side by side, every shared passage lit in its own colour on
//! both sides, click a passage to bring its twin into view, next / previous passage.
//! Each side is laid out once into a cached galley (again only when its width or the theme
//! changes), so 100,000-character documents scroll smoothly.

use std::sync::Arc;

use egui::text::{CCursor, LayoutJob, LayoutSection, TextFormat, TextWrapping};
use egui::{Align, Color32, FontId, Galley, RichText, Sense, Stroke};

use super::app::Action;
use super::i18n::Tr;
use crate::report::palette::{passage_colour, runs};
use crate::{DocumentEntry, Pair, Report};

/// Font size of the texts.
const TEXT_SIZE: f32 = 15.0;
/// Room left of each text for the bar that marks the passage in focus.
const GUTTER: f32 = 10.0;

/// The open pair.
#[derive(Clone, Debug)]
pub struct PairView {
    /// Index into `Report::pairs`.
    pub pair: usize,
    /// The passage in focus.
    pub current: Option<usize>,
    /// Per side: a passage to scroll into view on the next frame.
    pub pending_scroll: [Option<usize>; 2],
    layout: [Option<SideLayout>; 2],
    /// How many times a side was laid out (once per side, again only on resize or theme).
    layouts: usize,
}

#[derive(Clone, Debug)]
struct SideLayout {
    width: f32,
    dark: bool,
    galley: Arc<Galley>,
}

impl PairView {
    /// Opens pair `pair` with its first passage in view.
    pub fn new(pair: usize, report: &Report) -> Self {
        let has = report.pairs.get(pair).is_some_and(|p| !p.passages.is_empty());
        let current = has.then_some(0);
        Self { pair, current, pending_scroll: [current, current], layout: [None, None], layouts: 0 }
    }

    /// Moves to the next (`+1`) or previous (`-1`) passage, wrapping around.
    pub fn step(&mut self, report: &Report, delta: isize) {
        let n = report.pairs.get(self.pair).map_or(0, |p| p.passages.len());
        if n == 0 {
            return;
        }
        let next = match self.current {
            None => 0,
            Some(c) => (c as isize + delta).rem_euclid(n as isize) as usize,
        };
        self.focus(next);
    }

    /// Puts passage `i` in focus and scrolls both sides to it.
    pub fn focus(&mut self, i: usize) {
        self.current = Some(i);
        self.pending_scroll = [Some(i), Some(i)];
    }

    /// True when both sides have been laid out.
    pub fn laid_out(&self) -> bool {
        self.layout.iter().all(Option::is_some)
    }

    /// How many times a side was laid out so far.
    pub fn layouts(&self) -> usize {
        self.layouts
    }
}

/// Passage ranges of one side (0 = suspect, 1 = reference).
fn ranges(pair: &Pair, side: usize) -> Vec<(u32, u32)> {
    pair.passages.iter().map(|p| if side == 0 { (p.a_start, p.a_end) } else { (p.b_start, p.b_end) }).collect()
}

fn layout_job(doc: &DocumentEntry, ranges: &[(u32, u32)], width: f32, text_color: Color32) -> LayoutJob {
    let text: &str = &doc.text;
    let mut starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    starts.push(text.len());
    let chars = (starts.len() - 1) as u32;
    let font_id = FontId::proportional(TEXT_SIZE);
    let sections = runs(chars, ranges)
        .into_iter()
        .map(|run| {
            let format = match run.passage {
                None => TextFormat::simple(font_id.clone(), text_color),
                Some(i) => {
                    let [r, g, b] = passage_colour(i);
                    TextFormat {
                        background: Color32::from_rgb(r, g, b),
                        ..TextFormat::simple(font_id.clone(), Color32::BLACK)
                    }
                }
            };
            LayoutSection {
                leading_space: 0.0,
                byte_range: egui::text::ByteIndex(starts[run.start as usize])
                    ..egui::text::ByteIndex(starts[run.end as usize]),
                format,
            }
        })
        .collect();
    LayoutJob {
        text: text.to_owned(),
        sections,
        wrap: TextWrapping::wrap_at_width(width),
        break_on_newline: true,
        ..Default::default()
    }
}

/// Draws the pair view.
pub fn pair_view_ui(ui: &mut egui::Ui, tr: &Tr, report: &Report, view: &mut PairView, actions: &mut Vec<Action>) {
    let Some(pair) = report.pairs.get(view.pair) else {
        actions.push(Action::ClosePair);
        return;
    };
    let (Some(a), Some(b)) = (report.documents.get(pair.a), report.documents.get(pair.b)) else {
        actions.push(Action::ClosePair);
        return;
    };
    header_ui(ui, tr, pair, view, actions);
    ui.separator();
    let mut clicked: Option<(usize, usize)> = None;
    ui.columns(2, |columns| {
        for (side, (ui, doc)) in columns.iter_mut().zip([a, b]).enumerate() {
            let title = if side == 0 { tr.col_suspect } else { tr.col_reference };
            ui.label(RichText::new(format!("{title}: {}", doc.path)).strong())
                .on_hover_text(doc.source.display().to_string());
            if let Some(i) = side_ui(ui, side, doc, pair, view) {
                clicked = Some((side, i));
            }
        }
    });
    if let Some((side, i)) = clicked {
        view.current = Some(i);
        // Bring the twin into view on the other side.
        view.pending_scroll[1 - side] = Some(i);
    }
}

fn header_ui(ui: &mut egui::Ui, tr: &Tr, pair: &Pair, view: &PairView, actions: &mut Vec<Action>) {
    ui.horizontal_wrapped(|ui| {
        if ui.button(tr.back).clicked() {
            actions.push(Action::ClosePair);
        }
        ui.separator();
        ui.label(RichText::new(format!("{:.1} %", pair.score * 100.0)).strong().size(16.0));
        ui.label(tr.of_suspect);
        ui.label(RichText::new(format!("{:.1} %", pair.score_b * 100.0)).strong().size(16.0));
        ui.label(tr.of_reference);
        ui.separator();
        ui.label(format!(
            "SimHash {} · {}: {} · {}: {} · {}: {}",
            pair.simhash_distance.map_or("–".into(), |d| d.to_string()),
            tr.col_passages,
            pair.passages.len(),
            tr.col_longest,
            pair.longest,
            tr.shared_sentences,
            pair.shared_sentences
        ));
        if pair.near_duplicate {
            ui.label(RichText::new(tr.near_duplicate).color(Color32::from_rgb(0xd0, 0x30, 0x30)));
        }
    });
    ui.horizontal_wrapped(|ui| {
        let n = pair.passages.len();
        let has = n > 0;
        if ui.add_enabled(has, egui::Button::new(tr.prev)).clicked() {
            actions.push(Action::StepPassage(-1));
        }
        if ui.add_enabled(has, egui::Button::new(tr.next)).clicked() {
            actions.push(Action::StepPassage(1));
        }
        let position = view.current.map_or("–".into(), |c| (c + 1).to_string());
        ui.label(RichText::new(format!("{} {position} / {n}", tr.passage_word)).strong());
        if let Some(p) = view.current.and_then(|c| pair.passages.get(c)) {
            ui.label(format!("({} · {})", p.a_len(), p.b_len()));
        }
        ui.label(RichText::new(tr.pair_keys).weak());
    });
}

/// One side; returns the passage clicked, if any.
fn side_ui(ui: &mut egui::Ui, side: usize, doc: &DocumentEntry, pair: &Pair, view: &mut PairView) -> Option<usize> {
    let side_ranges = ranges(pair, side);
    let mut clicked = None;
    egui::ScrollArea::vertical().id_salt(("pair-side", side)).auto_shrink(false).show(ui, |ui| {
        let width = (ui.available_width() - GUTTER).floor().max(50.0);
        let dark = ui.visuals().dark_mode;
        let stale = view.layout[side].as_ref().is_none_or(|l| (l.width - width).abs() >= 1.0 || l.dark != dark);
        if stale {
            let job = layout_job(doc, &side_ranges, width, ui.visuals().text_color());
            let galley = ui.fonts_mut(|f| f.layout_job(job));
            view.layout[side] = Some(SideLayout { width, dark, galley });
        }
        let Some(layout) = view.layout[side].as_ref() else {
            return;
        };
        let galley = layout.galley.clone();
        let (outer, response) = ui.allocate_exact_size(galley.size() + egui::vec2(GUTTER, 0.0), Sense::click());
        let rect = outer.with_min_x(outer.min.x + GUTTER);
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Document, true, doc.path.clone()));
        let origin = rect.min.to_vec2();
        // The passage in focus gets a bar in the margin, from its first to its last row.
        if let Some(&(start, end)) = view.current.and_then(|c| side_ranges.get(c)) {
            let top = galley.pos_from_cursor(CCursor::new(start as usize)).translate(origin);
            let bottom = galley.pos_from_cursor(CCursor::new(end.saturating_sub(1) as usize)).translate(origin);
            let x = outer.left() + GUTTER / 2.0 - 1.0;
            let [r, g, b] = passage_colour(view.current.unwrap_or(0));
            ui.painter().line_segment(
                [egui::pos2(x, top.top()), egui::pos2(x, bottom.bottom())],
                Stroke::new(4.0, Color32::from_rgb(r, g, b)),
            );
        }
        ui.painter().galley(rect.min, galley.clone(), ui.visuals().text_color());
        if let Some(i) = view.pending_scroll[side].take()
            && let Some(&(start, _)) = side_ranges.get(i)
        {
            let target = galley.pos_from_cursor(CCursor::new(start as usize)).translate(origin);
            ui.scroll_to_rect(target, Some(Align::Center));
        }
        if response.clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            let at = galley.cursor_from_pos(pos - rect.min).index.0 as u32;
            clicked = side_ranges.iter().position(|&(s, e)| s <= at && at < e);
        }
    });
    clicked
}

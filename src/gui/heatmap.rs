//! All-against-all and classmates views: the heat map of the documents (all of them, or a
//! class's students without its sources; cell = share of the row's document found in the
//! column's), labelled, with a legend and in clustered order (strong pairs and near
//! duplicates next to each other); and the near-duplicate groups, each with its pairs and
//! their percentages, each pair opening on a click.

use egui::{Color32, FontId, RichText, Sense, Vec2};

use super::action::Action;
use super::state::{ResultsTab, State};
use crate::model::Role;
use crate::{Mode, Report};

/// More documents than this are not drawn as a matrix (the table still has every pair).
pub const MAX_MATRIX_DOCUMENTS: usize = 600;
/// Room for the row labels left of the matrix.
const LABELS: f32 = 170.0;

/// Colour of a score: light yellow (a little shared) through orange to red (all shared).
#[expect(clippy::cast_possible_truncation, reason = "screen coordinates and colour levels from floats; `as` saturates")]
fn heat(score: f64) -> Color32 {
    let t = score.clamp(0.0, 1.0) as f32;
    let lerp = |a: u8, b: u8, u: f32| (f32::from(a) + (f32::from(b) - f32::from(a)) * u) as u8;
    if t < 0.5 {
        let u = t * 2.0;
        Color32::from_rgb(255, lerp(236, 160, u), lerp(150, 40, u))
    } else {
        let u = (t - 0.5) * 2.0;
        Color32::from_rgb(lerp(255, 200, u), lerp(160, 20, u), lerp(40, 20, u))
    }
}

/// Whether a mode's results have a heat map: all against all, and a class (its students).
pub fn has_heatmap(mode: Mode) -> bool {
    matches!(mode, Mode::AllVsAll | Mode::Classmates)
}

/// Whether document `d` is a row of the matrix: every document all against all, only the
/// students (not the sources or the template) in a class.
fn in_matrix(report: &Report, d: usize) -> bool {
    report.mode != Mode::Classmates || report.documents.get(d).is_some_and(|doc| doc.role == Role::Suspect)
}

/// The matrix's documents in clustered order: starting from the strongest pair, each next
/// document is the unplaced one most similar to the last placed; documents without pairs
/// come last.
pub fn cluster_order(report: &Report) -> Vec<usize> {
    let n = report.documents.len();
    let mut strength = vec![Vec::<(usize, f64)>::new(); n];
    for p in &report.pairs {
        let s = p.score.max(p.score_b) + if p.near_duplicate { 1.0 } else { 0.0 };
        if p.a < n && p.b < n && in_matrix(report, p.a) && in_matrix(report, p.b) {
            strength[p.a].push((p.b, s));
            strength[p.b].push((p.a, s));
        }
    }
    for list in &mut strength {
        list.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
    }
    let best = |d: usize| strength[d].first().map_or(0.0, |x| x.1);
    let mut starts: Vec<usize> = (0..n).filter(|&d| in_matrix(report, d)).collect();
    starts.sort_by(|&x, &y| best(y).total_cmp(&best(x)).then(x.cmp(&y)));
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for start in starts {
        if placed[start] {
            continue;
        }
        let mut at = start;
        loop {
            placed[at] = true;
            order.push(at);
            match strength[at].iter().find(|(d, _)| !placed[*d]) {
                Some(&(next, _)) => at = next,
                None => break,
            }
        }
    }
    order
}

/// Draws the matrix with its labels and legend; clicking a cell opens the pair.
pub fn heatmap_ui(ui: &mut egui::Ui, state: &State, report: &Report, actions: &mut Vec<Action>) {
    let tr = state.persisted.lang.tr();
    let order = cluster_order(report);
    let n = order.len();
    ui.label(RichText::new(tr.heatmap_hint).weak());
    ui.horizontal(|ui| {
        ui.label(tr.heat_legend);
        for step in 0..=10 {
            let t = f64::from(step) / 10.0;
            let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 12.0), Sense::hover());
            ui.painter().rect_filled(rect, 0.0, heat(t));
        }
        ui.label("0 % → 100 %");
    });
    if n == 0 {
        return;
    }
    if n > MAX_MATRIX_DOCUMENTS {
        too_large_ui(ui, state, n, actions);
        return;
    }
    // A document's place in the matrix; None for a class's sources.
    let mut position = vec![None; report.documents.len()];
    for (i, &d) in order.iter().enumerate() {
        position[d] = Some(i);
    }
    // cells: (row position, column position, score of row in column, pair index)
    let mut cells: Vec<(usize, usize, f64, usize)> = Vec::with_capacity(report.pairs.len() * 2);
    for (i, p) in report.pairs.iter().enumerate() {
        if let (Some(&Some(a)), Some(&Some(b))) = (position.get(p.a), position.get(p.b)) {
            cells.push((a, b, p.score, i));
            cells.push((b, a, p.score_b, i));
        }
    }
    egui::ScrollArea::both().auto_shrink(false).show(ui, |ui| {
        let fit = (ui.available_width() - LABELS).min(ui.available_height() - 20.0) - 8.0;
        // Up to 150 documents the cells stay big enough for labels (the area scrolls).
        let smallest = if n <= 150 { 10.0 } else { 3.0 };
        let cell = (fit / n as f32).clamp(smallest, 28.0);
        let size = Vec2::new(LABELS + cell * n as f32, 18.0 + cell * n as f32);
        let (outer, response) = ui.allocate_exact_size(size, Sense::click());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, tr.tab_heatmap));
        let rect = egui::Rect::from_min_size(outer.min + Vec2::new(LABELS, 18.0), Vec2::splat(cell * n as f32));
        let painter = ui.painter_at(outer);
        let text_colour = ui.visuals().text_color();
        let font = FontId::proportional((cell - 2.0).clamp(8.0, 13.0));
        if cell >= 9.0 {
            for (i, &d) in order.iter().enumerate() {
                let y = rect.top() + (i as f32 + 0.5) * cell;
                let name: String = state.name(d).chars().rev().take(24).collect::<Vec<_>>().into_iter().rev().collect();
                painter.text(
                    egui::pos2(rect.left() - 4.0, y),
                    egui::Align2::RIGHT_CENTER,
                    format!("{name} {}", i + 1),
                    font.clone(),
                    text_colour,
                );
                painter.text(
                    egui::pos2(rect.left() + (i as f32 + 0.5) * cell, rect.top() - 2.0),
                    egui::Align2::CENTER_BOTTOM,
                    (i + 1).to_string(),
                    font.clone(),
                    text_colour,
                );
            }
        }
        painter.rect_filled(rect, 0.0, Color32::from_gray(245));
        for d in 0..n {
            let min = rect.min + Vec2::splat(d as f32 * cell);
            painter.rect_filled(egui::Rect::from_min_size(min, Vec2::splat(cell)), 0.0, Color32::from_gray(180));
        }
        for &(row, col, score, _) in &cells {
            let min = rect.min + Vec2::new(col as f32 * cell, row as f32 * cell);
            painter.rect_filled(egui::Rect::from_min_size(min, Vec2::splat(cell)), 0.0, heat(score));
        }
        let Some(pos) = response.hover_pos() else {
            return;
        };
        if !rect.contains(pos) {
            return;
        }
        let (col, row) = (cell_at(pos.x - rect.min.x, cell), cell_at(pos.y - rect.min.y, cell));
        let name = |p: usize| order.get(p).map_or("?", |&d| state.name(d));
        let hit = cells.iter().find(|c| c.0 == row && c.1 == col);
        let text = match hit {
            Some(&(_, _, score, _)) => format!("{}\n⇐ {}\n{:.1} %", name(row), name(col), score * 100.0),
            None => format!("{}\n{}", name(row), name(col)),
        };
        response.clone().on_hover_text_at_pointer(text);
        if response.clicked()
            && let Some(&(_, _, _, pair)) = hit
        {
            actions.push(Action::OpenPair(pair));
        }
    });
}

/// Says in words why a matrix of `n` documents is not drawn, and offers the clusters
/// (the near-duplicate groups) and the pairs table instead.
fn too_large_ui(ui: &mut egui::Ui, state: &State, n: usize, actions: &mut Vec<Action>) {
    let words = state.persisted.lang.class_tr();
    let text =
        words.heatmap_too_large.replace("{n}", &n.to_string()).replace("{max}", &MAX_MATRIX_DOCUMENTS.to_string());
    ui.add_space(8.0);
    ui.label(text);
    ui.horizontal(|ui| {
        if ui.button(words.show_groups).clicked() {
            actions.push(Action::SetTab(ResultsTab::Groups));
        }
        if ui.button(words.show_pairs).clicked() {
            actions.push(Action::SetTab(ResultsTab::Pairs));
        }
    });
}

/// The near-duplicate groups, largest first, each with the pairs inside it.
pub fn groups_ui(ui: &mut egui::Ui, state: &State, report: &Report, actions: &mut Vec<Action>) {
    let tr = state.persisted.lang.tr();
    if report.groups.is_empty() {
        ui.label(RichText::new(tr.no_groups).italics());
        return;
    }
    egui::ScrollArea::vertical().auto_shrink(false).show(ui, |ui| {
        for (i, group) in report.groups.iter().enumerate() {
            let inside: Vec<(usize, &crate::Pair)> =
                report.pairs.iter().enumerate().filter(|(_, p)| group.contains(&p.a) && group.contains(&p.b)).collect();
            let top = inside.iter().map(|(_, p)| p.score.max(p.score_b)).fold(0.0, f64::max);
            egui::CollapsingHeader::new(format!(
                "{} {} · {} {} · {:.1} %",
                tr.group_word,
                i + 1,
                group.len(),
                tr.files_word,
                top * 100.0
            ))
            .id_salt(("group", i))
            .default_open(i < 20)
            .show(ui, |ui| {
                for (index, p) in inside {
                    let text = format!(
                        "{} ⇄ {}  {:.1} % / {:.1} %",
                        state.name(p.a),
                        state.name(p.b),
                        p.score * 100.0,
                        p.score_b * 100.0
                    );
                    if ui.link(text).on_hover_text(tr.open_hint).clicked() {
                        actions.push(Action::OpenPair(index));
                    }
                }
            });
        }
    });
}

/// The cell `offset` points at, cells `cell` wide (the offset is inside the map).
#[expect(clippy::cast_possible_truncation, reason = "a screen offset over a cell's width; `as` saturates")]
fn cell_at(offset: f32, cell: f32) -> usize {
    (offset / cell) as usize
}

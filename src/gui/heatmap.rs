//! All-against-all views: the heat-map matrix of the documents (cell = share of the row's
//! document found in the column's) and the list of near-duplicate groups.

use egui::{Color32, RichText, Sense, Vec2};

use super::app::Action;
use super::i18n::Tr;
use crate::Report;

/// More documents than this are not drawn as a matrix (the table still has every pair).
pub const MAX_MATRIX_DOCUMENTS: usize = 600;

/// Colour of a score: light yellow (a little shared) through orange to red (all shared).
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

/// Draws the matrix; clicking a cell opens the pair.
pub fn heatmap_ui(ui: &mut egui::Ui, tr: &Tr, report: &Report, actions: &mut Vec<Action>) {
    let n = report.documents.len();
    ui.label(RichText::new(tr.heatmap_hint).weak());
    if n == 0 {
        return;
    }
    if n > MAX_MATRIX_DOCUMENTS {
        ui.label(format!("{n} > {MAX_MATRIX_DOCUMENTS}: {}", tr.tab_pairs));
        return;
    }
    // cells[(row, col)] = (score of row in col, pair index)
    let mut cells: Vec<(usize, usize, f64, usize)> = Vec::with_capacity(report.pairs.len() * 2);
    for (i, p) in report.pairs.iter().enumerate() {
        cells.push((p.a, p.b, p.score, i));
        cells.push((p.b, p.a, p.score_b, i));
    }
    egui::ScrollArea::both().auto_shrink(false).show(ui, |ui| {
        let fit = ui.available_width().min(ui.available_height()) - 8.0;
        let cell = (fit / n as f32).clamp(3.0, 28.0);
        let size = Vec2::splat(cell * n as f32);
        let (rect, response) = ui.allocate_exact_size(size, Sense::click());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, tr.tab_heatmap));
        let painter = ui.painter_at(rect);
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
        let col = ((pos.x - rect.min.x) / cell) as usize;
        let row = ((pos.y - rect.min.y) / cell) as usize;
        let name = |id: usize| report.documents.get(id).map_or("?", |d| d.path.as_str());
        let hit = cells.iter().find(|c| c.0 == row && c.1 == col);
        let text = match hit {
            Some(&(_, _, score, _)) => {
                format!("{}\n⇐ {}\n{:.1} %", name(row), name(col), score * 100.0)
            }
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

/// The near-duplicate groups, largest first.
pub fn groups_ui(ui: &mut egui::Ui, tr: &Tr, report: &Report) {
    if report.groups.is_empty() {
        ui.label(RichText::new(tr.no_groups).italics());
        return;
    }
    egui::ScrollArea::vertical().auto_shrink(false).show(ui, |ui| {
        for (i, group) in report.groups.iter().enumerate() {
            egui::CollapsingHeader::new(format!("{} · {} {}", i + 1, group.len(), tr.files_word))
                .id_salt(("group", i))
                .default_open(i < 20)
                .show(ui, |ui| {
                    for &id in group {
                        if let Some(d) = report.documents.get(id) {
                            ui.label(&d.path);
                        }
                    }
                });
        }
    });
}

//! The filter bar over the current results: name, minimum passage length, minimum share,
//! quoted / common text, review mark, flagged documents only, excluded sources. Every change applies at once to
//! the finished results (no new check): the app recomputes the view.

use std::sync::Arc;

use egui::RichText;

use super::action::Action;
use super::state::{MarkFilter, State};
use crate::Report;
use crate::report::marks::Mark;

/// Draws the filter bar; pushes the edited filters as actions (the view is recomputed).
pub fn filter_bar_ui(ui: &mut egui::Ui, state: &State, report: &Arc<Report>, actions: &mut Vec<Action>) {
    let tr = state.persisted.lang.tr();
    let mut filter = state.filter.clone();
    let mut name = state.table.name_filter.clone();
    let mut mark_filter = state.table.mark_filter;
    let mut changed = false;
    ui.horizontal_wrapped(|ui| {
        if ui.add(egui::TextEdit::singleline(&mut name).hint_text(tr.filter).desired_width(160.0)).changed() {
            actions.push(Action::SetNameFilter(name));
        }
        let label = ui.label(tr.min_passage).on_hover_text(tr.tip_min_passage);
        changed |= ui
            .add(egui::DragValue::new(&mut filter.min_chars).range(0..=10_000).speed(1.0))
            .labelled_by(label.id)
            .on_hover_text(tr.tip_min_passage)
            .changed();
        let label = ui.label(tr.min_score).on_hover_text(tr.tip_min_score);
        let mut percent = filter.min_share * 100.0;
        if ui
            .add(egui::DragValue::new(&mut percent).range(0.0..=100.0).speed(0.5).suffix(" %"))
            .labelled_by(label.id)
            .on_hover_text(tr.tip_min_score)
            .changed()
        {
            filter.min_share = percent / 100.0;
            changed = true;
        }
        changed |= ui.checkbox(&mut filter.hide_quoted, tr.hide_quoted).on_hover_text(tr.tip_hide_kind).changed();
        changed |= ui.checkbox(&mut filter.hide_common, tr.hide_common).on_hover_text(tr.tip_hide_kind).changed();
        let current = match mark_filter {
            MarkFilter::All => tr.filter_all,
            MarkFilter::Unmarked => tr.filter_unmarked,
            MarkFilter::Only(Mark::Confirmed) => tr.mark_confirmed,
            MarkFilter::Only(_) => tr.mark_dismissed,
        };
        egui::ComboBox::from_id_salt("mark-filter")
            .selected_text(format!("{}: {current}", tr.mark_filter))
            .show_ui(ui, |ui| {
                let m = &mut mark_filter;
                ui.selectable_value(m, MarkFilter::All, tr.filter_all);
                ui.selectable_value(m, MarkFilter::Unmarked, tr.filter_unmarked);
                ui.selectable_value(m, MarkFilter::Only(Mark::Confirmed), tr.mark_confirmed);
                ui.selectable_value(m, MarkFilter::Only(Mark::Dismissed), tr.mark_dismissed);
            })
            .response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::ComboBox, true, tr.mark_filter));
        if mark_filter != state.table.mark_filter {
            actions.push(Action::SetMarkFilter(mark_filter));
        }
        let review = state.persisted.lang.review_tr();
        let mut flagged_only = state.table.flagged_only;
        let flagged = egui::RichText::new(review.flagged_only).color(super::flag_badge::FLAG_COLOUR);
        if ui.checkbox(&mut flagged_only, flagged).on_hover_text(review.tip_flagged_only).changed() {
            actions.push(Action::SetFlaggedOnly(flagged_only));
        }
        for id in state.filter.excluded.iter().copied() {
            let name = state.name(id).to_owned();
            if ui.small_button(format!("× {name} ({})", tr.excluded_word)).on_hover_text(tr.tip_exclude).clicked() {
                filter.excluded.remove(&id);
                changed = true;
            }
        }
        let default = crate::report::view::ViewFilter::default();
        if ui.add_enabled(state.filter != default, egui::Button::new(tr.reset_filters)).clicked() {
            filter = default;
            changed = true;
        }
        ui.label(RichText::new(state.persisted.lang.class_tr().pairs(report.pairs.len())).weak());
    });
    if changed {
        actions.push(Action::SetFilter(filter));
    }
}

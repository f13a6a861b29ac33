//! The sidebar: the three input lists (Reference, Suspects, Template), each with add files /
//! add folder / remove / clear and a count, the Archive group, then what the suspects are
//! compared with (classmates and references, references, the archive, or all against
//! all) and the settings.

use egui::{RichText, Stroke};

use super::action::Action;
use super::archive_panel::archive_ui;
use super::settings_ui::settings_ui;
use super::state::{CheckSource, ListKind, State};
use crate::Mode;

/// Draws the sidebar; returns where each list was drawn (to route files dropped on it).
pub fn sidebar_ui(ui: &mut egui::Ui, state: &State, actions: &mut Vec<Action>) -> [Option<egui::Rect>; 3] {
    let tr = state.persisted.lang.tr();
    let dragging_files = ui.ctx().input(|i| !i.raw.hovered_files.is_empty());
    let pointer = ui.ctx().input(|i| i.pointer.latest_pos());
    let mut rects = [None; 3];
    egui::ScrollArea::vertical().auto_shrink(false).show(ui, |ui| {
        for kind in ListKind::ALL {
            if kind == ListKind::Reference && state.persisted.mode == Mode::AllVsAll {
                // All against all: the reference list is optional, shown under the suspects.
                continue;
            }
            rects[kind.index()] = Some(list_ui(ui, state, kind, dragging_files, pointer, actions));
            ui.add_space(6.0);
            if kind == ListKind::Reference {
                // The archive is the other source the suspects are checked against.
                archive_ui(ui, state, actions);
                ui.add_space(6.0);
            }
        }
        if state.persisted.mode == Mode::AllVsAll {
            let reference = ListKind::Reference;
            rects[reference.index()] = Some(list_ui(ui, state, reference, dragging_files, pointer, actions));
            ui.add_space(6.0);
            archive_ui(ui, state, actions);
            ui.add_space(6.0);
        }
        ui.separator();
        source_ui(ui, state, actions);
        ui.separator();
        settings_ui(ui, tr, &state.persisted.settings, actions);
    });
    rects
}

/// One input list; returns where it was drawn.
fn list_ui(
    ui: &mut egui::Ui,
    state: &State,
    kind: ListKind,
    dragging_files: bool,
    pointer: Option<egui::Pos2>,
    actions: &mut Vec<Action>,
) -> egui::Rect {
    let tr = state.persisted.lang.tr();
    let title = match kind {
        ListKind::Reference => tr.reference,
        ListKind::Suspect => tr.suspects,
        ListKind::Template => tr.template,
    };
    let index = kind.index();
    let hovered = dragging_files && pointer.is_some_and(|p| state.list_rects[index].is_some_and(|r| r.contains(p)));
    let stroke = if hovered {
        Stroke::new(2.0, ui.visuals().selection.stroke.color)
    } else {
        ui.visuals().widgets.noninteractive.bg_stroke
    };
    // Against the archive, the reference and template lists wait unused.
    let unused = kind != ListKind::Suspect && state.source() == CheckSource::Archive;
    let response = egui::Frame::group(ui.style()).stroke(stroke).show(ui, |ui| {
        ui.set_width(ui.available_width());
        if unused {
            ui.disable();
        }
        let count = state.inputs.lists[index].len();
        ui.horizontal(|ui| {
            ui.label(RichText::new(title).strong().size(15.0));
            if count > 0 {
                // Files, as the check will read them, not the folders given.
                ui.label(RichText::new(state.list_summary(kind)).weak());
            }
        });
        if unused {
            ui.label(RichText::new(state.persisted.lang.archive_tr().list_unused).italics());
        }
        let row_height = ui.spacing().interact_size.y;
        ui.push_id(("list", index), |ui| {
            egui::ScrollArea::vertical()
                .max_height(if kind == ListKind::Template { 60.0 } else { 120.0 })
                .auto_shrink([false, true])
                .show_rows(ui, row_height, count.max(1), |ui, rows| {
                    if count == 0 {
                        ui.label(RichText::new(tr.drop_here).weak().italics());
                        return;
                    }
                    // Only the visible rows are drawn: thousands of files stay cheap.
                    for i in rows {
                        let Some(path) = state.inputs.lists[index].get(i) else {
                            continue;
                        };
                        let name = path
                            .file_name()
                            .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
                        let name = if path.is_dir() { format!("{name}/") } else { name };
                        let selected = state.inputs.selected[index] == Some(i);
                        if ui.selectable_label(selected, name).on_hover_text(path.display().to_string()).clicked() {
                            actions.push(Action::SelectInput(kind, if selected { None } else { Some(i) }));
                        }
                    }
                });
        });
        ui.horizontal_wrapped(|ui| {
            if ui.small_button(tr.add_files).clicked() {
                actions.push(Action::AddFiles(kind));
            }
            if ui.small_button(tr.add_folder).clicked() {
                actions.push(Action::AddFolder(kind));
            }
            let selected = state.inputs.selected[index];
            if ui.add_enabled(selected.is_some(), egui::Button::new(tr.remove).small()).clicked()
                && let Some(i) = selected
            {
                actions.push(Action::Remove(kind, i));
            }
            if ui.add_enabled(count > 0, egui::Button::new(tr.clear).small()).clicked() {
                actions.push(Action::Clear(kind));
            }
        });
    });
    response.response.rect
}

/// What the suspects are compared with: references, the archive (once one is chosen), or
/// all against all.
fn source_ui(ui: &mut egui::Ui, state: &State, actions: &mut Vec<Action>) {
    let tr = state.persisted.lang.tr();
    let words = state.persisted.lang.archive_tr();
    let current = state.source();
    ui.label(RichText::new(tr.mode).strong()).on_hover_text(tr.tip_mode);
    let class = state.persisted.lang.class_tr();
    if ui
        .radio(current == CheckSource::Classmates, class.mode_classmates)
        .on_hover_text(class.tip_mode_classmates)
        .clicked()
    {
        actions.push(Action::SetSource(CheckSource::Classmates));
    }
    if ui.radio(current == CheckSource::References, tr.mode_refs).clicked() {
        actions.push(Action::SetSource(CheckSource::References));
    }
    let has_archive = state.persisted.archive.is_some();
    let archive = ui
        .add_enabled(has_archive, egui::RadioButton::new(current == CheckSource::Archive, words.source_archive))
        .on_hover_text(words.tip_source_archive)
        .on_disabled_hover_text(words.tip_source_needs_archive);
    if archive.clicked() {
        actions.push(Action::SetSource(CheckSource::Archive));
    }
    if ui.radio(current == CheckSource::AllVsAll, tr.mode_all).clicked() {
        actions.push(Action::SetSource(CheckSource::AllVsAll));
    }
}

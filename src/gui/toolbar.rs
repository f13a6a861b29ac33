//! The toolbar: Check (or Cancel and the progress of the running check), the export menu
//! in its three scopes, and the window's language. Drawing only: every change is an action.

use egui::RichText;

use super::action::Action;
use super::export::ExportKind;
use super::i18n::{Lang, Tr};
use super::state::{CheckSource, RunState, State};
use crate::Stage;
use crate::report::html::Scope;

/// Draws the toolbar.
pub fn toolbar_ui(ui: &mut egui::Ui, state: &State, actions: &mut Vec<Action>) {
    let tr = state.persisted.lang.tr();
    ui.horizontal(|ui| {
        let class = state.persisted.lang.class_tr();
        let fold = if state.lists_shown() { class.hide_sidebar } else { class.show_sidebar };
        if ui.button(fold).on_hover_text(class.tip_sidebar).clicked() {
            actions.push(Action::ToggleSidebar);
        }
        ui.heading(RichText::new("Twinspot").strong());
        ui.separator();
        let blocked = state.cannot_check();
        if state.is_running() {
            if ui.button(RichText::new(tr.cancel).size(15.0)).on_hover_text("Esc").clicked() {
                actions.push(Action::Cancel);
            }
            progress_ui(ui, state);
        } else {
            // Against the archive, the button says so: the source in use is never a guess.
            let label = match state.source() {
                CheckSource::Archive => state.persisted.lang.archive_tr().check_against,
                _ => tr.check,
            };
            let check = ui
                .add_enabled(blocked.is_none(), egui::Button::new(RichText::new(label).size(15.0)))
                .on_hover_text("Ctrl+Enter");
            if let Some(why) = blocked {
                check.clone().on_disabled_hover_text(why);
            }
            if check.clicked() {
                actions.push(Action::Check);
            }
        }
        if let Some(name) = &state.check_name {
            ui.separator();
            ui.label(RichText::new(name).strong());
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let shown = state.persisted.lang;
            if ui.button("?").on_hover_text(format!("{} (F1)", class.shortcuts)).clicked() {
                actions.push(Action::ToggleShortcuts);
            }
            ui.menu_button(super::about::menu_label(shown), |ui| super::about::contents(ui, shown));
            ui.menu_button(class.check_menu, |ui| {
                if ui.button(class.save_check).on_hover_text("Ctrl+S").clicked() {
                    actions.push(Action::SaveCheck);
                }
                if ui.button(class.open_check).on_hover_text("Ctrl+O").clicked() {
                    actions.push(Action::OpenCheck);
                }
            })
            .response
            .on_hover_text(class.tip_check_menu);
            let mut lang = state.persisted.lang;
            egui::ComboBox::from_id_salt("language")
                .selected_text(lang.name())
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut lang, Lang::En, Lang::En.name());
                    ui.selectable_value(&mut lang, Lang::Zh, Lang::Zh.name());
                })
                .response
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::ComboBox, true, tr.language));
            if lang != state.persisted.lang {
                actions.push(Action::SetLang(lang));
            }
            let has_report = state.report.is_some();
            let pair_scope = state.export_pair();
            let suspect_scope = state.export_suspect();
            // One export at a time: the running one says so in the status line.
            ui.add_enabled_ui(has_report && state.exporting.is_none(), |ui| {
                ui.menu_button(tr.export, |ui| {
                    if ui.button(tr.export_html).on_hover_text(tr.tip_export_run).clicked() {
                        actions.push(Action::Export(ExportKind::Html, Scope::Run));
                    }
                    let doc = suspect_scope.map(|d| state.name(d).to_owned()).unwrap_or_default();
                    if ui
                        .add_enabled(
                            suspect_scope.is_some(),
                            egui::Button::new(format!("{} {doc}", tr.export_html_doc)),
                        )
                        .on_hover_text(tr.tip_export_doc)
                        .clicked()
                        && let Some(d) = suspect_scope
                    {
                        actions.push(Action::Export(ExportKind::Html, Scope::Suspect(d)));
                    }
                    if ui
                        .add_enabled(pair_scope.is_some(), egui::Button::new(tr.export_html_pair))
                        .on_hover_text(tr.tip_export_pair)
                        .clicked()
                        && let Some(p) = pair_scope
                    {
                        actions.push(Action::Export(ExportKind::Html, Scope::Pair(p)));
                    }
                    let mut appendix = state.persisted.print_appendix;
                    if ui.checkbox(&mut appendix, tr.print_appendix).on_hover_text(tr.tip_print_appendix).changed() {
                        actions.push(Action::SetPrintAppendix(appendix));
                    }
                    ui.separator();
                    for (label, kind) in [(tr.export_json, ExportKind::Json), (tr.export_csv, ExportKind::Csv)] {
                        if ui.button(label).clicked() {
                            actions.push(Action::Export(kind, Scope::Run));
                        }
                    }
                });
            });
        });
    });
}

fn stage_name(tr: &Tr, stage: Stage) -> &'static str {
    match stage {
        Stage::Reading => tr.reading,
        Stage::Indexing => tr.indexing,
        Stage::Matching => tr.matching,
        Stage::Done => tr.done,
    }
}

/// The running check's progress: stage, files, time left and time spent.
pub fn progress_ui(ui: &mut egui::Ui, state: &State) {
    let tr = state.persisted.lang.tr();
    let RunState::Running { started, documents, progress, stage_started, .. } = &state.run else {
        return;
    };
    let (fraction, text) = match (progress, documents) {
        (Some(p), _) => {
            // Reading counts two steps per file (read, fingerprint): show files, once each.
            let (done, total) = match (p.stage, documents) {
                (Stage::Reading, Some(n)) if p.total == 2 * n => (p.done / 2, *n),
                _ => (p.done, p.total),
            };
            let fraction = if p.total > 0 { p.done as f32 / p.total as f32 } else { 0.0 };
            let mut text = format!("{}: {done} / {total}", stage_name(tr, p.stage));
            let spent = stage_started.elapsed().as_secs_f64();
            if fraction > 0.02 && fraction < 1.0 && spent > 1.0 {
                let left = spent * f64::from(1.0 - fraction) / f64::from(fraction);
                text.push_str(&format!(" · {} {:.0} s", tr.time_left, left));
            }
            (fraction, text)
        }
        (None, Some(n)) => (0.0, format!("{}: 0 / {n}", tr.reading)),
        (None, None) => (0.0, tr.starting.to_owned()),
    };
    let text = format!("{text} · {:.0} s", started.elapsed().as_secs_f64());
    // Not animated: an animated bar asks for a frame every frame, and a run needs one only
    // when progress arrives or the clock ticks.
    ui.add(egui::ProgressBar::new(fraction).desired_width(420.0).text(text));
}

//! The status line: the problems and notes toggle with their counts, an error with the
//! review marks, the export running (with its Cancel), and how the last check, export or
//! save ended.

use egui::RichText;

use super::action::Action;
use super::archive_panel::ERROR_COLOUR;
use super::state::{State, Status};

/// Draws the status line.
pub fn status_ui(ui: &mut egui::Ui, state: &State, actions: &mut Vec<Action>) {
    let tr = state.persisted.lang.tr();
    ui.horizontal(|ui| {
        let problems = state.problem_count();
        let notes = state.note_count();
        let label = format!("{} ({problems}) · {} ({notes})", tr.problems, tr.notes);
        let mut show = state.show_problems;
        if ui.toggle_value(&mut show, label).on_hover_text(tr.tip_problems).changed() {
            actions.push(Action::ShowProblems(show));
        }
        if let Some(e) = &state.marks_error {
            ui.separator();
            ui.label(RichText::new(e).color(egui::Color32::from_rgb(0xd0, 0x40, 0x40)));
        }
        ui.separator();
        if exporting_ui(ui, state, actions) {
            return;
        }
        let text = match &state.status {
            None => String::new(),
            Some(Status::Finished { documents, pairs, unreadable, elapsed }) => format!(
                "{} · {} · {unreadable} {} · {:.1} s",
                state.persisted.lang.class_tr().files(*documents),
                state.persisted.lang.class_tr().pairs(*pairs),
                tr.unreadable,
                elapsed.as_secs_f64()
            ),
            Some(Status::Cancelled) => tr.cancelled.to_owned(),
            Some(Status::ExportCancelled) => state.persisted.lang.review_tr().cancelled.to_owned(),
            Some(Status::Saved(path)) => format!("{} {}", tr.saved, path.display()),
            Some(Status::SaveFailed(e)) => format!("{}: {e}", tr.save_failed),
            Some(Status::CheckFailed(e)) => {
                let words = state.persisted.lang.archive_tr();
                ui.label(RichText::new(format!("{}: {e}", words.check_failed)).color(ERROR_COLOUR));
                String::new()
            }
        };
        ui.label(text);
    });
}

/// The export running, if any: what it does, for how long, and its Cancel. True when one
/// runs.
fn exporting_ui(ui: &mut egui::Ui, state: &State, actions: &mut Vec<Action>) -> bool {
    let Some(exporting) = &state.exporting else {
        return false;
    };
    let words = state.persisted.lang.review_tr();
    ui.spinner();
    let pdf = super::export::is_pdf(&exporting.path);
    ui.label(words.exporting(pdf, exporting.started.elapsed().as_secs())).on_hover_text(exporting.path.display().to_string());
    if exporting.finishing {
        ui.label(RichText::new(words.finishing).weak());
    } else if ui.button(words.cancel).on_hover_text(words.tip_cancel).clicked() {
        actions.push(Action::CancelExport);
    }
    true
}

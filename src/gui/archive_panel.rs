//! The sidebar's Archive group: open or create an archive, or open a shared one (the form
//! of a PostgreSQL server), its sizes, add files and folders (progress, cancel), close it;
//! whether the check uses it, and where the review marks go. Drawing only: every change
//! is an [`Action`].

use egui::{RichText, Stroke};

use super::action::Action;
use super::archive_jobs::same_shape;
use super::state::{ArchiveTask, CheckSource, ResultsTab, State};
use crate::archive::is_server_url;

/// The colour of an error line.
pub const ERROR_COLOUR: egui::Color32 = egui::Color32::from_rgb(0xd0, 0x40, 0x40);

/// Draws the Archive group.
pub fn archive_ui(ui: &mut egui::Ui, state: &State, actions: &mut Vec<Action>) {
    let tr = state.persisted.lang.tr();
    let words = state.persisted.lang.archive_tr();
    let in_use = state.source() == CheckSource::Archive;
    let stroke = if in_use {
        Stroke::new(2.0, ui.visuals().selection.stroke.color)
    } else {
        ui.visuals().widgets.noninteractive.bg_stroke
    };
    egui::Frame::group(ui.style()).stroke(stroke).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.horizontal(|ui| {
            ui.label(RichText::new(words.title).strong().size(15.0)).on_hover_text(words.tip_title);
            if let Some(dir) = &state.persisted.archive {
                let name = if is_shared(state) {
                    shared_name(&dir.to_string_lossy(), state.persisted.archive_schema.as_deref())
                } else {
                    dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned())
                };
                ui.label(RichText::new(name).monospace()).on_hover_text(dir.display().to_string());
            }
        });
        let checking = state.is_running();
        let busy = state.archive.is_busy();
        let shared = is_shared(state);
        // The buttons come first, so an add's progress and its summary never move them.
        ui.horizontal_wrapped(|ui| {
            let can_open = !checking && !busy;
            let open = ui.add_enabled(can_open, egui::Button::new(words.open).small()).on_hover_text(words.tip_open);
            if checking {
                open.clone().on_disabled_hover_text(words.wait_for_check);
            }
            if open.clicked() {
                actions.push(Action::OpenArchive);
            }
            let shared_words = state.persisted.lang.shared_tr();
            let open_shared = egui::Button::new(shared_words.open_shared).small();
            if ui.add_enabled(can_open, open_shared).on_hover_text(shared_words.tip_open_shared).clicked() {
                actions.push(Action::OpenSharedForm);
            }
            if state.persisted.archive.is_none() {
                return;
            }
            let can_add = state.archive.info.is_some() && !checking && !busy;
            for (label, action) in
                [(tr.add_files, Action::AddFilesToArchive), (tr.add_folder, Action::AddFolderToArchive)]
            {
                let button = ui.add_enabled(can_add, egui::Button::new(label).small()).on_hover_text(words.tip_add);
                if checking {
                    button.clone().on_disabled_hover_text(words.wait_for_check);
                }
                if button.clicked() {
                    actions.push(action);
                }
            }
            if ui
                .add_enabled(!checking, egui::Button::new(words.close).small())
                .on_hover_text(words.tip_close)
                .clicked()
            {
                actions.push(Action::CloseArchive);
            }
        });
        if state.persisted.archive.is_none() {
            ui.label(RichText::new(words.none).weak().italics());
        } else {
            status_lines(ui, state, in_use, actions);
        }
        if let ArchiveTask::Adding { started, progress, cancelling, .. } = &state.archive.task {
            let (fraction, count) = match progress {
                Some(p) if p.total > 0 => (p.done as f32 / p.total as f32, format!(" {} / {}", p.done, p.total)),
                _ => (0.0, String::new()),
            };
            let text = if *cancelling {
                words.stopping.to_owned()
            } else {
                format!("{}:{count} · {:.0} s", words.adding, started.elapsed().as_secs_f64())
            };
            ui.horizontal(|ui| {
                if !*cancelling && ui.small_button(tr.cancel).on_hover_text(words.tip_cancel_add).clicked() {
                    actions.push(Action::CancelArchiveAdd);
                }
                // Not animated: frames come with progress and the clock's tick, not every frame.
                ui.add(egui::ProgressBar::new(fraction).text(text));
            });
        }
        if let ArchiveTask::Opening { .. } = state.archive.task {
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(if shared { state.persisted.lang.shared_tr().connecting } else { words.opening })
                        .weak(),
                );
                let tip = state.persisted.lang.shared_tr().tip_cancel_open;
                if ui.small_button(tr.cancel).on_hover_text(tip).clicked() {
                    actions.push(Action::CancelArchiveOpen);
                }
            });
        }
        if let Some(error) = &state.archive.error {
            ui.label(RichText::new(error).color(ERROR_COLOUR));
        }
    });
}

/// Whether the chosen archive is a shared one (on a PostgreSQL server).
fn is_shared(state: &State) -> bool {
    state.persisted.archive.as_deref().is_some_and(|name| is_server_url(&name.to_string_lossy()))
}

/// A shared archive's short name: server and database, then the schema
/// (`db.example/news · twinspot`), without the scheme, the user or the options.
fn shared_name(url: &str, schema: Option<&str>) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.split_once('?').map_or(rest, |(before, _)| before);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
    format!("{rest} · {}", schema.unwrap_or("twinspot"))
}

/// The form of "Open shared archive…", while it is open: a window of its own over the
/// main one. Edits are pushed as the whole form.
pub fn shared_form_ui(ctx: &egui::Context, state: &State, actions: &mut Vec<Action>) {
    let Some(form) = &state.archive.shared_form else {
        return;
    };
    let words = state.persisted.lang.shared_tr();
    let mut edited = form.clone();
    egui::Window::new(words.form_title).collapsible(false).resizable(false).show(ctx, |ui| {
        egui::Grid::new("shared-archive-form").num_columns(2).spacing([8.0, 6.0]).show(ui, |ui| {
            let fields: [(&str, &mut String, f32, bool); 4] = [
                (words.url, &mut edited.url, 320.0, false),
                (words.schema, &mut edited.schema, 160.0, false),
                (words.user, &mut edited.user, 160.0, false),
                (words.password, &mut edited.password, 160.0, true),
            ];
            for (name, value, width, secret) in fields {
                let tip = match (secret, name == words.url) {
                    (true, _) => Some(words.tip_password),
                    (false, true) => Some(words.tip_url),
                    _ => None,
                };
                let label = ui.label(name);
                let edit = ui
                    .add(egui::TextEdit::singleline(value).password(secret).desired_width(width))
                    .labelled_by(label.id);
                if let Some(tip) = tip {
                    label.on_hover_text(tip);
                    edit.on_hover_text(tip);
                }
                ui.end_row();
            }
        });
        ui.horizontal(|ui| {
            if ui.button(words.connect).clicked() {
                actions.push(Action::ConnectShared);
            }
            if ui.button(words.cancel).clicked() {
                actions.push(Action::CloseSharedForm);
            }
        });
    });
    if edited != *form {
        // Pushed first: a click on Connect in the same frame connects what was typed.
        actions.insert(0, Action::EditSharedForm(edited));
    }
}

/// The open archive's sizes, the last add, whether the check uses it, and the notes that
/// follow from that (other fingerprint settings, where the marks are kept).
fn status_lines(ui: &mut egui::Ui, state: &State, in_use: bool, actions: &mut Vec<Action>) {
    let words = state.persisted.lang.archive_tr();
    let Some(info) = &state.archive.info else {
        return;
    };
    let s = &info.stats;
    ui.label(format!(
        "{} {} · {} {} · {} {}",
        grouped(s.documents),
        words.documents,
        grouped(s.chars),
        words.characters,
        human_bytes(s.bytes),
        words.on_disk
    ))
    .on_hover_text(words.tip_stats);
    if let Some(outcome) = &state.archive.last_add {
        let sum = &outcome.summary;
        let mut line = format!(
            "{} {} · {} {} · {} {} · {} {}",
            sum.added,
            words.added,
            sum.replaced,
            words.replaced,
            sum.unchanged,
            words.unchanged,
            sum.failed.len(),
            words.failed
        );
        if outcome.skipped > 0 {
            line.push_str(&format!(" · {} {}", outcome.skipped, words.skipped));
        }
        if outcome.cancelled {
            line.push_str(&format!(" ({})", words.stopped));
        }
        let failures: Vec<String> = sum.failed.iter().map(|(path, error)| format!("{path}: {error}")).collect();
        let label = ui.label(RichText::new(line).weak());
        if !failures.is_empty() {
            label.on_hover_text(failures.join("\n"));
        }
    }
    if in_use {
        ui.label(RichText::new(words.in_use).strong());
        if is_shared(state) {
            ui.label(RichText::new(state.persisted.lang.shared_tr().marks_home).weak());
        } else {
            ui.label(RichText::new(words.marks_here).weak()).on_hover_text(words.tip_marks_here);
        }
    } else {
        ui.label(RichText::new(words.not_in_use).weak());
    }
    if !same_shape(&info.made_with, &state.persisted.settings) {
        ui.label(RichText::new(words.made_with(info.made_with.k, info.made_with.w)).weak().italics());
    }
    own_groups_ui(ui, state, info, actions);
}

/// The archive's own near-duplicate groups, folded: each group's files, its
/// representative first. Once a check's results are shown, a file's name is a link that
/// shows the pairs it is in.
fn own_groups_ui(
    ui: &mut egui::Ui,
    state: &State,
    info: &super::archive_jobs::ArchiveInfo,
    actions: &mut Vec<Action>,
) {
    let class = state.persisted.lang.class_tr();
    let title = format!("{} ({})", class.archive_groups, info.groups.len());
    egui::CollapsingHeader::new(title).id_salt("archive-groups").show(ui, |ui| {
        ui.label(RichText::new(class.tip_archive_groups).weak());
        if info.groups.is_empty() {
            ui.label(RichText::new(class.no_archive_groups).italics());
        }
        egui::ScrollArea::vertical().id_salt("archive-groups-list").max_height(200.0).show(ui, |ui| {
            for (i, group) in info.groups.iter().enumerate() {
                let tr = state.persisted.lang.tr();
                ui.label(
                    RichText::new(format!("{} {} · {} {}", tr.group_word, i + 1, group.len(), tr.files_word)).strong(),
                );
                for path in group {
                    let name = std::path::Path::new(path)
                        .file_name()
                        .map_or_else(|| path.clone(), |n| n.to_string_lossy().into_owned());
                    member_ui(ui, state, &name, path, actions);
                }
            }
        });
    });
}

/// One file of an archive group: a link to its pairs in the results shown, else its name.
fn member_ui(ui: &mut egui::Ui, state: &State, name: &str, path: &str, actions: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        ui.add_space(8.0);
        if state.report.is_none() {
            ui.label(name).on_hover_text(path);
            return;
        }
        let tip = format!("{path}\n{}", state.persisted.lang.class_tr().tip_archive_member);
        if ui.link(name).on_hover_text(tip).clicked() {
            actions.push(Action::SetNameFilter(name.to_owned()));
            actions.push(Action::SetTab(ResultsTab::Pairs));
        }
    });
}

/// A byte count for people: "512 B", "3.4 KB", "12.0 MB", "1.5 GB".
fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// A count with thousands separated by thin commas: 1234567 → "1,234,567".
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_counts_read_well() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(3 * 1024 + 400), "3.4 KB");
        assert_eq!(human_bytes(12 * 1024 * 1024), "12.0 MB");
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(1234), "1,234");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(
            shared_name("postgresql://editor@db.example:6543/news?sslmode=require", None),
            "db.example:6543/news · twinspot"
        );
        assert_eq!(shared_name("postgres://h/d", Some("sports")), "h/d · sports");
    }
}

//! The settings section: a preset (strict / balanced / lenient) in plain words, and the
//! numbers behind an "Advanced" fold: k, w (with the guarantee t = w + k − 1), minimum
//! passage length, the normalization switches, the near-duplicate thresholds, whether
//! quoted text counts, whether translated passages are looked for, and the stop passages.
//! Every setting has a tooltip in the window's language.

use egui::RichText;

use super::action::Action;
use super::i18n::Tr;
use crate::Settings;

/// A named set of matching settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    Strict,
    Balanced,
    Lenient,
}

impl Preset {
    pub const ALL: [Preset; 3] = [Preset::Strict, Preset::Balanced, Preset::Lenient];

    /// `settings` with this preset's matching numbers (other settings kept).
    pub fn apply(self, settings: &Settings) -> Settings {
        let d = Settings::default();
        let (k, w, min_chars) = match self {
            Preset::Strict => (d.k + 1, d.w, d.min_chars * 2),
            Preset::Balanced => (d.k, d.w, d.min_chars),
            Preset::Lenient => (d.k.saturating_sub(1).max(1), d.w.saturating_sub(1).max(1), d.min_chars * 5 / 8),
        };
        Settings { k, w, min_chars, ..settings.clone() }
    }

    /// The preset these settings match, if any.
    pub fn of(settings: &Settings) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.apply(settings) == *settings)
    }
}

/// Draws the settings section; an edit is pushed as [`Action::SetSettings`].
pub fn settings_ui(ui: &mut egui::Ui, tr: &Tr, settings: &Settings, actions: &mut Vec<Action>) {
    let mut edited = settings.clone();
    edit_ui(ui, tr, &mut edited);
    if edited != *settings {
        actions.push(Action::SetSettings(edited));
    }
}

/// The widgets of the section, over a copy of the settings.
fn edit_ui(ui: &mut egui::Ui, tr: &Tr, settings: &mut Settings) {
    ui.label(RichText::new(tr.settings).strong());
    let current = Preset::of(settings);
    ui.horizontal_wrapped(|ui| {
        ui.label(tr.preset);
        for (preset, name, tip) in [
            (Preset::Strict, tr.preset_strict, tr.tip_strict),
            (Preset::Balanced, tr.preset_balanced, tr.tip_balanced),
            (Preset::Lenient, tr.preset_lenient, tr.tip_lenient),
        ] {
            if ui.selectable_label(current == Some(preset), name).on_hover_text(tip).clicked() {
                *settings = preset.apply(settings);
            }
        }
        if current.is_none() {
            ui.label(RichText::new(tr.preset_custom).weak());
        }
    });
    egui::CollapsingHeader::new(tr.advanced).id_salt("settings").show(ui, |ui| {
        egui::Grid::new("settings-grid").num_columns(2).spacing([8.0, 6.0]).show(ui, |ui| {
            number(ui, tr.k, tr.tip_k, &mut settings.k, 1..=64);
            number(ui, tr.w, tr.tip_w, &mut settings.w, 1..=256);
            ui.label("t = w + k - 1");
            ui.label(RichText::new(format!("{}", settings.guarantee_t())).strong())
                .on_hover_text("Every shared run of at least t tokens is found; nothing shorter than k is reported.");
            ui.end_row();
            number(ui, tr.min_chars, tr.tip_min_chars, &mut settings.min_chars, 0..=100_000);
            number(ui, tr.simhash_threshold, tr.tip_simhash, &mut settings.simhash_threshold, 0..=32);
            let label = ui.label(tr.coverage).on_hover_text(tr.tip_coverage);
            let mut percent = settings.near_duplicate_coverage * 100.0;
            if ui
                .add(egui::DragValue::new(&mut percent).range(0.0..=100.0).speed(0.5))
                .labelled_by(label.id)
                .on_hover_text(tr.tip_coverage)
                .changed()
            {
                settings.near_duplicate_coverage = percent / 100.0;
            }
            ui.end_row();
        });
        let n = &mut settings.normalize;
        ui.checkbox(&mut n.nfkc, tr.nfkc).on_hover_text(tr.tip_nfkc);
        ui.checkbox(&mut n.case_fold, tr.case_fold).on_hover_text(tr.tip_case);
        ui.checkbox(&mut n.traditional_to_simplified, tr.t2s).on_hover_text(tr.tip_t2s);
        ui.checkbox(&mut n.drop_punctuation, tr.drop_punct).on_hover_text(tr.tip_punct);
        checking_ui(ui, tr, settings);
        if ui.button(tr.defaults).clicked() {
            let ingest = settings.ingest.clone();
            *settings = Settings { ingest, ..Settings::default() };
        }
    });
}

/// What a check counts and looks for: quoted text in the scores or not, translated
/// passages, and the stop passages (text never counted, one a line; passages dismissed
/// everywhere join them at each check).
fn checking_ui(ui: &mut egui::Ui, tr: &Tr, settings: &mut Settings) {
    let words = tr.lang.class_tr();
    ui.checkbox(&mut settings.count_quoted, words.count_quoted).on_hover_text(words.tip_count_quoted);
    ui.checkbox(&mut settings.meaning, words.meaning).on_hover_text(words.tip_meaning);
    let n = settings.stop_passages.iter().filter(|p| !p.trim().is_empty()).count();
    egui::CollapsingHeader::new(format!("{} ({n})", words.stop_passages)).id_salt("stop-passages").show(ui, |ui| {
        ui.label(RichText::new(words.tip_stop_passages).weak());
        let mut text = settings.stop_passages.join("\n");
        let edit = egui::TextEdit::multiline(&mut text)
            .hint_text(words.stop_passages)
            .desired_rows(4)
            .desired_width(f32::INFINITY);
        if ui.add(edit).on_hover_text(words.tip_stop_passages).changed() {
            // Split on every line break, so a line being typed keeps its place.
            settings.stop_passages = text.split('\n').map(str::to_owned).collect();
        }
    });
}

fn number<T: egui::emath::Numeric>(
    ui: &mut egui::Ui,
    label: &str,
    tip: &str,
    value: &mut T,
    range: std::ops::RangeInclusive<T>,
) {
    let label = ui.label(label).on_hover_text(tip);
    ui.add(egui::DragValue::new(value).range(range).speed(0.2)).labelled_by(label.id).on_hover_text(tip);
    ui.end_row();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_is_the_default_and_presets_differ() {
        assert_eq!(Preset::of(&Settings::default()), Some(Preset::Balanced));
        let strict = Preset::Strict.apply(&Settings::default());
        assert!(strict.min_chars > Settings::default().min_chars);
        assert_eq!(Preset::of(&strict), Some(Preset::Strict));
        assert_eq!(Preset::of(&Preset::Lenient.apply(&strict)), Some(Preset::Lenient));
    }
}

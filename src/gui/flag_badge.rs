//! The badge of a document that tries to hide a copy: an orange "! 4 signs of hiding",
//! each finding said in full when the pointer rests on it.

use egui::{Color32, RichText};

use super::i18n::Lang;
use crate::model::Flag;

/// The badge's colour (the reports' flag box is of the same orange).
pub const FLAG_COLOUR: Color32 = Color32::from_rgb(0xcc, 0x66, 0x00);

/// Draws the badge of `flags` (nothing when there are none).
pub fn badge(ui: &mut egui::Ui, lang: Lang, flags: &[Flag]) {
    if flags.is_empty() {
        return;
    }
    let words = lang.review_tr();
    let said: Vec<String> = flags.iter().map(|f| lang.flag(f)).collect();
    ui.label(RichText::new(words.badge(flags.len())).color(FLAG_COLOUR).strong())
        .on_hover_text(format!("{}\n{}", words.tip_badge, said.join("\n")));
}

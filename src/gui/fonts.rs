//! The CJK font that ships with the program (Noto Sans CJK SC, subset, SIL OFL 1.1 —
//! `assets/OFL.txt`), installed at start-up after egui's own fonts so Chinese renders
//! even on a machine without any CJK font.

use std::sync::Arc;

use egui::{FontData, FontDefinitions, FontFamily};

/// Noto Sans CJK SC cut down to GB2312 + Big5 level 1 + Latin + CJK punctuation.
pub use crate::report::pdf::CJK_FONT;

const CJK_NAME: &str = "noto-sans-cjk-sc-subset";

/// Egui's default fonts with the CJK font as fallback of every family.
pub fn definitions() -> FontDefinitions {
    let mut fonts = FontDefinitions::default();
    fonts.font_data.insert(CJK_NAME.to_owned(), Arc::new(FontData::from_static(CJK_FONT)));
    for family in [FontFamily::Proportional, FontFamily::Monospace] {
        fonts.families.entry(family).or_default().push(CJK_NAME.to_owned());
    }
    fonts
}

/// Installs [`definitions`] in `ctx`.
pub fn install(ctx: &egui::Context) {
    ctx.set_fonts(definitions());
}

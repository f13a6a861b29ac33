//! What the window says about itself: the About menu (name, version, licences) and the
//! identity the desktop knows it by (application id, window icon), shared with the
//! desktop entry and AppStream metainfo in assets/linux/.

use super::i18n::Lang;

/// The application id: the desktop entry's and metainfo's file name, the Wayland app id
/// and the X11 window class, so the desktop matches the window with its launcher.
pub const APP_ID: &str = "io.github.twinspot.Twinspot";

/// The name settings were kept under before the application id existed: eframe would
/// otherwise keep them under the id, and a user would lose what the window remembered.
pub const STORAGE_NAME: &str = "Twinspot";

/// The version shown in the About menu, in `twinspot --version` and in every report.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

static ICON_PNG: &[u8] = include_bytes!("../../assets/icons/twinspot-256.png");

/// The window icon (256 pixels). `None`, said on standard error, if the PNG cannot be
/// read — the window then opens with the desktop's default icon.
pub fn window_icon() -> Option<egui::IconData> {
    eframe::icon_data::from_png_bytes(ICON_PNG)
        .map_err(|e| eprintln!("twinspot: the window icon could not be read: {e}"))
        .ok()
}

/// The label of the About menu.
pub fn menu_label(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "About",
        Lang::Zh => "关于",
    }
}

/// The About menu's contents.
pub fn contents(ui: &mut egui::Ui, lang: Lang) {
    let (tagline, licence, font) = match lang {
        Lang::En => (
            "Finds the passages documents share. Offline: no document leaves this machine.",
            "Licence: MIT or Apache-2.0",
            "Chinese font: Noto Sans CJK SC (SIL Open Font License 1.1)",
        ),
        Lang::Zh => (
            "找出文档之间相同的段落。离线运行：文档不会离开本机。",
            "许可证：MIT 或 Apache-2.0",
            "中文字体：Noto Sans CJK SC（SIL 开放字体许可证 1.1）",
        ),
    };
    ui.set_min_width(320.0);
    ui.heading(format!("Twinspot {VERSION}"));
    ui.label(tagline);
    ui.separator();
    ui.label(licence);
    ui.label(font);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_icon_is_the_256_pixel_png() {
        let icon = window_icon().expect("the icon decodes");
        assert_eq!((icon.width, icon.height), (256, 256));
    }
}

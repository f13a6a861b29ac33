//! The desktop window (egui/eframe), built on the engine. Only compiled with the `gui`
//! feature; the engine never depends on it. The app type lives here, in the library, so
//! tests can build and drive it; `run` only sets the options and starts eframe.

pub mod about;
pub mod action;
pub mod app;
pub mod archive_jobs;
pub mod archive_panel;
pub mod dialogs;
pub mod errors_panel;
pub mod export;
pub mod export_job;
pub mod flag_badge;
pub mod fonts;
pub mod heatmap;
pub mod i18n;
pub mod i18n_class;
pub mod i18n_review;
pub mod i18n_shared;
pub mod overview;
pub mod pair_view;
pub mod results_table;
pub mod review;
pub mod session;
pub mod settings_ui;
pub mod sidebar;
pub mod state;
pub mod status_bar;
pub mod toolbar;
pub mod worker;

use std::path::PathBuf;

use crate::ingest::Isolation;

pub use action::Action;
pub use app::TwinspotApp;
pub use fonts::install as install_fonts;

/// Opens the window, with `files` as the first suspects; documents are read in helper
/// processes started as `isolation` says (or in this process with `None`).
pub fn run(files: Vec<PathBuf>, isolation: Option<Isolation>) -> eframe::Result<()> {
    let mut viewport = egui::ViewportBuilder::default()
        .with_title("Twinspot")
        .with_app_id(about::APP_ID)
        .with_inner_size([1280.0, 800.0])
        .with_min_inner_size([800.0, 560.0])
        .with_drag_and_drop(true);
    if let Some(icon) = about::window_icon() {
        viewport = viewport.with_icon(icon);
    }
    let options = eframe::NativeOptions {
        viewport,
        persistence_path: eframe::storage_dir(about::STORAGE_NAME).map(|d| d.join("app.ron")),
        ..Default::default()
    };
    eframe::run_native(
        "Twinspot",
        options,
        Box::new(|cc| Ok(Box::new(TwinspotApp::new(cc, files).with_isolation(isolation)))),
    )
}

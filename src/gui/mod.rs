//! The desktop window (egui/eframe), built on the engine. Only compiled with the `gui`
//! feature; the engine never depends on it.

/// Opens the window, with `files` as the first suspects.
pub fn run(files: Vec<std::path::PathBuf>) -> eframe::Result<()> {
    let _ = files;
    Ok(())
}

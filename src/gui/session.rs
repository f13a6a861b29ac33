//! A check that outlives the window: the last session (its lists, and whether it had
//! results, to check again on restart) and named checks a teacher saves and opens
//! ("Class 3B, essay 2"): the lists, the mode and the settings, as a small JSON file.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::{Mode, Settings};

/// The extension of a saved check.
pub const CHECK_EXTENSION: &str = "twinspot-check";

/// What the last session left open, kept with the window's settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LastSession {
    /// The Reference, Suspects and Template lists.
    pub lists: [Vec<PathBuf>; 3],
    /// The session showed results: they are made again on restart (the review marks,
    /// kept by the files' contents, come back with them).
    pub had_results: bool,
    /// The named check the session was working on, if any.
    pub check_name: Option<String>,
}

/// A named check, as saved to its file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedCheck {
    pub name: String,
    pub lists: [Vec<PathBuf>; 3],
    pub mode: Mode,
    pub settings: Settings,
    /// The archive the suspects were checked against, if any.
    #[serde(default)]
    pub archive: Option<PathBuf>,
}

/// Why a saved check could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CheckFileError {
    #[error("cannot write the check {path}: {source}")]
    Write { path: String, source: std::io::Error },
    #[error("cannot read the check {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("{path} is not a saved Twinspot check: {source}")]
    Format { path: String, source: serde_json::Error },
}

/// The name of a check saved at `path`: its file name without the extension.
pub fn name_of(path: &Path) -> String {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = name.strip_suffix(&format!(".{CHECK_EXTENSION}")).map(str::to_owned);
    stem.unwrap_or(name)
}

/// The file name a save dialog offers for a check named `name`: never a hidden file
/// (".twinspot-check") when the check has no name yet, nor one that starts with a dot.
pub fn suggested_file_name(name: Option<&str>) -> String {
    let name = name.map(|n| n.trim().trim_start_matches('.')).filter(|n| !n.is_empty()).unwrap_or("check");
    format!("{name}.{CHECK_EXTENSION}")
}

/// Writes `check` to `path` (the extension added when missing); returns the path written.
pub fn save(check: &SavedCheck, path: &Path) -> Result<PathBuf, CheckFileError> {
    let path = if path.extension().is_some_and(|e| e == CHECK_EXTENSION) {
        path.to_path_buf()
    } else {
        let mut name = path.as_os_str().to_owned();
        name.push(format!(".{CHECK_EXTENSION}"));
        PathBuf::from(name)
    };
    let text = serde_json::to_string_pretty(check)
        .map_err(|e| CheckFileError::Format { path: path.display().to_string(), source: e })?;
    std::fs::write(&path, text).map_err(|e| CheckFileError::Write { path: path.display().to_string(), source: e })?;
    Ok(path)
}

/// Reads the check saved at `path`.
pub fn load(path: &Path) -> Result<SavedCheck, CheckFileError> {
    let shown = || path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| CheckFileError::Read { path: shown(), source: e })?;
    serde_json::from_str(&text).map_err(|e| CheckFileError::Format { path: shown(), source: e })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_check_reads_back_as_it_was_written() {
        let dir = tempfile::tempdir().unwrap();
        let check = SavedCheck {
            name: "Class 3B, essay 2".into(),
            lists: [vec![PathBuf::from("sources")], vec![PathBuf::from("class")], vec![]],
            mode: Mode::Classmates,
            settings: Settings { min_chars: 80, ..Settings::default() },
            archive: None,
        };
        let written = save(&check, &dir.path().join("Class 3B, essay 2")).unwrap();
        assert_eq!(name_of(&written), "Class 3B, essay 2");
        assert_eq!(load(&written).unwrap(), check);
        std::fs::write(dir.path().join("bad.twinspot-check"), "{").unwrap();
        assert_eq!(suggested_file_name(None), "check.twinspot-check");
        assert_eq!(suggested_file_name(Some("")), "check.twinspot-check");
        assert_eq!(suggested_file_name(Some(".x")), "x.twinspot-check");
        assert_eq!(suggested_file_name(Some("Class 3B")), "Class 3B.twinspot-check");
        assert!(matches!(load(&dir.path().join("bad.twinspot-check")), Err(CheckFileError::Format { .. })));
    }
}

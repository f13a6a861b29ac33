//! Turns the paths a user gave (files and folders) into the list of documents to read.

use std::path::{Path, PathBuf};

use super::{DocumentInput, Role};

/// File extensions read when a folder is given (a file given by name is always read).
pub const SUPPORTED_EXTENSIONS: &[&str] =
    &["txt", "md", "markdown", "text", "docx", "pdf", "html", "htm", "xhtml", "odt"];

const MAX_DEPTH: usize = 32;

/// Expands `paths` into documents with `role`: a file as itself, a folder as every
/// supported file below it (sorted, hidden entries skipped), named as the folder as given
/// joined with the path inside it. A folder that cannot be listed becomes an input of its
/// own, so that reading it reports the error.
pub fn collect_inputs(paths: &[PathBuf], role: Role) -> Vec<DocumentInput> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let display = path.to_string_lossy().replace('\\', "/");
            walk(path, display.trim_end_matches('/'), role, 0, &mut out);
        } else {
            out.push(DocumentInput::new(path.clone(), role));
        }
    }
    out
}

fn walk(dir: &Path, display: &str, role: Role, depth: usize, out: &mut Vec<DocumentInput>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) if depth <= MAX_DEPTH => entries,
        _ => {
            out.push(DocumentInput { path: dir.to_path_buf(), display: display.to_string(), role });
            return;
        }
    };
    let mut children: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(name, _)| !name.starts_with('.'))
        .collect();
    children.sort();
    for (name, path) in children {
        let child_display = format!("{display}/{name}");
        if path.is_dir() {
            walk(&path, &child_display, role, depth + 1, out);
        } else if has_supported_extension(&path) {
            out.push(DocumentInput { path, display: child_display, role });
        }
    }
}

fn has_supported_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SUPPORTED_EXTENSIONS.iter().any(|s| s.eq_ignore_ascii_case(e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_expand_to_sorted_supported_files_named_from_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        for name in ["b.txt", "a.docx", "sub/c.pdf", "image.png", ".hidden.txt"] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let base = dir.path().to_string_lossy().replace('\\', "/");
        let got: Vec<String> =
            collect_inputs(&[dir.path().to_path_buf()], Role::Suspect).into_iter().map(|d| d.display).collect();
        assert_eq!(got, vec![format!("{base}/a.docx"), format!("{base}/b.txt"), format!("{base}/sub/c.pdf")]);
    }
}

//! Turns the paths a user gave (files and folders, for each role) into the list of
//! documents to read. Each real folder is walked once (links back into a folder are
//! skipped, so link cycles cannot hang or multiply the walk), each real file is read once
//! whatever its spelling or role, and everything passed over gets a line saying why.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::{DocumentInput, Role, zip_inputs};
use crate::ingest::{IngestLimits, is_link_loop, list_zip, open_regular};
use crate::model::{SkipReason, Skipped};

/// File extensions read when a folder is given (a file given by name is always read).
pub const SUPPORTED_EXTENSIONS: &[&str] =
    &["txt", "md", "markdown", "text", "docx", "pdf", "html", "htm", "xhtml", "odt"];

/// Folders nested deeper than this below a given folder are not read (and said so).
const MAX_DEPTH: usize = 32;

/// The mark Twinspot's own HTML reports carry, so that a report saved inside a checked
/// folder is not read as a document on the next run.
pub const REPORT_GENERATOR_MARK: &str = "<meta name=\"generator\" content=\"twinspot";

/// The documents of a check, collected role by role.
#[derive(Debug, Default)]
pub struct InputSet {
    documents: Vec<DocumentInput>,
    skipped: Vec<Skipped>,
    /// Real path of every file taken, and where it sits in `documents`.
    files: HashMap<PathBuf, usize>,
    /// Paths given that do not exist.
    missing: Vec<PathBuf>,
    /// Files in given folders that are not of a supported format.
    unsupported: usize,
    /// Files given both as suspect and as reference (as first named).
    both_roles: Vec<String>,
    /// Files given again: (this name, the name taken).
    repeated: Vec<(String, String)>,
    /// Whether a `.zip` given by name is read entry by entry ([`InputSet::reading_zips`]).
    zips: bool,
    /// Blackboard receipts left out of the zips given.
    receipts: usize,
}

impl InputSet {
    pub fn new() -> Self {
        Self::default()
    }

    /// A set that reads each `.zip` given by name as the documents inside it: a zip of
    /// submissions from Moodle, Canvas or Blackboard names each by its student, any other
    /// zip each by its path in the zip. A zip that cannot be read is one document whose
    /// reading says why. (Zips found in a folder are not opened.)
    pub fn reading_zips() -> Self {
        Self { zips: true, ..Self::default() }
    }

    /// Adds `paths` with `role`: a file as itself, a folder as every supported file below
    /// it (sorted, hidden entries skipped), named as the folder as given joined with the
    /// path inside it. A file already taken (the same real file, under any name or role) is
    /// not taken again; a file given both as suspect and as reference becomes one document
    /// that plays both parts.
    pub fn add(&mut self, paths: &[PathBuf], role: Role) {
        for path in paths {
            let display = display_path(path);
            match std::fs::metadata(path) {
                Ok(meta) if meta.is_dir() => {
                    let mut walk = Walk { role, visited: Vec::new() };
                    walk.folder(self, path, display.trim_end_matches('/'), 0);
                }
                Ok(_) if self.zips && is_zip(path) => self.add_zip(path, display, role),
                Ok(_) => self.take(path.clone(), display, role, false),
                Err(e) if is_link_loop(&e) => self.skip(display, SkipReason::LinkLoop),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    if std::fs::symlink_metadata(path).is_ok() {
                        self.skip(display, SkipReason::BrokenLink);
                    } else {
                        self.missing.push(path.clone());
                    }
                }
                // Reading reports the exact problem (permissions, a name too long, …).
                Err(_) => self.take(path.clone(), display, role, false),
            }
        }
    }

    /// Paths given that do not exist: a front end refuses these before any work.
    pub fn missing(&self) -> &[PathBuf] {
        &self.missing
    }

    /// The documents and the lines saying what was passed over and why.
    pub fn finish(mut self) -> (Vec<DocumentInput>, Vec<Skipped>) {
        // Said once, however many files a doubled folder holds.
        if let Some(first) = self.both_roles.first() {
            let reason = match self.both_roles.len() {
                1 => SkipReason::BothRoles,
                count => SkipReason::BothRolesMany { count },
            };
            self.skipped.push(Skipped { path: first.clone(), reason });
        }
        if let Some((again, taken)) = self.repeated.first() {
            let reason = match self.repeated.len() {
                1 => SkipReason::SameFileAs { taken: taken.clone() },
                count => SkipReason::GivenTwiceMany { count },
            };
            self.skipped.push(Skipped { path: again.clone(), reason });
        }
        if self.receipts > 0 {
            self.skipped.push(Skipped { path: String::new(), reason: SkipReason::Receipts { count: self.receipts } });
        }
        if self.unsupported > 0 {
            self.skipped.push(Skipped {
                path: String::new(),
                reason: SkipReason::Unsupported { count: self.unsupported, extensions: SUPPORTED_EXTENSIONS.join(" ") },
            });
        }
        (self.documents, self.skipped)
    }

    fn skip(&mut self, path: String, reason: SkipReason) {
        self.skipped.push(Skipped { path, reason });
    }

    /// Takes the documents of the zip at `path` (or the zip itself, when it cannot be
    /// listed: reading it says why).
    fn add_zip(&mut self, path: &Path, display: String, role: Role) {
        let members = match list_zip(path, &IngestLimits::default()) {
            Ok(members) => members,
            Err(_) => return self.take(path.to_path_buf(), display, role, false),
        };
        let plan = zip_inputs::plan(members, |name| has_supported_extension(Path::new(name)));
        self.receipts += plan.receipts;
        self.unsupported += plan.unsupported;
        for (name, member) in plan.documents {
            self.take_one(DocumentInput {
                path: path.to_path_buf(),
                display: name,
                role,
                also_reference: false,
                member: Some(member),
            });
        }
    }

    /// Takes one file, unless the same real file is already taken.
    fn take(&mut self, path: PathBuf, display: String, role: Role, in_folder: bool) {
        if in_folder && is_twinspot_report(&path) {
            self.skip(display, SkipReason::OwnReport);
            return;
        }
        self.take_one(DocumentInput { path, display, role, also_reference: false, member: None });
    }

    /// Takes one document, unless the same real file (or entry of a zip) is already taken.
    fn take_one(&mut self, input: DocumentInput) {
        let DocumentInput { path, display, role, .. } = &input;
        let (display, role) = (display.clone(), *role);
        let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        let real = match &input.member {
            Some(member) => member.path_in(&real),
            None => real,
        };
        if let Some(&index) = self.files.get(&real) {
            let first = &mut self.documents[index];
            if matches!((first.role, role), (Role::Suspect, Role::Reference) | (Role::Reference, Role::Suspect)) {
                first.role = Role::Suspect;
                first.also_reference = true;
                self.both_roles.push(first.display.clone());
            } else {
                self.repeated.push((display, first.display.clone()));
            }
            return;
        }
        self.files.insert(real, self.documents.len());
        self.documents.push(input);
    }
}

/// Expands `paths` into documents with `role` (see [`InputSet::add`]); what is passed
/// over is dropped. For callers with one role and no need of the notes.
pub fn collect_inputs(paths: &[PathBuf], role: Role) -> Vec<DocumentInput> {
    let mut set = InputSet::new();
    set.add(paths, role);
    set.finish().0
}

/// One folder given by the user, walked depth first.
struct Walk {
    role: Role,
    /// Real paths of the folders on the way down and already read.
    visited: Vec<PathBuf>,
}

impl Walk {
    fn folder(&mut self, set: &mut InputSet, dir: &Path, display: &str, depth: usize) {
        if depth > MAX_DEPTH {
            set.skip(display.to_string(), SkipReason::TooDeep { max: MAX_DEPTH });
            return;
        }
        let real = match std::fs::canonicalize(dir) {
            Ok(real) => real,
            Err(e) => {
                set.skip(display.to_string(), SkipReason::CannotOpenFolder { detail: e.to_string() });
                return;
            }
        };
        if self.visited.contains(&real) {
            set.skip(display.to_string(), SkipReason::LinkBack { folder: display_path(&real) });
            return;
        }
        // Only a link can lead to a folder that holds one already read (`up` → `..`).
        if self.visited.iter().any(|v| v.starts_with(&real)) {
            set.skip(display.to_string(), SkipReason::LinkAbove { folder: display_path(&real) });
            return;
        }
        self.visited.push(real);
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => {
                set.skip(display.to_string(), SkipReason::CannotListFolder { detail: e.to_string() });
                return;
            }
        };
        let mut children: Vec<(String, PathBuf)> = Vec::new();
        for entry in entries {
            match entry {
                Ok(entry) => children.push((display_name(&entry.file_name()), entry.path())),
                Err(e) => set.skip(display.to_string(), SkipReason::UnreadableEntry { detail: e.to_string() }),
            }
        }
        children.retain(|(name, _)| !name.starts_with('.'));
        children.sort();
        for (name, path) in children {
            let child_display = format!("{display}/{name}");
            match std::fs::metadata(&path) {
                Ok(meta) if meta.is_dir() => self.folder(set, &path, &child_display, depth + 1),
                Ok(_) if has_supported_extension(&path) => set.take(path, child_display, self.role, true),
                Ok(_) => set.unsupported += 1,
                Err(e) if is_link_loop(&e) => set.skip(child_display, SkipReason::LinkLoop),
                Err(_) if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) => {
                    set.skip(child_display, SkipReason::BrokenLink);
                }
                // Reading reports the exact problem.
                Err(_) if has_supported_extension(&path) => set.take(path, child_display, self.role, true),
                Err(e) => set.skip(child_display, SkipReason::CannotRead { detail: e.to_string() }),
            }
        }
    }
}

/// A file named `.zip`.
fn is_zip(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("zip"))
}

fn has_supported_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SUPPORTED_EXTENSIONS.iter().any(|s| s.eq_ignore_ascii_case(e)))
}

/// True for an HTML file that Twinspot itself wrote (its generator mark in the first
/// kilobytes).
fn is_twinspot_report(path: &Path) -> bool {
    let is_html = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ["html", "htm", "xhtml"].iter().any(|h| h.eq_ignore_ascii_case(e)));
    if !is_html {
        return false;
    }
    // A named pipe or a device is not opened here: reading it says what it is.
    let Ok((file, _)) = open_regular(path) else { return false };
    let mut head = Vec::with_capacity(4096);
    let read = file.take(4096).read_to_end(&mut head);
    read.is_ok() && String::from_utf8_lossy(&head).contains(REPORT_GENERATOR_MARK)
}

/// A path as text for reports and messages: valid UTF-8 as it is, any byte that is not
/// valid UTF-8 as `\xNN`, so two different names never look the same (on Windows, `\`
/// separators as `/`).
pub fn display_path(path: &Path) -> String {
    display_name(path.as_os_str())
}

fn display_name(name: &std::ffi::OsStr) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let mut out = String::new();
        for chunk in name.as_bytes().utf8_chunks() {
            out.push_str(chunk.valid());
            for byte in chunk.invalid() {
                out.push_str(&format!("\\x{byte:02X}"));
            }
        }
        out
    }
    #[cfg(not(unix))]
    {
        name.to_string_lossy().replace('\\', "/")
    }
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

    #[cfg(unix)]
    #[test]
    fn link_cycles_are_walked_once_and_said() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        std::fs::write(a.join("x.txt"), "x").unwrap();
        std::fs::write(b.join("y.txt"), "y").unwrap();
        std::os::unix::fs::symlink(&b, a.join("to-b")).unwrap();
        std::os::unix::fs::symlink(&a, b.join("to-a")).unwrap();
        std::os::unix::fs::symlink(dir.path(), a.join("to-top")).unwrap();
        let mut set = InputSet::new();
        set.add(std::slice::from_ref(&a), Role::Suspect);
        let (docs, skipped) = set.finish();
        let names: Vec<&str> = docs.iter().map(|d| d.display.rsplit('/').next().unwrap()).collect();
        // Sorted by name inside a: the link "to-b" comes before "x.txt".
        assert_eq!(names, vec!["y.txt", "x.txt"], "{docs:?}");
        assert!(skipped.iter().any(|s| matches!(s.reason, SkipReason::LinkBack { .. })), "{skipped:?}");
    }

    #[test]
    fn one_file_given_as_suspect_and_reference_is_one_document_in_both_parts() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "x").unwrap();
        let folder = vec![dir.path().to_path_buf()];
        let mut set = InputSet::new();
        set.add(&folder, Role::Suspect);
        set.add(&folder, Role::Reference);
        set.add(&[dir.path().join("./a.txt")], Role::Suspect);
        let (docs, skipped) = set.finish();
        assert_eq!(docs.len(), 1);
        assert!(docs[0].also_reference && docs[0].role == Role::Suspect);
        assert_eq!(skipped.len(), 2, "said once each: {skipped:?}");
    }

    #[cfg(unix)]
    #[test]
    fn names_that_are_not_utf8_stay_distinct() {
        use std::os::unix::ffi::OsStrExt;
        let a = Path::new(std::ffi::OsStr::from_bytes(b"dir/\xff.txt"));
        let b = Path::new(std::ffi::OsStr::from_bytes(b"dir/\xfe.txt"));
        assert_eq!(display_path(a), "dir/\\xFF.txt");
        assert_ne!(display_path(a), display_path(b));
    }
}

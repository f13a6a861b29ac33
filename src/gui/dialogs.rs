//! The window's native file dialogs, all of them: pick files, a file, folders or a folder,
//! or a file to save, each with a title, a start folder, a suggested name and filters.
//! With the xdg desktop portal on the session bus, rfd shows them. Without it, rfd's own
//! zenity fallback would drop the title and the start folder (the dialog says "zenity"
//! and opens on Recent), so this module runs `zenity --file-selection` itself with both.
//! With neither, rfd answers `None` at once, the same as Cancel: never an error.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A filter of the dialog: a name and the extensions it shows (without the dot).
#[derive(Clone, Copy, Debug)]
pub struct Filter<'a> {
    pub name: &'a str,
    pub extensions: &'a [&'a str],
}

/// One dialog: its title, where it opens, the name it suggests (save) and its filters.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dialog<'a> {
    pub title: &'a str,
    pub start: Option<&'a Path>,
    pub file_name: Option<&'a str>,
    pub filters: &'a [Filter<'a>],
}

/// What a dialog picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    File,
    Files,
    Folder,
    Folders,
    Save,
}

/// Who shows the dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// rfd: the desktop portal (or, with nothing at all, its `None` at once).
    Rfd,
    /// `zenity`, run here with the title and start folder.
    Zenity,
}

/// The separator of `zenity --multiple`'s answer: a newline, which file names seldom hold.
const SEPARATOR: &str = "\n";

/// Files picked; `None`: cancelled.
pub fn pick_files(dialog: &Dialog<'_>) -> Option<Vec<PathBuf>> {
    show(Pick::Files, dialog)
}

/// One file picked; `None`: cancelled.
pub fn pick_file(dialog: &Dialog<'_>) -> Option<PathBuf> {
    show(Pick::File, dialog)?.into_iter().next()
}

/// Folders picked; `None`: cancelled.
pub fn pick_folders(dialog: &Dialog<'_>) -> Option<Vec<PathBuf>> {
    show(Pick::Folders, dialog)
}

/// One folder picked; `None`: cancelled.
pub fn pick_folder(dialog: &Dialog<'_>) -> Option<PathBuf> {
    show(Pick::Folder, dialog)?.into_iter().next()
}

/// Where to save; `None`: cancelled.
pub fn save_file(dialog: &Dialog<'_>) -> Option<PathBuf> {
    show(Pick::Save, dialog)?.into_iter().next()
}

/// Shows the dialog with the backend this desktop has.
fn show(pick: Pick, dialog: &Dialog<'_>) -> Option<Vec<PathBuf>> {
    match choose_backend(portal_available(), zenity_on_path()) {
        Backend::Rfd => with_rfd(pick, dialog),
        Backend::Zenity => with_zenity(pick, dialog),
    }
}

/// The backend: rfd when the portal is there (or when zenity is not either), else zenity.
pub fn choose_backend(portal: bool, zenity: bool) -> Backend {
    if !portal && zenity { Backend::Zenity } else { Backend::Rfd }
}

/// The dialog shown by rfd.
fn with_rfd(pick: Pick, dialog: &Dialog<'_>) -> Option<Vec<PathBuf>> {
    let mut rfd_dialog = rfd::FileDialog::new().set_title(dialog.title);
    if let Some(dir) = dialog.start {
        rfd_dialog = rfd_dialog.set_directory(dir);
    }
    if let Some(name) = dialog.file_name {
        rfd_dialog = rfd_dialog.set_file_name(name);
    }
    for filter in dialog.filters {
        rfd_dialog = rfd_dialog.add_filter(filter.name, filter.extensions);
    }
    match pick {
        Pick::File => rfd_dialog.pick_file().map(|p| vec![p]),
        Pick::Files => rfd_dialog.pick_files(),
        Pick::Folder => rfd_dialog.pick_folder().map(|p| vec![p]),
        Pick::Folders => rfd_dialog.pick_folders(),
        Pick::Save => rfd_dialog.save_file().map(|p| vec![p]),
    }
}

/// The dialog shown by `zenity`; one that does not start is logged and taken as a cancel.
fn with_zenity(pick: Pick, dialog: &Dialog<'_>) -> Option<Vec<PathBuf>> {
    match Command::new("zenity").args(zenity_args(pick, dialog)).output() {
        Ok(out) => parse_zenity(out.status.code(), &String::from_utf8_lossy(&out.stdout)),
        Err(e) => {
            eprintln!("twinspot: zenity did not start: {e}");
            None
        }
    }
}

/// zenity's arguments for `dialog`: its title, its start folder (with a trailing slash, so
/// zenity opens inside it) and suggested name, filters, and what is picked.
pub fn zenity_args(pick: Pick, dialog: &Dialog<'_>) -> Vec<String> {
    let mut args = vec!["--file-selection".to_owned(), format!("--title={}", dialog.title)];
    if let Some(start) = start_name(pick, dialog) {
        args.push(format!("--filename={start}"));
    }
    match pick {
        Pick::File => {}
        Pick::Files => args.extend(["--multiple".to_owned(), format!("--separator={SEPARATOR}")]),
        Pick::Folder => args.push("--directory".to_owned()),
        Pick::Folders => {
            args.extend(["--directory".to_owned(), "--multiple".to_owned(), format!("--separator={SEPARATOR}")]);
        }
        Pick::Save => args.extend(["--save".to_owned(), "--confirm-overwrite".to_owned()]),
    }
    args.extend(dialog.filters.iter().map(zenity_filter));
    args
}

/// What `--filename` says: the start folder with a trailing slash, and the suggested
/// name after it when saving.
fn start_name(pick: Pick, dialog: &Dialog<'_>) -> Option<String> {
    let name = if pick == Pick::Save { dialog.file_name } else { None };
    match (dialog.start, name) {
        (Some(dir), name) => {
            let dir = dir.to_string_lossy();
            let dir = dir.trim_end_matches('/');
            Some(format!("{dir}/{}", name.unwrap_or("")))
        }
        (None, Some(name)) => Some(name.to_owned()),
        (None, None) => None,
    }
}

/// One `--file-filter=NAME | *.a *.b`.
fn zenity_filter(filter: &Filter<'_>) -> String {
    let globs: Vec<String> = filter.extensions.iter().map(|e| format!("*.{e}")).collect();
    format!("--file-filter={} | {}", filter.name, globs.join(" "))
}

/// zenity's answer: exit 0 with the paths, one a line; anything else (1 is Cancel, 5 a
/// timeout, -1 an error) picks nothing.
pub fn parse_zenity(code: Option<i32>, stdout: &str) -> Option<Vec<PathBuf>> {
    if code != Some(0) {
        return None;
    }
    let paths: Vec<PathBuf> = stdout.split(SEPARATOR).filter(|l| !l.is_empty()).map(PathBuf::from).collect();
    (!paths.is_empty()).then_some(paths)
}

/// True when the desktop portal can answer: a session bus, and the portal's D-Bus
/// service installed (it is started on demand).
fn portal_available() -> bool {
    session_bus() && portal_service()
}

/// True when there is a session bus to reach.
fn session_bus() -> bool {
    let address = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|a| !a.is_empty());
    address || std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|dir| Path::new(&dir).join("bus").exists())
}

/// True when `org.freedesktop.portal.Desktop`'s service file is in one of the data folders.
fn portal_service() -> bool {
    let dirs = std::env::var("XDG_DATA_DIRS").ok().filter(|d| !d.is_empty());
    let dirs = dirs.unwrap_or_else(|| "/usr/local/share:/usr/share".to_owned());
    let home = std::env::var_os("HOME").map(|h| Path::new(&h).join(".local/share"));
    let data = std::env::var_os("XDG_DATA_HOME").map(PathBuf::from).or(home);
    data.into_iter()
        .chain(dirs.split(':').map(PathBuf::from))
        .any(|dir| dir.join("dbus-1/services/org.freedesktop.portal.Desktop.service").is_file())
}

/// True when an executable `zenity` is on the `PATH`.
fn zenity_on_path() -> bool {
    std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join("zenity").is_file()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECKS: [Filter<'static>; 1] = [Filter { name: "Saved check", extensions: &["twinspot-check"] }];

    fn dialog<'a>(start: Option<&'a Path>, file_name: Option<&'a str>) -> Dialog<'a> {
        Dialog { title: "Save the check", start, file_name, filters: &CHECKS }
    }

    #[test]
    fn zenity_is_run_only_without_the_portal() {
        assert_eq!(choose_backend(true, true), Backend::Rfd);
        assert_eq!(choose_backend(true, false), Backend::Rfd);
        assert_eq!(choose_backend(false, true), Backend::Zenity);
        assert_eq!(choose_backend(false, false), Backend::Rfd, "rfd answers None at once: a cancel");
    }

    #[test]
    fn zenity_is_told_the_title_and_the_start_folder() {
        let args = zenity_args(Pick::Files, &dialog(Some(Path::new("/home/t/class 3")), None));
        assert!(args.contains(&"--title=Save the check".to_owned()), "{args:?}");
        assert!(args.contains(&"--filename=/home/t/class 3/".to_owned()), "{args:?}");
        assert!(args.contains(&"--multiple".to_owned()));
        assert!(args.contains(&"--file-filter=Saved check | *.twinspot-check".to_owned()));
        let folder = zenity_args(Pick::Folder, &dialog(Some(Path::new("/home/t/")), Some("x")));
        assert!(folder.contains(&"--directory".to_owned()));
        assert!(folder.contains(&"--filename=/home/t/".to_owned()), "a name only for saving: {folder:?}");
    }

    #[test]
    fn a_save_dialog_suggests_a_visible_name_in_the_start_folder() {
        let name = crate::gui::session::suggested_file_name(None);
        let args = zenity_args(Pick::Save, &dialog(Some(Path::new("/home/t")), Some(&name)));
        assert!(args.contains(&"--filename=/home/t/check.twinspot-check".to_owned()), "{args:?}");
        assert!(args.contains(&"--save".to_owned()) && args.contains(&"--confirm-overwrite".to_owned()));
        let args = zenity_args(Pick::Save, &dialog(None, Some(&name)));
        assert!(args.contains(&"--filename=check.twinspot-check".to_owned()), "{args:?}");
        assert!(!zenity_args(Pick::File, &dialog(None, None)).iter().any(|a| a.starts_with("--filename")));
    }

    #[test]
    fn zenity_answers_are_parsed() {
        assert_eq!(parse_zenity(Some(1), ""), None, "Cancel");
        assert_eq!(parse_zenity(Some(5), "/a\n"), None, "a timeout");
        assert_eq!(parse_zenity(None, "/a\n"), None, "killed");
        assert_eq!(parse_zenity(Some(0), "/a/b c.txt\n"), Some(vec![PathBuf::from("/a/b c.txt")]));
        let two = parse_zenity(Some(0), "/a/x|y.txt\n/a/z.txt\n");
        assert_eq!(two, Some(vec![PathBuf::from("/a/x|y.txt"), PathBuf::from("/a/z.txt")]), "split on lines only");
    }
}

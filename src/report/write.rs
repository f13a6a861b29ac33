//! Writing reports without losing anything: every target is checked before the check runs
//! (never an input, never two formats at one path, at most one on standard output, a folder
//! that exists and takes files), and each file is written atomically — a temporary file in
//! the same folder, flushed to disk, then renamed over the target — so a crash or `kill -9`
//! leaves either the previous report or the new one, never half of one. Only a regular
//! file is ever replaced: a link is followed to its file, a device or FIFO is written in
//! place, a read-only file or a disk is refused.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::ingest::is_link_loop;

/// Why a report cannot be written where asked.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("refusing to write the {format} report over an input document: {}", path.display())]
    IsInput { format: &'static str, path: PathBuf },
    #[error("the {first} and {second} reports both name {}: give each its own file", path.display())]
    SameTarget { first: &'static str, second: &'static str, path: PathBuf },
    #[error("the {first} and {second} reports both go to standard output ('-'): only one can")]
    BothToStdout { first: &'static str, second: &'static str },
    #[error("cannot write the {format} report to {}: {reason}", path.display())]
    Unwritable { format: &'static str, path: PathBuf, reason: String },
    #[error("cannot write the {format} report to {}: {source}", path.display())]
    Io { format: &'static str, path: PathBuf, source: io::Error },
}

/// Where one report goes: a file, or standard output for `-`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Stdout,
    File(PathBuf),
}

impl Target {
    /// `-` is standard output; anything else a file.
    pub fn parse(path: &Path) -> Self {
        if path == Path::new("-") { Target::Stdout } else { Target::File(path.to_path_buf()) }
    }
}

/// One report to write: its format's name (for messages) and its target.
#[derive(Clone, Debug)]
pub struct Output {
    pub format: &'static str,
    pub target: Target,
}

/// The identity of a file on disk: its real path, and on Unix its device and inode, so a
/// hard link or another spelling of an input is recognised too.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum FileKey {
    Real(PathBuf),
    #[cfg(unix)]
    Inode(u64, u64),
}

fn keys_of(path: &Path) -> Vec<FileKey> {
    let mut keys = Vec::new();
    if let Ok(real) = std::fs::canonicalize(path) {
        keys.push(FileKey::Real(real));
    } else if let Some(real) = real_parent_join(path) {
        keys.push(FileKey::Real(real));
    }
    #[cfg(unix)]
    if let Ok(meta) = std::fs::metadata(path) {
        use std::os::unix::fs::MetadataExt;
        keys.push(FileKey::Inode(meta.dev(), meta.ino()));
    }
    keys
}

/// For a file that does not exist yet: its folder's real path joined with its name.
fn real_parent_join(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(parent).ok()?.join(name))
}

/// Checks every output before any work: none names an input (`inputs` are the files the
/// check reads), no two share a path, at most one goes to standard output, and each folder
/// exists and takes a new file. Returns the first problem found.
pub fn check_outputs<'a>(outputs: &[Output], inputs: impl IntoIterator<Item = &'a Path>) -> Result<(), WriteError> {
    let input_keys: HashSet<FileKey> = inputs.into_iter().flat_map(keys_of).collect();
    let mut seen: Vec<(&'static str, HashSet<FileKey>)> = Vec::new();
    let mut stdout: Option<&'static str> = None;
    for output in outputs {
        let path = match &output.target {
            Target::Stdout => {
                if let Some(first) = stdout {
                    return Err(WriteError::BothToStdout { first, second: output.format });
                }
                stdout = Some(output.format);
                continue;
            }
            Target::File(path) => path,
        };
        let keys: HashSet<FileKey> = keys_of(path).into_iter().collect();
        not_an_input(output.format, path, &keys, &input_keys)?;
        if let Some((first, _)) = seen.iter().find(|(_, other)| !other.is_disjoint(&keys)) {
            return Err(WriteError::SameTarget { first, second: output.format, path: path.clone() });
        }
        destination(output.format, path)?;
        seen.push((output.format, keys));
    }
    Ok(())
}

/// Refuses a target `path` (whose identities are `keys`) that is one of the inputs.
fn not_an_input(
    format: &'static str,
    path: &Path,
    keys: &HashSet<FileKey>,
    input_keys: &HashSet<FileKey>,
) -> Result<(), WriteError> {
    if keys.iter().any(|k| input_keys.contains(k)) {
        return Err(WriteError::IsInput { format, path: path.to_path_buf() });
    }
    Ok(())
}

/// What stands at a report's path, and so how the report is written there.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Destination {
    /// Nothing yet, or a regular file the user may write: written beside it and renamed
    /// over it. Links are followed: the path is the real file's.
    Replace(PathBuf),
    /// A character device (`/dev/null`) or a FIFO: written in place, never replaced.
    InPlace(PathBuf),
}

/// Decides how a report is written at `path`, refusing what must not be written: a
/// folder, a block device (a disk), a socket, a link to nothing or a link loop, a file
/// the user may not write, a folder that does not exist or takes no file. Nothing that is
/// not a regular file is ever renamed over.
fn destination(format: &'static str, path: &Path) -> Result<Destination, WriteError> {
    let unwritable = |reason: String| WriteError::Unwritable { format, path: path.to_path_buf(), reason };
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            probe_folder(format, path)?;
            return Ok(Destination::Replace(path.to_path_buf()));
        }
        Err(e) => return Err(unwritable(e.to_string())),
    };
    if meta.file_type().is_symlink() {
        return match std::fs::canonicalize(path) {
            Ok(real) => destination(format, &real),
            Err(e) if is_link_loop(&e) => Err(unwritable("it is a link in a loop of links".into())),
            Err(_) => Err(unwritable("it is a link to nothing (its target does not exist)".into())),
        };
    }
    let kind = file_kind(&meta);
    match kind {
        FileKind::Regular => {
            may_write(path).map_err(unwritable)?;
            probe_folder(format, path)?;
            Ok(Destination::Replace(path.to_path_buf()))
        }
        FileKind::CharDevice | FileKind::Fifo => {
            may_write(path).map_err(unwritable)?;
            Ok(Destination::InPlace(path.to_path_buf()))
        }
        FileKind::Folder => Err(unwritable("it is a folder".into())),
        FileKind::BlockDevice => Err(unwritable("it is a block device (a disk), not a file".into())),
        FileKind::Other => Err(unwritable("it is not a file (a socket or another special file)".into())),
    }
}

/// The kinds of things a path can name, as far as writing a report cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileKind {
    Regular,
    Folder,
    CharDevice,
    BlockDevice,
    Fifo,
    Other,
}

fn file_kind(meta: &std::fs::Metadata) -> FileKind {
    let file_type = meta.file_type();
    if file_type.is_file() {
        return FileKind::Regular;
    }
    if file_type.is_dir() {
        return FileKind::Folder;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_char_device() {
            return FileKind::CharDevice;
        }
        if file_type.is_block_device() {
            return FileKind::BlockDevice;
        }
        if file_type.is_fifo() {
            return FileKind::Fifo;
        }
    }
    FileKind::Other
}

/// Whether the user may write the existing file at `path`, as the shell's `>` would ask:
/// a read-only file is refused, never replaced behind the user's back.
fn may_write(path: &Path) -> Result<(), String> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        let Ok(c_path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
            return Err("its name holds a NUL byte".into());
        };
        // SAFETY: `c_path` is a valid NUL-terminated string that outlives the call, and
        // access(2) only reads it.
        let allowed = unsafe { libc::access(c_path.as_ptr(), libc::W_OK) } == 0;
        if !allowed {
            return Err(format!("it is read-only here ({})", io::Error::last_os_error()));
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        match std::fs::metadata(path) {
            Ok(meta) if meta.permissions().readonly() => Err("it is read-only".into()),
            _ => Ok(()),
        }
    }
}

/// Makes sure the folder of `path` exists and takes a new file (tried with a temporary
/// file, removed at once).
fn probe_folder(format: &'static str, path: &Path) -> Result<(), WriteError> {
    let unwritable = |reason: String| WriteError::Unwritable { format, path: path.to_path_buf(), reason };
    let folder = folder_of(path);
    if !folder.is_dir() {
        return Err(unwritable(format!("the folder {} does not exist", folder.display())));
    }
    let probe = tempfile::Builder::new().prefix(".twinspot-").suffix(".tmp").tempfile_in(&folder);
    match probe {
        Ok(file) => file.close().map_err(|e| unwritable(e.to_string())),
        Err(e) => Err(unwritable(e.to_string())),
    }
}

fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `content` to `path`: a regular file (or a new one) atomically — into a
/// temporary file beside it, flushed to disk, then renamed over it; a link is followed and
/// the file it points to is replaced, never the link; a device or FIFO (`/dev/null`) is
/// written in place and never replaced. On any failure the temporary file is removed and
/// whatever stood at `path` before is left as it was. Refuses a path that is one of
/// `inputs`, and everything [`check_outputs`] refuses.
pub fn write_atomic<'a>(
    format: &'static str,
    path: &Path,
    content: &[u8],
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<(), WriteError> {
    let input_keys: HashSet<FileKey> = inputs.into_iter().flat_map(keys_of).collect();
    let keys: HashSet<FileKey> = keys_of(path).into_iter().collect();
    not_an_input(format, path, &keys, &input_keys)?;
    // Decided once: what stands at `path` is probed here, not again.
    match destination(format, path)? {
        Destination::Replace(real) => replace_file(format, &real, content),
        Destination::InPlace(real) => write_in_place(format, &real, content),
    }
}

/// Writes `content` into a temporary file beside `path`, then renames it over `path`.
fn replace_file(format: &'static str, path: &Path, content: &[u8]) -> Result<(), WriteError> {
    let io_error = |source: io::Error| WriteError::Io { format, path: path.to_path_buf(), source };
    let folder = folder_of(path);
    let mut temp =
        tempfile::Builder::new().prefix(".twinspot-").suffix(".tmp").tempfile_in(&folder).map_err(io_error)?;
    temp.write_all(content).map_err(io_error)?;
    temp.as_file().sync_all().map_err(io_error)?;
    keep_permissions_of(path, temp.as_file());
    temp.persist(path).map_err(|e| io_error(e.error))?;
    // The rename itself is durable once the folder is synced; a folder that cannot be
    // opened for that (some file systems) still got the whole file.
    if let Ok(dir) = File::open(&folder) {
        dir.sync_all().ok();
    }
    Ok(())
}

/// Writes `content` into a device or FIFO that exists, as the shell's `>` would: never
/// created, never replaced. A full device (`/dev/full`) is an error.
fn write_in_place(format: &'static str, path: &Path, content: &[u8]) -> Result<(), WriteError> {
    let io_error = |source: io::Error| WriteError::Io { format, path: path.to_path_buf(), source };
    let mut file = std::fs::OpenOptions::new().write(true).open(path).map_err(io_error)?;
    file.write_all(content).and_then(|()| file.flush()).map_err(io_error)
}

/// A report written over an earlier one keeps that file's permissions; a new one is
/// readable by all (0644), not private like the temporary file it was written as.
fn keep_permissions_of(path: &Path, temp: &File) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).map(|meta| meta.permissions().mode() & 0o7777).unwrap_or(0o644);
        temp.set_permissions(std::fs::Permissions::from_mode(mode)).ok();
    }
    #[cfg(not(unix))]
    {
        let _ = (path, temp);
    }
}

/// How writing to standard output ended, when it did not end well.
#[derive(Debug)]
pub enum StdoutError {
    /// The reader went away (`| head`): not worth a message, the output was not wanted.
    Closed,
    /// Anything else (`> /dev/full`): worth a message.
    Failed(io::Error),
}

/// Writes `content` to standard output and flushes it, telling a closed pipe apart from
/// a real failure.
pub fn write_stdout(content: &[u8]) -> Result<(), StdoutError> {
    let mut out = io::stdout().lock();
    out.write_all(content).and_then(|()| out.flush()).map_err(|e| match e.kind() {
        io::ErrorKind::BrokenPipe => StdoutError::Closed,
        _ => StdoutError::Failed(e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &Path) -> Output {
        Output { format: "JSON", target: Target::File(path.to_path_buf()) }
    }

    #[test]
    fn an_input_is_never_a_target_even_spelled_otherwise() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("essay.txt");
        std::fs::write(&input, "text").unwrap();
        let other_spelling = dir.path().join(".").join("essay.txt");
        let err = check_outputs(&[file(&other_spelling)], [input.as_path()]).unwrap_err();
        assert!(matches!(err, WriteError::IsInput { .. }), "{err}");
        assert!(write_atomic("JSON", &input, b"{}", [input.as_path()]).is_err());
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "text");
    }

    #[test]
    fn two_reports_at_one_path_or_both_on_stdout_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("r.out");
        let html = Output { format: "HTML", target: Target::File(out.clone()) };
        assert!(matches!(check_outputs(&[file(&out), html], []), Err(WriteError::SameTarget { .. })));
        let a = Output { format: "JSON", target: Target::Stdout };
        let b = Output { format: "CSV", target: Target::Stdout };
        assert!(matches!(check_outputs(&[a, b], []), Err(WriteError::BothToStdout { .. })));
    }

    #[test]
    fn a_missing_folder_or_a_folder_target_is_found_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no-such-folder").join("r.json");
        assert!(matches!(check_outputs(&[file(&missing)], []), Err(WriteError::Unwritable { .. })));
        assert!(matches!(check_outputs(&[file(dir.path())], []), Err(WriteError::Unwritable { .. })));
    }

    #[test]
    fn atomic_write_replaces_the_whole_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("r.json");
        std::fs::write(&out, "old report").unwrap();
        write_atomic("JSON", &out, b"new report", []).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "new report");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("r.json")]);
    }
}

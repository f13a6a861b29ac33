//! Nothing the user did not name is replaced: a report target that is a device, a FIFO or a
//! link is written in place or through the link, a read-only report is refused, and the
//! folder walk names link loops and skips links to the folders above it. Identical
//! suspects are paired once.

use std::path::Path;
use std::process::Stdio;

use crate::util::{Limited, MEMORY_LIMIT, streams, twinspot_limited};

const ESSAY: &str = "The committee reviewed every submission twice before the final meeting. \
It found that the method described in section three could not be reproduced from the data given. \
The authors were asked to publish their scripts and the raw measurements in full. \
Each reviewer wrote a short note on what would be needed to repeat the study, and the notes were \
collected into one letter that went to the authors with the decision.\n";

/// Runs the binary under the memory limit and a bound against hangs.
fn run(dir: &Path, args: &[&str]) -> Limited {
    let run = twinspot_limited(dir, args);
    assert!(run.peak_bytes < MEMORY_LIMIT, "peak memory {} bytes\n{}", run.peak_bytes, streams(&run.output));
    assert!(run.elapsed.as_secs() < 120, "took {:?}\n{}", run.elapsed, streams(&run.output));
    run
}

fn stderr(run: &Limited) -> String {
    String::from_utf8_lossy(&run.output.stderr).into_owned()
}

fn write(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `ref/r.txt` and `sus/s.txt`, the same text with a word in front.
fn pair_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "ref/r.txt", ESSAY);
    write(dir.path(), "sus/s.txt", &format!("Preface. {ESSAY}"));
    dir
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

#[cfg(target_os = "linux")]
fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

#[cfg(target_os = "linux")]
fn mknod_char(path: &Path, major: u32, minor: u32) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    let dev = libc::makedev(major, minor);
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, dev) }, 0, "mknod");
}

#[cfg(target_os = "linux")]
fn file_type(path: &Path) -> std::fs::FileType {
    std::fs::symlink_metadata(path).unwrap().file_type()
}

#[cfg(target_os = "linux")]
#[test]
fn a_fifo_target_is_written_into_and_stays_a_fifo() {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let dir = pair_folder();
    let fifo = dir.path().join("p");
    mkfifo(&fifo);
    let reader_path = fifo.clone();
    // The reader blocks until the writer opens the FIFO, as `cat p` would.
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::fs::File::open(reader_path).unwrap().read_to_string(&mut text).unwrap();
        text
    });
    let run = run(dir.path(), &["compare", "-q", "-r", "ref", "-s", "sus", "--json", "p"]);
    assert!(file_type(&fifo).is_fifo(), "the FIFO was replaced\n{}", streams(&run.output));
    assert_eq!(run.output.status.code(), Some(0), "{}", streams(&run.output));
    let text = reader.join().unwrap();
    assert!(text.contains("\"pairs\""), "the reader got no report: {text}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_device_target_is_written_in_place_and_a_full_one_is_an_error() {
    use std::os::unix::fs::FileTypeExt;
    let dir = pair_folder();
    // Devices made here when the test may (as root), the system's own otherwise: writing
    // into /dev/null and /dev/full is harmless, replacing them is what must never happen.
    let (null, full) = if is_root() {
        let (null, full) = (dir.path().join("null"), dir.path().join("full"));
        mknod_char(&null, 1, 3);
        mknod_char(&full, 1, 7);
        (null, full)
    } else {
        (Path::new("/dev/null").to_path_buf(), Path::new("/dev/full").to_path_buf())
    };
    let null_arg = null.to_str().unwrap();
    let run_null = run(dir.path(), &["compare", "-q", "-r", "ref", "-s", "sus", "--json", null_arg]);
    assert_eq!(run_null.output.status.code(), Some(0), "{}", streams(&run_null.output));
    assert!(file_type(&null).is_char_device(), "the device was replaced by a file");
    let full_arg = full.to_str().unwrap();
    let run_full = run(dir.path(), &["compare", "-q", "-r", "ref", "-s", "sus", "--json", full_arg]);
    assert!(file_type(&full).is_char_device(), "the device was replaced by a file");
    assert_eq!(run_full.output.status.code(), Some(1), "{}", streams(&run_full.output));
    assert!(stderr(&run_full).to_lowercase().contains("no space left"), "{}", streams(&run_full.output));
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[cfg(unix)]
#[test]
fn a_link_target_keeps_the_link_and_replaces_the_file_it_points_to() {
    let dir = pair_folder();
    write(dir.path(), "reports/real.json", "{\"old\":1}");
    std::os::unix::fs::symlink("reports/real.json", dir.path().join("link.json")).unwrap();
    let run = run(dir.path(), &["compare", "-q", "-r", "ref", "-s", "sus", "--json", "link.json"]);
    assert_eq!(run.output.status.code(), Some(0), "{}", streams(&run.output));
    assert!(file_type(&dir.path().join("link.json")).is_symlink(), "the link was replaced by a file");
    let real = std::fs::read_to_string(dir.path().join("reports/real.json")).unwrap();
    assert!(real.contains("\"pairs\""), "the file the link points to was not written: {real}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_read_only_report_is_refused_and_kept() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let dir = pair_folder();
    let keep = dir.path().join("keep.json");
    std::fs::write(&keep, "{\"old\":1}\n").unwrap();
    std::fs::set_permissions(&keep, std::fs::Permissions::from_mode(0o444)).unwrap();
    let mut command = crate::util::command();
    command
        .current_dir(dir.path())
        .args(["compare", "-q", "-r", "ref", "-s", "sus", "--json", "keep.json"])
        .stdin(Stdio::null());
    if is_root() {
        // root may write anything, as the shell's `>` may: the rule is the user's, so run
        // as an ordinary user who may write the folder but not the file.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        for sub in ["ref", "sus"] {
            std::fs::set_permissions(dir.path().join(sub), std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let cache = tempfile::tempdir().unwrap();
        std::fs::set_permissions(cache.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        let (_folder, binary) = crate::util::binary_for_other_users();
        let mut command = std::process::Command::new(binary);
        command
            .current_dir(dir.path())
            .args(["compare", "-q", "-r", "ref", "-s", "sus", "--json", "keep.json"])
            .stdin(Stdio::null())
            .env("TWINSPOT_CACHE_DIR", cache.path())
            .env("HOME", dir.path())
            .uid(65534)
            .gid(65534);
        let output = command.output().unwrap();
        check_refused(&keep, &output);
    } else {
        let output = command.output().unwrap();
        check_refused(&keep, &output);
    }
}

#[cfg(target_os = "linux")]
fn check_refused(keep: &Path, output: &std::process::Output) {
    assert_eq!(output.status.code(), Some(2), "{}", streams(output));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("read-only"), "{}", streams(output));
    assert_eq!(std::fs::read_to_string(keep).unwrap(), "{\"old\":1}\n");
}

#[test]
fn identical_suspects_and_their_reference_are_each_paired_once() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["sus/a.txt", "sus/b.txt", "sus/c.txt", "ref/r.txt"] {
        write(dir.path(), name, ESSAY);
    }
    let run = run(dir.path(), &["compare", "-q", "-r", "ref", "-s", "sus", "--json", "-"]);
    assert_eq!(run.output.status.code(), Some(0), "{}", streams(&run.output));
    let report: serde_json::Value = serde_json::from_slice(&run.output.stdout).unwrap();
    let mut seen = std::collections::HashSet::new();
    for pair in report["pairs"].as_array().unwrap() {
        let (a, b) = (pair["a"].as_u64().unwrap(), pair["b"].as_u64().unwrap());
        assert!(seen.insert((a.min(b), a.max(b))), "pair {a}–{b} stated twice:\n{report:#}");
    }
    // Three suspects and one reference: every two of the four are the same text.
    assert_eq!(seen.len(), 6, "{report:#}");
}

#[cfg(unix)]
#[test]
fn a_link_loop_is_named_as_a_loop() {
    let dir = pair_folder();
    std::os::unix::fs::symlink("b.txt", dir.path().join("ref/a.txt")).unwrap();
    std::os::unix::fs::symlink("a.txt", dir.path().join("ref/b.txt")).unwrap();
    let run = run(dir.path(), &["compare", "-r", "ref", "-s", "sus", "--json", "-"]);
    assert_eq!(run.output.status.code(), Some(0), "{}", streams(&run.output));
    let err = stderr(&run);
    assert!(err.contains("loop"), "{err}");
    assert!(!err.contains("link to nothing"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_link_to_the_parent_folder_is_skipped_and_the_reference_stays_a_reference() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "top/ref/r.txt", ESSAY);
    write(dir.path(), "top/sus/s.txt", &format!("Preface. {ESSAY}"));
    std::os::unix::fs::symlink("..", dir.path().join("top/sus/up")).unwrap();
    let run = run(dir.path(), &["compare", "-r", "top/ref", "-s", "top/sus", "--json", "-"]);
    assert_eq!(run.output.status.code(), Some(0), "{}", streams(&run.output));
    let report: serde_json::Value = serde_json::from_slice(&run.output.stdout).unwrap();
    let docs = report["documents"].as_array().unwrap();
    let role_of = |path: &str| docs.iter().find(|d| d["path"] == path).map(|d| d["role"].clone());
    assert_eq!(role_of("top/ref/r.txt"), Some(serde_json::json!("reference")), "{report:#}");
    assert!(docs.iter().all(|d| !d["path"].as_str().unwrap().contains("up/")), "{report:#}");
    assert!(stderr(&run).contains("top/sus/up"), "the link is not said: {}", stderr(&run));
}

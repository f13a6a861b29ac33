//! Helpers: run the `twinspot` binary and show everything it printed when a check fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The folder of the test fixtures.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("fixtures")
}

/// The folder of reference caches the tests' runs use: never the user's cache folder.
pub fn test_cache_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("reference-cache")
}

/// The `twinspot` binary as a command, its reference cache in [`test_cache_dir`].
pub fn command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_twinspot"));
    command.env("TWINSPOT_CACHE_DIR", test_cache_dir());
    command
}

/// A copy of the `twinspot` binary that another user (`nobody`, for tests run as root)
/// can run, in a folder of its own that anyone may enter: the build folder may lie
/// inside one only its owner can enter (a checkout in a private temporary folder). Keep
/// the folder as long as the binary is used.
#[cfg(unix)]
pub fn binary_for_other_users() -> (tempfile::TempDir, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let folder = tempfile::tempdir().expect("a folder for the binary");
    std::fs::set_permissions(folder.path(), std::fs::Permissions::from_mode(0o755)).expect("open the folder");
    let binary = folder.path().join("twinspot");
    std::fs::copy(env!("CARGO_BIN_EXE_twinspot"), &binary).expect("copy the binary");
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).expect("make it runnable");
    wait_until_runnable(&binary);
    (folder, binary)
}

/// Runs the fresh copy `binary` once, again while Linux says it is busy: a child another
/// test thread forked while the copy was open for writing holds it open until that child
/// runs its own program, and until then running the copy fails with "Text file busy".
/// Once the copy has run, no later fork can hold it.
#[cfg(unix)]
fn wait_until_runnable(binary: &Path) {
    for _ in 0..500 {
        let run = Command::new(binary).arg("--version").stdout(std::process::Stdio::null()).status();
        match run {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(10))
            }
            _ => return,
        }
    }
    panic!("{} stayed busy for 5 s", binary.display());
}

/// Runs `twinspot args…` in `dir`.
pub fn twinspot(dir: &Path, args: &[&str]) -> Output {
    command().current_dir(dir).args(args).output().expect("run twinspot")
}

/// Runs `command` (stdin empty, both streams kept) and waits at most `limit` for it: the
/// output, or a panic naming the limit once the run and its helper processes (a process
/// group of their own) are killed. A run that hangs fails the test instead of hanging it.
#[cfg(unix)]
pub fn output_within(mut command: Command, limit: std::time::Duration) -> Output {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
    let mut child = command.spawn().expect("run twinspot");
    let pipes = [
        child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>),
        child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>),
    ];
    let readers: Vec<_> = pipes
        .into_iter()
        .map(|pipe| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                if let Some(mut pipe) = pipe {
                    pipe.read_to_end(&mut bytes).ok();
                }
                bytes
            })
        })
        .collect();
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for twinspot") {
            break status;
        }
        if started.elapsed() > limit {
            // SAFETY: kill(2) on the process group of our own child, not yet reaped.
            unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL) };
            child.wait().expect("reap twinspot");
            let streams: Vec<String> =
                readers.into_iter().map(|r| String::from_utf8_lossy(&r.join().unwrap()).into_owned()).collect();
            panic!("still running after {limit:?}, killed:\n--- stdout\n{}\n--- stderr\n{}", streams[0], streams[1]);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut streams = readers.into_iter().map(|r| r.join().unwrap());
    Output { status, stdout: streams.next().unwrap_or_default(), stderr: streams.next().unwrap_or_default() }
}

/// Runs `twinspot args…` in `dir`, killed after `limit` ([`output_within`]).
#[cfg(unix)]
pub fn twinspot_within(dir: &Path, args: &[&str], limit: std::time::Duration) -> Output {
    let mut command = command();
    command.current_dir(dir).args(args);
    output_within(command, limit)
}

/// Standard output as text; panics showing both streams if the command failed.
pub fn success(output: &Output) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "twinspot failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        stdout,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// Runs a compare that writes JSON to standard output, and parses it.
pub fn compare_json(dir: &Path, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["compare", "--json", "-", "-q"];
    all.extend_from_slice(args);
    let stdout = success(&twinspot(dir, &all));
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("bad JSON ({e}):\n{stdout}"))
}

/// The characters `[start, end)` of a document's extracted text.
pub fn slice(dir: &Path, path: &str, start: u64, end: u64) -> String {
    let text = success(&twinspot(dir, &["extract", path]));
    text.chars().skip(start as usize).take((end - start) as usize).collect()
}

/// The document id whose path is `path`.
pub fn doc_id(report: &serde_json::Value, path: &str) -> u64 {
    report["documents"]
        .as_array()
        .and_then(|docs| docs.iter().find(|d| d["path"] == path))
        .and_then(|d| d["id"].as_u64())
        .unwrap_or_else(|| panic!("no document {path} in {report:#}"))
}

/// The pair (suspect, reference) of a report, if any.
pub fn pair<'a>(report: &'a serde_json::Value, a: &str, b: &str) -> Option<&'a serde_json::Value> {
    let (a, b) = (doc_id(report, a), doc_id(report, b));
    report["pairs"].as_array()?.iter().find(|p| p["a"] == a && p["b"] == b)
}

/// What a run of the binary under limits gave.
pub struct Limited {
    pub output: Output,
    /// Peak resident memory of the process, in bytes.
    pub peak_bytes: u64,
    pub elapsed: std::time::Duration,
}

/// Memory the hostile-input tests allow a run (peak resident memory must stay below it).
pub const MEMORY_LIMIT: u64 = 1 << 30;

/// Runs `twinspot args…` in `dir` with its address space bounded (a runaway allocation fails
/// instead of taking the machine), and measures its peak resident memory (wait4's rusage of
/// that very process, not of all children).
#[cfg(unix)]
pub fn twinspot_limited(dir: &Path, args: &[&str]) -> Limited {
    let mut command = command();
    command.current_dir(dir).args(args);
    run_limited(command)
}

/// Runs `command` (the binary, set up by the caller: folder, arguments, user) as
/// [`twinspot_limited`] does.
#[cfg(unix)]
#[allow(clippy::zombie_processes, reason = "the child is reaped by wait4 below, which also gives its rusage")]
pub fn run_limited(mut command: Command) -> Limited {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let started = std::time::Instant::now();
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    // Address space, not resident memory, is what the kernel can bound: threads reserve
    // stacks they never touch, so the bound is above the resident limit asserted below.
    let address_space = 4 * MEMORY_LIMIT;
    // SAFETY: the closure runs in the forked child before exec and only calls
    // setrlimit, which is async-signal-safe, on a struct it owns.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit { rlim_cur: address_space, rlim_max: address_space };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().expect("run twinspot");
    let mut stdout_pipe = child.stdout.take().unwrap();
    let mut stderr_pipe = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        stderr_pipe.read_to_end(&mut buf).ok();
        buf
    });
    let mut stdout = Vec::new();
    stdout_pipe.read_to_end(&mut stdout).ok();
    let stderr = err_reader.join().unwrap();
    let mut status = 0;
    // SAFETY: rusage is plain old data, valid when zeroed.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // SAFETY: wait4 on our own child, with structs owned here; the child is reaped here
    // and never through `Child`.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4 failed");
    use std::os::unix::process::ExitStatusExt;
    let output = Output { status: std::process::ExitStatus::from_raw(status), stdout, stderr };
    Limited { output, peak_bytes: usage.ru_maxrss as u64 * 1024, elapsed: started.elapsed() }
}

/// Both streams of a run, for failure messages.
pub fn streams(output: &Output) -> String {
    format!(
        "status {}\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

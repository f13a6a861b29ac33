//! The reference cache of `compare`: the first run fills it, the next reads only the
//! references that changed, a file gone leaves it, and the report is byte for byte the one
//! of `--no-cache`, also with templates, a file both suspect and reference, two runs at
//! once, and a cache folder that cannot be used or a cache file that is damaged.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, SystemTime};

use crate::util::{command, streams};

const ESSAY: &str = "河流从山里流出来，经过村庄和田野，最后流进大海。The river carries the story of every \
                     village it passes, and the sea keeps all of them. ";

/// A folder with four references (modified an hour ago, so the cache takes them), a suspect
/// that copies two of them and a template; the cache folder beside them.
struct Case {
    dir: tempfile::TempDir,
}

impl Case {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("refs")).unwrap();
        for i in 0..4 {
            let body: String =
                (0..12).map(|j| format!("第{i}篇第{j}句：{ESSAY}Line {j} of reference {i} is its own. ")).collect();
            std::fs::write(dir.path().join(format!("refs/r{i}.txt")), body).unwrap();
            age(&dir.path().join(format!("refs/r{i}.txt")), 3600);
        }
        let r1 = std::fs::read_to_string(dir.path().join("refs/r1.txt")).unwrap();
        let r3 = std::fs::read_to_string(dir.path().join("refs/r3.txt")).unwrap();
        let part = |text: &str, from: usize, to: usize| -> String { text.chars().skip(from).take(to - from).collect() };
        let suspect = format!("{}\nThe suspect's own words come here.\n{}", part(&r1, 0, 400), part(&r3, 200, 600));
        std::fs::write(dir.path().join("suspect.txt"), suspect).unwrap();
        std::fs::write(dir.path().join("template.txt"), format!("第0篇第0句：{ESSAY}")).unwrap();
        Self { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn cache(&self) -> PathBuf {
        self.path("cache")
    }

    /// `twinspot compare -r refs -s suspect.txt --json - -q EXTRA…` with the cache in `cache`.
    fn compare_in(&self, cache: &Path, extra: &[&str]) -> Output {
        let mut args = vec!["compare", "-r", "refs", "-s", "suspect.txt", "--json", "-", "-q"];
        args.extend_from_slice(extra);
        command().current_dir(self.dir.path()).env("TWINSPOT_CACHE_DIR", cache).args(&args).output().unwrap()
    }

    /// (JSON, stderr) of a compare that succeeded.
    fn compare(&self, extra: &[&str]) -> (String, String) {
        ok(self.compare_in(&self.cache(), extra))
    }

    /// The JSON of the same compare without the cache.
    fn plain(&self, extra: &[&str]) -> String {
        let mut extra = extra.to_vec();
        extra.push("--no-cache");
        let (json, stderr) = self.compare(&extra);
        assert!(!stderr.contains("cache"), "--no-cache still spoke of the cache: {stderr}");
        json
    }
}

fn ok(output: Output) -> (String, String) {
    assert!(output.status.success(), "{}", streams(&output));
    (String::from_utf8(output.stdout).unwrap(), String::from_utf8(output.stderr).unwrap())
}

/// Sets the modification time of `path` to `secs_ago` seconds ago.
fn age(path: &Path, secs_ago: u64) {
    let when = SystemTime::now() - Duration::from_secs(secs_ago);
    std::fs::File::options().write(true).open(path).unwrap().set_modified(when).unwrap();
}

fn says(stderr: &str, from_cache: usize, read: usize) {
    let line = format!("note: references: {from_cache} from cache, {read} read");
    assert!(stderr.contains(&line), "wanted \"{line}\" on stderr:\n{stderr}");
}

/// Rows in the cache file(s) of `cache`.
fn cached_rows(cache: &Path) -> i64 {
    cache_files(cache)
        .iter()
        .map(|f| {
            rusqlite::Connection::open(f).unwrap().query_row("SELECT count(*) FROM files", [], |r| r.get::<_, i64>(0))
        })
        .map(Result::unwrap)
        .sum::<i64>()
}

fn cache_files(cache: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sqlite"))
        .collect();
    files.sort();
    files
}

#[test]
fn a_second_compare_reads_only_what_changed_and_reports_the_same_bytes() {
    let case = Case::new();
    let plain = case.plain(&[]);
    assert!(plain.contains("r1.txt") && plain.contains("\"passages\""), "{plain}");

    let (first, stderr) = case.compare(&[]);
    says(&stderr, 0, 4);
    assert_eq!(first, plain);
    let (second, stderr) = case.compare(&[]);
    says(&stderr, 4, 0);
    assert_eq!(second, plain);
    assert_eq!(cached_rows(&case.cache()), 4);

    // Changed content (and time): only that file is read.
    let r1 = case.path("refs/r1.txt");
    let changed = std::fs::read_to_string(&r1).unwrap().replace("reference 1", "reference one");
    std::fs::write(&r1, changed).unwrap();
    age(&r1, 1800);
    let (json, stderr) = case.compare(&[]);
    says(&stderr, 3, 1);
    assert_eq!(json, case.plain(&[]));
    assert_ne!(json, plain, "the change was not seen");

    // Only touched: read again once, then taken from the cache.
    age(&case.path("refs/r2.txt"), 900);
    says(&case.compare(&[]).1, 3, 1);
    says(&case.compare(&[]).1, 4, 0);

    // A file gone from the folder leaves the cache.
    std::fs::remove_file(case.path("refs/r0.txt")).unwrap();
    let (json, stderr) = case.compare(&[]);
    says(&stderr, 3, 0);
    assert_eq!(json, case.plain(&[]));
    assert_eq!(cached_rows(&case.cache()), 3);
}

#[test]
fn templates_and_a_file_both_suspect_and_reference_give_the_same_report() {
    let case = Case::new();
    let template = ["-t", "template.txt"];
    let plain = case.plain(&template);
    case.compare(&template);
    let (json, stderr) = case.compare(&template);
    says(&stderr, 4, 0);
    assert_eq!(json, plain);
    assert!(json.contains("\"template\""), "the template's text was not masked: {json}");

    // r2 given as suspect too: read as a suspect, the other three from the cache.
    let both = ["-s", "refs/r2.txt"];
    let plain = case.plain(&both);
    let (json, stderr) = case.compare(&both);
    says(&stderr, 3, 0);
    assert_eq!(json, plain);
}

#[test]
fn two_compares_at_once_share_the_cache_unharmed() {
    let case = Case::new();
    let plain = case.plain(&[]);
    let spawn = || {
        command()
            .current_dir(case.dir.path())
            .env("TWINSPOT_CACHE_DIR", case.cache())
            .args(["compare", "-r", "refs", "-s", "suspect.txt", "--json", "-", "-q"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let runs: Vec<_> = (0..3).map(|_| spawn()).collect();
    for run in runs {
        let (json, stderr) = ok(run.wait_with_output().unwrap());
        assert_eq!(json, plain);
        assert!(!stderr.contains("reference cache"), "{stderr}");
    }
    let (json, stderr) = case.compare(&[]);
    says(&stderr, 4, 0);
    assert_eq!(json, plain);
    assert_eq!(cache_files(&case.cache()).len(), 1);
}

#[test]
fn a_cache_that_cannot_be_used_or_is_damaged_changes_nothing_but_a_note() {
    let case = Case::new();
    let plain = case.plain(&[]);

    // The cache folder is a file.
    let not_a_folder = case.path("not-a-folder");
    std::fs::write(&not_a_folder, "x").unwrap();
    let (json, stderr) = ok(case.compare_in(&not_a_folder, &[]));
    assert_eq!(json, plain);
    assert_eq!(stderr.matches("note:").count(), 1, "{stderr}");
    assert!(stderr.contains("reference cache cannot be used"), "{stderr}");

    // The cache file is garbage: built anew, said once.
    case.compare(&[]);
    let file = cache_files(&case.cache()).remove(0);
    for suffix in ["-wal", "-shm"] {
        std::fs::remove_file(format!("{}{suffix}", file.display())).ok();
    }
    std::fs::write(&file, "this is not a database, not even the start of one, ".repeat(100)).unwrap();
    let (json, stderr) = case.compare(&[]);
    assert_eq!(json, plain);
    assert!(stderr.contains("damaged") && stderr.contains("built anew"), "{stderr}");
    says(&stderr, 0, 4);
    says(&case.compare(&[]).1, 4, 0);

    // The cache file cannot be opened (a folder in its place).
    for suffix in ["", "-wal", "-shm"] {
        std::fs::remove_file(format!("{}{suffix}", file.display())).ok();
    }
    std::fs::create_dir(&file).unwrap();
    let (json, stderr) = case.compare(&[]);
    assert_eq!(json, plain);
    assert!(stderr.contains("reference cache cannot be used"), "{stderr}");

    // A read-only cache folder (where permissions bind: not for the superuser).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let locked = case.path("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
        if std::fs::write(locked.join("probe"), "x").is_err() {
            let (json, stderr) = ok(case.compare_in(&locked, &[]));
            assert_eq!(json, plain);
            assert!(stderr.contains("reference cache cannot be used"), "{stderr}");
        }
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

//! Hostile content: documents that crash, overflow a stack, allocate without end or make
//! the engine's work explode. Each case generates its inputs, runs the real `twinspot`
//! under an address-space limit and asserts the exit code, one clear message on stderr
//! and in the JSON, the report written for the other documents, inputs untouched, the
//! peak memory (the process and its helpers) under 1 GB and the time within bounds.

use std::fs::File;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use twinspot::ingest::{Extractor, IngestError, IngestLimits, Isolation};

/// Address space the `twinspot` process under test may use (its helpers bound
/// themselves lower). Virtual, not resident: threads and allocators reserve plenty.
const ADDRESS_SPACE: u64 = 4 << 30;
/// Peak resident memory any case may reach: the process or any of its helpers.
const PEAK_LIMIT_KB: i64 = 1024 * 1024;

/// A scratch folder with the inputs of one case.
struct Case {
    dir: tempfile::TempDir,
    /// Where the report and the captured standard error go, apart from the inputs.
    out: tempfile::TempDir,
}

impl Case {
    fn new() -> Self {
        let case = Self { dir: tempfile::tempdir().expect("tempdir"), out: tempfile::tempdir().expect("tempdir") };
        // Every case has a clean suspect that copies a reference: its pair must survive.
        let source = "Rivers carry the rain of a whole valley down to the sea, and every town along the \
            banks was built where the water could be crossed on foot in summer. ";
        case.file("ok/source.txt", source.repeat(6).as_bytes());
        case.file("ok/copy.txt", format!("My own opening line here. {}", source.repeat(3)).as_bytes());
        case
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.path(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, bytes).expect("write input");
        path
    }

    /// Every input file and its bytes' length and hash, to prove nothing was written.
    fn snapshot(&self) -> Vec<(PathBuf, u64, String)> {
        let mut out = Vec::new();
        let mut stack = vec![self.dir.path().to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("list") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    let bytes = std::fs::read(&path).expect("read input");
                    out.push((path, bytes.len() as u64, twinspot::ingest::sha256_hex(&bytes)));
                }
            }
        }
        out.sort();
        out
    }
}

/// What one run of `twinspot` did.
struct Run {
    code: Option<i32>,
    stderr: String,
    report: serde_json::Value,
    peak_kb: i64,
    elapsed: Duration,
}

impl Run {
    fn document(&self, path_end: &str) -> &serde_json::Value {
        self.report["documents"]
            .as_array()
            .and_then(|docs| docs.iter().find(|d| d["path"].as_str().is_some_and(|p| p.ends_with(path_end))))
            .unwrap_or_else(|| panic!("no document {path_end}:\n{}", self.report))
    }

    /// The run finished, within `seconds` and under the memory limit, and the clean pair
    /// is in the report.
    fn assert_sound(&self, seconds: u64) {
        assert_eq!(self.code, Some(0), "exit code; stderr:\n{}", self.stderr);
        assert!(self.peak_kb < PEAK_LIMIT_KB, "peak {} MB; stderr:\n{}", self.peak_kb / 1024, self.stderr);
        assert!(self.elapsed < Duration::from_secs(seconds), "took {:?}; stderr:\n{}", self.elapsed, self.stderr);
        let (copy, source) = (self.document("ok/copy.txt")["id"].clone(), self.document("ok/source.txt")["id"].clone());
        let pairs = self.report["pairs"].as_array().expect("pairs");
        assert!(
            pairs.iter().any(|p| (p["a"] == copy && p["b"] == source) || (p["a"] == source && p["b"] == copy)),
            "the clean pair is missing:\n{:#}",
            self.report["pairs"]
        );
    }

    /// `path_end` failed with an error containing every one of `words`, on stderr and in
    /// the JSON alike.
    fn assert_error(&self, path_end: &str, words: &[&str]) {
        let error = self.document(path_end)["error"].as_str().unwrap_or_else(|| panic!("no error for {path_end}"));
        for word in words {
            assert!(error.contains(word), "{path_end}: {error:?} lacks {word:?}");
        }
        assert!(self.stderr.contains(error), "stderr lacks {error:?}:\n{}", self.stderr);
    }

    /// `path_end` was read and carries a warning containing `words`, on stderr too.
    fn assert_warning(&self, path_end: &str, words: &str) {
        let doc = self.document(path_end);
        assert!(doc["error"].is_null(), "{doc}");
        let warnings = doc["warnings"].as_array().unwrap_or_else(|| panic!("no warnings: {doc}"));
        let warning = warnings
            .iter()
            .filter_map(|w| w.as_str())
            .find(|w| w.contains(words))
            .unwrap_or_else(|| panic!("no warning with {words:?}: {doc}"));
        assert!(self.stderr.contains(warning), "stderr lacks {warning:?}:\n{}", self.stderr);
    }
}

/// Runs `twinspot compare ARGS --json report.json -q` in the case's folder under
/// [`ADDRESS_SPACE`], killing it after `seconds`; checks that no input changed.
#[allow(clippy::zombie_processes, reason = "the child is reaped by wait4, which also gives its rusage")]
fn compare(case: &Case, args: &[&str], seconds: u64) -> Run {
    let before = case.snapshot();
    let json = case.out.path().join("report.json");
    let stderr_path = case.out.path().join("stderr.txt");
    let stderr_file = File::create(&stderr_path).expect("stderr file");
    let mut command = crate::util::command();
    command
        .current_dir(case.dir.path())
        .arg("compare")
        .args(args)
        .arg("--json")
        .arg(&json)
        .arg("-q")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr_file);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let limit =
                libc::rlimit { rlim_cur: ADDRESS_SPACE as libc::rlim_t, rlim_max: ADDRESS_SPACE as libc::rlim_t };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let started = Instant::now();
    let child = command.spawn().expect("start twinspot");
    let pid = child.id() as libc::pid_t;
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: rusage is plain old data, valid when zeroed.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 on our own child, with structs owned here; the child is reaped here
        // and never through `Child`.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            break (status, usage);
        }
        assert!(done == 0, "wait4 failed");
        if started.elapsed() > Duration::from_secs(seconds + 30) {
            // SAFETY: our own, not yet reaped, child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = started.elapsed();
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let report = std::fs::read_to_string(&json)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_else(|| panic!("no report (status {status:#x}); stderr:\n{stderr}"));
    let after = case.snapshot();
    let changed: Vec<_> = after.iter().filter(|f| !before.contains(f)).map(|f| &f.0).collect();
    assert!(changed.is_empty() && after.len() == before.len(), "input files changed or appeared: {changed:?}");
    Run { code, stderr, report, peak_kb: usage.ru_maxrss, elapsed }
}

// ---------------------------------------------------------------- generated documents

/// A PDF of the given object bodies (object n is `bodies[n - 1]`), with a valid xref.
fn pdf(bodies: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in bodies.iter().enumerate() {
        offsets.push(out.len());
        writeln!(out, "{} 0 obj", i + 1).expect("write");
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    write!(out, "xref\n0 {}\n0000000000 65535 f \n", bodies.len() + 1).expect("write");
    for offset in offsets {
        writeln!(out, "{offset:010} 00000 n ").expect("write");
    }
    write!(out, "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", bodies.len() + 1).expect("write");
    out
}

fn stream(content: &[u8]) -> Vec<u8> {
    let mut out = format!("<< /Length {} >>\nstream\n", content.len()).into_bytes();
    out.extend_from_slice(content);
    out.extend_from_slice(b"\nendstream");
    out
}

fn font() -> Vec<u8> {
    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec()
}

/// A one-page PDF whose page shows `content` (with font F1 and the given extra resources).
fn one_page_pdf(content: &[u8], resources: &str, extra: Vec<Vec<u8>>) -> Vec<u8> {
    let mut bodies = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> {resources} >> \
             /Contents 4 0 R >>"
        )
        .into_bytes(),
        stream(content),
        font(),
    ];
    bodies.extend(extra);
    pdf(&bodies)
}

/// A .docx whose body is `body` (WordprocessingML).
fn docx(body: &str) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let types = r#"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#;
    w.start_file("[Content_Types].xml", options).expect("zip");
    w.write_all(types.as_bytes()).expect("zip");
    w.start_file("word/document.xml", options).expect("zip");
    write!(
        w,
        r#"<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
    )
    .expect("zip");
    w.finish().expect("zip").into_inner()
}

/// `n` Han characters of a fixed, varied sequence.
fn han(n: usize) -> String {
    (0..n).map(|i| char::from_u32(0x4E00 + (i as u32 * 7919) % 20_000).expect("han")).collect()
}

// ---------------------------------------------------------------- crashes in the helper

#[test]
fn pdf_with_recursive_xobjects_crashes_only_its_helper() {
    let case = Case::new();
    let xobject = b"<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /X1 6 0 R >> >> \
        /Length 6 >>\nstream\n/X1 Do\nendstream"
        .to_vec();
    case.file(
        "bad/xobject.pdf",
        &one_page_pdf(b"BT /F1 12 Tf 72 720 Td (hello) Tj ET /X1 Do", "/XObject << /X1 6 0 R >>", vec![xobject]),
    );
    let run = compare(&case, &["-s", "bad", "ok/copy.txt", "-r", "ok/source.txt"], 20);
    run.assert_sound(20);
    run.assert_error("bad/xobject.pdf", &["PDF", "crashed", "stack overflow", "xobject.pdf"]);
}

/// Tables nested 20,000 deep: the .docx reader walks its XML without recursion (the
/// reader it replaced overflowed its stack here, and only its helper process crashed), so
/// the cell's text is read.
#[test]
fn docx_with_deeply_nested_tables_is_read_without_recursion() {
    let case = Case::new();
    let depth = 20_000;
    let body = format!(
        "{}<w:p><w:r><w:t>deep</w:t></w:r></w:p>{}",
        "<w:tbl><w:tr><w:tc>".repeat(depth),
        "</w:tc></w:tr></w:tbl>".repeat(depth)
    );
    case.file("bad/nested.docx", &docx(&body));
    let run = compare(&case, &["-s", "bad", "ok/copy.txt", "-r", "ok/source.txt"], 20);
    run.assert_sound(20);
    let nested = run.document("bad/nested.docx");
    assert!(nested["error"].is_null(), "{nested:#}");
    assert_eq!(nested["chars"], 5, "{nested:#}");
}

#[test]
fn pdf_with_a_huge_content_stream_runs_out_of_memory_in_its_helper() {
    let case = Case::new();
    let mut content = b"BT /F1 12 Tf 72 720 Td ".to_vec();
    for _ in 0..1_500_000 {
        content.extend_from_slice(b"(abcdefghij klmnop) Tj 0 -1 Td ");
    }
    content.extend_from_slice(b"ET");
    case.file("bad/stream.pdf", &one_page_pdf(&content, "", Vec::new()));
    let run = compare(&case, &["-s", "bad", "ok/copy.txt", "-r", "ok/source.txt"], 40);
    run.assert_sound(40);
    run.assert_error("bad/stream.pdf", &["ran out of memory while reading the PDF", "stream.pdf"]);
}

#[test]
fn docx_of_huge_paragraphs_runs_out_of_memory_in_its_helper() {
    let case = Case::new();
    let paragraph = format!("<w:p><w:r><w:t>{}</w:t></w:r></w:p>", "word ".repeat(1_000_000));
    case.file("bad/paragraphs.docx", &docx(&paragraph.repeat(40)));
    let run = compare(&case, &["-s", "bad", "ok/copy.txt", "-r", "ok/source.txt"], 40);
    run.assert_sound(40);
    run.assert_error("bad/paragraphs.docx", &["ran out of memory while reading the DOCX", "paragraphs.docx"]);
}

#[test]
fn pdf_page_tree_that_loops_is_refused_at_once() {
    let case = Case::new();
    let looping = pdf(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        // The page tree's root names itself as its parent.
        b"<< /Type /Pages /Parent 2 0 R /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>".to_vec(),
        stream(b"BT /F1 12 Tf 72 720 Td (hello) Tj ET"),
        font(),
    ]);
    case.file("bad/loop.pdf", &looping);
    let run = compare(&case, &["-s", "bad", "ok/copy.txt", "-r", "ok/source.txt"], 10);
    run.assert_sound(10);
    run.assert_error("bad/loop.pdf", &["corrupt PDF", "page tree loops"]);
}

// ---------------------------------------------------------------- the engine's own bounds

#[test]
fn single_line_chinese_text_of_tens_of_megabytes() {
    let case = Case::new();
    // 9 M characters (27 MB) on one line: more than a document may take, so only a
    // prefix is compared, with a warning.
    let line = han(1000).repeat(9000);
    case.file("big/line.txt", line.as_bytes());
    let run = compare(&case, &["-s", "big", "ok/copy.txt", "-r", "ok/source.txt"], 60);
    run.assert_sound(60);
    run.assert_warning("big/line.txt", "only the first 8000000 of its 9000000 characters are compared");
}

#[test]
fn repeated_cjk_block_and_its_copy() {
    let case = Case::new();
    let block = format!("{}\n", han(200)).repeat(20_000);
    case.file("big/block.txt", block.as_bytes());
    case.file("refs/block_copy.txt", block.as_bytes());
    let run = compare(&case, &["-s", "big", "ok/copy.txt", "-r", "refs", "ok/source.txt"], 60);
    run.assert_sound(60);
    let (a, b) = (&run.document("big/block.txt")["id"], &run.document("refs/block_copy.txt")["id"]);
    let pair = run.report["pairs"].as_array().and_then(|p| p.iter().find(|p| &p["a"] == a && &p["b"] == b));
    assert_eq!(pair.map(|p| p["score"].as_f64()), Some(Some(1.0)), "{:#}", run.report["pairs"]);
}

#[test]
fn text_whose_nfkc_form_expands_eighteenfold() {
    let case = Case::new();
    // U+FDFA becomes 18 characters under NFKC: 16 MB of it would be 290 M characters.
    case.file("big/fdfa.txt", "\u{FDFA}".repeat(5_500_000).as_bytes());
    let run = compare(&case, &["-s", "big", "ok/copy.txt", "-r", "ok/source.txt"], 60);
    run.assert_sound(60);
    run.assert_warning("big/fdfa.txt", "characters are compared");
}

#[test]
fn repeated_sentences_alone_against_a_copy_and_against_their_kind() {
    let case = Case::new();
    let text = "The quick brown fox jumps over the lazy dog. ".repeat(300_000);
    let kind = format!("{}{}", "A slow red fox walks under the busy dog. ".repeat(299_990), &text[..450]);
    case.file("big/repeated.txt", text.as_bytes());
    case.file("refs/repeated_copy.txt", text.as_bytes());
    case.file("refs/repeated_kind.txt", kind.as_bytes());
    let run = compare(&case, &["-s", "big", "ok/copy.txt", "-r", "refs", "ok/source.txt"], 60);
    run.assert_sound(60);
    let id = |p: &str| run.document(p)["id"].clone();
    let (a, copy) = (id("big/repeated.txt"), id("refs/repeated_copy.txt"));
    let pair = run.report["pairs"].as_array().and_then(|p| p.iter().find(|p| p["a"] == a && p["b"] == copy));
    assert_eq!(pair.map(|p| p["score"].as_f64()), Some(Some(1.0)), "an identical copy reads 100 %");
}

#[test]
fn twenty_thousand_identical_tiny_files_all_against_all() {
    let case = Case::new();
    let essay = "Same tiny essay about rivers and the sea, copied by everyone in the class.\n";
    for i in 0..20_000 {
        case.file(&format!("class/s{i:05}.txt"), essay.as_bytes());
    }
    // The clean pair sits in the same folder.
    for name in ["copy.txt", "source.txt"] {
        std::fs::copy(case.path("ok").join(name), case.path("class").join(name)).expect("copy");
    }
    std::fs::remove_dir_all(case.path("ok")).expect("rm");
    let run = compare(&case, &["--all", "class"], 90);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.peak_kb < PEAK_LIMIT_KB, "peak {} MB", run.peak_kb / 1024);
    assert!(run.elapsed < Duration::from_secs(90), "{:?}", run.elapsed);
    let documents = run.report["documents"].as_array().expect("documents");
    assert_eq!(documents.len(), 20_002);
    let pairs = run.report["pairs"].as_array().expect("pairs");
    assert!(!pairs.is_empty() && pairs.len() <= 100_000, "{} pairs", pairs.len());
    let (copy, source) = (&run.document("class/copy.txt")["id"], &run.document("class/source.txt")["id"]);
    assert!(pairs.iter().any(|p| &p["a"] == copy && &p["b"] == source), "the clean pair is missing");
    // Every identical file is tied to the first of them: the group holds together.
    let grouped: std::collections::BTreeSet<u64> = pairs
        .iter()
        .filter(|p| p["score"].as_f64().is_some_and(|s| s > 0.95))
        .flat_map(|p| [p["a"].as_u64(), p["b"].as_u64()])
        .flatten()
        .collect();
    assert!(grouped.len() >= 19_990, "{} files are in an identical pair", grouped.len());
}

// ---------------------------------------------------------------- time limits as values

#[test]
fn timeouts_of_zero_nan_and_infinity_are_sane() {
    for secs in [0.0, f64::NAN, f64::INFINITY, -1.0, f64::MAX] {
        let limits = IngestLimits { timeout_secs: secs, ..IngestLimits::default() };
        let applied = limits.effective_timeout_secs();
        assert!(applied.is_finite() && applied > 0.0 && applied <= 86_400.0, "{secs} → {applied}");
    }
    let helper = Isolation::helper(env!("CARGO_BIN_EXE_twinspot"), &["__extract-worker"]);
    let extractor = Extractor::new(Some(&helper));
    let pdf = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/wrap.pdf");
    for secs in [0.0, f64::NAN, f64::INFINITY] {
        let limits = IngestLimits { timeout_secs: secs, ..IngestLimits::default() };
        let started = Instant::now();
        let text = extractor.extract(&pdf, &limits).map(|e| e.text).unwrap_or_else(|e| panic!("{secs}: {e:#}"));
        assert!(text.contains("Section 1"), "{text}");
        assert!(started.elapsed() < Duration::from_secs(20));
    }
    // A time limit far too short: the helper is stopped and the file gets its error.
    let limits = IngestLimits { timeout_secs: 1e-6, ..IngestLimits::default() };
    let error = extractor.extract(&pdf, &limits).map(|_| ()).expect_err("too short");
    assert!(matches!(error, IngestError::TimedOut { .. }), "{error:#}");
}

//! Ingest on real and hostile files: every format's text, and a clear per-file error
//! (never a panic, a hang or a write) for broken, hostile and unreadable inputs.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use twinspot::ingest::{Format, IngestError, IngestLimits, extract};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// A scratch folder; files put there are made read-only, as inputs always are.
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Self {
        Self { dir: tempfile::tempdir().expect("temp dir") }
    }

    /// Writes `bytes` as `name` and makes it read-only.
    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.dir.path().join(name);
        fs::write(&path, bytes).expect("write scratch file");
        read_only(&path);
        path
    }

    /// A read-only copy of the fixture `name`, under `as_name`.
    fn copy(&self, name: &str, as_name: &str) -> PathBuf {
        self.file(as_name, &fs::read(data(name)).expect("fixture"))
    }
}

fn read_only(path: &Path) {
    let mut perms = fs::metadata(path).expect("metadata").permissions();
    perms.set_readonly(true);
    fs::set_permissions(path, perms).expect("chmod a-w");
}

/// Extracts `path` and checks that the file was not touched.
fn run(path: &Path, limits: &IngestLimits) -> Result<twinspot::ingest::Extracted, IngestError> {
    let before = fs::read(path).ok();
    let modified = fs::metadata(path).and_then(|m| m.modified()).ok();
    let result = extract(path, limits);
    assert_eq!(fs::read(path).ok(), before, "input changed: {}", path.display());
    assert_eq!(fs::metadata(path).and_then(|m| m.modified()).ok(), modified, "input touched: {}", path.display());
    result
}

fn text_of(path: &Path) -> String {
    match run(path, &IngestLimits::default()) {
        Ok(e) => e.text,
        Err(e) => panic!("expected text from {}, got error: {e:#}", path.display()),
    }
}

/// Compares texts and prints both in full when they differ.
fn assert_same(got: &str, want: &str, what: &str) {
    if got != want {
        panic!("{what}: extracted text differs\n--- got ---\n{got}\n--- want ---\n{want}\n---");
    }
}

fn error_of(path: &Path, limits: &IngestLimits) -> IngestError {
    match run(path, limits) {
        Ok(e) => panic!("expected an error for {}, got text: {:?}", path.display(), e.text),
        Err(e) => {
            assert_eq!(e.path(), path, "the error names the file");
            let shown = format!("{e:#}");
            assert!(shown.ends_with(&path.display().to_string()), "message ends with the path: {shown}");
            e
        }
    }
}

// ---------------------------------------------------------------- formats

const SAMPLE_TEXT: &str = "页眉 Header text\n\
第一段：软件包管理系统可以帮助用户安装和删除软件。\n\
Second paragraph with a link and a note.\n\
Tracked: kept inserted & done\n\
单元格一\ncell two\ncell three\n单元格四\n\
Tab\tand\nbreak\n\
\n\
最后一段。\n\
脚注：a footnote.\n\
Footer text 页脚\n";

#[test]
fn docx_paragraphs_tables_notes_headers_in_order() {
    let s = Scratch::new();
    let path = s.copy("sample.docx", "sample.docx");
    let got = run(&path, &IngestLimits::default()).expect("docx");
    assert_eq!(got.format, Format::Docx);
    assert_same(&got.text, SAMPLE_TEXT, "sample.docx");
}

#[test]
fn odt_paragraphs_in_order() {
    let s = Scratch::new();
    let path = s.copy("sample.odt", "sample.odt");
    let got = run(&path, &IngestLimits::default()).expect("odt");
    assert_eq!(got.format, Format::Odt);
    // The same document saved by LibreOffice; ODF keeps headers/footers in styles.xml,
    // which is not read.
    let want: String = SAMPLE_TEXT
        .lines()
        .filter(|l| !l.contains("Header text") && !l.contains("Footer text"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_same(&got.text, &want, "sample.odt");
}

#[test]
fn pdf_wrapped_lines_joined_headers_and_page_numbers_dropped() {
    let s = Scratch::new();
    let path = s.copy("wrap.pdf", "wrap.pdf");
    let got = run(&path, &IngestLimits::default()).expect("pdf");
    assert_eq!(got.format, Format::Pdf);
    let want = fs::read_to_string(data("wrap.txt")).expect("wrap.txt");
    assert_same(&got.text, &want, "wrap.pdf");
}

#[test]
fn encrypted_pdf_is_reported() {
    let s = Scratch::new();
    let path = s.copy("encrypted.pdf", "encrypted.pdf");
    let e = error_of(&path, &IngestLimits::default());
    assert!(matches!(e, IngestError::Encrypted { format: Format::Pdf, .. }), "{e:#}");
}

#[test]
fn truncated_pdf_gives_an_error_or_text() {
    let s = Scratch::new();
    let bytes = fs::read(data("wrap.pdf")).expect("fixture");
    for cut in [10, bytes.len() / 3, bytes.len() / 2, bytes.len() - 200] {
        let path = s.file(&format!("cut{cut}.pdf"), &bytes[..cut]);
        match run(&path, &IngestLimits::default()) {
            Ok(e) => assert_eq!(e.format, Format::Pdf),
            Err(e) => assert!(
                matches!(e, IngestError::Corrupt { format: Format::Pdf, .. } | IngestError::Panicked { .. }),
                "{e:#}"
            ),
        }
    }
}

#[test]
fn corrupt_pdf_bytes_never_escape() {
    let s = Scratch::new();
    let mut bytes = fs::read(data("wrap.pdf")).expect("fixture");
    let n = bytes.len();
    for i in (n / 10..n - 10).step_by(97) {
        bytes[i] = bytes[i].wrapping_mul(31).wrapping_add(7);
    }
    let path = s.file("corrupt.pdf", &bytes);
    run(&path, &IngestLimits::default()).ok();
}

/// A PDF without a MediaBox: pdf-extract panics on it ("MediaBox"); the page falls
/// back to lopdf and the file still yields its text.
#[test]
fn pdf_that_makes_pdf_extract_panic_is_contained() {
    let s = Scratch::new();
    let path = s.file("no-mediabox.pdf", &minimal_pdf(false, "Hello contained world"));
    match run(&path, &IngestLimits::default()) {
        Ok(e) => {
            assert!(e.text.contains("Hello contained world"), "{:?}", e.text);
            assert!(e.warnings.iter().any(|w| w.to_string().contains("pdf-extract failed")), "{:?}", e.warnings);
        }
        Err(e) => assert!(matches!(e, IngestError::Panicked { .. } | IngestError::Corrupt { .. }), "{e:#}"),
    }
    let ok = s.file("ok.pdf", &minimal_pdf(true, "Hello plain world"));
    assert_eq!(text_of(&ok), "Hello plain world\n");
}

/// A one-page PDF with one line of Helvetica text, valid xref offsets.
fn minimal_pdf(with_media_box: bool, text: &str) -> Vec<u8> {
    let stream = format!("BT /F1 12 Tf 72 720 Td ({text}) Tj ET");
    let media = if with_media_box { "/MediaBox [0 0 612 792] " } else { "" };
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        format!("<< /Type /Page /Parent 2 0 R {media}/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>"),
        format!("<< /Length {} >>\nstream\n{stream}\nendstream", stream.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        write!(out, "{} 0 obj\n{body}\nendobj\n", i + 1).expect("write");
    }
    let xref = out.len();
    write!(out, "xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).expect("write");
    for off in offsets {
        writeln!(out, "{off:010} 00000 n ").expect("write");
    }
    write!(out, "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).expect("write");
    out
}

#[test]
fn text_encodings_detected_and_bom_removed() {
    let s = Scratch::new();
    let zh = "这是一个用于测试编码检测的中文句子，软件包管理系统可以帮助用户安装和删除软件。\n第二行。\r\n";
    let tw = "這是一個用於測試編碼偵測的中文句子，軟體套件管理系統可以幫助使用者安裝和移除軟體。\n";
    let ja = "これは文字コードの判定を試すための日本語の文章です。ソフトウェアを管理します。\n";
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("utf8.txt", zh.as_bytes().to_vec(), zh),
        ("bom.md", [b"\xef\xbb\xbf".as_slice(), zh.as_bytes()].concat(), zh),
        ("utf16le.txt", [vec![0xff, 0xfe], zh.encode_utf16().flat_map(u16::to_le_bytes).collect()].concat(), zh),
        ("utf16be.txt", [vec![0xfe, 0xff], zh.encode_utf16().flat_map(u16::to_be_bytes).collect()].concat(), zh),
        ("gbk.txt", encoding_rs::GBK.encode(zh).0.into_owned(), zh),
        ("gb18030.txt", encoding_rs::GB18030.encode(zh).0.into_owned(), zh),
        ("big5.txt", encoding_rs::BIG5.encode(tw).0.into_owned(), tw),
        ("sjis.txt", encoding_rs::SHIFT_JIS.encode(ja).0.into_owned(), ja),
    ];
    for (name, bytes, want) in cases {
        let path = s.file(name, &bytes);
        assert_same(&text_of(&path), want, name);
    }
}

#[test]
fn html_visible_text_with_meta_charset() {
    let s = Scratch::new();
    let page = "<!DOCTYPE html>\n<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb2312\">\
                <title>标题</title><style>p { color: red }</style><script>document.write('<p>隐藏</p>')</script></head>\
                <body><h1>网页&amp;标题</h1><p>第一段\n   文字&lt;b&gt;，&quot;引号&quot;&nbsp;结束。</p>\
                <!-- 注释 --><div>第二段<br>换行</div><ul><li>甲</li><li>乙&#x4E19;</li></ul></body></html>";
    let path = s.file("page.htm", &encoding_rs::GBK.encode(page).0);
    let got = run(&path, &IngestLimits::default()).expect("html");
    assert_eq!(got.format, Format::Html);
    assert_same(&got.text, "网页&标题\n第一段 文字<b>，\"引号\"\u{a0}结束。\n第二段\n换行\n甲\n乙丙\n", "page.htm");
}

#[test]
fn content_decides_over_extension() {
    let s = Scratch::new();
    let docx_as_txt = s.copy("sample.docx", "really-a-docx.txt");
    let got = run(&docx_as_txt, &IngestLimits::default()).expect("docx named .txt");
    assert_eq!(got.format, Format::Docx);
    assert!(got.warnings.iter().any(|w| w.to_string().contains("named .txt")), "{:?}", got.warnings);
    let pdf_no_ext = s.copy("wrap.pdf", "wrap");
    assert_eq!(run(&pdf_no_ext, &IngestLimits::default()).map(|e| e.format).ok(), Some(Format::Pdf));
    let text_as_pdf = s.file("notes.pdf", "plain notes, not a PDF\n".as_bytes());
    assert_eq!(text_of(&text_as_pdf), "plain notes, not a PDF\n");
}

#[test]
fn cli_extract_prints_exactly_the_text() {
    let s = Scratch::new();
    let path = s.copy("sample.docx", "sample.docx");
    let out = crate::util::command().arg("extract").arg(&path).output().expect("run twinspot");
    assert!(out.status.success());
    assert_same(&String::from_utf8_lossy(&out.stdout), SAMPLE_TEXT, "twinspot extract");
    let bad = s.file("bad.docx", b"PK\x03\x04 this is no zip");
    let out = crate::util::command().arg("extract").arg(&bad).output().expect("run twinspot");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("corrupt DOCX file") && err.contains("bad.docx"), "{err}");
}

// ---------------------------------------------------------------- hostile files

/// A ZIP archive from (name, bytes) pairs, deflated.
fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in entries {
        w.start_file(*name, options).expect("zip entry");
        w.write_all(data).expect("zip write");
    }
    w.finish().expect("zip finish").into_inner()
}

fn small_limits() -> IngestLimits {
    IngestLimits { max_uncompressed_bytes: 1 << 20, max_archive_entries: 100, ..IngestLimits::default() }
}

#[test]
fn zip_bomb_docx_is_refused() {
    let s = Scratch::new();
    let zeros = vec![b' '; 8 << 20];
    let bomb = zip_of(&[("[Content_Types].xml", b"<Types/>"), ("word/document.xml", &zeros)]);
    assert!(bomb.len() < 100_000);
    let path = s.file("bomb.docx", &bomb);
    let e = error_of(&path, &small_limits());
    assert!(matches!(e, IngestError::ArchiveTooLarge { format: Format::Docx, .. }), "{e:#}");
}

/// The declared sizes lie (say 100 bytes): the actual inflation is bounded anyway.
#[test]
fn zip_bomb_with_lying_sizes_is_refused() {
    let s = Scratch::new();
    let big = vec![b'a'; 4 << 20];
    let mut bomb = zip_of(&[("content.xml", &big), ("mimetype", b"application/vnd.oasis.opendocument.text")]);
    // Patch "uncompressed size" in the local header (offset 22) and the central
    // directory entry (offset 24) of content.xml to 100.
    let fake = 100u32.to_le_bytes();
    bomb[22..26].copy_from_slice(&fake);
    let central = bomb.windows(4).position(|w| w == b"PK\x01\x02").expect("central directory");
    bomb[central + 24..central + 28].copy_from_slice(&fake);
    let path = s.file("liar.odt", &bomb);
    let e = error_of(&path, &small_limits());
    assert!(matches!(e, IngestError::ArchiveTooLarge { .. } | IngestError::Corrupt { .. }), "{e:#}");
}

#[test]
fn zip_with_too_many_entries_is_refused() {
    let s = Scratch::new();
    let names: Vec<String> = (0..150).map(|i| format!("word/part{i}.xml")).collect();
    let entries: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), b"<x/>".as_slice())).collect();
    let path = s.file("many.docx", &zip_of(&entries));
    let e = error_of(&path, &small_limits());
    assert!(matches!(e, IngestError::ArchiveTooLarge { .. }), "{e:#}");
}

#[test]
fn corrupt_zip_posing_as_docx_and_odt() {
    let s = Scratch::new();
    let good = fs::read(data("sample.docx")).expect("fixture");
    for (name, bytes) in [
        ("garbage.docx", b"PK\x03\x04\x14\x00garbage garbage".to_vec()),
        ("half.docx", good[..good.len() / 2].to_vec()),
        ("garbage.odt", b"PK\x03\x04 not really".to_vec()),
        ("random.docx", vec![0x9c; 300]),
    ] {
        let path = s.file(name, &bytes);
        let e = error_of(&path, &IngestLimits::default());
        assert!(matches!(e, IngestError::Corrupt { .. }), "{name}: {e:#}");
    }
}

#[test]
fn random_bytes_under_a_text_extension_are_binary() {
    let s = Scratch::new();
    let mut x: u32 = 12345;
    let bytes: Vec<u8> = (0..4096)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        })
        .collect();
    let path = s.file("noise.txt", &bytes);
    let e = error_of(&path, &IngestLimits::default());
    assert!(matches!(e, IngestError::Binary { .. }), "{e:#}");
    let png = s.file("image.txt", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    let e = error_of(&png, &IngestLimits::default());
    assert!(format!("{e:#}").contains("PNG"), "{e:#}");
}

#[test]
fn empty_file() {
    let s = Scratch::new();
    let path = s.file("empty.txt", b"");
    let e = error_of(&path, &IngestLimits::default());
    assert!(matches!(e, IngestError::Empty { .. }), "{e:#}");
}

#[test]
fn directory_missing_file_and_broken_link() {
    let s = Scratch::new();
    let dir = s.dir.path().join("folder.txt");
    fs::create_dir(&dir).expect("mkdir");
    let e = error_of(&dir, &IngestLimits::default());
    assert!(matches!(e, IngestError::NotAFile { .. }), "{e:#}");
    let missing = s.dir.path().join("missing.txt");
    let e = error_of(&missing, &IngestLimits::default());
    assert!(matches!(e, IngestError::NotFound { .. }), "{e:#}");
    #[cfg(unix)]
    {
        let link = s.dir.path().join("dangling.docx");
        std::os::unix::fs::symlink(s.dir.path().join("gone.docx"), &link).expect("symlink");
        let e = error_of(&link, &IngestLimits::default());
        assert!(matches!(e, IngestError::BrokenLink { .. }), "{e:#}");
    }
}

#[cfg(unix)]
#[test]
fn file_without_read_permission() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new();
    let path = s.file("secret.txt", b"you cannot read me");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).expect("chmod 000");
    if fs::File::open(&path).is_ok() {
        println!("note: running with privileges that read any file (root?): the permission assertion is skipped");
        return;
    }
    let e = error_of(&path, &IngestLimits::default());
    assert!(matches!(e, IngestError::Io { .. }), "{e:#}");
    assert!(format!("{e:#}").contains("ermission denied"), "{e:#}");
}

#[test]
fn too_large_file_is_refused_with_the_limit() {
    let s = Scratch::new();
    let path = s.file("big.txt", &vec![b'a'; 5000]);
    let limits = IngestLimits { max_file_bytes: 1000, ..IngestLimits::default() };
    let e = error_of(&path, &limits);
    assert!(matches!(e, IngestError::TooLarge { bytes: 5000, limit: 1000, .. }), "{e:#}");
}

#[test]
fn time_bound_abandons_extraction() {
    let s = Scratch::new();
    let path = s.copy("wrap.pdf", "slow.pdf");
    let limits = IngestLimits { timeout_secs: 1e-6, ..IngestLimits::default() };
    let start = Instant::now();
    let e = error_of(&path, &limits);
    assert!(matches!(e, IngestError::TimedOut { .. }), "{e:#}");
    assert!(start.elapsed() < Duration::from_secs(5));
}

/// Many files at once on the rayon pool (as the engine reads them): every one gets
/// its text or its own error.
#[test]
fn parallel_extraction_each_file_its_own_result() {
    use rayon::prelude::*;
    let s = Scratch::new();
    let mut paths = Vec::new();
    for i in 0..6 {
        paths.push(s.copy("wrap.pdf", &format!("w{i}.pdf")));
        paths.push(s.copy("sample.docx", &format!("d{i}.docx")));
        paths.push(s.file(&format!("bad{i}.pdf"), b"%PDF-1.4 broken"));
    }
    let results: Vec<_> = paths.par_iter().map(|p| extract(p, &IngestLimits::default())).collect();
    for (p, r) in paths.iter().zip(results) {
        let bad = p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("bad"));
        assert_eq!(r.is_err(), bad, "{}: {:?}", p.display(), r.err().map(|e| format!("{e:#}")));
    }
}

// ---------------------------------------------------------------- properties

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random bytes behind every extractor's signature never panic or hang.
    #[test]
    fn random_bytes_never_escape(body in proptest::collection::vec(any::<u8>(), 0..2048), which in 0usize..7) {
        let (prefix, ext): (&[u8], &str) = [
            (b"".as_slice(), "txt"),
            (b"%PDF-1.4\n".as_slice(), "pdf"),
            (b"PK\x03\x04".as_slice(), "docx"),
            (b"PK\x03\x04".as_slice(), "odt"),
            (b"<html><body>".as_slice(), "html"),
            (b"\xff\xfe".as_slice(), "md"),
            (b"".as_slice(), "bin"),
        ][which];
        let s = Scratch::new();
        let path = s.file(&format!("random.{ext}"), &[prefix, &body].concat());
        let limits = IngestLimits { timeout_secs: 10.0, ..small_limits() };
        let start = Instant::now();
        if let Err(e) = run(&path, &limits) {
            prop_assert_eq!(e.path(), path.as_path());
        }
        prop_assert!(start.elapsed() < Duration::from_secs(15));
    }

    /// Real documents with some bytes changed: text or an error, never a crash.
    #[test]
    fn mutated_documents_never_escape(seed in any::<u64>(), which in 0usize..3, flips in 1usize..40) {
        let name = ["sample.docx", "sample.odt", "wrap.pdf"][which];
        let mut bytes = fs::read(data(name)).expect("fixture");
        let mut x = seed | 1;
        for _ in 0..flips {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            let i = (x as usize) % bytes.len();
            bytes[i] = (x >> 32) as u8;
        }
        let s = Scratch::new();
        let path = s.file(name, &bytes);
        let limits = IngestLimits { timeout_secs: 10.0, ..IngestLimits::default() };
        if let Err(e) = run(&path, &limits) {
            prop_assert_eq!(e.path(), path.as_path());
        }
    }
}

#[test]
fn docx_with_only_the_document_part() {
    let s = Scratch::new();
    let doc = b"<?xml version=\"1.0\"?><w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body><w:p><w:r><w:t>only the document part</w:t></w:r></w:p></w:body></w:document>";
    let path = s.file("bare.docx", &zip_of(&[("word/document.xml", doc)]));
    assert_eq!(text_of(&path), "only the document part\n");
}

// ---------------------------------------------------------------- hidden text

/// A .docx (no styles part unless given) whose body is `body` (the inside of `w:body`).
fn docx_of(body: &str, styles: Option<&str>) -> Vec<u8> {
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
    );
    let mut entries: Vec<(&str, &[u8])> = vec![("word/document.xml", document.as_bytes())];
    if let Some(styles) = styles {
        entries.push(("word/styles.xml", styles.as_bytes()));
    }
    zip_of(&entries)
}

/// What a .docx reader must leave out and keep: deleted and moved-away text, field codes
/// and text boxes out; inserted and moved-in text, hyperlinks, field results, content
/// controls (a run standing directly in a block control ends its line), tabs and breaks
/// in, each paragraph on its line, a table cell by cell.
#[test]
fn docx_text_is_what_the_document_shows() {
    let s = Scratch::new();
    let body = r#"<w:p><w:r><w:t xml:space="preserve">kept </w:t></w:r><w:del><w:r><w:delText>deleted </w:delText></w:r></w:del><w:ins><w:r><w:t xml:space="preserve">inserted </w:t></w:r></w:ins><w:moveFrom><w:r><w:t>gone </w:t></w:r></w:moveFrom><w:moveTo><w:r><w:t xml:space="preserve">moved </w:t></w:r></w:moveTo><w:hyperlink><w:r><w:t xml:space="preserve">link </w:t></w:r></w:hyperlink><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGE</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>7</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:tab/><w:t>tab</w:t><w:br/><w:t>line</w:t></w:r></w:p><w:p><w:r><w:drawing><wp:inline xmlns:wp="wp"><w:txbxContent><w:p><w:r><w:t>in a text box</w:t></w:r></w:p></w:txbxContent></wp:inline></w:drawing><w:t>after the box</w:t></w:r></w:p><w:sdt><w:sdtContent><w:r><w:t>control run</w:t></w:r></w:sdtContent></w:sdt><w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell one</w:t></w:r></w:p></w:tc><w:tc><w:p><w:sdt><w:sdtContent><w:r><w:t>cell two</w:t></w:r></w:sdtContent></w:sdt></w:p></w:tc></w:tr></w:tbl><w:sectPr/>"#;
    let path = s.file("shown.docx", &docx_of(body, None));
    assert_eq!(text_of(&path), "kept inserted moved link 7\ttab\nline\nafter the box\ncontrol run\ncell one\ncell two\n");
}

#[test]
fn hidden_docx_runs_are_left_out_of_the_text_and_flagged() {
    use twinspot::model::FlagKind;
    use twinspot::model::Notice;
    let s = Scratch::new();
    let styles = r#"<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="character" w:styleId="Quiet"><w:rPr><w:vanish/></w:rPr></w:style><w:style w:type="character" w:styleId="Quieter"><w:basedOn w:val="Quiet"/></w:style></w:styles>"#;
    let body = r#"<w:p><w:r><w:t xml:space="preserve">The quick </w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t>junk1 </w:t></w:r><w:r><w:t xml:space="preserve">brown </w:t></w:r><w:r><w:rPr><w:color w:val="FFFFFF"/></w:rPr><w:t>junk2 </w:t></w:r><w:r><w:t xml:space="preserve">fox </w:t></w:r><w:r><w:rPr><w:sz w:val="2"/></w:rPr><w:t>junk3 </w:t></w:r><w:r><w:t xml:space="preserve">jumps </w:t></w:r><w:r><w:rPr><w:rStyle w:val="Quieter"/></w:rPr><w:t>junk4 </w:t></w:r><w:r><w:t>over.</w:t></w:r></w:p>"#;
    let path = s.file("hidden.docx", &docx_of(body, Some(styles)));
    let got = run(&path, &IngestLimits::default()).expect("docx");
    assert_eq!(got.text, "The quick brown fox jumps over.\n");
    let flags: Vec<_> = got
        .warnings
        .iter()
        .filter_map(|w| match w {
            Notice::Flag(f) => Some(f.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(flags.len(), 1, "{:?}", got.warnings);
    assert_eq!((flags[0].kind, flags[0].count), (FlagKind::HiddenText, 24));
    assert_eq!(flags[0].spans[0], [10, 10], "where the first hidden run was taken out");
}

#[test]
fn a_docx_with_a_hidden_field_code_is_not_flagged() {
    use twinspot::model::Notice;
    let s = Scratch::new();
    let body = r#"<w:p><w:r><w:rPr><w:vanish/></w:rPr><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:instrText xml:space="preserve"> XE "term" </w:instrText></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t>Visible words.</w:t></w:r></w:p>"#;
    let path = s.file("field.docx", &docx_of(body, None));
    let got = run(&path, &IngestLimits::default()).expect("docx");
    assert_eq!(got.text, "Visible words.\n");
    assert!(!got.warnings.iter().any(|w| matches!(w, Notice::Flag(_))), "{:?}", got.warnings);
}

/// A one-page PDF (US letter) drawing `stream` with Helvetica as /F1 and, when `image`, a
/// 1×1 grey image as /Im1.
fn pdf_of(stream: &str, image: bool) -> Vec<u8> {
    let xobject = if image { "/XObject << /Im1 6 0 R >> " } else { "" };
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> {xobject}>> /Contents 4 0 R >>"
        ),
        format!("<< /Length {} >>\nstream\n{stream}\nendstream", stream.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    if image {
        objects.push(
            "<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 1 >>\nstream\n\u{7f}\nendstream"
                .to_string(),
        );
    }
    pdf_from(&objects)
}

/// A one-page PDF whose page draws `stream` and may call the form XObject `/Fm1`, which
/// draws `form` and may call the form `/Fm2`, which draws `inner`.
fn pdf_with_forms(stream: &str, form: &str, inner: &str) -> Vec<u8> {
    let body =
        |dict: &str, content: &str| format!("<< {dict} /Length {} >>\nstream\n{content}\nendstream", content.len());
    let objects = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /Fm1 6 0 R >> >> /Contents 4 0 R >>".to_string(),
        body("", stream),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
        body("/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /Fm2 7 0 R >> >>", form),
        body("/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >>", inner),
    ];
    pdf_from(&objects)
}

/// A PDF of `objects` (numbered from 1), with its cross-reference table.
fn pdf_from(objects: &[String]) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        write!(out, "{} 0 obj\n{body}\nendobj\n", i + 1).expect("write");
    }
    let xref = out.len();
    write!(out, "xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).expect("write");
    for off in offsets {
        writeln!(out, "{off:010} 00000 n ").expect("write");
    }
    write!(out, "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).expect("write");
    out
}

/// The flags ingest found in `path`, as (kind, count).
fn file_flags(path: &Path) -> Vec<(twinspot::model::FlagKind, u32)> {
    let got = run(path, &IngestLimits::default()).expect("readable");
    got.warnings
        .iter()
        .filter_map(|w| match w {
            twinspot::model::Notice::Flag(f) => Some((f.kind, f.count)),
            _ => None,
        })
        .collect()
}

#[test]
fn pdf_text_off_the_page_or_too_small_is_hidden_and_image_pages_are_said() {
    use twinspot::model::FlagKind;
    let s = Scratch::new();
    let hidden = s.file(
        "hidden.pdf",
        &pdf_of("BT /F1 12 Tf 72 720 Td (Seen words) Tj ET BT /F1 12 Tf 2000 720 Td (Away) Tj ET BT /F1 0.5 Tf 72 600 Td (Tiny) Tj ET", false),
    );
    let text = text_of(&hidden);
    assert!(text.contains("Seen words") && !text.contains("Away") && !text.contains("Tiny"), "{text:?}");
    assert_eq!(file_flags(&hidden), vec![(FlagKind::HiddenText, 8)]);
    let scan = s.file("scan.pdf", &pdf_of("q 612 0 0 792 0 0 cm /Im1 Do Q", true));
    assert_eq!(file_flags(&scan), vec![(FlagKind::TextAsImages, 1)]);
    // A scan with a text layer (OCR) is neither.
    let ocr = s.file(
        "ocr.pdf",
        &pdf_of("q 612 0 0 792 0 0 cm /Im1 Do Q BT 3 Tr /F1 12 Tf 72 720 Td (Read by OCR) Tj ET", true),
    );
    assert_eq!(file_flags(&ocr), vec![]);
    assert!(text_of(&ocr).contains("Read by OCR"));
    let said = run(&ocr, &IngestLimits::default()).expect("readable").warnings;
    assert!(said.contains(&twinspot::model::Notice::ScannedPdf { pages: 1 }), "{said:?}");
}

#[test]
fn pdf_invisible_text_inside_forms_is_hidden_text_too() {
    use twinspot::model::FlagKind;
    let s = Scratch::new();
    // The page calls a form that shows text and hides some, and that form calls another
    // that hides text only because the page called the first in render mode 3.
    let file = s.file(
        "forms.pdf",
        &pdf_with_forms(
            "BT /F1 12 Tf 72 720 Td (Page text) Tj ET q /Fm1 Do Q",
            "BT /F1 12 Tf 72 700 Td (Form text) Tj 3 Tr (junkform) Tj 0 Tr ET 3 Tr /Fm2 Do",
            "BT /F1 12 Tf 72 680 Td (junkinner) Tj ET",
        ),
    );
    let text = text_of(&file);
    assert!(text.contains("Page text") && text.contains("Form text"), "{text:?}");
    assert!(!text.contains("junk"), "{text:?}");
    assert_eq!(file_flags(&file), vec![(FlagKind::HiddenText, 17)]);
    // The same forms with nothing hidden: no flag, every word there.
    let plain = s.file(
        "plain-forms.pdf",
        &pdf_with_forms(
            "q /Fm1 Do Q",
            "BT /F1 12 Tf 72 700 Td (Form text) Tj ET /Fm2 Do",
            "BT /F1 12 Tf 72 680 Td (Inner text) Tj ET",
        ),
    );
    assert!(text_of(&plain).contains("Inner text"));
    assert_eq!(file_flags(&plain), vec![]);
}

#[test]
fn pdf_invisible_and_white_text_is_hidden_text_not_matched() {
    use twinspot::model::FlagKind;
    let s = Scratch::new();
    // Render mode 3 (invisible), white in grey, RGB and CMYK, and invisible text in a saved
    // state that a later Q ends: only "Seen", "words" and "again" show.
    let stream = "BT /F1 12 Tf 72 720 Td (Seen) Tj 3 Tr (junkone) Tj 0 Tr ( words) Tj ET \
                  BT /F1 12 Tf 72 700 Td 1 g (junktwo) Tj 1 1 1 rg (junk3) Tj 0 0 0 0 k (junk4) Tj 0 g (again) Tj ET \
                  q BT 7 Tr /F1 12 Tf 72 680 Td (junk5) Tj ET Q";
    let hidden = s.file("invisible.pdf", &pdf_of(stream, false));
    let text = text_of(&hidden);
    assert!(text.contains("Seen") && text.contains("words") && text.contains("again"), "{text:?}");
    assert!(!text.contains("junk"), "{text:?}");
    assert_eq!(file_flags(&hidden), vec![(FlagKind::HiddenText, 29)]);
    // White text on a dark box is seen, and so is the text after the hidden text.
    let boxed = s.file(
        "boxed.pdf",
        &pdf_of("0 0 0.5 rg 60 690 300 50 re f BT /F1 12 Tf 72 700 Td 1 g (White on blue) Tj ET", false),
    );
    assert!(text_of(&boxed).contains("White on blue"));
    assert_eq!(file_flags(&boxed), vec![]);
}

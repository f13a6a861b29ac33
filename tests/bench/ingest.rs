//! Ingest benchmarks (criterion): extraction speed per format on generated inputs,
//! as bytes of extracted text per second, through the public `ingest::extract`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark or test that cannot set up stops with the message"
)]
#![allow(clippy::cast_possible_truncation, reason = "a benchmark's sizes are small")]

use std::io::Write;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use twinspot::ingest::{IngestLimits, extract};

const ZH: &str = "软件包管理系统可以帮助用户安装、升级和删除软件，它会自动处理依赖关系，并在安装之前检查软件包的签名。";
const EN: &str =
    "A package manager keeps track of which files belong to which package, so removing software leaves nothing behind.";

/// About `bytes` of mixed Chinese and English paragraphs.
fn paragraphs(bytes: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut size = 0;
    let mut i = 0;
    while size < bytes {
        let p = format!("{i}. {ZH}{EN}");
        size += p.len() + 1;
        out.push(p);
        i += 1;
    }
    out
}

fn docx(paras: &[String]) -> Vec<u8> {
    let body: String =
        paras.iter().map(|p| format!("<w:p><w:r><w:t xml:space=\"preserve\">{p}</w:t></w:r></w:p>")).collect();
    let doc = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>{body}</w:body></w:document>"
    );
    let parts: [(&str, &str); 3] = [
        (
            "[Content_Types].xml",
            "<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Default Extension=\"xml\" ContentType=\"application/xml\"/></Types>",
        ),
        (
            "_rels/.rels",
            "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"word/document.xml\"/></Relationships>",
        ),
        ("word/document.xml", &doc),
    ];
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for (name, data) in parts {
        w.start_file(name, options).ok();
        w.write_all(data.as_bytes()).ok();
    }
    w.finish().map(|c| c.into_inner()).unwrap_or_default()
}

fn html(paras: &[String]) -> Vec<u8> {
    let body: String = paras.iter().map(|p| format!("<p class=\"x\">{p} &amp; <b>bold</b></p>\n")).collect();
    format!("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><script>var a = 1;</script></head><body>{body}</body></html>").into_bytes()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).ok();
    path
}

fn bench_formats(c: &mut Criterion) {
    let Ok(dir) = tempfile::tempdir() else {
        return;
    };
    let paras = paragraphs(1 << 20);
    let text = paras.join("\n") + "\n";
    let pdf = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/wrap.pdf");
    let inputs = [
        ("txt-utf8", write(dir.path(), "a.txt", text.as_bytes())),
        ("txt-gbk", write(dir.path(), "b.txt", &encoding_rs::GBK.encode(&text).0)),
        ("docx", write(dir.path(), "c.docx", &docx(&paras))),
        ("html", write(dir.path(), "d.html", &html(&paras))),
        ("pdf-3-pages", pdf),
    ];
    let limits = IngestLimits::default();
    let mut group = c.benchmark_group("ingest");
    for (name, path) in &inputs {
        let Ok(sample) = extract(path, &limits) else {
            eprintln!("skipping {name}: extraction failed");
            continue;
        };
        group.throughput(Throughput::Bytes(sample.text.len() as u64));
        group.bench_function(*name, |b| b.iter(|| extract(path, &limits)));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench_formats
}
criterion_main!(benches);

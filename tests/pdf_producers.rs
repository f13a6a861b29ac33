//! Chinese PDFs as real producers write them (Chromium's "Save as PDF", LibreOffice, a map
//! with radicals and no `/ActualText`): their text is what `pdftotext` reads, and no
//! radical from a font's map is taken for a look-alike trick; radicals typed into a .txt
//! or a .docx still are. The files and how they were made: `tests/fixtures/pdf/README.md`.

use std::path::Path;

use crate::util::{compare_json, fixtures, success, twinspot};

const PRODUCERS: [&str; 3] =
    ["pdf/chromium-noto-cjk.pdf", "pdf/libreoffice-noto-cjk.pdf", "pdf/radical-map-no-actualtext.pdf"];

/// Text without its white space: pdftotext breaks the lines of a paragraph where the page
/// does, the extraction joins them.
fn without_spaces(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

fn han_look_alikes(text: &str) -> String {
    text.chars().filter(|&c| matches!(c as u32, 0x2E80..=0x2FDF | 0xF900..=0xFAFF)).collect()
}

/// The look-alike flags the JSON report gives the suspect `path`.
fn look_alike_flags(dir: &Path, path: &str) -> Vec<serde_json::Value> {
    let report = compare_json(dir, &["--suspect", path, "--reference", "reference"]);
    let doc = report["documents"]
        .as_array()
        .and_then(|docs| docs.iter().find(|d| d["path"] == path))
        .unwrap_or_else(|| panic!("no document {path} in {report:#}"));
    assert!(doc["error"].is_null(), "{doc:#}");
    let flags = doc["flags"].as_array().cloned().unwrap_or_default();
    flags.into_iter().filter(|f| f["kind"] == "look_alike_letters").collect()
}

#[test]
fn the_chromium_pdf_really_maps_radicals() {
    // The fixture is the reported case only if its fonts' maps name radicals.
    let bytes = std::fs::read(fixtures().join("pdf/chromium-noto-cjk.pdf")).expect("fixture");
    let doc = lopdf::Document::load_mem(&bytes).expect("a PDF");
    let mut radicals = String::new();
    for object in doc.objects.values() {
        let Ok(stream) = object.as_stream() else { continue };
        let Ok(content) = stream.decompressed_content() else { continue };
        let content = String::from_utf8_lossy(&content);
        if !content.contains("beginbfchar") {
            continue;
        }
        for hex in content.split('<').skip(1).filter_map(|s| s.split('>').next()) {
            if let Some(c) = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) {
                radicals.push_str(&han_look_alikes(&c.to_string()));
            }
        }
    }
    assert!(radicals.chars().count() >= 10, "radicals in the ToUnicode maps: {radicals:?}");
}

#[test]
fn pdfs_of_each_producer_read_as_pdftotext_reads_chromium_s() {
    let dir = fixtures();
    let want = std::fs::read_to_string(dir.join("pdf/chromium-noto-cjk.pdftotext.txt")).expect("pdftotext's text");
    assert_eq!(han_look_alikes(&want), "", "pdftotext reads no radical");
    for path in PRODUCERS {
        let got = success(&twinspot(&dir, &["extract", path]));
        assert_eq!(han_look_alikes(&got), "", "{path}: radicals read from the font's map:\n{got}");
        assert_eq!(without_spaces(&got), without_spaces(&want), "{path}:\n--- got\n{got}\n--- pdftotext\n{want}");
    }
}

#[test]
fn no_pdf_of_an_honest_essay_is_flagged_for_look_alikes() {
    let dir = fixtures();
    for path in PRODUCERS {
        let flags = look_alike_flags(&dir, path);
        assert!(flags.is_empty(), "{path} flagged: {flags:#?}");
    }
}

#[test]
fn radicals_typed_into_a_text_or_a_docx_are_still_flagged() {
    let dir = fixtures();
    for path in ["pdf/radicals-typed.txt", "pdf/radicals-typed.docx"] {
        let flags = look_alike_flags(&dir, path);
        assert_eq!(flags.len(), 1, "{path}: {flags:#?}");
        assert!(flags[0]["count"].as_u64().is_some_and(|n| n >= 15), "{path}: {flags:#?}");
    }
}

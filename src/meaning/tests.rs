//! The port against the wheel's numpy backend (tests/data/meaning-fixture.json, written by
//! tools/meaning-model.py), and the model file's failures.
#![allow(clippy::cast_possible_truncation, reason = "the tests' values are small")]

use std::path::Path;
use std::sync::OnceLock;

use super::*;

/// The model, loaded once for the tests of this binary.
fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| Model::load(&shipped()).expect("the shipped model loads"))
}

fn shipped() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/meaning").join(FILE_NAME)
}

struct Case {
    text: String,
    ids: Vec<u32>,
    embedding: Vec<f32>,
}

fn fixture() -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/meaning-fixture.json");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(path).expect("fixture")).expect("json");
    let cases = json["cases"].as_array().expect("cases");
    cases
        .iter()
        .map(|c| Case {
            text: c["text"].as_str().expect("text").to_string(),
            ids: c["ids"].as_array().expect("ids").iter().map(|v| v.as_u64().expect("id") as u32).collect(),
            embedding: c["embedding"].as_array().expect("emb").iter().map(|v| v.as_f64().expect("v") as f32).collect(),
        })
        .collect()
}

#[test]
fn tokens_match_the_wheel_exactly() {
    let model = model();
    for case in fixture() {
        assert_eq!(model.tokenizer().encode(&case.text), case.ids, "tokens of {:?}", case.text);
    }
}

#[test]
fn embeddings_match_the_wheel() {
    let cases = fixture();
    let texts: Vec<&str> = cases.iter().map(|c| c.text.as_str()).collect();
    let got = model().embed(&texts);
    assert_eq!(got.len(), cases.len());
    for (case, v) in cases.iter().zip(&got) {
        let want: Embedding = case.embedding.as_slice().try_into().expect("512 values");
        let c = cosine(v, &want);
        assert!(c >= 0.999, "cosine {c} for {:?}", case.text);
    }
    // one at a time gives what the micro-batch gave: no leak between sentences
    for (i, text) in texts.iter().enumerate().take(8) {
        let alone = model().embed(&[text]);
        assert!(cosine(&alone[0], &got[i]) > 0.9999, "{text:?} alone");
    }
}

#[test]
fn a_translation_scores_far_above_an_unrelated_sentence() {
    let v = model().embed(&[
        "抄袭是指将他人的作品当作自己的作品来发表。",
        "Plagiarism is presenting another person's work as your own.",
        "The train to Berlin leaves at eight in the morning.",
        "抄襲是指將他人的作品當作自己的作品來發表。",
    ]);
    let translated = cosine(&v[0], &v[1]);
    let unrelated = cosine(&v[0], &v[2]);
    // the wheel's figures: 0.598 translated, 0.051 unrelated, 0.760 simplified/traditional
    assert!(translated > 0.5, "translated pair {translated}");
    assert!(translated - unrelated > 0.4, "translated {translated}, unrelated {unrelated}");
    let scripts = cosine(&v[0], &v[3]);
    assert!(scripts > 0.7 && scripts - unrelated > 0.5, "simplified vs traditional {scripts}");
}

#[test]
fn odd_inputs_embed_without_panic() {
    let long_en = "word ".repeat(20_000);
    let long_zh = "中文句子".repeat(9_000);
    assert!(long_en.len() >= 100_000 && long_zh.len() >= 100_000);
    let texts = ["", "a", "中", "0123456789012345678901234567890", "😀🎉🚀", "\u{0}\u{7f}\u{fffd}", &long_en, &long_zh];
    let v = model().embed(&texts);
    assert_eq!(v.len(), texts.len());
    for (e, t) in v.iter().zip(texts) {
        let norm: f32 = e.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-3, "norm {norm} of {:?}", &t[..t.len().min(20)]);
    }
    assert!(model().embed(&[]).is_empty());
}

#[test]
fn a_long_text_is_cut_to_its_first_tokens() {
    let ids = model().ids("word ".repeat(5_000).as_str());
    assert_eq!(ids.len(), MAX_TOKENS);
    assert_eq!(ids.last(), Some(&tokenizer::EOS));
    let whole = model().tokenizer().encode(&"word ".repeat(5_000));
    assert!(whole.len() > MAX_TOKENS);
    assert_eq!(ids[..MAX_TOKENS - 1], whole[..MAX_TOKENS - 1]);
    assert_eq!(model().ids("a short one"), model().tokenizer().encode("a short one"));
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path
}

#[test]
fn a_missing_or_foreign_file_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let err = Model::load(&dir.path().join("none.twm")).err().expect("fails");
    assert!(matches!(err, MeaningError::Read { .. }), "{err}");
    let err = Model::load(&write(dir.path(), "a.twm", b"hello")).err().expect("fails");
    assert!(matches!(err, MeaningError::NotAModel { .. }), "{err}");
    let mut header = b"TWSMEAN\0".to_vec();
    header.extend(7u32.to_le_bytes());
    header.extend([0u8; 40]);
    let err = Model::load(&write(dir.path(), "b.twm", &header)).err().expect("fails");
    assert!(matches!(err, MeaningError::WrongVersion { found: 7, .. }), "{err}");
    assert!(err.to_string().contains("format 7"), "{err}");
}

#[test]
fn a_damaged_file_is_refused() {
    let original = std::fs::read(shipped()).expect("asset");
    let dir = tempfile::tempdir().expect("tempdir");
    let truncated = write(dir.path(), "t.twm", &original[..original.len() / 2]);
    let err = Model::load(&truncated).err().expect("fails");
    assert!(matches!(err, MeaningError::Damaged { .. }), "{err}");
    // one bit of the recorded digest changed: the payload no longer matches its header
    let mut flipped = original.clone();
    flipped[30] ^= 1;
    let err = Model::load(&write(dir.path(), "f.twm", &flipped)).err().expect("fails");
    assert!(matches!(err, MeaningError::Damaged { .. }), "{err}");
    assert!(err.to_string().contains("SHA-256"), "{err}");
}

#[test]
fn the_lane_wise_cosine_is_the_plain_one() {
    let mut a = [0.0f32; DIM];
    let mut b = [0.0f32; DIM];
    for i in 0..DIM {
        a[i] = ((i * 37 % 101) as f32 - 50.0) / 17.0;
        b[i] = ((i * 53 % 89) as f32 - 44.0) / 13.0;
    }
    let dot: f64 = a.iter().zip(&b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
    let na: f64 = a.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let plain = dot / (na * nb);
    assert!((f64::from(cosine(&a, &b)) - plain).abs() < 1e-5, "{} vs {plain}", cosine(&a, &b));
    assert!((cosine(&a, &a) - 1.0).abs() < 1e-5);
    assert_eq!(cosine(&a, &[0.0; DIM]), 0.0);
}

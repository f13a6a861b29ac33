//! The meaning layer's foundation: a multilingual sentence encoder (Google's Universal
//! Sentence Encoder multilingual v3) in plain Rust, loaded once into a [`Model`] value and
//! shared by reference; it maps a sentence of any of its 16 languages to 512 numbers whose
//! cosine says how close two sentences are in meaning (docs/meaning.md).

mod asset;
mod bits;
pub mod collection;
pub mod dictionary;
mod encoder;
pub mod evidence;
mod gemm;
pub mod kept;
mod pieces;
mod postings;
pub mod reworded;
mod shared;
mod tally;
mod tokenizer;
pub mod translated;
pub mod units;

use std::io;
use std::path::{Path, PathBuf};

pub use asset::{ENV_VAR, FILE_NAME, FORMAT_VERSION, candidates, locate};
pub use encoder::{DIM, Embedding, TOKEN_BUDGET};
pub use tokenizer::Tokenizer;

pub use shared::SharedMeaning;

use dictionary::{DICTIONARY_FILE, Dictionary};
use encoder::Encoder;

/// Tokens kept of one text, `<s>` and `</s>` included: the encoder is a sentence
/// encoder, and a longer text (a whole page given as one "sentence") is embedded by its
/// beginning, so memory stays bounded.
pub const MAX_TOKENS: usize = 1024;

/// Characters of a document the layer reads (about a hundred pages): a longer one is
/// looked at in its beginning only, so one huge file cannot make a check embed for
/// minutes ([`layer_part`]).
pub const MAX_LAYER_CHARS: usize = 200_000;

/// The part of `text` the layer reads: its first [`MAX_LAYER_CHARS`] characters.
pub fn layer_part(text: &str) -> &str {
    match text.char_indices().nth(MAX_LAYER_CHARS) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

/// Why the model could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum MeaningError {
    /// No model file where it is looked for.
    #[error("the sentence encoder's model ({FILE_NAME}) was not found; looked at {looked}")]
    Missing { looked: String },
    /// The file could not be read.
    #[error("cannot read the sentence encoder's model {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    /// The file is something else.
    #[error("{} is not a Twinspot sentence encoder model", path.display())]
    NotAModel { path: PathBuf },
    /// The file is of another format version.
    #[error("{} is sentence encoder model format {found}; this Twinspot reads format {expected}", path.display())]
    WrongVersion { path: PathBuf, found: u32, expected: u32 },
    /// The file is damaged (truncated, altered, a shape that does not fit).
    #[error("the sentence encoder's model {} is damaged: {what}", path.display())]
    Damaged { path: PathBuf, what: String },
}

/// The loaded encoder: the tokenizer and the weights. Build it once ([`Model::load`]) and
/// share it (`&Model`, `Arc<Model>`); it is immutable and `Sync`.
///
/// ```no_run
/// let model = twinspot::meaning::Model::load_default()?;
/// let v = model.embed(&["猫坐在垫子上。", "The cat sat on the mat."]);
/// assert!(twinspot::meaning::cosine(&v[0], &v[1]) > 0.5);
/// # Ok::<(), twinspot::meaning::MeaningError>(())
/// ```
pub struct Model {
    tokenizer: Tokenizer,
    encoder: Encoder,
    path: PathBuf,
    digest: [u8; 32],
}

impl Model {
    /// Loads the model found by [`locate`].
    pub fn load_default() -> Result<Model, MeaningError> {
        Model::load(&locate()?)
    }

    /// Loads the model file at `path`.
    pub fn load(path: &Path) -> Result<Model, MeaningError> {
        let mut asset = asset::read(path)?;
        let encoder =
            Encoder::new(&mut asset).map_err(|what| MeaningError::Damaged { path: path.to_path_buf(), what })?;
        let tokenizer = Tokenizer::new(&asset.pieces, &asset.charsmap);
        Ok(Model { tokenizer, encoder, path: path.to_path_buf(), digest: asset.digest })
    }

    /// The file this model was loaded from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The SHA-256 of the model's weights (its file's payload): two models with the same
    /// digest embed every text alike, so an embedding kept under it can be used again.
    pub fn digest(&self) -> &[u8; 32] {
        &self.digest
    }

    /// The tokenizer.
    pub fn tokenizer(&self) -> &Tokenizer {
        &self.tokenizer
    }

    /// The bytes of weights held in memory (the quantized table and the packed layers).
    pub fn weight_bytes(&self) -> usize {
        self.encoder.heap_bytes()
    }

    /// The bytes the per-piece cache holds now, and the most it can hold: the part of
    /// the forward pass that depends on one piece alone is computed once per piece
    /// (docs/meaning.md, "Speed and memory").
    pub fn cache_bytes(&self) -> (usize, usize) {
        self.encoder.cache_bytes()
    }

    /// Forgets the per-piece cache (its memory; the next texts compute their pieces again).
    pub fn clear_cache(&self) {
        self.encoder.clear_cache();
    }

    /// The ids the encoder reads for `text`: its pieces, cut to [`MAX_TOKENS`] with
    /// `</s>` kept last.
    pub fn ids(&self, text: &str) -> Vec<u32> {
        let mut ids = self.tokenizer.encode(text);
        if ids.len() > MAX_TOKENS {
            ids.truncate(MAX_TOKENS - 1);
            ids.push(tokenizer::EOS);
        }
        ids
    }

    /// One L2-normalized embedding per sentence, each sentence embedded on its own (its
    /// first [`MAX_TOKENS`] tokens). Sentences are run in micro-batches of about
    /// [`TOKEN_BUDGET`] tokens.
    pub fn embed(&self, sentences: &[&str]) -> Vec<Embedding> {
        // Each distinct text once (a repeated line, a boilerplate sentence).
        let mut distinct: Vec<&str> = Vec::new();
        let mut place: rustc_hash::FxHashMap<&str, usize> = rustc_hash::FxHashMap::default();
        let of: Vec<usize> = sentences
            .iter()
            .map(|&s| {
                *place.entry(s).or_insert_with(|| {
                    distinct.push(s);
                    distinct.len() - 1
                })
            })
            .collect();
        let embedded = self.embed_each(&distinct);
        of.into_iter().map(|i| embedded[i]).collect()
    }

    /// [`Model::embed`] of texts that are all distinct.
    fn embed_each(&self, sentences: &[&str]) -> Vec<Embedding> {
        let mut out = Vec::with_capacity(sentences.len());
        let mut group: Vec<Vec<u32>> = Vec::new();
        let mut tokens = 0;
        for text in sentences {
            let ids = self.ids(text);
            if !group.is_empty() && tokens + ids.len() > TOKEN_BUDGET {
                self.encoder.encode_batch(&group, &mut out);
                group.clear();
                tokens = 0;
            }
            tokens += ids.len();
            group.push(ids);
        }
        if !group.is_empty() {
            self.encoder.encode_batch(&group, &mut out);
        }
        out
    }
}

/// What the meaning layer reads with: the sentence encoder and the bilingual dictionary
/// beside it, loaded once and shared by reference.
pub struct Meaning {
    pub model: Model,
    pub dictionary: Dictionary,
}

impl Meaning {
    /// Loads the model found by [`locate`] and the dictionary in its folder.
    pub fn load_default() -> Result<Meaning, MeaningError> {
        let model = Model::load_default()?;
        let dictionary = Dictionary::load(&model.path().with_file_name(DICTIONARY_FILE))?;
        Ok(Meaning { model, dictionary })
    }
}

/// The cosine of two embeddings (0 for a zero vector). The sums run in [`LANES`]
/// independent lanes, so the compiler keeps them in vector registers: a check computes
/// this for every suspect unit against the background and its candidates' units.
pub fn cosine(a: &Embedding, b: &Embedding) -> f32 {
    let mut dot = [0.0f32; LANES];
    let mut aa = [0.0f32; LANES];
    let mut bb = [0.0f32; LANES];
    for (x, y) in a.chunks_exact(LANES).zip(b.chunks_exact(LANES)) {
        for i in 0..LANES {
            dot[i] += x[i] * y[i];
            aa[i] += x[i] * x[i];
            bb[i] += y[i] * y[i];
        }
    }
    let (dot, na, nb): (f32, f32, f32) =
        (dot.iter().sum(), aa.iter().sum::<f32>().sqrt(), bb.iter().sum::<f32>().sqrt());
    if na == 0.0 || nb == 0.0 { 0.0 } else { dot / (na * nb) }
}

/// Lanes of [`cosine`]'s sums (a divisor of [`DIM`]).
const LANES: usize = 16;

#[cfg(test)]
mod tests;

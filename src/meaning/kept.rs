//! Embeddings kept between checks (the reference cache keeps those of its references'
//! units): a text's embedding depends on the model and the text alone, so it is kept under
//! the SHA-256 of both and never computed twice for an unchanged reference.

use sha2::{Digest, Sha256};

use super::{DIM, Embedding, Model};

/// What an embedding is kept under: the SHA-256 of the model's digest and the text.
pub type Key = [u8; 32];

/// Bytes of one kept embedding: its 512 values, little-endian.
pub const BYTES: usize = DIM * 4;

/// A store of embeddings kept from earlier checks. A check asks it for the embeddings of
/// the reference units it must embed and hands it those it had to compute; what it gives
/// back is what the model would have computed, so a check served from it reports the same.
pub trait KeptEmbeddings: Sync {
    /// The kept embedding of each key, `None` where none is kept.
    fn kept(&self, keys: &[Key]) -> Vec<Option<Embedding>>;
    /// Embeddings this check computed, to keep.
    fn keep(&self, computed: &[(Key, Embedding)]);
}

/// The key of `text` embedded by `model`.
pub fn key(model: &Model, text: &str) -> Key {
    let mut hasher = Sha256::new();
    hasher.update(model.digest());
    hasher.update(text.as_bytes());
    hasher.finalize().into()
}

/// The embeddings of `texts`: those `kept` holds taken from it, the others computed by
/// `model` (in one call, so they are batched) and handed to `kept`.
pub fn embed_kept(model: &Model, texts: &[&str], kept: Option<&dyn KeptEmbeddings>) -> Vec<Embedding> {
    let Some(kept) = kept else {
        return model.embed(texts);
    };
    let keys: Vec<Key> = texts.iter().map(|t| key(model, t)).collect();
    let mut found = kept.kept(&keys);
    found.resize(texts.len(), None);
    let missing: Vec<usize> = (0..texts.len()).filter(|&i| found[i].is_none()).collect();
    if !missing.is_empty() {
        let computed = model.embed(&missing.iter().map(|&i| texts[i]).collect::<Vec<_>>());
        kept.keep(&missing.iter().zip(&computed).map(|(&i, e)| (keys[i], *e)).collect::<Vec<_>>());
        for (&i, e) in missing.iter().zip(computed) {
            found[i] = Some(e);
        }
    }
    found.into_iter().map(|e| e.unwrap_or([0.0; DIM])).collect()
}

/// An embedding as kept: its values, little-endian.
pub fn to_bytes(embedding: &Embedding) -> Vec<u8> {
    embedding.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// An embedding from its kept bytes; `None` when they are not one.
pub fn from_bytes(bytes: &[u8]) -> Option<Embedding> {
    if bytes.len() != BYTES {
        return None;
    }
    let mut e = [0.0f32; DIM];
    for (v, b) in e.iter_mut().zip(bytes.chunks_exact(4)) {
        *v = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    }
    Some(e)
}

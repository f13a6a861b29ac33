//! The reference cache: the extracted texts of a reference set kept between runs (one
//! SQLite file per set in the user's cache folder), so that `compare` reads again only the
//! references whose size or modification time changed. It stores what reading a file gave
//! (text, format, warnings, SHA-256), never anything that depends on the check's settings,
//! so a check served from it reports exactly what a check that read every file reports.
//! Beside the texts it keeps the meaning layer's embeddings of the references' units,
//! which depend on the model and the text alone (`embeddings.rs`).

mod embeddings;
mod location;
mod store;

pub use location::{CACHE_DIR_VAR, default_dir};
pub use store::{CacheError, CacheSummary, ReferenceCache};
pub(crate) use store::{SETTLED, nanos_since_epoch, status_changed_ns};

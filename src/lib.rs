//! Twinspot's engine: finds the passages that documents share, through light edits,
//! re-punctuation, reordered sentences and simplified/traditional Chinese conversion,
//! and scores how close whole documents are.
//!
//! The pipeline is laid out as modules, in order:
//! [`ingest`] (files → text) → [`normalize`] (text → tokens with character offsets) →
//! [`fingerprint`] (winnowed k-grams, sentence hashes, SimHash) → [`index`] (inverted
//! index over the references) → [`matching`] (seeds → passages) → [`exclusions`] (common,
//! quoted and stop text: each passage's kind) → [`score`] (pair scores,
//! near duplicates) → [`report`] (the result, JSON/CSV/HTML). [`engine`] runs them all with
//! progress and cancellation; [`archive`] keeps references on disk, checked against
//! through the same matching; [`cache`] keeps the texts of reference folders between runs, so
//! unchanged references are not read again. The window lives in `gui`, behind the `gui` feature; the
//! engine never depends on it.

pub mod archive;
pub mod cache;
#[cfg(feature = "distributed")]
pub mod distributed;
pub mod engine;
pub mod exclusions;
pub mod fingerprint;
pub mod hash;
pub mod index;
pub mod ingest;
pub mod matching;
pub mod meaning;
pub mod model;
pub mod normalize;
pub mod report;
pub mod score;
pub mod settings;

#[cfg(feature = "gui")]
pub mod gui;

pub use engine::{
    CancelFlag, Cancelled, CheckError, CheckRequest, DocumentInput, MatchTimings, Mode, NoProgress, Progress, ProgressSink, Role,
    Stage, run_check,
};
pub use report::{DocumentEntry, Pair, Passage, Report};
pub use settings::Settings;

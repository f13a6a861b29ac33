//! The fingerprint folder: where each table of each shard lives, how document ids carry
//! their shard, and the settings written into every file's key-value metadata.
//!
//! ```text
//! OUT/documents/shard-00003.parquet
//! OUT/postings/bucket=0/shard-00003.parquet … bucket=15/…   (low bits of the hash → bucket)
//! OUT/sentences/shard-00003.parquet
//! OUT/chargrams/shard-00003.parquet                         (winnowed character grams)
//! OUT/rule/shard-00003.parquet                              (the candidate rule's numbers)
//! ```

use std::path::{Path, PathBuf};

pub use super::rule::{JoinRule, MAX_SIMHASH_THRESHOLD, SIMHASH_BLOCKS};
use crate::settings::{FingerprintShape, Settings};

/// Folder of the documents table.
pub const DOCUMENTS: &str = "documents";
/// Folder of the postings table, one sub-folder `bucket=N` per bucket of hashes.
pub const POSTINGS: &str = "postings";
/// Folder of the sentences table.
pub const SENTENCES: &str = "sentences";
/// Folder of the character grams table: each document's winnowed character grams
/// ([`crate::fingerprint::char_grams`]), which the join pairs documents by for the search
/// of short edited copies. Folders written before it have none.
pub const CHAR_GRAMS: &str = "chargrams";
/// Folder of the rule table: the candidate rule's numbers, one row per shard.
pub const RULE: &str = "rule";

/// Key-value metadata keys.
pub const KEY_SETTINGS: &str = "twinspot.settings";
pub const KEY_SHARD: &str = "twinspot.shard";
pub const KEY_BUCKETS: &str = "twinspot.buckets";
pub const KEY_TOOL: &str = "twinspot.tool";

/// Largest shard number: ids are `shard << 32 | index` and stay positive in an `INT64`.
pub const MAX_SHARD: u32 = (1 << 31) - 1;

/// The global id of the `index`-th document of `shard`: the shard in the high 32 bits, so
/// ids from many machines never collide and sort shard by shard.
pub fn document_id(shard: u32, index: u32) -> i64 {
    (i64::from(shard) << 32) | i64::from(index)
}

/// `"shard S, document I"` for an id, in error messages.
pub fn describe_id(id: i64) -> String {
    format!("shard {}, document {}", id >> 32, id & 0xffff_ffff)
}

/// File name of one shard's part of a table.
pub fn shard_file(shard: u32) -> String {
    format!("shard-{shard:05}.parquet")
}

/// The shard number in a file name made by [`shard_file`].
pub fn parse_shard_file(name: &str) -> Option<u32> {
    name.strip_prefix("shard-")?.strip_suffix(".parquet")?.parse().ok()
}

/// The folder of bucket `bucket` of the postings.
pub fn bucket_dir(root: &Path, bucket: u32) -> PathBuf {
    root.join(POSTINGS).join(format!("bucket={bucket}"))
}

/// The rule that puts a hash in a bucket, written with the settings: shards that bucket
/// hashes another way cannot be joined bucket by bucket, so readers refuse the mix.
/// 1: the top bits (winnowing keeps the smallest hash of each window, so winnowed
/// postings crowd into the low buckets); 2: the low bits.
pub const BUCKET_RULE: u32 = 2;

/// The bucket of a k-gram hash among `buckets` (a power of two): its low bits, which
/// winnowing (a choice by the whole value) leaves evenly spread.
#[expect(clippy::cast_possible_truncation, reason = "masked to below `buckets`, a `u32`")]
pub fn bucket_of(hash: u64, buckets: u32) -> u32 {
    let mask = u64::from(buckets.max(1).next_power_of_two() - 1);
    (hash & mask) as u32
}

/// The settings that shape fingerprints: shards written with different ones cannot be
/// joined, so each file records them and readers refuse a mix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FingerprintSettings {
    #[serde(flatten)]
    pub shape: FingerprintShape,
    pub simhash_blocks: u32,
    /// [`BUCKET_RULE`]; files written before it was recorded used rule 1.
    #[serde(default = "first_bucket_rule")]
    pub bucket_rule: u32,
    /// The candidate rule the SQL join reads from the `rule` table; files written before
    /// it existed have none (and no `rule` table).
    #[serde(default)]
    pub join_rule: Option<JoinRule>,
}

fn first_bucket_rule() -> u32 {
    1
}

impl FingerprintSettings {
    /// The fingerprint-shaping part of `settings`.
    pub fn of(settings: &Settings) -> Self {
        let settings = settings.clone().sanitized();
        let shape = settings.shape();
        let join_rule = Some(JoinRule::for_min_chars(settings.min_chars));
        Self { shape, simhash_blocks: SIMHASH_BLOCKS, bucket_rule: BUCKET_RULE, join_rule }
    }

    /// `settings` with these fingerprint settings in place.
    pub fn apply(&self, settings: Settings) -> Settings {
        settings.with_shape(self.shape)
    }

    /// As written into the metadata: compact JSON.
    pub fn to_metadata(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Read back from the metadata.
    pub fn from_metadata(value: &str) -> Option<Self> {
        serde_json::from_str(value).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_keep_the_shard_in_the_high_bits() {
        assert_eq!(document_id(0, 7), 7);
        assert_eq!(document_id(3, 7) >> 32, 3);
        assert!(document_id(MAX_SHARD, u32::MAX) > 0);
        assert_eq!(describe_id(document_id(2, 9)), "shard 2, document 9");
    }

    #[test]
    fn buckets_are_the_low_bits_of_a_hash() {
        assert_eq!(bucket_of(u64::MAX, 16), 15);
        assert_eq!(bucket_of(0xf000_0000_0000_0010, 16), 0);
        assert_eq!(bucket_of(0x0000_0000_0000_0013, 16), 3);
        assert_eq!(bucket_of(12345, 1), 0);
        assert_eq!(parse_shard_file(&shard_file(42)), Some(42));
        assert_eq!(parse_shard_file("other.parquet"), None);
    }

    #[test]
    fn settings_round_trip_through_metadata() {
        let s = FingerprintSettings::of(&Settings::default());
        assert_eq!(FingerprintSettings::from_metadata(&s.to_metadata()), Some(s));
    }

    #[test]
    fn files_without_a_bucket_rule_bucketed_by_prefix_and_differ_from_new_ones() {
        let new = FingerprintSettings::of(&Settings::default());
        let mut json: serde_json::Value = serde_json::from_str(&new.to_metadata()).unwrap();
        json.as_object_mut().unwrap().remove("bucket_rule");
        let old = FingerprintSettings::from_metadata(&json.to_string()).unwrap();
        assert_eq!(old.bucket_rule, 1);
        assert_ne!(old, new);
    }
}

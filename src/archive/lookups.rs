//! What a check's lookups are the same in both stores: how many postings of one hash it
//! reads ([`CAP`]), and which archived SimHashes are near a suspect's ([`BAND_DISTANCE`],
//! [`nearest`]).

use rustc_hash::FxHashSet;

use crate::engine::MAX_POSTINGS;
use crate::fingerprint::simhash::hamming;

/// Postings of one hash a check reads at most, the lowest documents first: one more than
/// a hash may have and still be matched against every document holding it
/// ([`MAX_POSTINGS`]; both stores read this many); a [`crate::index::Spread`] tells the rest.
pub(in crate::archive) const CAP: usize = MAX_POSTINGS + 1;

/// The largest distance the band columns answer; above it every SimHash is scanned.
pub(in crate::archive) const BAND_DISTANCE: u32 = 3;

/// Of `rows` (id, SimHash), those within `threshold` of `simhash` and not removed, with
/// their distance, sorted by id: only ids after `after` when given, and at most `limit`,
/// the closest, when there are more.
pub(in crate::archive) fn nearest(
    rows: Vec<(u32, u64)>,
    simhash: u64,
    threshold: u32,
    after: Option<u32>,
    limit: usize,
    removed: &FxHashSet<u32>,
) -> Vec<(u32, u32)> {
    let mut docs: Vec<(u32, u32)> = rows
        .into_iter()
        .map(|(id, h)| (id, hamming(simhash, h)))
        .filter(|&(id, distance)| distance <= threshold && after.is_none_or(|a| id > a) && !removed.contains(&id))
        .collect();
    docs.sort_unstable();
    docs.dedup();
    // The closest first when there are more than asked for.
    if docs.len() > limit {
        docs.sort_unstable_by_key(|&(id, distance)| (distance, id));
        docs.truncate(limit);
        docs.sort_unstable();
    }
    docs
}

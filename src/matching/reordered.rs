//! Joins the pieces of one copy whose sentences were reordered and some of them edited
//! past matching: each sentence that still matches is a passage of its own, the pieces
//! lie close together on both sides (in another order on the reference side), and the
//! sentences lost leave holes a little wider than the gaps that merging allows. One copy
//! is then reported once, over the stretch its pieces cover, not as a passage a sentence.

use super::cluster::cluster;
use super::overlaps;
use crate::model::{Passage, union_length};

/// How much wider than the merging gap (`gap_chars`) a hole between the pieces of one
/// reordered copy may be, on either side: about one sentence lost to edits.
const HOLE_FACTOR: u32 = 2;

/// Share of the joined stretch, on each side, that its pieces must cover: the holes stay
/// smaller than what was found.
const MIN_COVERED: f64 = 0.6;

/// A hole on the suspect side narrower than the merging gap divided by this is the end of
/// one sentence and the first words of the next (a number or a name edited past
/// recognition, a clause): too few characters to be judged found or missing in the
/// reference, and half of what merging bridges, unjudged, between pieces in order.
const TOO_SHORT_TO_JUDGE: u32 = 2;

/// Joins each group of passages of one pair (none overlapping another on the suspect
/// side; `masked`: the template text of suspect and reference) whose neighbours on both
/// sides are at most `HOLE_FACTOR × gap_chars` apart, when their order
/// on the reference side is not their order on the suspect side, the pieces cover
/// [`MIN_COVERED`] of the joined stretch on both sides, are of one kind, no hole holds
/// template text, and the text of every hole on the suspect side (but those too short to
/// judge, [`TOO_SHORT_TO_JUDGE`]) is `copied`: found,
/// edited, in the reference near the joined stretch (`copied(suspect hole, reference
/// window)`), as a sentence lost to edits is and text between two copies placed side by
/// side is not. Pieces in the same order on both sides are left as they are: a
/// paragraph added between two copied ones (a repost) is not one copy. Returns passages
/// sorted by suspect offset.
pub fn join_reordered_pieces(
    passages: Vec<Passage>,
    gap_chars: u32,
    masked: Masked,
    copied: &dyn Fn((u32, u32), (u32, u32)) -> bool,
) -> Vec<Passage> {
    if passages.len() < 2 {
        return passages;
    }
    let hole = HOLE_FACTOR * gap_chars;
    let mut joined: Vec<Passage> = Vec::with_capacity(passages.len());
    for group in cluster(passages, hole, hole) {
        match joined_group(&group, masked, copied, gap_chars / TOO_SHORT_TO_JUDGE) {
            Some(one) => joined.push(one),
            None => joined.extend(group),
        }
    }
    joined.sort_by_key(|p| (p.a_start, p.b_start));
    joined
}

/// Template text never matched: (the suspect's, the reference's) character spans, sorted.
pub type Masked<'a> = (&'a [(u32, u32)], &'a [(u32, u32)]);

/// The one passage over `group`, when its pieces may be joined.
fn joined_group(
    group: &[Passage],
    (suspect_masked, reference_masked): Masked,
    copied: &dyn Fn((u32, u32), (u32, u32)) -> bool,
    shortest_judged: u32,
) -> Option<Passage> {
    let first = group.first()?;
    if !out_of_order(group) || group.iter().any(|p| p.kind != first.kind) {
        return None;
    }
    let a = (group.iter().map(|p| p.a_start).min()?, group.iter().map(|p| p.a_end).max()?);
    let b = (group.iter().map(|p| p.b_start).min()?, group.iter().map(|p| p.b_end).max()?);
    let a_covered = union_length(&mut group.iter().map(|p| (p.a_start, p.a_end)).collect::<Vec<_>>());
    let b_covered = union_length(&mut group.iter().map(|p| (p.b_start, p.b_end)).collect::<Vec<_>>());
    let share = |covered: u64, (start, end): (u32, u32)| covered as f64 / (end - start).max(1) as f64;
    if share(a_covered, a) < MIN_COVERED || share(b_covered, b) < MIN_COVERED {
        return None;
    }
    let suspect_holes = holes(group, |p| (p.a_start, p.a_end));
    if suspect_holes.iter().any(|&h| overlaps(suspect_masked, h))
        || holes(group, |p| (p.b_start, p.b_end)).into_iter().any(|h| overlaps(reference_masked, h))
    {
        return None;
    }
    // A sentence lost to edits may lie at an edge of the reference side (its twin there
    // is outside the pieces): the window reaches a hole's length beyond both ends.
    let lost_sentences = suspect_holes
        .iter()
        .filter(|h| h.1 - h.0 >= shortest_judged)
        .all(|&h| copied(h, (b.0.saturating_sub(h.1 - h.0), b.1.saturating_add(h.1 - h.0))));
    if !lost_sentences {
        return None;
    }
    let mut alternatives: Vec<_> = group.iter().flat_map(|p| p.alternatives.iter().copied()).collect();
    alternatives.sort_unstable();
    alternatives.dedup();
    Some(Passage { a_start: a.0, a_end: a.1, b_start: b.0, b_end: b.1, kind: first.kind, alternatives, translated: None, reworded: None })
}

/// Whether the pieces of `group` follow each other in another order on the reference side
/// than on the suspect side.
fn out_of_order(group: &[Passage]) -> bool {
    let mut by_suspect: Vec<&Passage> = group.iter().collect();
    by_suspect.sort_by_key(|p| (p.a_start, p.b_start));
    by_suspect.windows(2).any(|w| w[1].b_start < w[0].b_start)
}

/// The stretches between the spans of `group` (on the side `span` reads) that none of
/// them covers.
fn holes(group: &[Passage], span: impl Fn(&Passage) -> (u32, u32)) -> Vec<(u32, u32)> {
    let mut spans: Vec<(u32, u32)> = group.iter().map(span).collect();
    spans.sort_unstable();
    let mut reach = spans.first().map_or(0, |s| s.1);
    let mut found = Vec::new();
    for &(start, end) in spans.iter().skip(1) {
        if start > reach {
            found.push((reach, start));
        }
        reach = reach.max(end);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::MatchTuning;

    fn join(passages: Vec<Passage>, masked: &[(u32, u32)]) -> Vec<(u32, u32, u32, u32)> {
        join_holes(passages, masked, true)
    }

    /// `copied`: whether every hole on the suspect side is found in the reference.
    fn join_holes(passages: Vec<Passage>, masked: &[(u32, u32)], copied: bool) -> Vec<(u32, u32, u32, u32)> {
        let gap_chars = MatchTuning::default().gap_chars;
        join_reordered_pieces(passages, gap_chars, (masked, &[]), &|_, _| copied)
            .iter()
            .map(|p| (p.a_start, p.a_end, p.b_start, p.b_end))
            .collect()
    }

    /// The pieces of a reordered copy of reference text 300..1296, holes of 77 and 89
    /// characters in the suspect and 94 in the reference where edited sentences were lost.
    fn reordered_copy() -> Vec<Passage> {
        [
            ((519, 727), (631, 890)),
            ((751, 864), (367, 480)),
            ((867, 918), (777, 831)),
            ((964, 1136), (1120, 1296)),
            ((1213, 1305), (984, 1076)),
            ((1394, 1459), (300, 365)),
            ((1461, 1589), (482, 610)),
        ]
        .into_iter()
        .map(|(a, b)| Passage::copied(a, b))
        .collect()
    }

    #[test]
    fn the_pieces_of_a_reordered_copy_are_one_passage() {
        assert_eq!(join(reordered_copy(), &[]), vec![(519, 1589, 300, 1296)]);
    }

    #[test]
    fn pieces_far_apart_or_thinly_spread_or_around_template_text_stay_apart() {
        let far = vec![Passage::copied((0, 200), (0, 200)), Passage::copied((500, 700), (300, 500))];
        assert_eq!(join(far, &[]).len(), 2);
        let far_in_reference = vec![Passage::copied((0, 200), (300, 500)), Passage::copied((250, 450), (0, 100))];
        assert_eq!(join(far_in_reference, &[]).len(), 2);
        // In the same order on both sides: a paragraph added between two copied ones.
        let in_order = vec![Passage::copied((0, 600), (0, 600)), Passage::copied((700, 1300), (601, 1200))];
        assert_eq!(join(in_order, &[]).len(), 2);
        // Two short pieces with wide holes between them: less found than lost.
        let thin = vec![
            Passage::copied((0, 50), (320, 370)),
            Passage::copied((160, 210), (160, 210)),
            Passage::copied((320, 370), (0, 50)),
        ];
        assert_eq!(join(thin, &[]).len(), 3);
        assert_eq!(join(reordered_copy(), &[(1310, 1390)]).len(), 7);
        // Two copies of neighbouring reference text placed in the other order, host text
        // between them that the reference does not hold.
        let side_by_side =
            vec![Passage::copied((2547, 2725), (1552, 1730)), Passage::copied((2809, 3086), (1274, 1550))];
        assert_eq!(join_holes(side_by_side.clone(), &[], false).len(), 2);
        assert_eq!(join_holes(side_by_side, &[], true).len(), 1);
        assert_eq!(join(vec![], &[]), vec![]);
    }

    #[test]
    fn holes_too_short_to_judge_do_not_keep_the_pieces_apart() {
        // Reordered sentences side by side: only a sentence's end between them.
        let gap_chars = MatchTuning::default().gap_chars;
        let narrow = gap_chars / TOO_SHORT_TO_JUDGE - 1;
        let pieces = vec![Passage::copied((0, 200), (300, 500)), Passage::copied((200 + narrow, 400), (100, 300))];
        assert_eq!(join_holes(pieces, &[], false), vec![(0, 400, 100, 500)]);
        // As wide as the rule judges, the hole must be found in the reference.
        let wide = gap_chars / TOO_SHORT_TO_JUDGE;
        let pieces = vec![Passage::copied((0, 200), (300, 500)), Passage::copied((200 + wide, 400), (100, 300))];
        assert_eq!(join_holes(pieces, &[], false).len(), 2);
    }
}

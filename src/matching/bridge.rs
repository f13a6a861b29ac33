//! Bridges the gap between two passages of one pair that follow each other on both sides,
//! long on both sides, with gaps of about the same size between them: the text in between
//! was copied too, only edited (reworded) past what seeds can match. A repost reworded
//! paragraph by paragraph is one passage, not one per paragraph that kept enough words.

use super::{PairContext, overlaps};
use crate::model::Passage;

/// Joins consecutive passages (in the same order on both sides) when each is at least
/// `rough_gap_chars` long on both sides, the gap between them is at most that on both
/// sides, the two gaps differ by at most `gap_chars`, and neither gap holds template
/// text. Returns passages sorted by suspect offset.
pub fn bridge_edited_gaps(mut passages: Vec<Passage>, ctx: &PairContext) -> Vec<Passage> {
    passages.sort_by_key(|p| (p.a_start, p.b_start));
    let mut bridged: Vec<Passage> = Vec::with_capacity(passages.len());
    for p in passages {
        if let Some(last) = bridged.last_mut()
            && bridgeable(last, &p, ctx)
        {
            last.a_end = p.a_end;
            last.b_end = p.b_end;
            last.alternatives.extend(p.alternatives);
            continue;
        }
        bridged.push(p);
    }
    bridged
}

fn bridgeable(first: &Passage, next: &Passage, ctx: &PairContext) -> bool {
    let longest_gap = ctx.tuning.rough_gap_chars;
    if first.kind != next.kind || next.a_start < first.a_end || next.b_start < first.b_end {
        return false;
    }
    let (gap_a, gap_b) = (next.a_start - first.a_end, next.b_start - first.b_end);
    let long = |p: &Passage| p.a_len().min(p.b_len()) >= longest_gap;
    gap_a <= longest_gap
        && gap_b <= longest_gap
        && gap_a.abs_diff(gap_b) <= ctx.tuning.gap_chars
        && long(first)
        && long(next)
        && !overlaps(ctx.suspect_masked, (first.a_end, next.a_start))
        && !overlaps(ctx.reference_masked, (first.b_end, next.b_start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::MatchTuning;

    fn bridge(passages: Vec<Passage>, masked: &[(u32, u32)]) -> Vec<(u32, u32, u32, u32)> {
        let tuning = MatchTuning::default();
        let ctx = PairContext { k: 8, min_chars: 40, tuning: &tuning, suspect_masked: masked, reference_masked: &[] };
        bridge_edited_gaps(passages, &ctx).iter().map(|p| (p.a_start, p.a_end, p.b_start, p.b_end)).collect()
    }

    #[test]
    fn a_reworded_paragraph_between_two_copied_ones_is_bridged() {
        let passages = vec![Passage::copied((1000, 1800), (900, 1700)), Passage::copied((0, 800), (0, 760))];
        assert_eq!(bridge(passages, &[]), vec![(0, 1800, 0, 1700)]);
    }

    #[test]
    fn unequal_gaps_short_passages_and_template_text_are_not_bridged() {
        let unequal = vec![Passage::copied((0, 800), (0, 800)), Passage::copied((900, 1700), (1050, 1850))];
        assert_eq!(bridge(unequal, &[]).len(), 2);
        let short = vec![Passage::copied((0, 800), (0, 800)), Passage::copied((900, 1000), (900, 1000))];
        assert_eq!(bridge(short, &[]).len(), 2);
        let template = vec![Passage::copied((0, 800), (0, 800)), Passage::copied((900, 1700), (900, 1700))];
        assert_eq!(bridge(template, &[(820, 880)]).len(), 2);
    }
}

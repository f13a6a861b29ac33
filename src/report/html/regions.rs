//! One student's passages, each once: every passage of the student's pairs, seen on the
//! student's side, gathered into excerpts of the student's text — passages whose context
//! would overlap share one excerpt — each excerpt with a few lines of context and every
//! source of its passages. Computed here, painted by [`super::passages`].

use super::review::{ShownPair, ShownPassage};
use crate::model::saturating_u32;

/// Characters of the student's text shown before and after an excerpt's passages (cut
/// back to a word's edge): about two printed lines.
pub const CONTEXT_CHARS: u32 = 180;

/// One passage of one pair, seen from the student.
#[derive(Clone, Copy, Debug)]
pub struct Hit<'s, 'a> {
    pub shown: &'s ShownPair<'a>,
    /// The passage's index in its pair.
    pub index: usize,
    /// The other document of the pair.
    pub twin: usize,
    /// The passage in the student's text, `[start, end)` in characters.
    pub mine: (u32, u32),
    /// The passage in the other text.
    pub theirs: (u32, u32),
}

impl<'a> Hit<'_, 'a> {
    /// The passage as the report shows it (its mark and whether it counts).
    pub fn passage(&self) -> &ShownPassage<'a> {
        &self.shown.passages[self.index]
    }
}

/// A part of the student's text: its passages and the context around them.
#[derive(Clone, Debug)]
pub struct Excerpt<'s, 'a> {
    /// The characters shown, context included, `[start, end)`.
    pub range: (u32, u32),
    /// The passages inside, by their start in the student's text.
    pub hits: Vec<Hit<'s, 'a>>,
}

/// The excerpts of `doc`'s text (`text`) that hold the passages of `pairs`, in the
/// order of the text; each passage is in exactly one excerpt.
pub fn excerpts<'s, 'a>(text: &str, doc: usize, pairs: &[&'s ShownPair<'a>]) -> Vec<Excerpt<'s, 'a>> {
    let chars: Vec<char> = text.chars().collect();
    let len = saturating_u32(chars.len());
    let mut hits: Vec<Hit<'s, 'a>> = Vec::new();
    for &shown in pairs {
        let mine_a = shown.pair.a == doc;
        let twin = if mine_a { shown.pair.b } else { shown.pair.a };
        for (index, p) in shown.passages.iter().enumerate() {
            let q = p.passage;
            let (a, b) = ((q.a_start, q.a_end), (q.b_start, q.b_end));
            let (mine, theirs) = if mine_a { (a, b) } else { (b, a) };
            let mine = (mine.0.min(len), mine.1.min(len));
            if mine.0 < mine.1 {
                hits.push(Hit { shown, index, twin, mine, theirs });
            }
        }
    }
    hits.sort_by_key(|h| (h.mine.0, std::cmp::Reverse(h.mine.1), h.shown.index, h.index));
    let mut out: Vec<Excerpt<'s, 'a>> = Vec::new();
    for hit in hits {
        match out.last_mut() {
            // Contexts that would overlap: one excerpt.
            Some(last) if hit.mine.0 <= last.range.1.saturating_add(2 * CONTEXT_CHARS) => {
                last.range.1 = last.range.1.max(hit.mine.1);
                last.hits.push(hit);
            }
            _ => out.push(Excerpt { range: hit.mine, hits: vec![hit] }),
        }
    }
    for excerpt in &mut out {
        let (start, end) = excerpt.range;
        excerpt.range = (context_start(&chars, start), context_end(&chars, end));
    }
    out
}

/// Where the context before `start` begins: [`CONTEXT_CHARS`] back, moved forward to
/// the start of a word when that is near (text without spaces is cut anywhere).
fn context_start(chars: &[char], start: u32) -> u32 {
    let from = start.saturating_sub(CONTEXT_CHARS);
    if from == 0 {
        return 0;
    }
    let limit = (from + CONTEXT_CHARS / 3).min(start);
    (from..limit).find(|&i| chars[i as usize - 1].is_whitespace()).unwrap_or(from)
}

/// Where the context after `end` stops: [`CONTEXT_CHARS`] on, moved back to the end of a
/// word when that is near.
fn context_end(chars: &[char], end: u32) -> u32 {
    let len = saturating_u32(chars.len());
    let to = end.saturating_add(CONTEXT_CHARS).min(len);
    if to == len {
        return len;
    }
    let limit = to.saturating_sub(CONTEXT_CHARS / 3).max(end);
    (limit..=to).rev().find(|&i| chars[i as usize].is_whitespace()).unwrap_or(to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Pair, Passage};
    use crate::report::html::review::Status;

    fn shown(index: usize, pair: &Pair) -> ShownPair<'_> {
        let passages =
            pair.passages.iter().map(|passage| ShownPassage { passage, mark: None, status: Status::Counted });
        ShownPair { index, pair, counted: Some(pair), passages: passages.collect(), mark: None, note: "" }
    }

    fn pair(a: usize, b: usize, passages: Vec<Passage>) -> Pair {
        Pair {
            a,
            b,
            score: 0.1,
            score_b: 0.1,
            simhash_distance: None,
            passages,
            longest: 0,
            shared_sentences: 0,
            near_duplicate: false,
        }
    }

    #[test]
    fn a_passage_found_in_two_sources_is_one_excerpt_listing_both_and_far_ones_stay_apart() {
        let text = "word ".repeat(400);
        let r = pair(0, 1, vec![Passage::copied((100, 200), (0, 100)), Passage::copied((1700, 1900), (5, 205))]);
        let c = pair(2, 0, vec![Passage::copied((10, 110), (120, 210))]);
        let (r, c) = (shown(0, &r), shown(1, &c));
        let got = excerpts(&text, 0, &[&r, &c]);
        assert_eq!(got.len(), 2, "two places of the text");
        assert_eq!(got[0].hits.len(), 2, "the classmate's and the reference's passage together");
        assert_eq!(got[0].hits[1].twin, 2, "seen from the student's side of the classmate's pair");
        assert_eq!(got[0].hits[1].mine, (120, 210));
        assert_eq!(got[0].hits[1].theirs, (10, 110));
        let (start, end) = got[0].range;
        assert!(start == 0 || text.chars().nth(start as usize - 1) == Some(' '), "starts on a word: {start}");
        assert!((210 + CONTEXT_CHARS - CONTEXT_CHARS / 3..=210 + CONTEXT_CHARS).contains(&end), "{end}");
        assert_eq!(text.chars().nth(end as usize), Some(' '), "ends on a word's edge");
        assert!(got[1].range.0 < 1700 && got[1].range.1 == 2000, "the last one runs to the end");
    }

    #[test]
    fn text_without_spaces_gets_its_context_by_count() {
        let text = "软".repeat(1000);
        let r = pair(0, 1, vec![Passage::copied((500, 520), (0, 20))]);
        let r = shown(0, &r);
        let got = excerpts(&text, 0, &[&r]);
        assert_eq!(got[0].range, (500 - CONTEXT_CHARS, 520 + CONTEXT_CHARS));
    }
}

//! Reworded copies in one language: a passage the word-level passes found often covers
//! only the stretch of a reworded copy whose words survived (a run of five intact words),
//! while the copy goes on, sentence after sentence, in other words. Each edge of such a
//! passage is carried on over the next sentence of both sides while the two sentences
//! say the same thing: their character trigrams overlap more than unrelated sentences'
//! do (a cheap test, made first) and the encoder finds them close in meaning.

use std::ops::Range;

use super::Embedding;
use super::cosine;
use crate::normalize::is_sentence_terminator;

/// The least cosine of two sentences for a passage to be carried over them. On reworded
/// copies drawn with WordNet's synonyms, 94 in 100 sentence pairs reach it (with the
/// trigram test); of a copied sentence against the sentence beside its source, 6 in 100;
/// of the text beside a copy against the sentence beside its source, none.
pub const MIN_COSINE: f32 = 0.6;
/// The least Dice coefficient of the two sentences' character trigrams before they are
/// embedded at all: a reworded sentence keeps its short words and its names.
pub const MIN_TRIGRAMS: f32 = 0.25;
/// Sentences a passage is carried over at each edge, at most.
pub const MAX_STEPS: usize = 6;
/// The least letters of a piece of a sentence that is compared: a shorter one says too
/// little to embed.
const MIN_LETTERS: usize = 15;
/// The largest ratio of the two pieces' lengths.
const MAX_RATIO: f32 = 2.0;
/// The widest text between two passages of one pair, on either side, that [`bridges`]
/// reads, and the largest ratio of its two sides' lengths (a gap is a sentence or two,
/// cut wherever the words that survived end).
pub const MAX_GAP: u32 = 240;
const MAX_GAP_RATIO: f32 = 3.0;

/// One document as this pass reads it.
#[derive(Clone, Copy)]
pub struct Text<'a> {
    pub chars: &'a [char],
}

impl Text<'_> {
    /// The piece from `at` to the end of its sentence, white space before it skipped, and
    /// on to the end of the next one when it is too short to say anything by itself (the
    /// rest of a sentence a passage ended in); `None` at the end of the text.
    fn piece_after(&self, at: u32) -> Option<Range<u32>> {
        let piece = self.sentence_after(at)?;
        if letters(&self.text(&piece)) >= MIN_LETTERS {
            return Some(piece);
        }
        match self.sentence_after(piece.end) {
            Some(next) => Some(piece.start..next.end),
            None => Some(piece),
        }
    }

    /// The piece before `at` back to the start of its sentence, and on to the start of the
    /// one before when it is too short by itself; `None` at the start of the text.
    fn piece_before(&self, at: u32) -> Option<Range<u32>> {
        let piece = self.sentence_before(at)?;
        if letters(&self.text(&piece)) >= MIN_LETTERS {
            return Some(piece);
        }
        match self.sentence_before(piece.start) {
            Some(earlier) => Some(earlier.start..piece.end),
            None => Some(piece),
        }
    }

    /// From `at` to the end of its sentence, white space before it skipped.
    fn sentence_after(&self, at: u32) -> Option<Range<u32>> {
        let mut start = at as usize;
        while start < self.chars.len() && self.chars[start].is_whitespace() {
            start += 1;
        }
        if start >= self.chars.len() {
            return None;
        }
        let mut end = start;
        while end < self.chars.len() {
            let c = self.chars[end];
            end += 1;
            if ends_sentence(c, self.chars.get(end).copied()) {
                break;
            }
        }
        Some(u32::try_from(start).ok()?..u32::try_from(end).ok()?)
    }

    /// From the start of the sentence that ends at or holds `at - 1` up to `at`, white
    /// space after it left out.
    fn sentence_before(&self, at: u32) -> Option<Range<u32>> {
        let mut end = (at as usize).min(self.chars.len());
        while end > 0 && self.chars[end - 1].is_whitespace() {
            end -= 1;
        }
        if end == 0 {
            return None;
        }
        // The sentence's own terminator (just before `end`) does not end it.
        let mut start = end - 1;
        while start > 0 && !ends_sentence(self.chars[start - 1], Some(self.chars[start])) {
            start -= 1;
        }
        while start < end && self.chars[start].is_whitespace() {
            start += 1;
        }
        Some(u32::try_from(start).ok()?..u32::try_from(end).ok()?)
    }

    /// The text of `range` (nothing for a range outside the text).
    fn text(&self, range: &Range<u32>) -> String {
        self.chars.get(range.start as usize..range.end as usize).map(|c| c.iter().collect()).unwrap_or_default()
    }
}

/// Whether `c`, followed by `next`, ends a sentence: a terminator, or a Latin full stop
/// before white space.
fn ends_sentence(c: char, next: Option<char>) -> bool {
    is_sentence_terminator(c) || (c == '.' && next.is_none_or(char::is_whitespace))
}

/// Two stretches of text, `a` in the suspect and `b` in the reference (code points): a
/// passage's two sides, or the sentence (or rest of one) of each that it was carried over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sides {
    pub a: Range<u32>,
    pub b: Range<u32>,
}

/// Where a passage may not be carried: the suspect's text that other passages hold.
pub trait Taken {
    /// Whether any of `range` of the suspect is another passage's.
    fn taken(&self, range: &Range<u32>) -> bool;
}

/// What the pass asks of the encoder: one embedding per text, in order.
pub type Embed<'e> = dyn Fn(&[String]) -> Vec<Embedding> + 'e;

/// `sides` carried on at both edges over the sentences that say the same thing on both
/// sides ([`MIN_TRIGRAMS`], [`MIN_COSINE`]), each step at most one sentence a side, never
/// into suspect text `taken` holds (the texts end where their compared part does).
/// Returns the sides and the pieces taken in, in the suspect's order.
pub fn carry(texts: (Text<'_>, Text<'_>), sides: Sides, taken: &dyn Taken, embed: &Embed<'_>) -> (Sides, Vec<Sides>) {
    let (suspect, reference) = texts;
    let mut sides = sides;
    let (mut before, mut after) = (Vec::new(), Vec::new());
    for _ in 0..MAX_STEPS {
        let (Some(a), Some(b)) = (suspect.piece_after(sides.a.end), reference.piece_after(sides.b.end)) else { break };
        if taken.taken(&a) || !alike(texts, (&a, &b), MAX_RATIO, embed) {
            break;
        }
        sides.a.end = a.end;
        sides.b.end = b.end;
        after.push(Sides { a, b });
    }
    for _ in 0..MAX_STEPS {
        let (Some(a), Some(b)) = (suspect.piece_before(sides.a.start), reference.piece_before(sides.b.start)) else {
            break;
        };
        if taken.taken(&a) || !alike(texts, (&a, &b), MAX_RATIO, embed) {
            break;
        }
        sides.a.start = a.start;
        sides.b.start = b.start;
        before.push(Sides { a, b });
    }
    before.reverse();
    before.extend(after);
    (sides, before)
}

/// Whether the text between two passages of one pair, `a` in the suspect and `b` in the
/// reference (each at most [`MAX_GAP`]), says the same on both sides or holds no letter
/// on either (the two were carried up to each other), and no other passage (`taken`)
/// holds `a`: the two passages are one copy, reworded between them.
pub fn bridges(
    texts: (Text<'_>, Text<'_>),
    (a, b): (&Range<u32>, &Range<u32>),
    taken: &dyn Taken,
    embed: &Embed<'_>,
) -> bool {
    let touch = || letters(&texts.0.text(a)) == 0 && letters(&texts.1.text(b)) == 0;
    a.end - a.start <= MAX_GAP
        && b.end - b.start <= MAX_GAP
        && !taken.taken(a)
        && (touch() || alike(texts, (a, b), MAX_GAP_RATIO, embed))
}

/// Whether `a` of the suspect and `b` of the reference say the same thing: of lengths
/// within `ratio` of each other, sharing enough trigrams, close enough in meaning.
fn alike(
    (suspect, reference): (Text<'_>, Text<'_>),
    (a, b): (&Range<u32>, &Range<u32>),
    ratio: f32,
    embed: &Embed<'_>,
) -> bool {
    let (a, b) = (suspect.text(a), reference.text(b));
    let (la, lb) = (letters(&a), letters(&b));
    if la < MIN_LETTERS || lb < MIN_LETTERS || la.max(lb) as f32 > ratio * la.min(lb) as f32 {
        return false;
    }
    if trigram_dice(&a, &b) < MIN_TRIGRAMS {
        return false;
    }
    let embeddings = embed(&[a, b]);
    match embeddings.as_slice() {
        [x, y] => cosine(x, y) >= MIN_COSINE,
        _ => false,
    }
}

fn letters(text: &str) -> usize {
    text.chars().filter(|c| c.is_alphanumeric()).count()
}

/// The Dice coefficient of two texts' distinct character trigrams (lower case, white
/// space runs as one space). Unlike [`crate::matching::closeness::shared_trigrams`],
/// which counts the trigrams two normalized streams share, it reads raw text and needs
/// no stream: the thresholds above were measured with it.
pub fn trigram_dice(a: &str, b: &str) -> f32 {
    let (x, y) = (trigrams(a), trigrams(b));
    if x.is_empty() || y.is_empty() {
        return 0.0;
    }
    let shared = x.iter().filter(|t| y.binary_search(t).is_ok()).count();
    2.0 * shared as f32 / (x.len() + y.len()) as f32
}

/// A text's distinct character trigrams, sorted.
fn trigrams(text: &str) -> Vec<[char; 3]> {
    let mut folded: Vec<char> = Vec::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        let c = if c.is_whitespace() { ' ' } else { c };
        if c == ' ' && folded.last() == Some(&' ') {
            continue;
        }
        folded.push(c);
    }
    let mut out: Vec<[char; 3]> = folded.windows(3).map(|w| [w[0], w[1], w[2]]).collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Nothing;
    impl Taken for Nothing {
        fn taken(&self, _: &Range<u32>) -> bool {
            false
        }
    }

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn pieces_run_to_the_sentence_ends_and_a_short_rest_takes_the_next_sentence() {
        let text = "First sentence is here. Second sentence runs on. Third one ends it all.";
        let c = chars(text);
        let t = Text { chars: &c };
        let at = |s: &str| u32::try_from(text.find(s).unwrap()).unwrap();
        let second = at("Second")..at(" Third");
        assert_eq!(t.piece_after(at(" Second")), Some(second.clone()));
        assert_eq!(t.piece_before(at(" Third")), Some(second));
        // "here." alone is too short: the piece goes on over the next sentence.
        assert_eq!(t.piece_after(at("here")), Some(at("here")..at(" Third")));
        assert_eq!(t.piece_before(at("runs")), Some(0..at(" runs")));
        assert_eq!(t.piece_after(u32::try_from(c.len()).unwrap()), None);
        assert_eq!(t.piece_before(0), None);
    }

    #[test]
    fn a_passage_is_carried_while_the_encoder_agrees_and_stops_at_other_text() {
        let a = chars("Host text here. The cat sat on the warm mat today. Entirely unrelated words follow now.");
        let b = chars("Before it. The cat sat on the warm rug today. Something else is written in this place.");
        // The encoder stand-in: close when the trigrams are.
        let embed = |texts: &[String]| -> Vec<Embedding> {
            let close = trigram_dice(&texts[0], &texts[1]) > 0.5;
            let mut x = [0.0f32; super::super::DIM];
            let mut y = [0.0f32; super::super::DIM];
            x[0] = 1.0;
            if close {
                y[0] = 1.0
            } else {
                y[1] = 1.0
            }
            vec![x, y]
        };
        // A passage ending just before "The cat" on both sides.
        let sides = Sides { a: 0..15, b: 0..10 };
        let (carried, pieces) = carry((Text { chars: &a }, Text { chars: &b }), sides, &Nothing, &embed);
        assert_eq!(pieces, vec![Sides { a: 16..50, b: 11..45 }]);
        assert_eq!(carried.a, 0..50);
        assert_eq!(carried.b, 0..45);
    }

    #[test]
    fn two_passages_are_bridged_when_they_touch_or_the_gap_says_the_same_and_is_free() {
        let a = chars("Copied one. The cat sat on the warm mat today. Copied two.");
        let b = chars("Copied one. The cat sat on the warm rug today. Copied two.");
        let texts = (Text { chars: &a }, Text { chars: &b });
        let never = |_: &[String]| -> Vec<Embedding> { Vec::new() };
        let same = |texts: &[String]| -> Vec<Embedding> { texts.iter().map(|_| [1.0f32; super::super::DIM]).collect() };
        // Touching (only white space between): bridged without the encoder.
        assert!(bridges(texts, (&(11..12), &(11..12)), &Nothing, &never));
        // A reworded sentence between: bridged when the encoder agrees.
        let gap = (11..47, 11..47);
        assert!(bridges(texts, (&gap.0, &gap.1), &Nothing, &same));
        assert!(!bridges(texts, (&gap.0, &gap.1), &Nothing, &never));
        // Held by another passage, or too wide: never.
        struct All;
        impl Taken for All {
            fn taken(&self, _: &Range<u32>) -> bool {
                true
            }
        }
        assert!(!bridges(texts, (&gap.0, &gap.1), &All, &same));
        assert!(!bridges(texts, (&(0..MAX_GAP + 1), &gap.1), &Nothing, &same));
    }

    #[test]
    fn trigram_dice_is_one_for_the_same_text_and_zero_for_none_shared() {
        assert!((trigram_dice("Hello  World", "hello world") - 1.0).abs() < 1e-6);
        assert_eq!(trigram_dice("abc", "xyz"), 0.0);
        assert_eq!(trigram_dice("ab", "ab"), 0.0);
    }
}

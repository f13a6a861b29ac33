//! A class to print: 30 students of about 1,500 generated words each, four references,
//! and planted shared passages — copied from references (some lightly edited), and shared
//! between pairs of classmates. Each student's own words hold a marker word of its own
//! (`MARKER00`, `MARKER01`, …) far from any shared passage, so a report that prints a
//! classmate's own text is caught. Student 0 has four sources: three references and
//! classmate 1.

use std::path::PathBuf;
use std::sync::Arc;

use twinspot::{DocumentEntry, Mode, Pair, Passage, Report, Role, Settings};

/// How many students the class has.
pub const STUDENTS: usize = 30;
/// How many references.
pub const REFERENCES: usize = 4;
/// Planted passages per reference.
const CHUNKS: usize = 8;

#[rustfmt::skip]
const VOCAB: [&str; 96] = [
    "the", "a", "of", "and", "to", "in", "is", "that", "for", "it", "as", "with", "was", "on", "by", "this", "are",
    "from", "at", "which", "be", "or", "an", "not", "river", "city", "market", "history", "water", "people",
    "school", "energy", "system", "change", "growth", "village", "century", "trade", "language", "culture",
    "science", "method", "result", "study", "period", "region", "power", "family", "labour", "harvest", "winter",
    "bridge", "railway", "factory", "council", "teacher", "student", "library", "garden", "forest", "mountain",
    "coast", "harbour", "measure", "evidence", "account", "reason", "question", "answer", "early", "late",
    "small", "large", "common", "rare", "ancient", "modern", "local", "distant", "careful", "rapid", "slow",
    "built", "grew", "moved", "changed", "followed", "described", "recorded", "showed", "found", "kept", "gave",
    "took", "made", "became",
];

/// A small deterministic generator of words (xorshift64*).
struct Words(u64);

impl Words {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize
    }

    /// About `n` words of prose: sentences of 8 to 17 words, a paragraph every six.
    fn prose(&mut self, n: usize) -> String {
        let mut out = String::new();
        let (mut words, mut sentences) = (0usize, 0usize);
        while words < n {
            let len = 8 + self.next() % 10;
            let sentence: Vec<&str> = (0..len).map(|_| VOCAB[self.next() % VOCAB.len()]).collect();
            let mut sentence = sentence.join(" ");
            sentence[..1].make_ascii_uppercase();
            out.push_str(&sentence);
            out.push('.');
            words += len;
            sentences += 1;
            out.push_str(if sentences.is_multiple_of(6) { "\n\n" } else { " " });
        }
        out
    }
}

/// A text built piece by piece, with the character span of each piece.
#[derive(Default)]
struct Text {
    text: String,
    chars: u32,
}

impl Text {
    fn push(&mut self, piece: &str) -> (u32, u32) {
        let start = self.chars;
        self.text.push_str(piece);
        self.chars += piece.chars().count() as u32;
        self.text.push(' ');
        self.chars += 1;
        (start, start + piece.chars().count() as u32)
    }
}

fn entry(id: usize, path: &str, role: Role, text: String) -> DocumentEntry {
    let chars = text.chars().count();
    DocumentEntry {
        id,
        path: path.into(),
        source: PathBuf::from(path),
        role,
        chars,
        countable_chars: chars,
        simhash: None,
        sha256: Some(format!("{:064x}", 0x5eed_0000 + id)),
        error: None,
        warnings: vec![],
        flags: vec![],
        text: Arc::from(text.as_str()),
    }
}

fn pair(a: (usize, u32), b: (usize, u32), passages: Vec<Passage>) -> Pair {
    let len = |p: &Passage, first: bool| if first { p.a_end - p.a_start } else { p.b_end - p.b_start };
    let share = |first: bool, chars: u32| passages.iter().map(|p| len(p, first)).sum::<u32>() as f64 / chars as f64;
    Pair {
        a: a.0,
        b: b.0,
        score: share(true, a.1),
        score_b: share(false, b.1),
        simhash_distance: None,
        longest: passages.iter().map(|p| len(p, true)).max().unwrap_or(0),
        passages,
        shared_sentences: 0,
        near_duplicate: false,
    }
}

/// A passage copied from a reference: the reference, its span in the student's text and
/// in the reference.
type Planted = (usize, (u32, u32), (u32, u32));

/// The path of student `i`'s file.
pub fn student_path(i: usize) -> String {
    format!("/home/teacher/class-2026/student-{i:02}.txt")
}

/// The references student `i` copies from: (reference, chunk), edited when `true`.
fn copies(i: usize) -> Vec<(usize, usize, bool)> {
    let mut out = vec![(i % REFERENCES, (i / REFERENCES) % CHUNKS, i % 3 == 1)];
    if i.is_multiple_of(2) {
        out.push(((i + 1) % REFERENCES, (i / REFERENCES + 3) % CHUNKS, false));
    }
    if i == 0 {
        out.push((0, 5, true));
        out.push((2, 6, false));
    }
    out
}

/// The class, in classmates mode: students first (ids 0–29), then the references.
pub fn class() -> Report {
    let mut words = Words(0x9e37_79b9_7f4a_7c15);
    let chunks: Vec<Vec<String>> =
        (0..REFERENCES).map(|_| (0..CHUNKS).map(|_| words.prose(70).trim().to_string()).collect()).collect();
    let mut refs: Vec<(Text, Vec<(u32, u32)>)> = Vec::new();
    for chunks in &chunks {
        let mut text = Text::default();
        let spans = chunks
            .iter()
            .map(|c| {
                text.push(words.prose(120).trim());
                text.push(c)
            })
            .collect();
        refs.push((text, spans));
    }
    // Classmates 0 and 1, 10 and 11, 20 and 21 share a passage of their own.
    let shared: Vec<String> = (0..STUDENTS).map(|_| words.prose(60).trim().to_string()).collect();
    let mut students: Vec<Text> = Vec::new();
    let mut planted: Vec<Vec<Planted>> = Vec::new();
    let mut with_classmate: Vec<Option<(u32, u32)>> = Vec::new();
    for i in 0..STUDENTS {
        let mut text = Text::default();
        let mut own = words.prose(250);
        let middle = own.len() / 2;
        let cut = own[middle..].find(' ').map_or(own.len(), |at| middle + at);
        own.insert_str(cut, &format!(" MARKER{i:02}"));
        text.push(own.trim());
        let mut mine = Vec::new();
        for (r, c, edited) in copies(i) {
            text.push(words.prose(220).trim());
            let copy = if edited { chunks[r][c].replacen(" the ", " one ", 3) } else { chunks[r][c].clone() };
            mine.push((r, text.push(&copy), refs[r].1[c]));
        }
        let classmate = match i % 10 {
            0 => Some(text.push(&shared[i])),
            1 => Some(text.push(&shared[i - 1])),
            _ => None,
        };
        text.push(words.prose(1500usize.saturating_sub(250 + 290 * mine.len())).trim());
        students.push(text);
        planted.push(mine);
        with_classmate.push(classmate);
    }
    let chars: Vec<u32> = students.iter().map(|t| t.chars).chain(refs.iter().map(|r| r.0.chars)).collect();
    let mut pairs = Vec::new();
    for (i, mine) in planted.iter().enumerate() {
        for r in 0..REFERENCES {
            let passages: Vec<Passage> =
                mine.iter().filter(|(pr, _, _)| *pr == r).map(|&(_, a, b)| Passage::copied(a, b)).collect();
            if !passages.is_empty() {
                pairs.push(pair((i, chars[i]), (STUDENTS + r, chars[STUDENTS + r]), passages));
            }
        }
        if let (0, Some(a), Some(b)) = (i % 10, with_classmate[i], with_classmate.get(i + 1).copied().flatten()) {
            pairs.push(pair((i, chars[i]), (i + 1, chars[i + 1]), vec![Passage::copied(a, b)]));
        }
    }
    pairs.sort_by(|x, y| y.score.total_cmp(&x.score));
    let documents = students
        .into_iter()
        .enumerate()
        .map(|(i, t)| entry(i, &student_path(i), Role::Suspect, t.text))
        .chain(refs.into_iter().enumerate().map(|(r, (t, _))| {
            entry(STUDENTS + r, &format!("/home/teacher/sources/encyclopedia-{r}.txt"), Role::Reference, t.text)
        }))
        .collect();
    Report {
        settings: Settings::default(),
        mode: Mode::Classmates,
        documents,
        pairs,
        near_duplicates: vec![],
        groups: vec![],
        skipped: vec![],
    }
}

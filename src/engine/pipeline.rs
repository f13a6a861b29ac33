//! The stages of a check wired together: read + fingerprint every document in parallel,
//! index the references, match every suspect, score the pairs.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::identical::{IdenticalFiles, Identity, Member, whole_text_pair};
use super::progress::{CancelFlag, Cancelled, Progress, ProgressSink, Stage};
use super::{CheckRequest, DocumentInput, Mode, Role, template};
use crate::exclusions::quoted::quoted_spans;
use crate::exclusions::{Exclusions, SuspectExclusions, token_ranges};
use crate::fingerprint::hashing::kgram_hashes;
use crate::fingerprint::keywords::{KeywordPrint, TOP_KEYWORDS, keyword_print, may_reach, similarity};
use crate::fingerprint::{DocumentFingerprints, simhash};
use crate::index::{InvertedIndex, MAX_POSITIONS_PER_DOCUMENT, Posting, SimhashIndex};
use crate::ingest;
use crate::matching::alternatives::{fold_across_pairs, fold_alternatives};
use crate::matching::dense::{Ties, densify};
use crate::matching::{Hit, LazyStream, MatchTuning, PairContext, Side, match_pair_counting, overlaps};
use crate::normalize::{self, folded_text};
use crate::report::{DocumentEntry, Pair, Passage, Report};
use crate::score::{KEYWORD_SIMILARITY, is_near_duplicate, keywords_agree, near_duplicate_groups, pair_scores};
use crate::settings::Settings;

/// A k-gram held by more reference positions than this, in fewer documents than make it
/// common (one document repeating a phrase), is skipped at lookup: it would cost more
/// than it tells. The cap grows with the number of references: one in
/// [`POSTINGS_SHARE`] of them, but never below [`MIN_POSTINGS_CAP`]. Common k-grams are
/// never skipped: they are matched against a few of their documents and shown as common
/// (see [`crate::exclusions::common`]).
const POSTINGS_SHARE: usize = 20;
const MIN_POSTINGS_CAP: usize = 50;

/// A document is compared up to this many normalized characters (about 24 MB of Chinese
/// or 8 MB of English text); the rest gets a warning. Every per-document structure grows
/// with this length, so it bounds a document's memory, whatever its content.
const MAX_COMPARED_CHARS: usize = 8_000_000;

/// A suspect is compared with at most this many near-duplicate candidates found by SimHash
/// alone (the closest): a folder of thousands of identical files stays linear.
const MAX_SIMHASH_CANDIDATES: usize = 32;

/// The report keeps at most this many pairs: each suspect its closest ones, as many as fit
/// (see `keep_closest_pairs`).
const MAX_PAIRS: usize = 100_000;

/// One document after reading: its entry for the report and its fingerprints.
struct Loaded {
    entry: DocumentEntry,
    /// A suspect that is also a reference (the same file was given in both parts).
    also_reference: bool,
    /// Bytes of `entry.text` that are compared (all of it but for giant documents).
    compared: usize,
    prints: Option<DocumentFingerprints>,
    masked_chars: Vec<(u32, u32)>,
    /// The keyword fingerprint, taken with the SimHash.
    keywords: Option<KeywordPrint>,
}

/// Counts finished units of a stage and tells the sink.
struct Counter<'a> {
    sink: &'a dyn ProgressSink,
    stage: Stage,
    total: usize,
    done: AtomicUsize,
}

impl<'a> Counter<'a> {
    fn start(sink: &'a dyn ProgressSink, stage: Stage, total: usize) -> Self {
        sink.progress(Progress { stage, done: 0, total });
        Self { sink, stage, total, done: AtomicUsize::new(0) }
    }
    fn tick(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        self.sink.progress(Progress { stage: self.stage, done, total: self.total });
    }
}

/// Runs the check described by `request`.
///
/// Per-file errors do not stop it: such a document gets an `error` in the report. Returns
/// `Err(Cancelled)` soon after `cancel` is set.
pub fn run_check(request: &CheckRequest, sink: &dyn ProgressSink, cancel: &CancelFlag) -> Result<Report, Cancelled> {
    let settings = request.settings.clone().sanitized();
    // The jieba dictionary takes a moment to build: start it while files are read.
    let dictionary = std::thread::Builder::new().name("twinspot-jieba".into()).spawn(simhash::Dictionary::load);
    // Each document is counted twice: once read and fingerprinted, once SimHashed.
    let counter = Counter::start(sink, Stage::Reading, request.documents.len() * 2);
    let mut docs = read_all(&request.documents, &settings, &counter, cancel)?;
    // Joined (and so built) before any SimHash; if the thread could not start or died,
    // the dictionary is simply built on first use.
    let dictionary = dictionary.ok().and_then(|handle| handle.join().ok());
    add_simhashes(&mut docs, &settings, &counter, cancel)?;
    drop(dictionary);
    if !request.keep_dictionary {
        simhash::Dictionary::unload();
    }
    apply_templates(&mut docs, &settings);
    let identical = find_identical(&mut docs, request.mode);

    let is_reference = |d: &Loaded| {
        !identical.is_copy(d.entry.id)
            && match request.mode {
                Mode::SuspectsVsReferences => d.entry.role == Role::Reference || d.also_reference,
                Mode::AllVsAll => d.entry.role != Role::Template,
            }
    };
    let is_suspect = |d: &Loaded| {
        !identical.is_copy(d.entry.id)
            && (d.entry.role == Role::Suspect || (request.mode == Mode::AllVsAll && d.entry.role == Role::Reference))
    };

    let counter = Counter::start(sink, Stage::Indexing, 1);
    let index = build_index(&mut docs, &is_reference);
    let mut simhashes = SimhashIndex::new(settings.simhash_threshold);
    for (id, d) in docs.iter().enumerate().filter(|(_, d)| is_reference(d)) {
        if let Some(h) = d.entry.simhash {
            simhashes.insert(id as u32, h);
        }
    }
    counter.tick();
    check(cancel)?;

    let suspects: Vec<usize> = (0..docs.len()).filter(|&i| is_suspect(&docs[i]) && docs[i].prints.is_some()).collect();
    let counter = Counter::start(sink, Stage::Matching, suspects.len());
    let tuning = MatchTuning::default();
    let references = docs.iter().filter(|d| is_reference(d)).count();
    let max_postings = (references / POSTINGS_SHARE).max(MIN_POSTINGS_CAP);
    let exclusions = Exclusions::new(references, &settings.stop_passages, settings.normalize, settings.k);
    let matcher = Matcher {
        docs: &docs,
        index: &index,
        simhashes: &simhashes,
        settings: &settings,
        tuning: &tuning,
        mode: request.mode,
        max_postings,
        exclusions: &exclusions,
        is_reference: &is_reference,
        identical: &identical,
    };
    let per_suspect: Vec<Option<Vec<Pair>>> = suspects
        .par_iter()
        .map(|&a| {
            if cancel.is_cancelled() {
                return None;
            }
            let pairs = matcher.pairs_of(a);
            counter.tick();
            Some(pairs)
        })
        .collect();
    check(cancel)?;

    let mut per_suspect: Vec<Vec<Pair>> = per_suspect.into_iter().flatten().collect();
    let identical_rows = identical_pairs(&per_suspect, &docs, &identical, request.mode);
    per_suspect.extend(identical_rows);
    keep_closest_pairs(&mut per_suspect, MAX_PAIRS, &mut docs);
    let mut pairs: Vec<Pair> = per_suspect.into_iter().flatten().collect();
    pairs.sort_by(|x, y| y.score.total_cmp(&x.score).then(x.a.cmp(&y.a)).then(x.b.cmp(&y.b)));
    let mut near_duplicates: Vec<[usize; 2]> = pairs.iter().filter(|p| p.near_duplicate).map(|p| [p.a, p.b]).collect();
    near_duplicates.sort_unstable();
    let groups = near_duplicate_groups(&near_duplicates);
    let documents = docs.into_iter().map(|d| d.entry).collect();
    sink.progress(Progress { stage: Stage::Done, done: 1, total: 1 });
    Ok(Report {
        settings,
        mode: request.mode,
        documents,
        pairs,
        near_duplicates,
        groups,
        skipped: request.skipped.clone(),
    })
}

/// Keeps at most `max` pairs in all, fairly: every suspect keeps its closest pairs, as
/// many as the total allows (the same number for each). Each suspect that loses pairs gets
/// a warning saying how many. Nothing changes when the pairs fit.
fn keep_closest_pairs(per_suspect: &mut [Vec<Pair>], max: usize, docs: &mut [Loaded]) {
    let total: usize = per_suspect.iter().map(Vec::len).sum();
    if total <= max {
        return;
    }
    // The largest quota per suspect whose pairs still fit (a quota of 1 always is kept).
    let fits = |quota: usize| per_suspect.iter().map(|p| p.len().min(quota)).sum::<usize>() <= max;
    let (mut lo, mut hi) = (1usize, per_suspect.iter().map(Vec::len).max().unwrap_or(1));
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(mid) { lo = mid } else { hi = mid - 1 }
    }
    for pairs in per_suspect.iter_mut().filter(|p| p.len() > lo) {
        pairs.sort_by(|x, y| y.score.total_cmp(&x.score).then(x.b.cmp(&y.b)));
        let left_out = pairs.len() - lo;
        pairs.truncate(lo);
        if let Some(doc) = pairs.first().and_then(|p| docs.get_mut(p.a)) {
            doc.entry.warnings.push(format!(
                "{left_out} more pairs with shared text were left out: a report keeps at most {max} pairs, \
                 the {lo} closest of each document"
            ));
        }
    }
}

fn check(cancel: &CancelFlag) -> Result<(), Cancelled> {
    if cancel.is_cancelled() { Err(Cancelled) } else { Ok(()) }
}

/// Reads and fingerprints every input, in parallel; one tick of `counter` per input.
fn read_all(
    inputs: &[DocumentInput],
    settings: &Settings,
    counter: &Counter,
    cancel: &CancelFlag,
) -> Result<Vec<Loaded>, Cancelled> {
    // Its helper processes (if any) serve every file of this check and end with it.
    let extractor = ingest::Extractor::new(settings.ingest.isolation.as_ref());
    let loaded: Vec<Option<Loaded>> = inputs
        .par_iter()
        .enumerate()
        .map(|(id, input)| {
            if cancel.is_cancelled() {
                return None;
            }
            let loaded = load(id, input, settings, &extractor);
            counter.tick();
            Some(loaded)
        })
        .collect();
    check(cancel)?;
    Ok(loaded.into_iter().flatten().collect())
}

/// Takes the SimHash and the keyword fingerprint of every read document but the
/// templates, in parallel; one tick of
/// `counter` per document. A pass of its own, after reading: word segmentation needs the
/// jieba dictionary, which is built meanwhile on its own thread.
fn add_simhashes(
    docs: &mut [Loaded],
    settings: &Settings,
    counter: &Counter,
    cancel: &CancelFlag,
) -> Result<(), Cancelled> {
    docs.par_iter_mut().for_each(|d| {
        if cancel.is_cancelled() {
            return;
        }
        let words = d.prints.as_ref().map(|p| p.tokenized.tokens.len());
        if words == Some(0) && !d.entry.warnings.iter().any(|w| w == NO_TEXT) {
            d.entry.warnings.push(NO_WORDS.to_string());
        }
        // A document without words has no SimHash: two empty scans are not near duplicates.
        if d.entry.role != Role::Template && words.is_some_and(|n| n > 0) {
            let words = simhash::weighted_words(&folded_text(&d.entry.text[..d.compared], settings.normalize));
            d.entry.simhash = Some(simhash::simhash_of_words(&words));
            d.keywords = Some(keyword_print(&words, TOP_KEYWORDS));
        }
        counter.tick();
    });
    check(cancel)
}

/// The warning ingest gives a file without text, and the one given here to a text without
/// words (only punctuation, symbols or spaces): such documents are compared with nothing.
const NO_TEXT: &str = "no text found";
const NO_WORDS: &str = "no words to compare (only punctuation, symbols or spaces)";

/// Finds identical files, tells each later copy which document it is compared through.
fn find_identical(docs: &mut [Loaded], mode: Mode) -> IdenticalFiles {
    let members: Vec<Member> = docs
        .iter()
        .map(|d| Member {
            sha256: d.entry.sha256.as_deref(),
            role: if mode == Mode::AllVsAll && d.entry.role == Role::Reference { Role::Suspect } else { d.entry.role },
            also_reference: d.also_reference,
            has_words: d.prints.as_ref().is_some_and(|p| !p.tokenized.tokens.is_empty()),
        })
        .collect();
    let identical = IdenticalFiles::find(&members);
    for &(first, later) in &identical.pairs {
        let first_path = docs[first].entry.path.clone();
        let note = match identical.identity[later] {
            Identity::CopyOf(_) => format!("identical to {first_path} (same bytes): compared once, through it"),
            Identity::First => format!("identical to {first_path} (same bytes)"),
        };
        docs[later].entry.warnings.push(note);
    }
    identical
}

/// The pairs of identical files: each stated once as a whole-text copy (between two
/// references only when one of them is also a suspect), and for each later copy of a
/// suspect the rows of the suspect it is identical to (not in all-vs-all, where the group
/// says it). `found` holds each suspect's pairs; the result is more of the same.
fn identical_pairs(found: &[Vec<Pair>], docs: &[Loaded], identical: &IdenticalFiles, mode: Mode) -> Vec<Vec<Pair>> {
    let suspect_side = |d: &Loaded| d.entry.role == Role::Suspect || mode == Mode::AllVsAll;
    let mut whole = Vec::new();
    for &(first, later) in &identical.pairs {
        let (x, y) = (&docs[first], &docs[later]);
        if !suspect_side(x) && !suspect_side(y) {
            continue;
        }
        let (a, b) = if suspect_side(x) { (first, later) } else { (later, first) };
        let distance = match (x.entry.simhash, y.entry.simhash) {
            (Some(p), Some(q)) => Some(simhash::hamming(p, q)),
            _ => None,
        };
        whole.push(whole_text_pair(a, b, x.entry.chars, distance));
    }
    let mut rows = vec![whole];
    if mode == Mode::SuspectsVsReferences {
        // Every pair by its suspect: found by matching and stated whole alike.
        let mut rows_of: FxHashMap<usize, Vec<&Pair>> = FxHashMap::default();
        for pair in found.iter().chain(&rows).flatten() {
            rows_of.entry(pair.a).or_default().push(pair);
        }
        let copies = docs.iter().filter_map(|d| match identical.identity[d.entry.id] {
            Identity::CopyOf(first) if suspect_side(d) => Some((d.entry.id, first)),
            _ => None,
        });
        let copied: Vec<Vec<Pair>> = copies
            .map(|(copy, first)| {
                let theirs = rows_of.get(&first).map(Vec::as_slice).unwrap_or_default();
                theirs.iter().filter(|p| p.b != copy).map(|p| Pair { a: copy, ..(*p).clone() }).collect()
            })
            .collect();
        rows.extend(copied);
    }
    rows
}

fn load(id: usize, input: &DocumentInput, settings: &Settings, extractor: &ingest::Extractor) -> Loaded {
    let mut entry = DocumentEntry {
        id,
        path: input.display.clone(),
        source: input.path.clone(),
        role: input.role,
        chars: 0,
        countable_chars: 0,
        simhash: None,
        sha256: None,
        error: None,
        warnings: Vec::new(),
        text: Arc::from(""),
    };
    match extractor.extract(&input.path, &settings.ingest) {
        Ok(extracted) => {
            let compared = normalize::prefix_within(&extracted.text, settings.normalize, MAX_COMPARED_CHARS);
            let prints = DocumentFingerprints::compute(&extracted.text[..compared], settings);
            entry.chars = extracted.text.chars().count();
            entry.countable_chars = extracted.text[..compared].chars().count();
            entry.warnings = extracted.warnings;
            if compared < extracted.text.len() {
                entry.warnings.push(format!(
                    "only the first {} of its {} characters are compared: a document may take at most {} \
                     normalized characters",
                    entry.countable_chars, entry.chars, MAX_COMPARED_CHARS
                ));
            }
            entry.sha256 = Some(extracted.sha256);
            entry.text = Arc::from(extracted.text);
            Loaded {
                entry,
                also_reference: input.also_reference,
                compared,
                prints: Some(prints),
                masked_chars: Vec::new(),
                keywords: None,
            }
        }
        Err(error) => {
            entry.error = Some(format!("{error:#}"));
            Loaded {
                entry,
                also_reference: input.also_reference,
                compared: 0,
                prints: None,
                masked_chars: Vec::new(),
                keywords: None,
            }
        }
    }
}

/// Masks template text out of every other document and its fingerprints.
fn apply_templates(docs: &mut [Loaded], settings: &Settings) {
    let k = settings.k.max(1);
    let set = template::template_kgrams(
        docs.iter()
            .filter(|d| d.entry.role == Role::Template)
            .filter_map(|d| d.prints.as_ref())
            .map(|p| p.tokenized.tokens.as_slice()),
        k,
    );
    if set.is_empty() {
        return;
    }
    docs.par_iter_mut().filter(|d| d.entry.role != Role::Template).for_each(|d| {
        let Some(prints) = d.prints.as_mut() else {
            return;
        };
        let Some((mask, ranges)) = template::mask(&prints.tokenized.tokens, &set, k) else {
            return;
        };
        prints.kgrams.retain(|f| !mask[f.position as usize..f.position as usize + k].iter().any(|&m| m));
        prints.sentences.retain(|s| !mask[s.start as usize..s.end as usize].iter().any(|&m| m));
        let masked: usize = ranges.iter().map(|r| (r.1 - r.0) as usize).sum();
        d.entry.countable_chars = d.entry.chars.saturating_sub(masked);
        d.masked_chars = ranges;
    });
}

/// The k-gram index and the sentence index of the references.
struct Indexes {
    kgrams: InvertedIndex,
    sentences: InvertedIndex,
}

/// Indexes the references. Their winnowed k-grams move into the index, and everyone
/// else's are dropped: matching looks up every k-gram of a suspect, rolled again from its
/// tokens, so no document needs its own list any more.
fn build_index(docs: &mut [Loaded], is_reference: &(dyn Fn(&Loaded) -> bool + Sync)) -> Indexes {
    let kgrams: Vec<(u64, Posting)> = docs
        .par_iter_mut()
        .enumerate()
        .flat_map_iter(|(id, d)| {
            let keep = is_reference(d);
            let kgrams = d.prints.as_mut().map(|p| std::mem::take(&mut p.kgrams)).unwrap_or_default();
            let doc = id as u32;
            kgrams.into_iter().filter(move |_| keep).map(move |f| (f.hash, Posting { doc, position: f.position }))
        })
        .collect();
    let sentences: Vec<(u64, Posting)> = docs
        .par_iter()
        .enumerate()
        .filter(|(_, d)| is_reference(d))
        .filter_map(|(id, d)| Some((id as u32, d.prints.as_ref()?)))
        .flat_map_iter(|(doc, p)| p.sentences.iter().map(move |s| (s.hash, Posting { doc, position: s.start })))
        .collect();
    Indexes { kgrams: InvertedIndex::build(kgrams), sentences: InvertedIndex::build(sentences) }
}

/// One passage over the whole of two documents whose compared tokens are the same, in
/// the same order (an identical copy, whatever it repeats): found in one linear pass,
/// where matching would have to wade through every repetition. `None` otherwise, or when
/// template text is masked in either.
fn identical_text(a: &Loaded, b: &Loaded, min_chars: usize) -> Option<Passage> {
    let (pa, pb) = (a.prints.as_ref()?, b.prints.as_ref()?);
    let (ta, tb) = (&pa.tokenized.tokens, &pb.tokenized.tokens);
    if ta.len() != tb.len() || !a.masked_chars.is_empty() || !b.masked_chars.is_empty() {
        return None;
    }
    if ta.iter().zip(tb).any(|(x, y)| x.hash != y.hash) {
        return None;
    }
    let (first_a, last_a, first_b, last_b) = (ta.first()?, ta.last()?, tb.first()?, tb.last()?);
    if ((last_a.end - first_a.start) as usize) < min_chars {
        return None;
    }
    Some(Passage::copied((first_a.start, last_a.end), (first_b.start, last_b.end)))
}

/// Compares one suspect with the indexed references.
struct Matcher<'a> {
    docs: &'a [Loaded],
    index: &'a Indexes,
    simhashes: &'a SimhashIndex,
    settings: &'a Settings,
    tuning: &'a MatchTuning,
    mode: Mode,
    max_postings: usize,
    exclusions: &'a Exclusions,
    is_reference: &'a (dyn Fn(&Loaded) -> bool + Sync),
    identical: &'a IdenticalFiles,
}

impl Matcher<'_> {
    /// Sets the scores and the near-duplicate flag of `pair` from its counted passages.
    fn score(&self, pair: &mut Pair) {
        let (a, b) = (&self.docs[pair.a], &self.docs[pair.b]);
        let counted: Vec<Passage> =
            pair.passages.iter().filter(|p| p.counts(self.settings.count_quoted)).cloned().collect();
        let scores =
            pair_scores(&counted, a.entry.countable_chars, b.entry.countable_chars, &a.masked_chars, &b.masked_chars);
        pair.score = scores.score;
        pair.score_b = scores.score_b;
        pair.longest = scores.longest;
        // The keyword signal needs some coverage too: most pairs stop at that test, before
        // their keywords are compared.
        let coverage = self.settings.near_duplicate_coverage;
        let keyword_similarity = match (&a.keywords, &b.keywords) {
            (Some(x), Some(y)) if keywords_agree(1.0, &scores, coverage) && may_reach(x, y, KEYWORD_SIMILARITY) => {
                similarity(x, y)
            }
            _ => 0.0,
        };
        pair.near_duplicate = is_near_duplicate(
            &scores,
            pair.simhash_distance,
            self.settings.simhash_threshold,
            self.settings.near_duplicate_coverage,
        ) || keywords_agree(keyword_similarity, &scores, coverage);
    }

    /// Each unordered pair is compared once: in all-vs-all mode, and between two suspects
    /// that are also references, from its smaller id. Identical files are not aligned
    /// (their pair is stated whole), and nothing is compared with itself.
    fn wanted(&self, a: usize, b: usize) -> bool {
        let both_parts = |id: usize| self.docs[id].also_reference;
        a != b
            && !self.identical.same(a, b)
            && match self.mode {
                Mode::SuspectsVsReferences => !(both_parts(a) && both_parts(b)) || b > a,
                Mode::AllVsAll => b > a,
            }
    }

    fn pairs_of(&self, a: usize) -> Vec<Pair> {
        let doc = &self.docs[a];
        let Some(prints) = doc.prints.as_ref() else {
            return Vec::new();
        };
        // (reference, hit), sorted below: one vector for all references, not one each.
        let mut found: Vec<(u32, Hit)> = Vec::new();
        // Every k-gram of the suspect is looked up, not only its winnowed ones: the
        // references' fingerprints are winnowed, and a shared run shorter than t still
        // hits whenever the reference kept one of its k-grams.
        let k = self.settings.k.max(1);
        let tokens = &prints.tokenized.tokens;
        // How often the suspect looked up each k-gram that a reference repeats: like the
        // index, the suspect keeps only the first occurrences of a repeated phrase.
        let mut repeated: FxHashMap<u64, usize> = FxHashMap::default();
        let hashes = kgram_hashes(tokens.iter().map(|t| t.hash), k);
        let judged = self.exclusions.judge(&hashes, k, |h| self.index.kgrams.get(h));
        for (position, &hash) in hashes.iter().enumerate() {
            let postings = self.index.kgrams.get(hash);
            let restricted = judged.is_restricted(position);
            if postings.is_empty() || (postings.len() > self.max_postings && !restricted) {
                continue;
            }
            if postings.len() >= MAX_POSITIONS_PER_DOCUMENT {
                let seen = repeated.entry(hash).or_default();
                *seen += 1;
                if *seen > MAX_POSITIONS_PER_DOCUMENT {
                    continue;
                }
            }
            if !doc.masked_chars.is_empty()
                && overlaps(&doc.masked_chars, (tokens[position].start, tokens[position + k - 1].end))
            {
                continue;
            }
            for p in
                postings.iter().filter(|p| self.wanted(a, p.doc as usize) && (!restricted || judged.is_shown(p.doc)))
            {
                found.push((p.doc, Hit { a: position as u32, b: p.position }));
            }
        }
        found.sort_unstable();
        let (hit_docs, hits): (Vec<u32>, Vec<Hit>) = found.into_iter().unzip();
        let hits_of = |b: u32| {
            let start = hit_docs.partition_point(|&d| d < b);
            let end = start + hit_docs[start..].partition_point(|&d| d == b);
            &hits[start..end]
        };
        let mut shared_sentences: FxHashMap<u32, u32> = FxHashMap::default();
        for s in &prints.sentences {
            let postings = self.index.sentences.get(s.hash);
            // A sentence most references hold says nothing (and would cost every suspect
            // a walk over all of them).
            if postings.len() > self.max_postings {
                continue;
            }
            let mut docs: Vec<u32> = postings.iter().map(|p| p.doc).filter(|&b| self.wanted(a, b as usize)).collect();
            docs.dedup();
            for b in docs {
                *shared_sentences.entry(b).or_default() += 1;
            }
        }
        let mut candidates = hit_docs.clone();
        if let Some(h) = doc.entry.simhash {
            let mut close: Vec<(u32, u32)> = self
                .simhashes
                .query_after(h, (self.mode == Mode::AllVsAll).then_some(a as u32), 4 * MAX_SIMHASH_CANDIDATES)
                .into_iter()
                .filter(|&(b, _)| self.wanted(a, b as usize))
                .collect();
            close.sort_unstable_by_key(|&(b, distance)| (distance, b));
            candidates.extend(close.into_iter().take(MAX_SIMHASH_CANDIDATES).map(|(b, _)| b));
        }
        candidates.sort_unstable();
        candidates.dedup();

        if candidates.is_empty() {
            return Vec::new();
        }
        let excluded =
            SuspectExclusions { common: token_ranges(tokens, &judged.flagged), quoted: quoted_spans(&doc.entry.text) };
        let suspect_stream = LazyStream::new(&doc.entry.text[..doc.compared], self.settings.normalize);
        let mut pairs = Vec::new();
        for b in candidates {
            let reference = &self.docs[b as usize];
            let (Some(rprints), true) = (reference.prints.as_ref(), (self.is_reference)(reference)) else {
                continue;
            };
            let ctx = PairContext {
                k,
                min_chars: self.settings.min_chars,
                tuning: self.tuning,
                suspect_masked: &doc.masked_chars,
                reference_masked: &reference.masked_chars,
            };
            let reference_stream =
                LazyStream::new(&reference.entry.text[..reference.compared], self.settings.normalize);
            let suspect = Side { prints, stream: &suspect_stream };
            let reference_side = Side { prints: rprints, stream: &reference_stream };
            // Identical texts (a document against its copy, however repetitive) in one pass.
            let (passages, boxes) = match identical_text(doc, reference, self.settings.min_chars) {
                Some(whole) => (vec![whole], 0),
                None => match_pair_counting(suspect, reference_side, hits_of(b), &ctx),
            };
            let simhash_distance = match (doc.entry.simhash, reference.entry.simhash) {
                (Some(x), Some(y)) => Some(simhash::hamming(x, y)),
                _ => None,
            };
            let ties = Ties { boxes, hits: hits_of(b), simhash_distance };
            let passages = densify(suspect, reference_side, passages, ties, &ctx);
            let mut passages = fold_alternatives(passages, self.settings.min_chars);
            excluded.classify(&mut passages);
            let mut pair = Pair {
                a,
                b: b as usize,
                score: 0.0,
                score_b: 0.0,
                simhash_distance,
                passages,
                longest: 0,
                shared_sentences: shared_sentences.get(&b).copied().unwrap_or(0),
                near_duplicate: false,
            };
            self.score(&mut pair);
            if pair.passages.is_empty() && !pair.near_duplicate {
                continue;
            }
            pairs.push(pair);
        }
        // One suspect span, one twin: text found in several references is shown against
        // the best of them.
        let changed = fold_across_pairs(&mut pairs);
        for (pair, changed) in pairs.iter_mut().zip(changed) {
            if changed {
                self.score(pair);
            }
        }
        pairs.retain(|p| !p.passages.is_empty() || p.near_duplicate);
        pairs
    }
}

//! The stages of a check wired together: read + fingerprint every document in parallel,
//! index the references, match every suspect, score the pairs.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::progress::{CancelFlag, Cancelled, Progress, ProgressSink, Stage};
use super::{CheckRequest, DocumentInput, Mode, Role, template};
use crate::exclusions::quoted::quoted_spans;
use crate::exclusions::{Exclusions, SuspectExclusions, token_ranges};
use crate::fingerprint::hashing::kgram_hashes;
use crate::fingerprint::keywords::{KeywordPrint, TOP_KEYWORDS, keyword_print, may_reach, similarity};
use crate::fingerprint::{DocumentFingerprints, simhash};
use crate::index::{InvertedIndex, Posting, SimhashIndex};
use crate::ingest;
use crate::matching::alternatives::{fold_across_pairs, fold_alternatives};
use crate::matching::dense::{Ties, densify};
use crate::matching::{Hit, LazyStream, MatchTuning, PairContext, Side, match_pair_counting, overlaps};
use crate::normalize::folded_text;
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

/// One document after reading: its entry for the report and its fingerprints.
struct Loaded {
    entry: DocumentEntry,
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

    let is_reference = |d: &Loaded| match request.mode {
        Mode::SuspectsVsReferences => d.entry.role == Role::Reference,
        Mode::AllVsAll => d.entry.role != Role::Template,
    };
    let is_suspect = |d: &Loaded| {
        d.entry.role == Role::Suspect || (request.mode == Mode::AllVsAll && d.entry.role == Role::Reference)
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

    let mut pairs: Vec<Pair> = per_suspect.into_iter().flatten().flatten().collect();
    pairs.sort_by(|x, y| y.score.total_cmp(&x.score).then(x.a.cmp(&y.a)).then(x.b.cmp(&y.b)));
    let mut near_duplicates: Vec<[usize; 2]> = pairs.iter().filter(|p| p.near_duplicate).map(|p| [p.a, p.b]).collect();
    near_duplicates.sort_unstable();
    let groups = near_duplicate_groups(&near_duplicates);
    let documents = docs.into_iter().map(|d| d.entry).collect();
    sink.progress(Progress { stage: Stage::Done, done: 1, total: 1 });
    Ok(Report { settings, mode: request.mode, documents, pairs, near_duplicates, groups })
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
    let loaded: Vec<Option<Loaded>> = inputs
        .par_iter()
        .enumerate()
        .map(|(id, input)| {
            if cancel.is_cancelled() {
                return None;
            }
            let loaded = load(id, input, settings);
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
        if d.entry.role != Role::Template && d.prints.is_some() {
            let words = simhash::weighted_words(&folded_text(&d.entry.text, settings.normalize));
            d.entry.simhash = Some(simhash::simhash_of_words(&words));
            d.keywords = Some(keyword_print(&words, TOP_KEYWORDS));
        }
        counter.tick();
    });
    check(cancel)
}

fn load(id: usize, input: &DocumentInput, settings: &Settings) -> Loaded {
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
    match ingest::extract(&input.path, &settings.ingest) {
        Ok(extracted) => {
            let prints = DocumentFingerprints::compute(&extracted.text, settings);
            entry.chars = extracted.text.chars().count();
            entry.countable_chars = entry.chars;
            entry.warnings = extracted.warnings;
            entry.sha256 = Some(extracted.sha256);
            entry.text = Arc::from(extracted.text);
            Loaded { entry, prints: Some(prints), masked_chars: Vec::new(), keywords: None }
        }
        Err(error) => {
            entry.error = Some(format!("{error:#}"));
            Loaded { entry, prints: None, masked_chars: Vec::new(), keywords: None }
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

    /// In all-vs-all mode each unordered pair is compared once, from its smaller id.
    fn wanted(&self, a: usize, b: usize) -> bool {
        a != b && (self.mode == Mode::SuspectsVsReferences || b > a)
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
        let hashes = kgram_hashes(tokens.iter().map(|t| t.hash), k);
        let judged = self.exclusions.judge(&hashes, k, |h| self.index.kgrams.get(h));
        for (position, &hash) in hashes.iter().enumerate() {
            let postings = self.index.kgrams.get(hash);
            let restricted = judged.is_restricted(position);
            if postings.is_empty() || (postings.len() > self.max_postings && !restricted) {
                continue;
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
            let mut docs: Vec<u32> = self
                .index
                .sentences
                .get(s.hash)
                .iter()
                .map(|p| p.doc)
                .filter(|&b| self.wanted(a, b as usize))
                .collect();
            docs.dedup();
            for b in docs {
                *shared_sentences.entry(b).or_default() += 1;
            }
        }
        let mut candidates = hit_docs.clone();
        if let Some(h) = doc.entry.simhash {
            candidates
                .extend(self.simhashes.query(h).into_iter().map(|(b, _)| b).filter(|&b| self.wanted(a, b as usize)));
        }
        candidates.sort_unstable();
        candidates.dedup();

        if candidates.is_empty() {
            return Vec::new();
        }
        let excluded =
            SuspectExclusions { common: token_ranges(tokens, &judged.flagged), quoted: quoted_spans(&doc.entry.text) };
        let suspect_stream = LazyStream::new(&doc.entry.text, self.settings.normalize);
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
            let reference_stream = LazyStream::new(&reference.entry.text, self.settings.normalize);
            let suspect = Side { prints, stream: &suspect_stream };
            let reference_side = Side { prints: rprints, stream: &reference_stream };
            let (passages, boxes) = match_pair_counting(suspect, reference_side, hits_of(b), &ctx);
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

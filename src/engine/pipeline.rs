//! The stages of a check wired together: read + fingerprint every document in parallel,
//! index the references, match every suspect, score the pairs.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::assemble::{Report, assemble};
use super::identical::{IdenticalFiles, Identity, Member, whole_text_pair};
use super::matcher::Matcher;
use super::memory_index::{Loaded, MemoryIndex, take_char_grams, take_kgrams};
use super::policy::{PairPolicy, Pairing, reads_char_grams};
use super::progress::{CancelFlag, Cancelled, MatchClock, Progress, ProgressSink, Stage};
use super::read_cache::ReadCache;
use super::reworded::Rewording;
use super::stopped::CheckError;
use super::{CheckRequest, DocumentInput, Mode, Role, template, translated};
use crate::exclusions::Exclusions;
use crate::fingerprint::DocumentFingerprints;
use crate::fingerprint::keywords::{KeywordPrint, TOP_KEYWORDS, keyword_print};
use crate::fingerprint::simhash::{self, Dictionary};
use crate::index::{ReferenceIndex, StoreError, StoredReferences};
use crate::ingest;
use crate::matching::MatchTuning;
use crate::meaning::SharedMeaning;
use crate::meaning::kept::KeptEmbeddings;
use crate::model::saturating_u32;
use crate::model::{DocError, Notice};
use crate::model::{DocumentEntry, Pair};
use crate::normalize::{self, folded_text};
use crate::settings::Settings;

/// A document is compared up to this many normalized characters (about 24 MB of Chinese
/// or 8 MB of English text); the rest gets a warning. Every per-document structure grows
/// with this length, so it bounds a document's memory, whatever its content.
pub const MAX_COMPARED_CHARS: usize = 8_000_000;

/// The report keeps at most this many pairs: each suspect its closest ones, as many as fit
/// (see `keep_closest_pairs`).
const MAX_PAIRS: usize = 100_000;

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
/// `Err(CheckError::Cancelled)` soon after `cancel` is set.
pub fn run_check(request: &CheckRequest, sink: &dyn ProgressSink, cancel: &CancelFlag) -> Result<Report, CheckError> {
    run(request, None, None, sink, cancel)
}

/// Runs the check described by `request` as [`run_check`] does, taking the texts of
/// unchanged references from `cache` and giving it the references read. The report is the
/// one [`run_check`] gives.
pub fn run_check_cached(
    request: &CheckRequest,
    cache: &dyn ReadCache,
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<Report, CheckError> {
    run(request, None, Some(cache), sink, cancel)
}

/// Runs the check of `request`'s documents, all of them suspects, against `stored`
/// references (the archive) instead of references read in the run: one way, new against
/// stored. The stored references that share something enter the report after the
/// suspects, in id order. The first failure to read `stored` ends the check.
pub(crate) fn run_against(
    request: &CheckRequest,
    stored: &dyn StoredReferences,
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<Report, CheckError> {
    run(request, Some(stored), None, sink, cancel)
}

fn run(
    request: &CheckRequest,
    stored: Option<&dyn StoredReferences>,
    cache: Option<&dyn ReadCache>,
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<Report, CheckError> {
    let mut settings = request.settings.clone().sanitized();
    // The archive keeps no meaning signal yet: a check against it compares words only,
    // and its report says so.
    settings.meaning &= stored.is_none();
    let grams =
        |input: &DocumentInput| settings.short_copies && reads_char_grams(request.mode, stored.is_some(), input);
    let mut docs = read_and_sign(request, (&settings, &grams), cache, sink, cancel)?;
    apply_templates(&mut docs, &settings);
    let identical = find_identical(&mut docs, request.mode);
    // Suspects with the same bytes as a stored reference: stated whole, not aligned.
    let twins = match stored {
        Some(stored) => {
            note_stored_cut(&mut docs, stored)?;
            stored_twins(&docs, &identical, stored)?
        }
        None => FxHashMap::default(),
    };
    let classmate: Vec<bool> = docs.iter().map(|d| d.entry.role == Role::Suspect).collect();
    let pairing = match (stored, request.mode) {
        (Some(_), _) => Pairing::AgainstStore { twins: &twins },
        (None, Mode::SuspectsVsReferences) => Pairing::SuspectsVsReferences,
        (None, Mode::AllVsAll) => Pairing::AllVsAll,
        (None, Mode::Classmates) => Pairing::Classmates { classmate: &classmate },
    };
    let also_reference = docs.iter().map(|d| d.also_reference).collect();
    let policy = PairPolicy { pairing, identical: &identical, also_reference };
    let kept = cache.and_then(|c| c.embeddings());
    let models = (&settings, &request.dictionary, &request.meaning, kept);
    let mut per_suspect = match_all(&mut docs, &policy, stored, models, sink, cancel)?;
    if let Some(stored) = stored {
        let whole = twins.iter().map(|(&a, &b)| {
            let d = &docs[a];
            whole_text_pair(a, b as usize, d.entry.chars, d.entry.simhash.map(|_| 0))
        });
        per_suspect.push(whole.collect());
        add_stored_references(&mut per_suspect, &mut docs, stored);
    }
    let identical_rows = identical_pairs(&per_suspect, &docs, &identical, request.mode);
    per_suspect.extend(identical_rows);
    keep_closest_pairs(&mut per_suspect, MAX_PAIRS, &mut docs);
    let pairs: Vec<Pair> = per_suspect.into_iter().flatten().collect();
    let documents = docs.into_iter().map(|d| d.entry).collect();
    sink.progress(Progress { stage: Stage::Done, done: 1, total: 1 });
    Ok(assemble(settings, request.mode, documents, pairs, request.skipped.clone()))
}

/// Reads and fingerprints every document, then takes their SimHash and keyword
/// fingerprints; the jieba dictionary is built meanwhile on a thread of its own, and let
/// go after unless the request keeps it.
fn read_and_sign(
    request: &CheckRequest,
    (settings, grams): (&Settings, &GramsFor),
    cache: Option<&dyn ReadCache>,
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<Vec<Loaded>, Cancelled> {
    // The jieba dictionary takes a moment to build: start it while files are read.
    let preparing = request.dictionary.clone();
    let dictionary = std::thread::Builder::new().name("twinspot-jieba".into()).spawn(move || preparing.prepare());
    // Each document is counted twice: once read and fingerprinted, once SimHashed.
    let counter = Counter::start(sink, Stage::Reading, request.documents.len() * 2);
    let mut docs = read_all(&request.documents, (settings, grams), cache, &counter, cancel)?;
    // Joined (and so built) before any SimHash; if the thread could not start or died,
    // the dictionary is simply built on first use.
    if let Ok(handle) = dictionary {
        // A thread that died leaves the dictionary to be built on first use.
        let _built = handle.join();
    }
    add_simhashes(&mut docs, (settings, &request.dictionary), &counter, cancel)?;
    if !request.keep_dictionary {
        request.dictionary.release();
    }
    Ok(docs)
}

/// Tells every suspect how many stored references are longer than a check compares:
/// text copied from past their first part is not found, and a suspect that copied only
/// that would otherwise read as original work.
fn note_stored_cut(docs: &mut [Loaded], stored: &dyn StoredReferences) -> Result<(), StoreError> {
    let documents = stored.cut_references(MAX_COMPARED_CHARS)?;
    if documents > 0 {
        let notice = Notice::StoredCut { documents, max: MAX_COMPARED_CHARS };
        for d in docs.iter_mut().filter(|d| d.entry.role == Role::Suspect) {
            d.entry.warnings.push(notice.clone());
        }
    }
    Ok(())
}

/// The suspects whose bytes are those of a stored reference: suspect → stored id.
fn stored_twins(
    docs: &[Loaded],
    identical: &IdenticalFiles,
    stored: &dyn StoredReferences,
) -> Result<FxHashMap<usize, u32>, StoreError> {
    let mut twins = FxHashMap::default();
    for d in docs.iter().filter(|d| !identical.is_copy(d.entry.id)) {
        let Some(sha256) = d.entry.sha256.as_deref() else { continue };
        if let Some(twin) = stored.same_bytes(sha256)? {
            twins.insert(d.entry.id, twin);
        }
    }
    Ok(twins)
}

/// Indexes the references `policy` names (or looks them up in `stored`) and matches every
/// suspect against them, in parallel: each suspect's pairs. The first failure to read
/// the index ends it.
fn match_all(
    docs: &mut [Loaded],
    policy: &PairPolicy,
    stored: Option<&dyn StoredReferences>,
    (settings, dictionary, shared, kept): (&Settings, &Dictionary, &SharedMeaning, Option<&dyn KeptEmbeddings>),
    sink: &dyn ProgressSink,
    cancel: &CancelFlag,
) -> Result<Vec<Vec<Pair>>, CheckError> {
    let is_reference = |d: &Loaded| policy.is_reference(d);
    let meaning = settings
        .meaning
        .then(|| translated::layer_for(docs, &|d| policy.is_suspect(d), &is_reference, shared))
        .flatten();
    let counter = Counter::start(sink, Stage::Indexing, 1);
    let kgrams = take_kgrams(docs, &is_reference);
    let short_copies = settings.short_copies && policy.short_copies();
    let char_grams = take_char_grams(docs, &is_reference, short_copies.then_some(settings.normalize));
    let docs: &[Loaded] = docs;
    let source = match stored {
        Some(stored) => Source::Stored(stored),
        None => Source::Memory(Box::new(MemoryIndex::build(
            docs,
            (kgrams, char_grams),
            settings.simhash_threshold,
            &is_reference,
        ))),
    };
    let index = source.index();
    counter.tick();
    check(cancel)?;

    let suspects: Vec<usize> =
        (0..docs.len()).filter(|&i| policy.is_suspect(&docs[i]) && docs[i].prints.is_some()).collect();
    let counter = Counter::start(sink, Stage::Matching, suspects.len());
    let tuning = MatchTuning::default();
    let exclusions =
        Exclusions::new(index.reference_count(), &settings.stop_passages, settings.normalize, settings.k, dictionary);
    let clock = MatchClock::default();
    let collection = meaning.as_deref().map(|m| translated::collection(m, docs, &is_reference).with_kept(kept));
    let rewording = settings.meaning.then(|| Rewording::new(shared));
    let matcher = Matcher {
        index,
        settings,
        tuning: &tuning,
        exclusions: &exclusions,
        policy,
        clock: Some(&clock),
        meaning: collection.as_ref(),
        reworded: rewording.as_ref(),
    };
    // A suspect not matched (cancelled) gives `None`; collected into a `Result`, the
    // first failure stops the other threads.
    let per_suspect: Result<Vec<Option<Vec<Pair>>>, StoreError> = suspects
        .par_iter()
        .map(|&a| {
            if cancel.is_cancelled() {
                return Ok(None);
            }
            let pairs = match docs[a].fingerprinted() {
                Some(doc) => matcher.pairs_of(a, &doc)?,
                None => Vec::new(),
            };
            counter.tick();
            Ok(Some(pairs))
        })
        .collect();
    drop(source);
    let per_suspect = per_suspect?;
    check(cancel)?;
    sink.matched(&clock.timings());
    Ok(per_suspect.into_iter().flatten().collect())
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
            doc.entry.warnings.push(Notice::PairsLeftOut { left_out, max, kept: lo });
        }
    }
}

fn check(cancel: &CancelFlag) -> Result<(), Cancelled> {
    if cancel.is_cancelled() { Err(Cancelled) } else { Ok(()) }
}

/// Whether an input is read with its character grams ([`reads_char_grams`]).
type GramsFor<'a> = dyn Fn(&DocumentInput) -> bool + Sync + 'a;

/// Reads and fingerprints every input, in parallel; one tick of `counter` per input.
fn read_all(
    inputs: &[DocumentInput],
    (settings, grams): (&Settings, &GramsFor),
    cache: Option<&dyn ReadCache>,
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
            let beside = if grams(input) { Beside::CharGrams } else { Beside::Nothing };
            let loaded = load(id, input, (settings, beside), &extractor, cache);
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
    (settings, dictionary): (&Settings, &Dictionary),
    counter: &Counter,
    cancel: &CancelFlag,
) -> Result<(), Cancelled> {
    docs.par_iter_mut().for_each(|d| {
        if cancel.is_cancelled() {
            return;
        }
        let words = d.prints.as_ref().map(|p| p.tokenized.tokens.len());
        if words == Some(0) && !d.entry.warnings.contains(&Notice::NoText) {
            d.entry.warnings.push(Notice::NoWords);
        }
        // A document without words has no SimHash: two empty scans are not near duplicates.
        if d.entry.role != Role::Template && words.is_some_and(|n| n > 0) {
            let (simhash, keywords) = signatures(&d.entry.text[..d.compared], settings, dictionary);
            d.entry.simhash = Some(simhash);
            d.keywords = Some(keywords);
        }
        counter.tick();
    });
    check(cancel)
}

/// Where a check's references are looked up.
enum Source<'a> {
    /// Read in the run and indexed for it.
    Memory(Box<MemoryIndex<'a>>),
    /// Kept beyond the run.
    Stored(&'a dyn StoredReferences),
}

impl Source<'_> {
    fn index(&self) -> &dyn ReferenceIndex {
        match self {
            Source::Memory(index) => index.as_ref(),
            Source::Stored(stored) => stored.as_index(),
        }
    }
}

/// Adds the stored references that share something with a suspect to `docs`, in id
/// order, and renumbers the pairs' `b` (and the references of alternative twins) from
/// stored ids to positions in `docs`.
fn add_stored_references(per_suspect: &mut [Vec<Pair>], docs: &mut Vec<Loaded>, stored: &dyn StoredReferences) {
    let alternatives = |p: &Pair| -> Vec<usize> {
        p.passages.iter().flat_map(|x| &x.alternatives).filter_map(|alt| alt.reference).collect()
    };
    let mut ids: Vec<usize> =
        per_suspect.iter().flatten().flat_map(|p| alternatives(p).into_iter().chain([p.b])).collect();
    ids.sort_unstable();
    ids.dedup();
    let first = docs.len();
    for (n, &id) in ids.iter().enumerate() {
        docs.push(Loaded {
            entry: stored.entry(saturating_u32(id), first + n),
            also_reference: false,
            compared: 0,
            prints: None,
            masked_chars: Vec::new(),
            keywords: None,
        });
    }
    let renumber = |id: usize| first + ids.partition_point(|&x| x < id);
    for pair in per_suspect.iter_mut().flatten() {
        pair.b = renumber(pair.b);
        for alt in pair.passages.iter_mut().flat_map(|x| &mut x.alternatives) {
            alt.reference = alt.reference.map(renumber);
        }
    }
}

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
        let through = matches!(identical.identity[later], Identity::CopyOf(_));
        let note = Notice::IdenticalTo { path: first_path, through };
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
        // Stored references, added after the run's documents, are nobody's copy.
        let copies = docs.iter().filter_map(|d| match identical.identity.get(d.entry.id) {
            Some(&Identity::CopyOf(first)) if suspect_side(d) => Some((d.entry.id, first)),
            _ => None,
        });
        // A pair is stated once: two later copies of one suspect (b and c of a, b, c)
        // would each take the other from the first's rows.
        let mut stated: FxHashSet<(usize, usize)> =
            rows.iter().flatten().map(|p| (p.a.min(p.b), p.a.max(p.b))).collect();
        let copied: Vec<Vec<Pair>> = copies
            .map(|(copy, first)| {
                let theirs = rows_of.get(&first).map(Vec::as_slice).unwrap_or_default();
                theirs
                    .iter()
                    .filter(|p| p.b != copy && stated.insert((copy.min(p.b), copy.max(p.b))))
                    .map(|p| Pair { a: copy, ..(*p).clone() })
                    .collect()
            })
            .collect();
        rows.extend(copied);
    }
    rows
}

/// One document read and fingerprinted exactly as a check reads it, for a store that
/// keeps it (the archive).
pub(crate) struct Fingerprinted {
    pub entry: DocumentEntry,
    /// Bytes of `entry.text` that are compared (all of it but for giant documents).
    pub compared: usize,
    pub prints: DocumentFingerprints,
    pub keywords: Option<KeywordPrint>,
}

/// Reads and fingerprints `input` as a check does: the compared prefix, the fingerprints,
/// and the SimHash and keyword fingerprint when it has words. The error says why it could
/// not be read.
pub(crate) fn fingerprint_document(
    input: &DocumentInput,
    settings: &Settings,
    (extractor, dictionary): (&ingest::Extractor, &Dictionary),
) -> Result<Fingerprinted, String> {
    let mut folded = String::new();
    let mut loaded = load(0, input, (settings, Beside::Folded(&mut folded)), extractor, None);
    let prints = match (loaded.prints.take(), loaded.entry.error.take()) {
        (Some(prints), None) => prints,
        (_, error) => return Err(error.map(|e| e.to_string()).unwrap_or_default()),
    };
    let mut keywords = None;
    if !prints.tokenized.tokens.is_empty() {
        let (simhash, print) = signatures_of_folded(&folded, dictionary);
        loaded.entry.simhash = Some(simhash);
        keywords = Some(print);
    }
    Ok(Fingerprinted { entry: loaded.entry, compared: loaded.compared, prints, keywords })
}

/// The SimHash and the keyword fingerprint of a compared text.
fn signatures(compared: &str, settings: &Settings, dictionary: &Dictionary) -> (u64, KeywordPrint) {
    signatures_of_folded(&folded_text(compared, settings.normalize), dictionary)
}

/// The SimHash and the keyword fingerprint of a compared text, from its folded text.
fn signatures_of_folded(folded: &str, dictionary: &Dictionary) -> (u64, KeywordPrint) {
    let words = dictionary.weighted_words(folded);
    (simhash::simhash_of_words(&words), keyword_print(&words, TOP_KEYWORDS))
}

/// The bytes of `text` a check compares: all of it but for giant documents.
pub(crate) fn compared_prefix(text: &str, settings: &Settings) -> usize {
    normalize::prefix_within(text, settings.normalize, MAX_COMPARED_CHARS)
}

/// The part of `text` a check compares, and the notice that says it was cut when it was:
/// what a command that reads one document (`simhash`) bounds its work by, as a check does.
pub fn compared_part<'t>(text: &'t str, settings: &Settings) -> (&'t str, Option<Notice>) {
    let prefix = compared_prefix(text, settings);
    if prefix >= text.len() {
        return (text, None);
    }
    let part = &text[..prefix];
    let cut =
        Notice::PrefixCompared { compared: part.chars().count(), chars: text.chars().count(), max: MAX_COMPARED_CHARS };
    (part, Some(cut))
}

/// The text of `input`: from `cache` for a plain reference it holds, else read (and a
/// plain reference read is handed to `cache`). An entry of a zip is always read.
fn extract(
    input: &DocumentInput,
    settings: &Settings,
    extractor: &ingest::Extractor,
    cache: Option<&dyn ReadCache>,
) -> Result<ingest::Extracted, ingest::IngestError> {
    if let Some(member) = &input.member {
        return extractor.extract_member(&input.path, member, &settings.ingest);
    }
    let cache = cache.filter(|_| input.role == Role::Reference && !input.also_reference);
    if let Some(cached) = cache.and_then(|c| c.get(&input.path)) {
        return Ok(cached);
    }
    let extracted = extractor.extract(&input.path, &settings.ingest);
    if let (Some(cache), Ok(extracted)) = (cache, &extracted) {
        cache.put(&input.path, extracted);
    }
    extracted
}

/// What a read of one input takes beside its fingerprints, in the pass that tokenizes it.
#[derive(Debug)]
enum Beside<'a> {
    Nothing,
    /// The character grams a check indexes for a reference.
    CharGrams,
    /// The folded text of the compared prefix ([`folded_text`]), written here.
    Folded(&'a mut String),
}

/// Reads and fingerprints one input, taking what `beside` asks for on the way.
fn load(
    id: usize,
    input: &DocumentInput,
    (settings, beside): (&Settings, Beside),
    extractor: &ingest::Extractor,
    cache: Option<&dyn ReadCache>,
) -> Loaded {
    let mut entry = DocumentEntry::unread(id, input.display.clone(), input.source(), input.role);
    match extract(input, settings, extractor, cache) {
        Ok(extracted) => {
            let compared = compared_prefix(&extracted.text, settings);
            let text = &extracted.text[..compared];
            let prints = match beside {
                Beside::Nothing => DocumentFingerprints::compute(text, settings),
                Beside::CharGrams => DocumentFingerprints::compute_with_char_grams(text, settings),
                Beside::Folded(folded) => {
                    let (prints, text) = DocumentFingerprints::compute_folded(text, settings);
                    *folded = text;
                    prints
                }
            };
            entry.chars = extracted.text.chars().count();
            entry.countable_chars = extracted.text[..compared].chars().count();
            let (flags, warnings): (Vec<Notice>, Vec<Notice>) =
                extracted.warnings.into_iter().partition(|w| matches!(w, Notice::Flag(_)));
            entry.warnings = warnings;
            entry.flags = document_flags(flags, &extracted.text);
            if compared < extracted.text.len() {
                entry.warnings.push(Notice::PrefixCompared {
                    compared: entry.countable_chars,
                    chars: entry.chars,
                    max: MAX_COMPARED_CHARS,
                });
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
            entry.error = Some(DocError::Read(error));
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

/// The flags of a document: what ingest found in the file (moved out of its warnings) and
/// what its text shows.
fn document_flags(from_file: Vec<Notice>, text: &str) -> Vec<crate::model::Flag> {
    let mut flags = normalize::flags::text_flags(text);
    flags.extend(from_file.into_iter().filter_map(|w| match w {
        Notice::Flag(flag) => Some(flag),
        _ => None,
    }));
    normalize::flags::merge(flags)
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

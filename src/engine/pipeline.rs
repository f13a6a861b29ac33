//! The stages of a check wired together: read + fingerprint every document in parallel,
//! index the references, match every suspect, score the pairs.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::matcher::{Matcher, SuspectDoc, max_postings};
use super::memory_index::{Loaded, MemoryIndex, take_kgrams};
use super::progress::{CancelFlag, Cancelled, Progress, ProgressSink, Stage};
use super::{CheckRequest, DocumentInput, Mode, Role, template};
use crate::fingerprint::{DocumentFingerprints, simhash};
use crate::index::ReferenceIndex;
use crate::ingest;
use crate::matching::MatchTuning;
use crate::report::{DocumentEntry, Pair, Report};
use crate::score::near_duplicate_groups;
use crate::settings::Settings;

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
    let kgrams = take_kgrams(&mut docs, &is_reference);
    let index = MemoryIndex::build(&docs, kgrams, settings.simhash_threshold, &is_reference);
    counter.tick();
    check(cancel)?;

    let suspects: Vec<usize> = (0..docs.len()).filter(|&i| is_suspect(&docs[i]) && docs[i].prints.is_some()).collect();
    let counter = Counter::start(sink, Stage::Matching, suspects.len());
    let tuning = MatchTuning::default();
    // In all-vs-all mode each unordered pair is compared once, from its smaller id.
    let mode = request.mode;
    let wanted = |a: usize, b: usize| a != b && (mode == Mode::SuspectsVsReferences || b > a);
    let matcher = Matcher {
        index: &index,
        settings: &settings,
        tuning: &tuning,
        max_postings: max_postings(index.reference_count()),
        wanted: &wanted,
    };
    let per_suspect: Vec<Option<Vec<Pair>>> = suspects
        .par_iter()
        .map(|&a| {
            if cancel.is_cancelled() {
                return None;
            }
            let d = &docs[a];
            let pairs = d.prints.as_ref().map(|prints| {
                matcher.pairs_of(&SuspectDoc {
                    id: a,
                    prints,
                    text: &d.entry.text,
                    masked_chars: &d.masked_chars,
                    countable_chars: d.entry.countable_chars,
                    simhash: d.entry.simhash,
                })
            });
            counter.tick();
            Some(pairs.unwrap_or_default())
        })
        .collect();
    check(cancel)?;
    drop(index);

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

/// Takes the SimHash of every read document but the templates, in parallel; one tick of
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
            d.entry.simhash = Some(simhash::text_simhash(&d.entry.text, settings.normalize));
        }
        counter.tick();
    });
    check(cancel)
}

/// Reads and fingerprints one input (no SimHash yet); a read error lands in the entry.
pub(crate) fn load(id: usize, input: &DocumentInput, settings: &Settings) -> Loaded {
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
            Loaded { entry, prints: Some(prints), masked_chars: Vec::new() }
        }
        Err(error) => {
            entry.error = Some(format!("{error:#}"));
            Loaded { entry, prints: None, masked_chars: Vec::new() }
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

//! `fingerprint --parquet`: reads and fingerprints one shard of documents in parallel and
//! writes its part of the `documents`, `postings`, `sentences` and `chargrams` tables,
//! batch by batch.
//!
//! Postings hold every k-gram of a document, flagged `winnowed` when winnowing kept it:
//! the candidate join mirrors the in-memory check, which looks up every k-gram of one
//! document among the winnowed k-grams of the other. Each posting carries its lone reach
//! (column `reach`, [`lone_hit_reach`]): how many characters a run that shares only this
//! k-gram can cover, which the join compares with the `rule` table, as `compare` does.

use std::path::Path;

use parquet::file::metadata::KeyValue;
use rayon::prelude::*;

use super::layout::{
    self, CHAR_GRAMS, DOCUMENTS, FingerprintSettings, JoinRule, KEY_BUCKETS, KEY_SETTINGS, KEY_SHARD, KEY_TOOL, RULE,
    SENTENCES, bucket_dir, bucket_of, document_id, shard_file,
};
use super::table::{ColumnSpec, Kind, TableWriter, Values};
use super::{DistributedError, read};
use crate::engine::{CancelFlag, DocumentInput, fingerprint_document};
use crate::fingerprint::Fingerprint;
use crate::fingerprint::char_grams::grams_of_text;
use crate::fingerprint::simhash::Dictionary;
use crate::hash::kgram_hashes;
use crate::ingest;
use crate::matching::lone_hit_reach;
use crate::model::TokenAt;
use crate::model::saturating_u32;
use crate::settings::Settings;

/// Columns of the `documents` table.
pub const DOCUMENT_COLUMNS: &[ColumnSpec] = &[
    ColumnSpec::required("id", Kind::Long),
    ColumnSpec::required("shard", Kind::Int),
    ColumnSpec::required("path", Kind::Text),
    ColumnSpec::required("source", Kind::Text),
    ColumnSpec::optional("sha256", Kind::Text),
    ColumnSpec::required("chars", Kind::Long),
    ColumnSpec::required("tokens", Kind::Long),
    ColumnSpec::optional("simhash", Kind::Long),
    ColumnSpec::optional("simhash_b0", Kind::Int),
    ColumnSpec::optional("simhash_b1", Kind::Int),
    ColumnSpec::optional("simhash_b2", Kind::Int),
    ColumnSpec::optional("simhash_b3", Kind::Int),
    ColumnSpec::optional("nshash", Kind::Long),
    ColumnSpec::optional("error", Kind::Text),
];

/// Columns of the `postings` table (the `bucket` column comes from the folder name).
pub const POSTING_COLUMNS: &[ColumnSpec] = &[
    ColumnSpec::required("hash", Kind::Long),
    ColumnSpec::required("doc", Kind::Long),
    ColumnSpec::delta("position"),
    ColumnSpec::delta("char_start"),
    ColumnSpec::delta("char_end"),
    ColumnSpec::required("winnowed", Kind::Bool),
    ColumnSpec::required("reach", Kind::Int),
];

/// Columns of the `sentences` table.
pub const SENTENCE_COLUMNS: &[ColumnSpec] = &[
    ColumnSpec::required("hash", Kind::Long),
    ColumnSpec::required("doc", Kind::Long),
    ColumnSpec::delta("token_start"),
    ColumnSpec::delta("token_end"),
    ColumnSpec::delta("char_start"),
    ColumnSpec::delta("char_end"),
];

/// Columns of the `chargrams` table: a winnowed character gram at a character of the
/// normalized stream.
pub const CHAR_GRAM_COLUMNS: &[ColumnSpec] =
    &[ColumnSpec::required("hash", Kind::Long), ColumnSpec::required("doc", Kind::Long), ColumnSpec::delta("position")];

/// Columns of the `rule` table, in the order of [`JoinRule`]'s fields.
const RULE_COLUMNS: &[ColumnSpec] = &[
    ColumnSpec::required("min_hits", Kind::Long),
    ColumnSpec::required("min_reach", Kind::Long),
    ColumnSpec::required("min_chars", Kind::Long),
    ColumnSpec::required("common_floor", Kind::Long),
    ColumnSpec::required("common_one_in", Kind::Long),
    ColumnSpec::required("max_postings", Kind::Long),
    ColumnSpec::required("max_positions", Kind::Long),
    ColumnSpec::required("simhash_threshold", Kind::Long),
];

/// Documents read and written per row group: bounds the memory of a large shard.
const BATCH: usize = 256;

/// One shard to write.
pub struct ShardRequest<'a> {
    pub out: &'a Path,
    pub shard: u32,
    /// Number of buckets of the postings (by the low bits of the hash), a power of two.
    pub buckets: u32,
    pub settings: &'a Settings,
}

/// What a shard held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShardSummary {
    pub documents: usize,
    pub unreadable: usize,
    pub postings: u64,
    pub sentences: u64,
    pub char_grams: u64,
}

/// One document's rows.
struct Rows {
    document: DocumentRow,
    postings: Vec<PostingRow>,
    sentences: Vec<SentenceRow>,
    /// Its winnowed character grams (hash, stream position).
    char_grams: Vec<Fingerprint>,
}

/// A k-gram at a token position, with the characters it spans.
struct PostingRow {
    hash: u64,
    doc: i64,
    position: u32,
    chars: (u32, u32),
    winnowed: bool,
    /// [`lone_hit_reach`] at this position.
    reach: u32,
}

/// A sentence hash with its token and character ranges.
struct SentenceRow {
    hash: u64,
    doc: i64,
    tokens: (u32, u32),
    chars: (u32, u32),
}

struct DocumentRow {
    id: i64,
    path: String,
    source: String,
    sha256: Option<String>,
    chars: i64,
    tokens: i64,
    simhash: Option<u64>,
    nshash: Option<u64>,
    error: Option<String>,
}

/// Reads and fingerprints `inputs` (in parallel) as shard `request.shard` and writes its
/// files. Unreadable documents get a row with their error and no postings. Refuses to
/// write into a folder whose other shards were fingerprinted with other settings, and
/// checks `buckets` is a power of two. `tick` is called once per document.
pub fn fingerprint_shard(
    inputs: &[DocumentInput],
    request: &ShardRequest,
    tick: &(dyn Fn() + Sync),
    cancel: &CancelFlag,
) -> Result<ShardSummary, DistributedError> {
    let settings = request.settings.clone().sanitized();
    let prints_settings = FingerprintSettings::of(&settings);
    validate(inputs, request, &prints_settings)?;
    let metadata = vec![
        KeyValue::new(KEY_SETTINGS.to_string(), prints_settings.to_metadata()),
        KeyValue::new(KEY_SHARD.to_string(), request.shard.to_string()),
        KeyValue::new(KEY_BUCKETS.to_string(), request.buckets.to_string()),
        KeyValue::new(KEY_TOOL.to_string(), crate::model::TOOL.to_string()),
    ];
    let name = shard_file(request.shard);
    // The documents file is written last, once every other file is complete: a shard
    // whose documents file exists is whole.
    let documents_path = request.out.join(DOCUMENTS).join(&name);
    if documents_path.exists() {
        std::fs::remove_file(&documents_path).map_err(|e| DistributedError::io(&documents_path, e))?;
    }
    read::remove_shard_postings(request.out, &name)?;
    let mut postings: Vec<TableWriter> = (0..request.buckets)
        .map(|b| {
            TableWriter::create(bucket_dir(request.out, b).join(&name), "postings", POSTING_COLUMNS, metadata.clone())
        })
        .collect::<Result<_, _>>()?;
    let mut sentences =
        TableWriter::create(request.out.join(SENTENCES).join(&name), "sentences", SENTENCE_COLUMNS, metadata.clone())?;
    let grams_path = request.out.join(CHAR_GRAMS).join(&name);
    let mut char_grams = TableWriter::create(grams_path, "chargrams", CHAR_GRAM_COLUMNS, metadata.clone())?;
    let mut documents: Vec<DocumentRow> = Vec::with_capacity(inputs.len());
    let mut summary = ShardSummary::default();

    // Its helper processes (if any) serve every file of this shard and end with it.
    let extractor = ingest::Extractor::new(settings.ingest.isolation.as_ref());
    // Built on the first Chinese document, let go with the shard.
    let dictionary = Dictionary::new();
    for (batch_index, batch) in inputs.chunks(BATCH).enumerate() {
        if cancel.is_cancelled() {
            return Err(DistributedError::invalid(request.out, "cancelled"));
        }
        let first = batch_index * BATCH;
        let rows: Vec<Rows> = batch
            .par_iter()
            .enumerate()
            .map(|(i, input)| {
                let rows = fingerprint_one(
                    document_id(request.shard, saturating_u32(first + i)),
                    input,
                    &settings,
                    (&extractor, &dictionary),
                );
                tick();
                rows
            })
            .collect();
        write_postings(&mut postings, &rows, request.buckets, &mut summary)?;
        write_sentences(&mut sentences, &rows, &mut summary)?;
        write_char_grams(&mut char_grams, &rows, &mut summary)?;
        documents.extend(rows.into_iter().map(|r| r.document));
    }
    for writer in postings {
        writer.finish()?;
    }
    sentences.finish()?;
    char_grams.finish()?;
    if let Some(rule) = &prints_settings.join_rule {
        write_rule(request.out.join(RULE).join(&name), rule, metadata.clone())?;
    }
    summary.documents = documents.len();
    summary.unreadable = documents.iter().filter(|d| d.error.is_some()).count();
    write_documents(
        TableWriter::create(documents_path, "documents", DOCUMENT_COLUMNS, metadata)?,
        &documents,
        request.shard,
    )?;
    Ok(summary)
}

/// Refuses a request that cannot be written: buckets not a power of two (or over 4096),
/// a shard number out of range, too many documents for one shard, or a folder whose other
/// shards were fingerprinted with other settings or into another number of buckets.
fn validate(
    inputs: &[DocumentInput],
    request: &ShardRequest,
    prints_settings: &FingerprintSettings,
) -> Result<(), DistributedError> {
    if !request.buckets.is_power_of_two() || request.buckets > 4096 {
        return Err(DistributedError::invalid(request.out, "--buckets must be a power of two, at most 4096"));
    }
    if request.shard > layout::MAX_SHARD {
        return Err(DistributedError::invalid(request.out, format!("--shard must be at most {}", layout::MAX_SHARD)));
    }
    if inputs.len() > u32::MAX as usize {
        return Err(DistributedError::invalid(request.out, "too many documents for one shard: split it"));
    }
    read::check_existing_settings(request.out, request.shard, prints_settings)?;
    if let Some((path, buckets)) = read::existing_buckets(request.out, request.shard)?
        && buckets != request.buckets
    {
        return Err(DistributedError::invalid(
            path,
            format!("has postings in {buckets} buckets: write every shard with --buckets {buckets}"),
        ));
    }
    Ok(())
}

/// Appends one batch's postings, each to the writer of its hash's bucket.
fn write_postings(
    postings: &mut [TableWriter],
    rows: &[Rows],
    buckets: u32,
    summary: &mut ShardSummary,
) -> Result<(), DistributedError> {
    let mut by_bucket: Vec<Vec<&PostingRow>> = (0..buckets).map(|_| Vec::new()).collect();
    for r in rows {
        for p in &r.postings {
            by_bucket[bucket_of(p.hash, buckets) as usize].push(p);
        }
    }
    // Hashes are stored as signed INT64 (the same 64 bits): Spark has no unsigned type.
    for (writer, rows) in postings.iter_mut().zip(by_bucket) {
        summary.postings += rows.len() as u64;
        writer.append(vec![
            Values::Long(rows.iter().map(|p| Some(p.hash as i64)).collect()),
            Values::Long(rows.iter().map(|p| Some(p.doc)).collect()),
            Values::Int(rows.iter().map(|p| Some(p.position as i32)).collect()),
            Values::Int(rows.iter().map(|p| Some(p.chars.0 as i32)).collect()),
            Values::Int(rows.iter().map(|p| Some(p.chars.1 as i32)).collect()),
            Values::Bool(rows.iter().map(|p| p.winnowed).collect()),
            Values::Int(rows.iter().map(|p| Some(p.reach as i32)).collect()),
        ])?;
    }
    Ok(())
}

/// Writes a shard's row of the `rule` table.
fn write_rule(path: std::path::PathBuf, rule: &JoinRule, metadata: Vec<KeyValue>) -> Result<(), DistributedError> {
    let mut writer = TableWriter::create(path, "rule", RULE_COLUMNS, metadata)?;
    let values = [
        rule.min_hits,
        rule.min_reach,
        rule.min_chars,
        rule.common_floor,
        rule.common_one_in,
        rule.max_postings,
        rule.max_positions,
        rule.simhash_threshold,
    ];
    writer.append(values.iter().map(|&v| Values::Long(vec![Some(i64::from(v))])).collect())?;
    writer.finish()
}

/// Appends one batch's sentence hashes.
fn write_sentences(
    sentences: &mut TableWriter,
    rows: &[Rows],
    summary: &mut ShardSummary,
) -> Result<(), DistributedError> {
    let all: Vec<&SentenceRow> = rows.iter().flat_map(|r| &r.sentences).collect();
    summary.sentences += all.len() as u64;
    sentences.append(vec![
        Values::Long(all.iter().map(|s| Some(s.hash as i64)).collect()),
        Values::Long(all.iter().map(|s| Some(s.doc)).collect()),
        Values::Int(all.iter().map(|s| Some(s.tokens.0 as i32)).collect()),
        Values::Int(all.iter().map(|s| Some(s.tokens.1 as i32)).collect()),
        Values::Int(all.iter().map(|s| Some(s.chars.0 as i32)).collect()),
        Values::Int(all.iter().map(|s| Some(s.chars.1 as i32)).collect()),
    ])
}

/// Appends one batch's character grams.
fn write_char_grams(
    writer: &mut TableWriter,
    rows: &[Rows],
    summary: &mut ShardSummary,
) -> Result<(), DistributedError> {
    let all: Vec<(i64, &Fingerprint)> =
        rows.iter().flat_map(|r| r.char_grams.iter().map(|f| (r.document.id, f))).collect();
    summary.char_grams += all.len() as u64;
    writer.append(vec![
        Values::Long(all.iter().map(|(_, f)| Some(f.hash as i64)).collect()),
        Values::Long(all.iter().map(|(doc, _)| Some(*doc)).collect()),
        Values::Int(all.iter().map(|(_, f)| Some(f.position as i32)).collect()),
    ])
}

/// Writes the shard's documents file, the last one: a shard whose documents file exists
/// is whole.
fn write_documents(mut writer: TableWriter, documents: &[DocumentRow], shard: u32) -> Result<(), DistributedError> {
    let block = |d: &DocumentRow, i: u32| d.simhash.map(|h| ((h >> (16 * i)) & 0xffff) as i32);
    writer.append(vec![
        Values::Long(documents.iter().map(|d| Some(d.id)).collect()),
        Values::Int(documents.iter().map(|_| Some(shard as i32)).collect()),
        Values::Text(documents.iter().map(|d| Some(d.path.clone())).collect()),
        Values::Text(documents.iter().map(|d| Some(d.source.clone())).collect()),
        Values::Text(documents.iter().map(|d| d.sha256.clone()).collect()),
        Values::Long(documents.iter().map(|d| Some(d.chars)).collect()),
        Values::Long(documents.iter().map(|d| Some(d.tokens)).collect()),
        Values::Long(documents.iter().map(|d| d.simhash.map(|h| h as i64)).collect()),
        Values::Int(documents.iter().map(|d| block(d, 0)).collect()),
        Values::Int(documents.iter().map(|d| block(d, 1)).collect()),
        Values::Int(documents.iter().map(|d| block(d, 2)).collect()),
        Values::Int(documents.iter().map(|d| block(d, 3)).collect()),
        Values::Long(documents.iter().map(|d| d.nshash.map(|h| h as i64)).collect()),
        Values::Text(documents.iter().map(|d| d.error.clone()).collect()),
    ])?;
    writer.finish()
}

fn fingerprint_one(
    id: i64,
    input: &DocumentInput,
    settings: &Settings,
    readers: (&ingest::Extractor, &Dictionary),
) -> Rows {
    let mut document = DocumentRow {
        id,
        path: input.display.clone(),
        source: input.path.to_string_lossy().into_owned(),
        sha256: None,
        chars: 0,
        tokens: 0,
        simhash: None,
        nshash: None,
        error: None,
    };
    // Read exactly as a check reads it: the same compared prefix, the same SimHash (none
    // without words), so that `align` finds what `compare` finds.
    let read = match fingerprint_document(input, settings, readers) {
        Ok(read) => read,
        Err(error) => {
            document.error = Some(error);
            return Rows { document, postings: Vec::new(), sentences: Vec::new(), char_grams: Vec::new() };
        }
    };
    let prints = &read.prints;
    let tokens = &prints.tokenized.tokens;
    let (k, w) = (settings.k.max(1), settings.w.max(1));
    let mut winnowed = prints.kgrams.iter().map(|f| f.position as usize).peekable();
    let postings = kgram_hashes(tokens.iter().map(|t| t.hash), k)
        .into_iter()
        .enumerate()
        .map(|(position, hash)| PostingRow {
            hash,
            doc: id,
            position: saturating_u32(position),
            chars: (tokens[position].start, tokens[position + k - 1].end),
            winnowed: winnowed.next_if_eq(&position).is_some(),
            reach: lone_hit_reach(tokens, TokenAt(saturating_u32(position)), k, w),
        })
        .collect();
    let sentences = prints
        .sentences
        .iter()
        .map(|s| {
            let start = tokens[s.start as usize].start;
            let end = tokens[(s.end as usize).saturating_sub(1)].end;
            SentenceRow { hash: s.hash, doc: id, tokens: (s.start, s.end), chars: (start, end) }
        })
        .collect();
    // The grams of the compared text, as a check's index takes a reference's.
    let char_grams = grams_of_text(&read.entry.text[..read.compared], settings.normalize);
    document.chars = read.entry.chars as i64;
    document.tokens = tokens.len() as i64;
    document.simhash = read.entry.simhash;
    document.nshash = prints.nshash;
    document.sha256 = read.entry.sha256;
    Rows { document, postings, sentences, char_grams }
}

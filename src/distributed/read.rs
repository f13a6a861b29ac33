//! Reading a fingerprint folder back, with its checks: every shard whole (its postings,
//! sentences, rule and documents files all there), one set of settings across all files; and
//! reading the pair and common-hash files an SQL engine wrote.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::DistributedError;
use super::layout::{
    self, DOCUMENTS, FingerprintSettings, KEY_BUCKETS, KEY_SETTINGS, POSTINGS, RULE, SENTENCES, bucket_dir,
    parse_shard_file, shard_file,
};
use super::table::{self, TableReader, int, required_int, text};

/// One row of the `documents` table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentRecord {
    pub id: i64,
    pub path: String,
    pub source: String,
    pub sha256: Option<String>,
    pub chars: usize,
    /// Tokens compared (0: no words).
    pub tokens: usize,
    pub simhash: Option<u64>,
    pub error: Option<String>,
}

/// A whole fingerprint folder's documents, sorted by id, and the settings of all shards.
#[derive(Clone, Debug)]
pub struct Fingerprints {
    pub settings: FingerprintSettings,
    pub documents: Vec<DocumentRecord>,
}

/// The settings recorded in a file, or a clear error when there are none.
fn settings_of(reader: &TableReader) -> Result<FingerprintSettings, DistributedError> {
    reader.metadata(KEY_SETTINGS).and_then(|v| FingerprintSettings::from_metadata(&v)).ok_or_else(|| {
        DistributedError::invalid(
            &reader.path,
            "no Twinspot settings in its metadata (not written by `twinspot fingerprint`?)",
        )
    })
}

/// Shard numbers that have a file directly in `dir`.
fn shards_in(dir: &Path) -> Result<BTreeSet<u32>, DistributedError> {
    let mut shards = BTreeSet::new();
    if !dir.exists() {
        return Ok(shards);
    }
    for entry in std::fs::read_dir(dir).map_err(|e| DistributedError::io(dir, e))? {
        let entry = entry.map_err(|e| DistributedError::io(dir, e))?;
        if let Some(shard) = parse_shard_file(&entry.file_name().to_string_lossy()) {
            shards.insert(shard);
        }
    }
    Ok(shards)
}

/// Compares settings with the first file's, refusing a mix.
struct SettingsCheck {
    first: Option<(PathBuf, FingerprintSettings)>,
}

impl SettingsCheck {
    fn see(&mut self, path: &Path, settings: FingerprintSettings) -> Result<(), DistributedError> {
        match &self.first {
            None => self.first = Some((path.to_path_buf(), settings)),
            Some((first, s)) if *s != settings => {
                return Err(DistributedError::MixedSettings {
                    first: first.clone(),
                    first_settings: s.to_metadata(),
                    other: path.to_path_buf(),
                    other_settings: settings.to_metadata(),
                });
            }
            Some(_) => {}
        }
        Ok(())
    }
}

/// Before shard `except` is written into `out`: refuses when the other shards already
/// there were fingerprinted with other settings.
pub fn check_existing_settings(
    out: &Path,
    except: u32,
    settings: &FingerprintSettings,
) -> Result<(), DistributedError> {
    let dir = out.join(DOCUMENTS);
    for shard in shards_in(&dir)?.into_iter().filter(|&s| s != except) {
        let path = dir.join(shard_file(shard));
        let existing = settings_of(&TableReader::open(&path)?)?;
        if existing != *settings {
            return Err(DistributedError::MixedSettings {
                first: path,
                first_settings: existing.to_metadata(),
                other: out.to_path_buf(),
                other_settings: format!("{} (this run)", settings.to_metadata()),
            });
        }
    }
    Ok(())
}

/// Reads the documents of every shard in the fingerprint folder `root` after checking
/// that each shard is whole and all share one set of settings.
pub fn read_fingerprints(root: &Path) -> Result<Fingerprints, DistributedError> {
    let documents_dir = root.join(DOCUMENTS);
    let shards = shards_in(&documents_dir)?;
    if shards.is_empty() {
        return Err(DistributedError::invalid(root, "no documents/shard-*.parquet: not a fingerprint folder"));
    }
    // A postings or sentences file of a shard without a documents file: that shard's
    // fingerprinting did not finish.
    let mut others = shards_in(&root.join(SENTENCES))?;
    others.extend(shards_in(&root.join(RULE))?);
    if root.join(POSTINGS).exists() {
        for entry in std::fs::read_dir(root.join(POSTINGS)).map_err(|e| DistributedError::io(root.join(POSTINGS), e))? {
            let entry = entry.map_err(|e| DistributedError::io(root.join(POSTINGS), e))?;
            others.extend(shards_in(&entry.path())?);
        }
    }
    if let Some(&shard) = others.difference(&shards).next() {
        return Err(DistributedError::MissingFile { shard, missing: documents_dir.join(shard_file(shard)) });
    }
    let mut check = SettingsCheck { first: None };
    let mut first_buckets: Option<(PathBuf, u32)> = None;
    let mut documents = Vec::new();
    for shard in shards {
        let name = shard_file(shard);
        let path = documents_dir.join(&name);
        let reader = TableReader::open(&path)?;
        check.see(&path, settings_of(&reader)?)?;
        let buckets: u32 = reader
            .metadata(KEY_BUCKETS)
            .and_then(|b| b.parse().ok())
            .ok_or_else(|| DistributedError::invalid(&path, "no bucket count in its metadata"))?;
        match first_buckets {
            None => first_buckets = Some((path.clone(), buckets)),
            Some((ref first, b)) if b != buckets => {
                return Err(DistributedError::invalid(
                    &path,
                    format!(
                        "postings in {buckets} buckets, but {} in {b}: every shard needs the same --buckets",
                        first.display()
                    ),
                ));
            }
            Some(_) => {}
        }
        if let Some(stale) = stale_bucket(root, &name, buckets)? {
            return Err(DistributedError::invalid(
                stale,
                format!("left from an earlier run of shard {shard} (it now has {buckets} buckets): remove it"),
            ));
        }
        let mut parts: Vec<PathBuf> = (0..buckets).map(|b| bucket_dir(root, b).join(&name)).collect();
        parts.push(root.join(SENTENCES).join(&name));
        parts.push(root.join(RULE).join(&name));
        for part in parts {
            if !part.is_file() {
                return Err(DistributedError::MissingFile { shard, missing: part });
            }
            check.see(&part, settings_of(&TableReader::open(&part)?)?)?;
        }
        let columns = ["id", "path", "source", "sha256", "chars", "tokens", "simhash", "error"];
        reader.for_each_row(&columns, |row| {
            let p = &path;
            documents.push(DocumentRecord {
                id: required_int(row, "id", p)?,
                path: text(row, "path", p)?.unwrap_or_default(),
                source: text(row, "source", p)?.unwrap_or_default(),
                sha256: text(row, "sha256", p)?,
                chars: count(required_int(row, "chars", p)?),
                tokens: count(required_int(row, "tokens", p)?),
                simhash: int(row, "simhash", p)?.map(|h| h as u64),
                error: text(row, "error", p)?,
            });
            Ok(())
        })?;
    }
    documents.sort_by_key(|d| d.id);
    if let Some(pair) = documents.windows(2).find(|w| w[0].id == w[1].id) {
        return Err(DistributedError::invalid(
            root,
            format!(
                "document id {} ({}) appears twice: two shards share a number",
                pair[0].id,
                layout::describe_id(pair[0].id)
            ),
        ));
    }
    let Some((_, settings)) = check.first else {
        return Err(DistributedError::invalid(root, "no settings found"));
    };
    Ok(Fingerprints { settings, documents })
}

/// A postings file of shard file `name` in a bucket folder at or past `buckets`.
fn stale_bucket(root: &Path, name: &str, buckets: u32) -> Result<Option<PathBuf>, DistributedError> {
    let dir = root.join(POSTINGS);
    if !dir.exists() {
        return Ok(None);
    }
    for entry in std::fs::read_dir(&dir).map_err(|e| DistributedError::io(&dir, e))? {
        let entry = entry.map_err(|e| DistributedError::io(&dir, e))?;
        let bucket = entry.file_name().to_string_lossy().strip_prefix("bucket=").and_then(|b| b.parse::<u32>().ok());
        let file = entry.path().join(name);
        if bucket.is_none_or(|b| b >= buckets) && file.exists() {
            return Ok(Some(file));
        }
    }
    Ok(None)
}

/// Before a shard is written again: removes its postings files from every bucket folder,
/// so that none is left over from a run with more buckets.
pub fn remove_shard_postings(root: &Path, name: &str) -> Result<(), DistributedError> {
    let dir = root.join(POSTINGS);
    if !dir.exists() {
        return Ok(());
    }
    for entry in std::fs::read_dir(&dir).map_err(|e| DistributedError::io(&dir, e))? {
        let entry = entry.map_err(|e| DistributedError::io(&dir, e))?;
        let file = entry.path().join(name);
        if file.exists() {
            std::fs::remove_file(&file).map_err(|e| DistributedError::io(&file, e))?;
        }
    }
    Ok(())
}

/// Before shard `except` is written into `out`: the bucket count of the other shards
/// already there, if any.
pub fn existing_buckets(out: &Path, except: u32) -> Result<Option<(PathBuf, u32)>, DistributedError> {
    let dir = out.join(DOCUMENTS);
    let Some(shard) = shards_in(&dir)?.into_iter().find(|&s| s != except) else {
        return Ok(None);
    };
    let path = dir.join(shard_file(shard));
    let buckets = TableReader::open(&path)?.metadata(KEY_BUCKETS).and_then(|b| b.parse().ok());
    Ok(buckets.map(|b| (path, b)))
}

/// The `(a, b)` pairs of a pair file or folder (columns `a` and `b`), each with `a < b`,
/// sorted and without repeats.
pub fn read_pairs(path: &Path) -> Result<Vec<(i64, i64)>, DistributedError> {
    let mut pairs = Vec::new();
    let files = table::parquet_files(path)?;
    if files.is_empty() {
        return Err(DistributedError::invalid(path, "no .parquet files"));
    }
    for file in files {
        TableReader::open(&file)?.for_each_row(&["a", "b"], |row| {
            let a = required_int(row, "a", &file)?;
            let b = required_int(row, "b", &file)?;
            if a != b {
                pairs.push((a.min(b), a.max(b)));
            }
            Ok(())
        })?;
    }
    pairs.sort_unstable();
    pairs.dedup();
    Ok(pairs)
}

/// Which fingerprints a [`HashSpread`] counts: column `kind`, 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum HashKind {
    Kgram,
    Sentence,
}

/// How the whole collection holds one hash: one row of what sql/kgram_spreads.sql and
/// sql/sentence_spreads.sql write (columns `kind`, `hash`, `documents`, `postings`, `first_doc`, `second_doc`),
/// with the k-grams held by enough documents to be common or by many postings, and the
/// sentences held by many postings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct HashSpread {
    pub kind: HashKind,
    pub hash: u64,
    /// Documents holding it (later identical copies not counted).
    pub documents: i64,
    /// Its winnowed postings, at most 8 of one document.
    pub postings: i64,
    /// The lowest two ids of the documents holding it.
    pub first: [Option<i64>; 2],
}

/// The rows of a hash-spread file or folder, sorted. An empty folder means none.
pub fn read_spreads(path: &Path) -> Result<Vec<HashSpread>, DistributedError> {
    let mut spreads = Vec::new();
    for file in table::parquet_files(path)? {
        let columns = ["kind", "hash", "documents", "postings", "first_doc", "second_doc"];
        TableReader::open(&file)?.for_each_row(&columns, |row| {
            let kind = match required_int(row, "kind", &file)? {
                0 => HashKind::Kgram,
                1 => HashKind::Sentence,
                other => {
                    return Err(DistributedError::invalid(
                        &file,
                        format!(
                            "kind {other}: expected 0 (k-gram) or 1 (sentence), as sql/kgram_spreads.sql and sql/sentence_spreads.sql write"
                        ),
                    ));
                }
            };
            spreads.push(HashSpread {
                kind,
                hash: required_int(row, "hash", &file)? as u64,
                documents: required_int(row, "documents", &file)?,
                postings: required_int(row, "postings", &file)?,
                first: [int(row, "first_doc", &file)?, int(row, "second_doc", &file)?],
            });
            Ok(())
        })?;
    }
    spreads.sort_unstable();
    spreads.dedup();
    Ok(spreads)
}

/// A count a Parquet column holds as `i64`: a negative one is none.
fn count(n: i64) -> usize {
    usize::try_from(n.max(0)).unwrap_or(usize::MAX)
}

//! Match: turns the fingerprint hits between a suspect and one reference into passages —
//! character ranges on both sides — that survive light edits and reordered sentences.
//!
//! 1. Hits of winnowed k-grams (from the index) are grouped roughly ([`cluster`]); each
//!    group marks a box of the two token lists worth a closer look.
//! 2. Inside each box every shared run of `seed_len` tokens is a dense seed.
//! 3. Dense seeds are grouped with small gaps on both sides; a group that covers enough
//!    of its own span on both sides becomes a passage, extended to its seeds' ends and
//!    mapped to character offsets. Passages that touch or overlap are merged, so one
//!    copied passage is reported once.

pub mod cluster;

use rustc_hash::FxHashMap;

use crate::fingerprint::DocumentFingerprints;
use crate::fingerprint::hashing::kgram_hashes;
use crate::normalize::Token;
use crate::report::Passage;
use cluster::{Spanned, cluster};

/// Internal tuning of the matcher. The defaults are what the engine uses; they are
/// measured on the development corpus, not user settings.
#[derive(Clone, Debug)]
pub struct MatchTuning {
    /// Tokens per dense seed.
    pub seed_len: usize,
    /// Hits further apart than this many characters (on either side) start a new box.
    pub rough_gap_chars: u32,
    /// Tokens added around a box of hits before looking for dense seeds.
    pub box_margin_tokens: u32,
    /// Dense seeds further apart than this many characters start a new passage.
    pub gap_chars: u32,
    /// Share of a passage's tokens, on each side, that seeds must cover.
    pub min_density: f64,
    /// Seeds whose gram occurs more often than this inside one reference box are noise.
    pub max_seed_repeats: usize,
}

impl Default for MatchTuning {
    fn default() -> Self {
        Self {
            seed_len: 3,
            rough_gap_chars: 300,
            box_margin_tokens: 60,
            gap_chars: 60,
            min_density: 0.4,
            max_seed_repeats: 8,
        }
    }
}

/// What one comparison needs besides the two documents.
#[derive(Clone, Debug)]
pub struct PairContext<'a> {
    pub k: usize,
    pub min_chars: usize,
    pub tuning: &'a MatchTuning,
    /// Tokens of the suspect that belong to template text (never matched).
    pub suspect_mask: Option<&'a [bool]>,
    /// The same for the reference.
    pub reference_mask: Option<&'a [bool]>,
}

/// A shared k-gram: token index on the suspect side and on the reference side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hit {
    pub a: u32,
    pub b: u32,
}

/// A hit or seed with its character spans, for clustering.
#[derive(Clone, Copy, Debug)]
struct SpanSeed {
    a_tok: u32,
    b_tok: u32,
    a: (u32, u32),
    b: (u32, u32),
}

impl Spanned for SpanSeed {
    fn a_span(&self) -> (u32, u32) {
        self.a
    }
    fn b_span(&self) -> (u32, u32) {
        self.b
    }
}

impl Spanned for Passage {
    fn a_span(&self) -> (u32, u32) {
        (self.a_start, self.a_end)
    }
    fn b_span(&self) -> (u32, u32) {
        (self.b_start, self.b_end)
    }
}

fn char_span(tokens: &[Token], first: u32, len: usize) -> (u32, u32) {
    let last = (first as usize + len).min(tokens.len()).saturating_sub(1);
    (tokens[first as usize].start, tokens[last].end)
}

/// A half-open range of token indices on each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TokenBox {
    a: (u32, u32),
    b: (u32, u32),
}

/// Finds the passages shared by `suspect` and `reference`, given the k-gram `hits`
/// between them. Passages are sorted by suspect offset and never overlap on both sides.
pub fn match_pair(
    suspect: &DocumentFingerprints,
    reference: &DocumentFingerprints,
    hits: &[Hit],
    ctx: &PairContext,
) -> Vec<Passage> {
    let sa = &suspect.tokenized.tokens;
    let rb = &reference.tokenized.tokens;
    if hits.is_empty() || sa.is_empty() || rb.is_empty() {
        return Vec::new();
    }
    let tuning = ctx.tuning;
    let k = ctx.k.max(1);
    let rough: Vec<SpanSeed> = hits
        .iter()
        .filter(|h| (h.a as usize) < sa.len() && (h.b as usize) < rb.len())
        .map(|h| SpanSeed {
            a_tok: h.a,
            b_tok: h.b,
            a: char_span(sa, h.a, k),
            b: char_span(rb, h.b, k),
        })
        .collect();
    let margin = tuning.box_margin_tokens;
    let mut passages = Vec::new();
    for group in cluster(rough, tuning.rough_gap_chars, tuning.rough_gap_chars) {
        let a_lo = group.iter().map(|s| s.a_tok).min().unwrap_or(0);
        let a_hi = group.iter().map(|s| s.a_tok + k as u32).max().unwrap_or(0);
        let b_lo = group.iter().map(|s| s.b_tok).min().unwrap_or(0);
        let b_hi = group.iter().map(|s| s.b_tok + k as u32).max().unwrap_or(0);
        let mut token_box = TokenBox {
            a: (
                a_lo.saturating_sub(margin),
                (a_hi + margin).min(sa.len() as u32),
            ),
            b: (
                b_lo.saturating_sub(margin),
                (b_hi + margin).min(rb.len() as u32),
            ),
        };
        // Grow the box while a passage found in it runs into one of its inner edges.
        for _round in 0..6 {
            let found = passages_in_box(suspect, reference, token_box, ctx);
            let grown = grow_box(
                token_box,
                &found,
                margin,
                sa.len() as u32,
                rb.len() as u32,
                tuning.seed_len as u32,
            );
            if grown == token_box {
                passages.extend(found.into_iter().map(|f| f.passage));
                break;
            }
            token_box = grown;
        }
    }
    merge_passages(passages, tuning.gap_chars)
}

/// A passage and the token box it spans.
struct FoundPassage {
    passage: Passage,
    tokens: TokenBox,
}

fn grow_box(
    current: TokenBox,
    found: &[FoundPassage],
    margin: u32,
    a_len: u32,
    b_len: u32,
    slack: u32,
) -> TokenBox {
    let mut next = current;
    for f in found {
        if f.tokens.a.0 < current.a.0 + slack && current.a.0 > 0 {
            next.a.0 = current.a.0.saturating_sub(margin);
        }
        if f.tokens.a.1 + slack > current.a.1 && current.a.1 < a_len {
            next.a.1 = (current.a.1 + margin).min(a_len);
        }
        if f.tokens.b.0 < current.b.0 + slack && current.b.0 > 0 {
            next.b.0 = current.b.0.saturating_sub(margin);
        }
        if f.tokens.b.1 + slack > current.b.1 && current.b.1 < b_len {
            next.b.1 = (current.b.1 + margin).min(b_len);
        }
    }
    next
}

fn masked(mask: Option<&[bool]>, start: usize, len: usize) -> bool {
    mask.is_some_and(|m| {
        m.get(start..start + len)
            .is_some_and(|s| s.iter().any(|&x| x))
    })
}

fn passages_in_box(
    suspect: &DocumentFingerprints,
    reference: &DocumentFingerprints,
    tb: TokenBox,
    ctx: &PairContext,
) -> Vec<FoundPassage> {
    let sa = &suspect.tokenized.tokens;
    let rb = &reference.tokenized.tokens;
    let n = ctx.tuning.seed_len.max(1);
    let (a0, a1) = (tb.a.0 as usize, tb.a.1 as usize);
    let (b0, b1) = (tb.b.0 as usize, tb.b.1 as usize);
    if a1 < a0 + n || b1 < b0 + n {
        return Vec::new();
    }
    let b_grams = kgram_hashes(rb[b0..b1].iter().map(|t| t.hash), n);
    let mut positions: FxHashMap<u64, Vec<u32>> = FxHashMap::default();
    for (offset, &h) in b_grams.iter().enumerate() {
        let j = b0 + offset;
        if !masked(ctx.reference_mask, j, n) {
            positions.entry(h).or_default().push(j as u32);
        }
    }
    let a_grams = kgram_hashes(sa[a0..a1].iter().map(|t| t.hash), n);
    let mut seeds = Vec::new();
    for (offset, h) in a_grams.iter().enumerate() {
        let i = a0 + offset;
        let Some(js) = positions.get(h) else { continue };
        if js.len() > ctx.tuning.max_seed_repeats || masked(ctx.suspect_mask, i, n) {
            continue;
        }
        for &j in js {
            seeds.push(SpanSeed {
                a_tok: i as u32,
                b_tok: j,
                a: char_span(sa, i as u32, n),
                b: char_span(rb, j, n),
            });
        }
    }
    cluster(seeds, ctx.tuning.gap_chars, ctx.tuning.gap_chars)
        .into_iter()
        .filter_map(|group| accept(&group, n, ctx))
        .collect()
}

/// Share of the tokens in `[lo, hi)` covered by some seed starting in `starts`.
fn density(starts: impl Iterator<Item = u32>, lo: u32, hi: u32, n: u32) -> f64 {
    let mut covered = vec![false; (hi - lo) as usize];
    for s in starts {
        for t in s..(s + n).min(hi) {
            covered[(t - lo) as usize] = true;
        }
    }
    covered.iter().filter(|&&c| c).count() as f64 / covered.len().max(1) as f64
}

fn accept(group: &[SpanSeed], n: usize, ctx: &PairContext) -> Option<FoundPassage> {
    let n32 = n as u32;
    let a_lo = group.iter().map(|s| s.a_tok).min()?;
    let a_hi = group.iter().map(|s| s.a_tok + n32).max()?;
    let b_lo = group.iter().map(|s| s.b_tok).min()?;
    let b_hi = group.iter().map(|s| s.b_tok + n32).max()?;
    if ((a_hi - a_lo) as usize) < ctx.k || ((b_hi - b_lo) as usize) < ctx.k {
        return None;
    }
    let passage = Passage {
        a_start: group.iter().map(|s| s.a.0).min()?,
        a_end: group.iter().map(|s| s.a.1).max()?,
        b_start: group.iter().map(|s| s.b.0).min()?,
        b_end: group.iter().map(|s| s.b.1).max()?,
    };
    if ((passage.a_end - passage.a_start) as usize) < ctx.min_chars {
        return None;
    }
    let da = density(group.iter().map(|s| s.a_tok), a_lo, a_hi, n32);
    let db = density(group.iter().map(|s| s.b_tok), b_lo, b_hi, n32);
    if da.min(db) < ctx.tuning.min_density {
        return None;
    }
    Some(FoundPassage {
        passage,
        tokens: TokenBox {
            a: (a_lo, a_hi),
            b: (b_lo, b_hi),
        },
    })
}

/// Unions passages that overlap or nearly touch on both sides.
pub fn merge_passages(passages: Vec<Passage>, gap_chars: u32) -> Vec<Passage> {
    let mut merged: Vec<Passage> = cluster(passages, gap_chars, gap_chars)
        .into_iter()
        .filter_map(|group| {
            Some(Passage {
                a_start: group.iter().map(|p| p.a_start).min()?,
                a_end: group.iter().map(|p| p.a_end).max()?,
                b_start: group.iter().map(|p| p.b_start).min()?,
                b_end: group.iter().map(|p| p.b_end).max()?,
            })
        })
        .collect();
    merged.sort_by_key(|p| (p.a_start, p.b_start));
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    fn hits_between(a: &DocumentFingerprints, b: &DocumentFingerprints) -> Vec<Hit> {
        let mut hits = Vec::new();
        for fa in &a.kgrams {
            for fb in b.kgrams.iter().filter(|fb| fb.hash == fa.hash) {
                hits.push(Hit {
                    a: fa.position,
                    b: fb.position,
                });
            }
        }
        hits
    }

    fn find(a: &str, b: &str) -> Vec<(String, String)> {
        let settings = Settings::default();
        let fa = DocumentFingerprints::compute(a, &settings);
        let fb = DocumentFingerprints::compute(b, &settings);
        let tuning = MatchTuning::default();
        let ctx = PairContext {
            k: settings.k,
            min_chars: settings.min_chars,
            tuning: &tuning,
            suspect_mask: None,
            reference_mask: None,
        };
        let ca: Vec<char> = a.chars().collect();
        let cb: Vec<char> = b.chars().collect();
        match_pair(&fa, &fb, &hits_between(&fa, &fb), &ctx)
            .iter()
            .map(|p| {
                (
                    ca[p.a_start as usize..p.a_end as usize].iter().collect(),
                    cb[p.b_start as usize..p.b_end as usize].iter().collect(),
                )
            })
            .collect()
    }

    const COPIED: &str = "软件包管理系统可以帮助用户安装、升级和删除软件包，维护者负责打包上游软件并确保它符合政策手册的要求。";

    #[test]
    fn verbatim_passage_is_found_with_exact_ends_on_both_sides() {
        let a = format!(
            "今天我们讨论完全不同的话题比如天气和运动。{COPIED}最后还有一些别的内容在这里结尾。"
        );
        let b = format!("这是参考文献的开头部分内容介绍。{COPIED}参考文献后面还有其它的文字说明。");
        let found = find(&a, &b);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].0.starts_with("软件包管理"), "{found:?}");
        assert!(found[0].0.ends_with("要求"), "{found:?}");
        assert_eq!(found[0].0, found[0].1);
    }

    #[test]
    fn lightly_edited_and_reordered_passage_is_one_passage() {
        let b = "第一句话讲的是软件包的安装过程和依赖关系。第二句话说明维护者如何上传新的版本到仓库。第三句话介绍发行版的冻结和测试流程。第四句话总结整个项目的社区治理方式。";
        let a = "开头是毫不相关的一些话语用来填充。第三句话介绍发行版的冻结与测试流程。第一句话讲的是软件包的安装过程和依赖关系。第四句话总结整个项目的社区治理方法。第二句话说明维护者怎样上传新的版本到仓库。结尾又是另外一些无关的话。";
        let found = find(a, b);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].0.starts_with("第三句话"), "{found:?}");
        assert!(found[0].0.ends_with("仓库"), "{found:?}");
    }

    #[test]
    fn unrelated_texts_share_nothing() {
        assert!(
            find(
                "The quick brown fox jumps over the lazy dog again and again.",
                "Lorem ipsum dolor sit amet, consectetur adipiscing elit sed do."
            )
            .is_empty()
        );
    }
}

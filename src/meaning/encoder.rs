//! The forward pass of USE multilingual v3 (a DAN with three CNN n-gram branches), as the
//! wheel's numpy backend runs it: the tokens of a micro-batch of sentences in one flat
//! matrix, so each weight matrix streams from memory once per micro-batch; a window slot
//! outside its own sentence reads zeros, which is the per-sentence padding exactly.

use std::collections::HashMap;

use super::asset::{Asset, Tensor, packed_row_len, unpack_row};
use super::gemm::{Kernel, Packed, matmul};
use super::pieces::{PieceCache, Rows};

/// Dimensions of an embedding.
pub const DIM: usize = 512;
/// One sentence's embedding, L2-normalized.
pub type Embedding = [f32; DIM];
const CNN: usize = 256;
const CHUNKS: usize = 17;
/// (n-gram order, left context) of the three branches.
const ORDERS: [(usize, usize); 3] = [(2, 0), (3, 1), (5, 2)];
const FEAT: usize = DIM + ORDERS.len() * CNN;
/// The input projection's width: the three branches' inputs side by side.
const PROJ: usize = ORDERS.len() * CNN;
/// A piece's cached row: its projected, normalized input (`PROJ`), then each branch's
/// first-convolution product for each window slot (`CNN` each, 2 + 3 + 5 slots).
const PIECE: usize = PROJ + (2 + 3 + 5) * CNN;
/// Pieces the cache holds (13 KB each: about 26 MB at most).
const CACHED_PIECES: usize = 2048;
/// Tokens per micro-batch (the wheel's figure: weight streaming amortized, the working
/// set a few megabytes).
pub const TOKEN_BUDGET: usize = 384;

struct Branch {
    n: usize,
    left: usize,
    /// Where this branch's slot products start in a piece's row.
    at: usize,
    /// The first convolution's weight with its window slots side by side (`CNN × n·CNN`):
    /// a piece's input times it gives that piece's product for every slot at once.
    w1: Packed,
    b1: Vec<f32>,
    w2: Packed,
    b2: Vec<f32>,
}

/// The encoder's weights; the embedding table stays quantized (6 bits a value, packed).
pub(crate) struct Encoder {
    table: Vec<u8>,
    rows: usize,
    scale: Vec<f32>,
    lo: Vec<f32>,
    proj: Packed,
    proj_b: Vec<f32>,
    ln_g_all: Vec<f32>,
    ln_b_all: Vec<f32>,
    branches: Vec<Branch>,
    ln_g: Vec<f32>,
    ln_b: Vec<f32>,
    cnn_w: Packed,
    cnn_b: Vec<f32>,
    dense: [Packed; 6],
    eps: f32,
    kernel: Kernel,
    cache: PieceCache,
}

/// Takes tensor `name` out of the file's, checking its shape.
fn take(tensors: &mut HashMap<String, Tensor>, name: &str, dims: &[usize]) -> Result<Vec<f32>, String> {
    let t = tensors.remove(name).ok_or_else(|| format!("no tensor {name}"))?;
    if t.dims != dims {
        return Err(format!("tensor {name} is {:?}, expected {dims:?}", t.dims));
    }
    Ok(t.values)
}

fn packed(tensors: &mut HashMap<String, Tensor>, name: &str, k: usize, n: usize) -> Result<Packed, String> {
    Ok(Packed::new(&take(tensors, name, &[k, n])?, k, n))
}

/// A window weight (`n·CNN × CNN`, slot-major rows) with its slots side by side instead:
/// `CNN × n·CNN`, column block `k` the slot `k`'s weight.
fn slots_side_by_side(w: &[f32], n: usize) -> Packed {
    let mut side = vec![0.0f32; w.len()];
    for (r, row) in w.chunks_exact(CNN).enumerate() {
        let (k, c) = (r / CNN, r % CNN);
        side[c * n * CNN + k * CNN..c * n * CNN + (k + 1) * CNN].copy_from_slice(row);
    }
    Packed::new(&side, CNN, n * CNN)
}

impl Encoder {
    /// The weights of `asset`, packed; the table is moved, not copied.
    pub(crate) fn new(asset: &mut Asset) -> Result<Encoder, String> {
        if asset.dim != DIM || asset.rows < asset.pieces.len() {
            return Err(format!("a table of {} × {} for {} pieces", asset.rows, asset.dim, asset.pieces.len()));
        }
        let t = &mut asset.tensors;
        let (mut proj, mut proj_b, mut ln_g_all, mut ln_b_all) = (vec![0.0; DIM * PROJ], vec![], vec![], vec![]);
        let mut branches = Vec::new();
        let mut at = PROJ;
        for (i, &(n, left)) in ORDERS.iter().enumerate() {
            let w = take(t, &format!("proj{n}"), &[DIM, CNN])?;
            for (r, row) in w.chunks_exact(CNN).enumerate() {
                proj[r * PROJ + i * CNN..r * PROJ + (i + 1) * CNN].copy_from_slice(row);
            }
            proj_b.extend(take(t, &format!("proj_b{n}"), &[CNN])?);
            ln_g_all.extend(take(t, &format!("ln_g{n}"), &[CNN])?);
            ln_b_all.extend(take(t, &format!("ln_b{n}"), &[CNN])?);
            branches.push(Branch {
                n,
                left,
                at,
                w1: slots_side_by_side(&take(t, &format!("w1_{n}"), &[n * CNN, CNN])?, n),
                b1: take(t, &format!("b1_{n}"), &[CNN])?,
                w2: packed(t, &format!("w2_{n}"), n * CNN, CNN)?,
                b2: take(t, &format!("b2_{n}"), &[CNN])?,
            });
            at += n * CNN;
        }
        if at != PIECE {
            return Err(format!("piece rows of {at} values, expected {PIECE}"));
        }
        let dense = [
            packed(t, "d0", DIM, 320)?,
            packed(t, "d1", 320, 320)?,
            packed(t, "p1", DIM, 320)?,
            packed(t, "d2", 320, DIM)?,
            packed(t, "p3", 320, DIM)?,
            packed(t, "d3", DIM, DIM)?,
        ];
        Ok(Encoder {
            table: std::mem::take(&mut asset.table),
            rows: asset.rows,
            scale: take(t, "scale", &[CHUNKS])?,
            lo: take(t, "lo", &[CHUNKS])?,
            proj: Packed::new(&proj, DIM, PROJ),
            proj_b,
            ln_g_all,
            ln_b_all,
            branches,
            ln_g: take(t, "ln_g", &[FEAT])?,
            ln_b: take(t, "ln_b", &[FEAT])?,
            cnn_w: packed(t, "cnn_W", FEAT, DIM)?,
            cnn_b: take(t, "cnn_b", &[DIM])?,
            dense,
            eps: take(t, "eps", &[1])?.first().copied().unwrap_or(1e-12),
            kernel: Kernel::detect(),
            cache: PieceCache::new(PIECE, CACHED_PIECES),
        })
    }

    /// The bytes the weights hold in memory.
    pub(crate) fn heap_bytes(&self) -> usize {
        let packed = |p: &Packed| p.k * p.n.div_ceil(16) * 16 * 4;
        let branches: usize = self.branches.iter().map(|b| packed(&b.w1) + packed(&b.w2)).sum();
        self.table.len()
            + packed(&self.proj)
            + packed(&self.cnn_w)
            + branches
            + self.dense.iter().map(packed).sum::<usize>()
    }

    /// The bytes the per-piece cache holds now, and the most it can hold.
    pub(crate) fn cache_bytes(&self) -> (usize, usize) {
        (self.cache.bytes(), self.cache.capacity_bytes())
    }

    /// Forgets the per-piece cache.
    pub(crate) fn clear_cache(&self) {
        self.cache.clear();
    }

    /// Embeds one micro-batch: `group` holds each sentence's ids, `out` gets one row each.
    pub(crate) fn encode_batch(&self, group: &[Vec<u32>], out: &mut Vec<Embedding>) {
        let flat: Vec<u32> = group.iter().flatten().copied().collect();
        let n = flat.len();
        // each token's sentence, as [start, end) in the flat batch
        let mut bounds = Vec::with_capacity(n);
        let mut start = 0;
        for ids in group {
            bounds.extend(std::iter::repeat_n((start, start + ids.len()), ids.len()));
            start += ids.len();
        }
        let pieces = self.cache.rows(&flat, |missing, rows| self.piece_rows(missing, rows));
        let emb = self.lookup(&flat);
        let mut feats = vec![0.0f32; n * FEAT];
        for (row, e) in feats.chunks_exact_mut(FEAT).zip(emb.chunks_exact(DIM)) {
            row[..DIM].copy_from_slice(e);
        }
        for (i, branch) in self.branches.iter().enumerate() {
            let h = self.first_conv(i, branch, &pieces, &bounds);
            let c2 = self.conv(branch, &h, &bounds, &branch.w2, &branch.b2);
            let off = DIM + i * CNN;
            for (row, c) in feats.chunks_exact_mut(FEAT).zip(c2.chunks_exact(CNN)) {
                row[off..off + CNN].copy_from_slice(c);
            }
        }
        for row in feats.chunks_exact_mut(FEAT) {
            layernorm(row, &self.ln_g, &self.ln_b, self.eps);
        }
        // sum then project: the token sum commutes with the linear projection
        let mut sums = vec![0.0f32; group.len() * FEAT];
        let mut t = 0;
        for (s, ids) in sums.chunks_exact_mut(FEAT).zip(group) {
            for row in feats[t * FEAT..(t + ids.len()) * FEAT].chunks_exact(FEAT) {
                add(s, row);
            }
            t += ids.len();
        }
        let mut mean = vec![0.0f32; group.len() * DIM];
        matmul(&sums, group.len(), &self.cnn_w, &mut mean, self.kernel);
        for (row, ids) in mean.chunks_exact_mut(DIM).zip(group) {
            let len = ids.len().max(1) as f32;
            for (v, b) in row.iter_mut().zip(&self.cnn_b) {
                *v = (*v + len * b) / len.sqrt();
            }
        }
        self.head(&mean, group.len(), out);
    }

    /// The cached rows of the pieces `ids` (`rows` is `ids.len() × PIECE`): the embedding
    /// row projected, biased and layer-normalized (all of it a function of the piece
    /// alone), then that input times each first-convolution slot of each branch.
    fn piece_rows(&self, ids: &[u32], rows: &mut [f32]) {
        let m = ids.len();
        let emb = self.lookup(ids);
        let mut x = vec![0.0f32; m * PROJ];
        matmul(&emb, m, &self.proj, &mut x, self.kernel);
        drop(emb);
        for (row, out) in x.chunks_exact_mut(PROJ).zip(rows.chunks_exact_mut(PIECE)) {
            add(row, &self.proj_b);
            layernorm(row, &self.ln_g_all, &self.ln_b_all, self.eps);
            out[..PROJ].copy_from_slice(row);
        }
        for (i, br) in self.branches.iter().enumerate() {
            let xs: Vec<f32> = x.chunks_exact(PROJ).flat_map(|r| &r[i * CNN..(i + 1) * CNN]).copied().collect();
            let width = br.n * CNN;
            let mut products = vec![0.0f32; m * width];
            matmul(&xs, m, &br.w1, &mut products, self.kernel);
            for (out, p) in rows.chunks_exact_mut(PIECE).zip(products.chunks_exact(width)) {
                out[br.at..br.at + width].copy_from_slice(p);
            }
        }
    }

    /// Branch `i`'s first residual convolution, `relu(window(x) · w1 + b1) + x`, from the
    /// pieces' rows: a window's product is the sum of its slots' per-piece products (a slot
    /// outside the token's sentence adds nothing).
    fn first_conv(&self, i: usize, br: &Branch, pieces: &Rows, bounds: &[(usize, usize)]) -> Vec<f32> {
        let mut h = vec![0.0f32; bounds.len() * CNN];
        for (t, (row, &(lo, hi))) in h.chunks_exact_mut(CNN).zip(bounds).enumerate() {
            row.copy_from_slice(&br.b1);
            for k in 0..br.n {
                let Some(src) = (t + k).checked_sub(br.left) else { continue };
                if (lo..hi).contains(&src) {
                    let at = br.at + k * CNN;
                    add(row, &pieces.of(src, PIECE)[at..at + CNN]);
                }
            }
            let x = &pieces.of(t, PIECE)[i * CNN..(i + 1) * CNN];
            for (v, r) in row.iter_mut().zip(x) {
                *v = v.max(0.0) + r;
            }
        }
        h
    }

    /// The dequantized embedding rows of `ids` (an id past the table reads `<unk>`'s).
    fn lookup(&self, ids: &[u32]) -> Vec<f32> {
        let mut emb = vec![0.0f32; ids.len() * DIM];
        let mut quantized = [0u8; DIM];
        let len = packed_row_len(DIM);
        for (row, &id) in emb.chunks_exact_mut(DIM).zip(ids) {
            let id = if (id as usize) < self.rows { id as usize } else { 0 };
            let (scale, lo) = (self.scale[id % CHUNKS], self.lo[id % CHUNKS]);
            unpack_row(&self.table[id * len..(id + 1) * len], &mut quantized);
            for (v, &q) in row.iter_mut().zip(&quantized) {
                *v = f32::from(q) * scale + lo;
            }
        }
        emb
    }

    /// One residual n-gram convolution: `relu(window(input) · w + b) + input`.
    fn conv(&self, br: &Branch, input: &[f32], bounds: &[(usize, usize)], w: &Packed, b: &[f32]) -> Vec<f32> {
        let n = bounds.len();
        let width = br.n * CNN;
        let mut window = vec![0.0f32; n * width];
        for (t, (row, &(lo, hi))) in window.chunks_exact_mut(width).zip(bounds).enumerate() {
            for (k, slot) in row.chunks_exact_mut(CNN).enumerate() {
                let Some(src) = (t + k).checked_sub(br.left) else { continue };
                if (lo..hi).contains(&src) {
                    slot.copy_from_slice(&input[src * CNN..(src + 1) * CNN]);
                }
            }
        }
        let mut out = vec![0.0f32; n * CNN];
        matmul(&window, n, w, &mut out, self.kernel);
        for (row, res) in out.chunks_exact_mut(CNN).zip(input.chunks_exact(CNN)) {
            for ((v, bias), r) in row.iter_mut().zip(b).zip(res) {
                *v = (*v + bias).max(0.0) + r;
            }
        }
        out
    }

    /// The DNN head on the pooled sentences, then tanh and L2 normalization.
    fn head(&self, mean: &[f32], s: usize, out: &mut Vec<Embedding>) {
        let [d0, d1, p1, d2, p3, d3] = &self.dense;
        let mm = |a: &[f32], w: &Packed| {
            let mut c = vec![0.0f32; s * w.n];
            matmul(a, s, w, &mut c, self.kernel);
            c
        };
        let relu = |v: &mut [f32]| v.iter_mut().for_each(|x| *x = x.max(0.0));
        let mut y0 = mm(mean, d0);
        relu(&mut y0);
        let mut y1 = mm(mean, p1);
        add(&mut y1, &mm(&y0, d1));
        relu(&mut y1);
        let mut y2 = mm(&y1, d2);
        relu(&mut y2);
        let mut z = mm(&y1, p3);
        add(&mut z, &mm(&y2, d3));
        for row in z.chunks_exact_mut(DIM) {
            row.iter_mut().for_each(|v| *v = v.tanh());
            let norm = row.iter().map(|v| v * v).sum::<f32>().max(self.eps).sqrt();
            let mut e = [0.0f32; DIM];
            for (o, v) in e.iter_mut().zip(row.iter()) {
                *o = v / norm;
            }
            out.push(e);
        }
    }
}

fn add(a: &mut [f32], b: &[f32]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// Layer normalization of one row, in place.
fn layernorm(row: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) {
    let len = row.len() as f32;
    let mean = row.iter().sum::<f32>() / len;
    row.iter_mut().for_each(|v| *v -= mean);
    let var = row.iter().map(|v| v * v).sum::<f32>() / len;
    let inv = 1.0 / (var + eps).sqrt();
    for ((v, g), b) in row.iter_mut().zip(gamma).zip(beta) {
        *v = *v * inv * g + b;
    }
}

//! The one dense kernel of the encoder: `C = A · B` for a row-major `A` and a weight `B`
//! packed once into 16-column panels, in 4 × 16 register tiles the compiler vectorizes —
//! with AVX2 and FMA when the processor has them (chosen at run time), plain SIMD else.

/// Columns of a panel, rows of a tile.
const NR: usize = 16;
const MR: usize = 4;
/// Rows of `A` kept hot in cache while every panel of `B` passes over them.
const MB: usize = 64;

/// A `k × n` weight matrix packed as `n / 16` panels of `k` rows of 16 columns (the last
/// panel zero-padded), so a tile reads its strip of `B` contiguously.
#[derive(Clone, Debug)]
pub struct Packed {
    pub k: usize,
    pub n: usize,
    panels: Vec<f32>,
}

impl Packed {
    /// Packs the row-major `k × n` matrix `b`.
    pub fn new(b: &[f32], k: usize, n: usize) -> Packed {
        let n_panels = n.div_ceil(NR);
        let mut panels = vec![0.0f32; n_panels * k * NR];
        for (jp, panel) in panels.chunks_exact_mut(k * NR).enumerate() {
            for (p, row) in panel.chunks_exact_mut(NR).enumerate() {
                let j0 = jp * NR;
                let width = NR.min(n - j0);
                row[..width].copy_from_slice(&b[p * n + j0..p * n + j0 + width]);
            }
        }
        Packed { k, n, panels }
    }
}

/// Whether the processor runs the AVX2 + FMA kernel.
pub fn has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `c[m × n] = a[m × k] · b`, overwriting `c`. `fma` as [`has_fma`] said.
pub fn matmul(a: &[f32], m: usize, b: &Packed, c: &mut [f32], fma: bool) {
    debug_assert!(a.len() >= m * b.k && c.len() >= m * b.n);
    #[cfg(target_arch = "x86_64")]
    if fma {
        // SAFETY: `fma` is only true when `has_fma` found AVX2 and FMA on this processor.
        unsafe { matmul_fma(a, m, b, c) };
        return;
    }
    let _ = fma;
    matmul_generic::<false>(a, m, b, c);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn matmul_fma(a: &[f32], m: usize, b: &Packed, c: &mut [f32]) {
    matmul_generic::<true>(a, m, b, c);
}

#[inline(always)]
fn matmul_generic<const FMA: bool>(a: &[f32], m: usize, b: &Packed, c: &mut [f32]) {
    let (k, n) = (b.k, b.n);
    for i0 in (0..m).step_by(MB) {
        let i1 = (i0 + MB).min(m);
        for (jp, panel) in b.panels.chunks_exact(k * NR).enumerate() {
            let j0 = jp * NR;
            let width = NR.min(n - j0);
            let mut i = i0;
            while i + MR <= i1 {
                let acc = tile::<FMA, MR>(&a[i * k..(i + MR) * k], k, panel);
                for (r, row) in acc.iter().enumerate() {
                    c[(i + r) * n + j0..(i + r) * n + j0 + width].copy_from_slice(&row[..width]);
                }
                i += MR;
            }
            while i < i1 {
                let acc = tile::<FMA, 1>(&a[i * k..(i + 1) * k], k, panel);
                c[i * n + j0..i * n + j0 + width].copy_from_slice(&acc[0][..width]);
                i += 1;
            }
        }
    }
}

/// `R` rows of `a` (each `k` long) times one panel: an `R × 16` tile in registers.
#[inline(always)]
fn tile<const FMA: bool, const R: usize>(a: &[f32], k: usize, panel: &[f32]) -> [[f32; NR]; R] {
    let mut acc = [[0.0f32; NR]; R];
    let rows: [&[f32]; R] = std::array::from_fn(|r| &a[r * k..(r + 1) * k]);
    for (p, brow) in panel.chunks_exact(NR).enumerate().take(k) {
        let brow: &[f32; NR] = match brow.try_into() {
            Ok(row) => row,
            Err(_) => continue,
        };
        for r in 0..R {
            let av = rows[r][p];
            for q in 0..NR {
                acc[r][q] = if FMA { av.mul_add(brow[q], acc[r][q]) } else { acc[r][q] + av * brow[q] };
            }
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(a: &[f32], m: usize, b: &[f32], k: usize, n: usize) -> Vec<f32> {
        let mut c = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                c[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
            }
        }
        c
    }

    #[test]
    fn matches_the_naive_product_on_odd_shapes() {
        for &(m, k, n) in &[(1, 1, 1), (5, 7, 17), (67, 33, 40), (4, 256, 16)] {
            let a: Vec<f32> = (0..m * k).map(|i| ((i * 7 % 13) as f32 - 6.0) / 5.0).collect();
            let b: Vec<f32> = (0..k * n).map(|i| ((i * 5 % 11) as f32 - 5.0) / 3.0).collect();
            let want = naive(&a, m, &b, k, n);
            for fma in [false, has_fma()] {
                let mut c = vec![f32::NAN; m * n];
                matmul(&a, m, &Packed::new(&b, k, n), &mut c, fma);
                for (x, y) in c.iter().zip(&want) {
                    assert!((x - y).abs() <= 1e-3 * (1.0 + y.abs()), "{m}x{k}x{n}: {x} vs {y}");
                }
            }
        }
    }
}

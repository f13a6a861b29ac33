//! The one dense kernel of the encoder: `C = A · B` for a row-major `A` and a weight `B`
//! packed once into 16-column panels. The processor chooses the tile at run time
//! ([`Kernel::detect`]): 8 × 32 in AVX-512 registers (`avx512.rs`), else 4 × 16 tiles the
//! compiler vectorizes, with AVX2 and FMA when the processor has them, plain SIMD else.

#[cfg(target_arch = "x86_64")]
mod avx512;

/// Columns of a panel, rows of a tile.
pub(super) const NR: usize = 16;
const MR: usize = 4;
/// Rows of `A` kept hot in cache while every panel of `B` passes over them.
pub(super) const MB: usize = 64;

/// A `k × n` weight matrix packed as `n / 16` panels of `k` rows of 16 columns (the last
/// panel zero-padded), so a tile reads its strip of `B` contiguously.
#[derive(Clone, Debug)]
pub struct Packed {
    pub k: usize,
    pub n: usize,
    pub(super) panels: Vec<f32>,
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

/// Which tile the processor runs, chosen once (the encoder keeps it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// 4 × 16 tiles in whatever SIMD the build targets.
    Portable,
    /// 4 × 16 tiles with AVX2 and fused multiply-adds.
    Fma,
    /// 8 × 32 tiles in AVX-512 registers.
    Avx512,
}

impl Kernel {
    /// The fastest tile this processor runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            let fma = std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma");
            if fma && std::arch::is_x86_feature_detected!("avx512f") {
                return Kernel::Avx512;
            }
            if fma {
                return Kernel::Fma;
            }
        }
        Kernel::Portable
    }

    /// Every tile this processor runs (the tests compare them).
    #[cfg(test)]
    pub fn available() -> Vec<Kernel> {
        let best = Kernel::detect();
        [Kernel::Portable, Kernel::Fma, Kernel::Avx512].into_iter().filter(|k| *k <= best).collect()
    }
}

impl PartialOrd for Kernel {
    fn partial_cmp(&self, other: &Kernel) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Kernel {
    fn cmp(&self, other: &Kernel) -> std::cmp::Ordering {
        (*self as u8).cmp(&(*other as u8))
    }
}

/// `c[m × n] = a[m × k] · b`, overwriting `c`, with the tile `kernel` ([`Kernel::detect`]).
pub fn matmul(a: &[f32], m: usize, b: &Packed, c: &mut [f32], kernel: Kernel) {
    assert!(a.len() >= m * b.k && c.len() >= m * b.n, "matmul: {m} × {} into {} values", b.k, c.len());
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernel::Avx512` is only chosen when `detect` found AVX-512F.
        Kernel::Avx512 => unsafe { avx512::matmul(a, m, b, c) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernel::Fma` is only chosen when `detect` found AVX2 and FMA.
        Kernel::Fma => unsafe { matmul_fma(a, m, b, c) },
        _ => matmul_generic::<false>(a, m, b, c),
    }
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
        for &(m, k, n) in &[(1, 1, 1), (5, 7, 17), (67, 33, 40), (4, 256, 16), (9, 20, 48), (130, 64, 80), (17, 3, 33)]
        {
            let a: Vec<f32> = (0..m * k).map(|i| ((i * 7 % 13) as f32 - 6.0) / 5.0).collect();
            let b: Vec<f32> = (0..k * n).map(|i| ((i * 5 % 11) as f32 - 5.0) / 3.0).collect();
            let want = naive(&a, m, &b, k, n);
            for kernel in Kernel::available() {
                let mut c = vec![f32::NAN; m * n];
                matmul(&a, m, &Packed::new(&b, k, n), &mut c, kernel);
                for (x, y) in c.iter().zip(&want) {
                    assert!((x - y).abs() <= 1e-3 * (1.0 + y.abs()), "{kernel:?} {m}x{k}x{n}: {x} vs {y}");
                }
            }
        }
    }
}

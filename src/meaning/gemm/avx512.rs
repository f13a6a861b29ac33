//! The AVX-512 tile of the dense kernel: 8 rows of `A` times two 16-column panels of `B`,
//! sixteen 512-bit accumulators kept in registers, so each step loads two rows of `B` for
//! sixteen fused multiply-adds.

use std::arch::x86_64::{_mm512_fmadd_ps, _mm512_loadu_ps, _mm512_set1_ps, _mm512_setzero_ps, _mm512_storeu_ps};

use super::{MB, NR, Packed};

/// Rows of a full tile.
const MR: usize = 8;

/// `c[m × n] = a[m × k] · b`. The caller checked `a` and `c` are long enough.
///
/// # Safety
/// The processor must have AVX-512F.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn matmul(a: &[f32], m: usize, b: &Packed, c: &mut [f32]) {
    let k = b.k;
    let panels: Vec<&[f32]> = b.panels.chunks_exact(k * NR).collect();
    for i0 in (0..m).step_by(MB) {
        let i1 = (i0 + MB).min(m);
        for (pair, duo) in panels.chunks(2).enumerate() {
            let j0 = pair * 2 * NR;
            let mut i = i0;
            while i + MR <= i1 {
                tile::<MR>(a, i, b, duo, j0, c);
                i += MR;
            }
            while i + 4 <= i1 {
                tile::<4>(a, i, b, duo, j0, c);
                i += 4;
            }
            while i < i1 {
                tile::<1>(a, i, b, duo, j0, c);
                i += 1;
            }
        }
    }
}

/// Rows `i..i + R` of `c`, columns `j0..` of the one or two panels in `duo`.
#[target_feature(enable = "avx512f")]
#[inline]
fn tile<const R: usize>(a: &[f32], i: usize, b: &Packed, duo: &[&[f32]], j0: usize, c: &mut [f32]) {
    let k = b.k;
    let rows = &a[i * k..(i + R) * k];
    let mut acc = [[_mm512_setzero_ps(); 2]; R];
    match duo {
        [p0, p1] => {
            for p in 0..k {
                // SAFETY: each panel holds `k` rows of `NR` (16) values and `p < k`.
                let (b0, b1) =
                    unsafe { (_mm512_loadu_ps(p0.as_ptr().add(p * NR)), _mm512_loadu_ps(p1.as_ptr().add(p * NR))) };
                for (r, row) in acc.iter_mut().enumerate() {
                    // SAFETY: `rows` holds `R` rows of `k` values, `r < R` and `p < k`.
                    let av = _mm512_set1_ps(unsafe { *rows.as_ptr().add(r * k + p) });
                    row[0] = _mm512_fmadd_ps(av, b0, row[0]);
                    row[1] = _mm512_fmadd_ps(av, b1, row[1]);
                }
            }
        }
        [p0] => {
            for p in 0..k {
                // SAFETY: the panel holds `k` rows of `NR` (16) values and `p < k`.
                let b0 = unsafe { _mm512_loadu_ps(p0.as_ptr().add(p * NR)) };
                for (r, row) in acc.iter_mut().enumerate() {
                    // SAFETY: `rows` holds `R` rows of `k` values, `r < R` and `p < k`.
                    let av = _mm512_set1_ps(unsafe { *rows.as_ptr().add(r * k + p) });
                    row[0] = _mm512_fmadd_ps(av, b0, row[0]);
                }
            }
        }
        _ => return,
    }
    let n = b.n;
    for (r, row) in acc.iter().enumerate() {
        for (q, &v) in row.iter().enumerate().take(duo.len()) {
            let j = j0 + q * NR;
            let width = NR.min(n - j);
            let mut out = [0.0f32; NR];
            // SAFETY: `out` holds 16 values, one 512-bit store.
            unsafe { _mm512_storeu_ps(out.as_mut_ptr(), v) };
            c[(i + r) * n + j..(i + r) * n + j + width].copy_from_slice(&out[..width]);
        }
    }
}

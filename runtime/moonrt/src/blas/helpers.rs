//! Routines for derivative rules, beside the BLAS and LAPACK ones:
//! `moonrt_?laswp` (a factorization's row interchanges) and
//! `moonrt_?potrf_adjoint` (the reverse-mode adjoint of the Cholesky
//! factorization, blocked over BLAS 3).

use super::{Matrix, Need, Real, overlap, report, square};
use crate::cblas::*;
use crate::memref::MemRef;
use std::ffi::c_int;

/// Applies the row interchanges of LAPACK's 1-based pivots `ipiv` (as
/// `getrf` returns them: row `i` swapped with row `ipiv[i] - 1`) to `a`:
/// `i = 0, 1, ...` when `forward` (`A := P^T A` for `A = P L U`), in
/// reverse order otherwise (`A := P A`). Any strides; nothing is copied.
pub(crate) unsafe fn laswp<T: Real>(forward: i32, a: &MemRef<T, 2>, ipiv: &MemRef<i32, 1>) {
    report((T::PREFIX, "laswp"), (), || unsafe {
        let [rows, cols] = a.shape();
        let pivots = ipiv.to_vec();
        if pivots.len() > rows {
            return Err(format!(
                "ipiv has {} elements but A only {rows} rows",
                pivots.len()
            ));
        }
        let mut targets = Vec::with_capacity(pivots.len());
        for (i, &p) in pivots.iter().enumerate() {
            match usize::try_from(p) {
                Ok(p) if (1..=rows).contains(&p) => targets.push(p - 1),
                _ => {
                    return Err(format!("ipiv[{i}] is {p}, not a row of A (1 to {rows})"));
                }
            }
        }
        let swaps: Vec<(usize, usize)> = if forward != 0 {
            targets.into_iter().enumerate().collect()
        } else {
            targets.into_iter().enumerate().rev().collect()
        };
        let [s0, s1] = a.strides;
        let at = |i: usize, j: usize| a.offset + i as i64 * s0 + j as i64 * s1;
        let swap = |i: usize, p: usize, j: usize| {
            std::ptr::swap(
                a.aligned.offset(at(i, j) as isize),
                a.aligned.offset(at(p, j) as isize),
            )
        };
        if s1.unsigned_abs() <= s0.unsigned_abs() {
            // Rows are contiguous (or nearly): swap whole rows.
            for &(i, p) in swaps.iter().filter(|(i, p)| i != p) {
                for j in 0..cols {
                    swap(i, p, j);
                }
            }
        } else {
            // Columns are: every swap in one column, then the next.
            for j in 0..cols {
                for &(i, p) in swaps.iter().filter(|(i, p)| i != p) {
                    swap(i, p, j);
                }
            }
        }
        Ok(())
    })
}

/// The width of the column blocks [`potrf_adjoint`] works on.
pub(crate) const POTRF_ADJOINT_BLOCK: usize = 64;

/// `m` transposed (a view: the sizes and strides swapped).
fn transposed<T>(m: &MemRef<T, 2>) -> MemRef<T, 2> {
    MemRef {
        sizes: [m.sizes[1], m.sizes[0]],
        strides: [m.strides[1], m.strides[0]],
        ..*m
    }
}

/// The reverse-mode adjoint of `potrf` in place in `g`. `l` holds the
/// factor in its `lower` triangle (`A = L L^T`), or else the upper factor
/// (`A = U^T U`, worked on as `L = U^T`); `g` holds the adjoint of the
/// factor's triangle and gets the adjoint of the triangle of `A` that
/// `potrf` read (one variable per element): with `W = L^-T Phi(L^T
/// tril(G)) L^-1`, `W + W^T` below the diagonal and `W` on it. The other
/// triangle of `g` is left as it is.
///
/// Murray's blocked algorithm (2016, "Differentiation of the Cholesky
/// decomposition"), as the reverse of right-looking Cholesky. For column
/// blocks `[j, e)` from the last, with `1` the diagonal block, `2` the rows
/// below it, and `G22` the adjoint of `A`'s trailing triangle, already
/// final:
///
/// - `G21 -= (G22 + G22^T) L21` (the reverse of `A22 -= L21 L21^T`; `symm`
///   on `G22`, whose diagonal is kept doubled during the sweep);
/// - `G21 := G21 L11^-1` (the reverse of `L21 = A21 L11^-T`; `trsm`), and
///   `G11 -= tril(G21^T L21)` (`gemm`);
/// - `G11` from the formula above with `L11` (the reverse of `L11 =
///   chol(A11)`; `trmm` and `trsm` on `nb x nb`).
///
/// About `2 n^3 / 3` flops, against `3 n^3` for the formula on `n x n`.
pub(crate) unsafe fn potrf_adjoint<T: Real>(lower: i32, l: &MemRef<T, 2>, g: &MemRef<T, 2>) {
    unsafe { potrf_adjoint_blocked(lower, l, g, POTRF_ADJOINT_BLOCK) }
}

/// [`potrf_adjoint`] in column blocks of `nb`.
pub(crate) unsafe fn potrf_adjoint_blocked<T: Real>(
    lower: i32,
    l: &MemRef<T, 2>,
    g: &MemRef<T, 2>,
    nb: usize,
) {
    report((T::PREFIX, "potrf_adjoint"), (), || unsafe {
        let (l, g) = if lower != 0 {
            (*l, *g)
        } else {
            (transposed(l), transposed(g))
        };
        let gm = Matrix::new(&g, Need::Any, "G")?;
        let order = gm.order;
        let need = if overlap(&l, &g) {
            Need::CopyIn(order)
        } else {
            Need::Order(order)
        };
        let lm = Matrix::new(&l, need, "L")?;
        let n = square(&lm, "L")?;
        if gm.rows != n || gm.cols != n {
            return Err(format!("L is {n}x{n} but G is {}x{}", gm.rows, gm.cols));
        }
        sweep(order, &lm, &gm, n as usize, nb.max(1));
        gm.write_back(&g);
        Ok(())
    })
}

/// CBLAS's `trmm` and `trsm`.
type Triangular<T> = unsafe extern "C" fn(
    c_int,
    c_int,
    c_int,
    c_int,
    c_int,
    c_int,
    c_int,
    T,
    *const T,
    c_int,
    *mut T,
    c_int,
);

/// Where element `(i, j)` of a matrix lies in memory.
fn at<T>(m: &Matrix<T>, i: usize, j: usize) -> *mut T {
    let ld = m.ld as usize;
    let k = if m.order == ROW_MAJOR {
        i * ld + j
    } else {
        i + j * ld
    };
    // SAFETY: callers pass indices inside the matrix.
    unsafe { m.ptr.add(k) }
}

/// A dense `n x n` scratch matrix in `order`, zeroed.
fn scratch<T: Real>(n: usize, order: c_int) -> (Vec<T>, impl Fn(usize, usize) -> usize) {
    let index = move |i: usize, j: usize| {
        if order == ROW_MAJOR {
            i * n + j
        } else {
            i + j * n
        }
    };
    (vec![T::default(); n * n], index)
}

/// The blocked sweep of [`potrf_adjoint`] on the lower factor `l` and the
/// adjoint `g`, both `n x n` in `order`.
unsafe fn sweep<T: Real>(order: c_int, l: &Matrix<T>, g: &Matrix<T>, n: usize, nb: usize) {
    let r = &T::ROUTINES;
    let int = |x: usize| x as c_int;
    let (mut w, wi) = scratch::<T>(nb.min(n), order);
    let ldw = int(nb.min(n).max(1));
    let mut end = n;
    while end > 0 {
        let j = end.saturating_sub(nb);
        let (b, m) = (end - j, n - end);
        let l11 = at(l, j, j);
        let (lda_l, ldg) = (l.ld, g.ld);
        unsafe {
            if m > 0 {
                let (l21, g21, g22) = (at(l, end, j), at(g, end, j), at(g, end, end));
                // G21 -= (G22 + G22^T) L21: G22's diagonal is doubled.
                (r.symm)(
                    order,
                    LEFT,
                    LOWER,
                    int(m),
                    int(b),
                    T::default() - T::ONE,
                    g22,
                    ldg,
                    l21,
                    lda_l,
                    T::ONE,
                    g21,
                    ldg,
                );
                // G21 := G21 L11^-1.
                (r.trsm)(
                    order,
                    RIGHT,
                    LOWER,
                    NO_TRANS,
                    NON_UNIT,
                    int(m),
                    int(b),
                    T::ONE,
                    l11,
                    lda_l,
                    g21,
                    ldg,
                );
                // G11 -= tril(G21^T L21), through W.
                (r.gemm)(
                    order,
                    TRANS,
                    NO_TRANS,
                    int(b),
                    int(b),
                    int(m),
                    T::ONE,
                    g21,
                    ldg,
                    l21,
                    lda_l,
                    T::default(),
                    w.as_mut_ptr(),
                    ldw,
                );
                for q in 0..b {
                    for p in q..b {
                        let x = at(g, j + p, j + q);
                        *x = *x - w[wi(p, q)];
                    }
                }
            }
            // W = L11^-T Phi(L11^T tril(G11)) L11^-1.
            for q in 0..b {
                for p in 0..b {
                    w[wi(p, q)] = if p >= q {
                        *at(g, j + p, j + q)
                    } else {
                        T::default()
                    };
                }
            }
            let square = |routine: Triangular<T>, side, trans, w: *mut T| {
                routine(
                    order,
                    side,
                    LOWER,
                    trans,
                    NON_UNIT,
                    int(b),
                    int(b),
                    T::ONE,
                    l11,
                    lda_l,
                    w,
                    ldw,
                )
            };
            square(r.trmm, LEFT, TRANS, w.as_mut_ptr());
            for q in 0..b {
                w[wi(q, q)] = w[wi(q, q)] * T::HALF;
                for p in 0..q {
                    w[wi(p, q)] = T::default();
                }
            }
            square(r.trsm, LEFT, TRANS, w.as_mut_ptr());
            square(r.trsm, RIGHT, NO_TRANS, w.as_mut_ptr());
            // G11 = W + W^T on and below the diagonal: the diagonal
            // doubled, as the blocks before this one read it.
            for q in 0..b {
                for p in q..b {
                    *at(g, j + p, j + q) = w[wi(p, q)] + w[wi(q, p)];
                }
            }
        }
        end = j;
    }
    for i in 0..n {
        // SAFETY: the diagonal lies inside `g`.
        unsafe {
            let x = at(g, i, i);
            *x = *x * T::HALF;
        }
    }
}

/// The C entry points, one per element type (declared in `moonrt.h`;
/// `docs/blas.md` has their MLIR types).
macro_rules! entry_points {
    ($t:ty, $laswp:ident, $potrf_adjoint:ident) => {
        /// Applies `getrf`'s row interchanges `ipiv` to `A`: in order when
        /// `forward` is nonzero (`A := P^T A`), in reverse otherwise
        /// (`A := P A`).
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $laswp(forward: i32, a: &MemRef<$t, 2>, ipiv: &MemRef<i32, 1>) {
            unsafe { laswp(forward, a, ipiv) }
        }
        /// The adjoint of `potrf` in place in `G`, from the factor `L`
        /// (its `lower` triangle, or else the upper factor): the adjoint
        /// of the triangle of `A` that `potrf` read.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $potrf_adjoint(lower: i32, l: &MemRef<$t, 2>, g: &MemRef<$t, 2>) {
            unsafe { potrf_adjoint(lower, l, g) }
        }
    };
}

entry_points!(f32, moonrt_slaswp, moonrt_spotrf_adjoint);
entry_points!(f64, moonrt_dlaswp, moonrt_dpotrf_adjoint);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blas::moonrt_blas_time_ns;
    use crate::error::{clear_error, last_error};

    /// SplitMix64: uniform numbers in [-1, 1).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        }
    }

    /// The element types, to and from f64.
    trait Cast: Real + std::fmt::Debug {
        fn of(x: f64) -> Self;
        fn back(self) -> f64;
        /// The tolerance, relative to the largest element.
        const TOLERANCE: f64;
    }

    impl Cast for f32 {
        fn of(x: f64) -> Self {
            x as f32
        }
        fn back(self) -> f64 {
            self as f64
        }
        const TOLERANCE: f64 = 2e-4;
    }

    impl Cast for f64 {
        fn of(x: f64) -> Self {
            x
        }
        fn back(self) -> f64 {
            self
        }
        const TOLERANCE: f64 = 1e-11;
    }

    /// A dense row-major `n x n` matrix in f64.
    type Dense = Vec<Vec<f64>>;

    /// The Cholesky factor of `A`, reading its lower triangle.
    fn cholesky(a: &Dense) -> Dense {
        let n = a.len();
        let mut l = vec![vec![0.0; n]; n];
        for j in 0..n {
            let d: f64 = a[j][j] - (0..j).map(|k| l[j][k] * l[j][k]).sum::<f64>();
            l[j][j] = d.sqrt();
            for i in j + 1..n {
                let s: f64 = a[i][j] - (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
                l[i][j] = s / l[j][j];
            }
        }
        l
    }

    /// A random symmetric positive definite matrix, `B B^T / n + I`.
    fn spd(n: usize, rng: &mut Rng) -> Dense {
        let b: Dense = (0..n)
            .map(|_| (0..n).map(|_| rng.next()).collect())
            .collect();
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        let dot: f64 = (0..n).map(|k| b[i][k] * b[j][k]).sum();
                        dot / n as f64 + f64::from(u8::from(i == j))
                    })
                    .collect()
            })
            .collect()
    }

    /// A random lower triangular matrix (zero above the diagonal).
    fn random_lower(n: usize, rng: &mut Rng) -> Dense {
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| if j <= i { rng.next() } else { 0.0 })
                    .collect()
            })
            .collect()
    }

    /// The symbolic formula: `Phi(W + W^T)`, `W = L^-T Phi(L^T G) L^-1`,
    /// as a lower triangular matrix (plain loops, in f64).
    fn symbolic(l: &Dense, g: &Dense) -> Dense {
        let n = l.len();
        // M = Phi(L^T G).
        let mut m = vec![vec![0.0; n]; n];
        for i in 0..n {
            for k in 0..=i {
                let s: f64 = (i..n).map(|p| l[p][i] * g[p][k]).sum();
                m[i][k] = if i == k { s / 2.0 } else { s };
            }
        }
        // X = L^-T M: L^T X = M, from the last row up.
        let mut x = vec![vec![0.0; n]; n];
        for c in 0..n {
            for i in (0..n).rev() {
                let s: f64 = (i + 1..n).map(|p| l[p][i] * x[p][c]).sum();
                x[i][c] = (m[i][c] - s) / l[i][i];
            }
        }
        // W = X L^-1: W L = X, from the last column left.
        let mut w = vec![vec![0.0; n]; n];
        for r in 0..n {
            for c in (0..n).rev() {
                let s: f64 = (c + 1..n).map(|p| w[r][p] * l[p][c]).sum();
                w[r][c] = (x[r][c] - s) / l[c][c];
            }
        }
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|k| match i.cmp(&k) {
                        std::cmp::Ordering::Greater => w[i][k] + w[k][i],
                        std::cmp::Ordering::Equal => w[i][i],
                        std::cmp::Ordering::Less => 0.0,
                    })
                    .collect()
            })
            .collect()
    }

    /// How a test stores an `n x n` matrix.
    #[derive(Clone, Copy, Debug)]
    enum Layout {
        RowMajor,
        ColumnMajor,
        /// Row-major with a leading dimension of `n + 3` and an offset.
        Padded,
        /// Contiguous along neither dimension (copied by the routine).
        Scattered,
    }

    /// A buffer holding a logical `n x n` matrix in a layout, with the
    /// descriptor that addresses it.
    struct Stored<T> {
        data: Vec<T>,
        offset: i64,
        strides: [i64; 2],
        n: usize,
    }

    impl<T: Cast> Stored<T> {
        fn new(x: &Dense, layout: Layout) -> Self {
            let n = x.len() as i64;
            let (offset, strides, len) = match layout {
                Layout::RowMajor => (0, [n, 1], n * n),
                Layout::ColumnMajor => (0, [1, n], n * n),
                Layout::Padded => (2, [n + 3, 1], 2 + (n + 3) * n),
                Layout::Scattered => (1, [2, 2 * n], 1 + 2 * n * n),
            };
            let mut stored = Stored {
                data: vec![T::of(-99.0); len.max(1) as usize],
                offset,
                strides,
                n: x.len(),
            };
            for (i, row) in x.iter().enumerate() {
                for (j, &v) in row.iter().enumerate() {
                    let k = stored.index(i, j);
                    stored.data[k] = T::of(v);
                }
            }
            stored
        }

        fn index(&self, i: usize, j: usize) -> usize {
            (self.offset + i as i64 * self.strides[0] + j as i64 * self.strides[1]) as usize
        }

        fn memref(&mut self) -> MemRef<T, 2> {
            let ptr = self.data.as_mut_ptr();
            MemRef {
                allocated: ptr,
                aligned: ptr,
                offset: self.offset,
                sizes: [self.n as i64; 2],
                strides: self.strides,
            }
        }

        fn get(&self, i: usize, j: usize) -> f64 {
            self.data[self.index(i, j)].back()
        }
    }

    fn transpose(x: &Dense) -> Dense {
        let n = x.len();
        (0..n).map(|i| (0..n).map(|j| x[j][i]).collect()).collect()
    }

    /// The value of the other triangle, which must survive.
    fn sentinel(i: usize, j: usize) -> f64 {
        1000.0 + (i * 7 + j) as f64
    }

    /// Runs the blocked adjoint on `L`, `G` stored in the given layouts
    /// (as the lower factor, or as the upper one through its transpose)
    /// and compares it with `expected`, the other triangle untouched.
    fn compare<T: Cast>(
        l: &Dense,
        g: &Dense,
        expected: &Dense,
        lower: bool,
        layouts: (Layout, Layout),
        nb: usize,
    ) {
        let n = l.len();
        // The other triangle of the adjoint holds sentinels; L's holds junk.
        let mut g_full = g.clone();
        let mut l_full = l.clone();
        for i in 0..n {
            for j in i + 1..n {
                g_full[i][j] = sentinel(i, j);
                l_full[i][j] = -7.5;
            }
        }
        let (l_stored, g_stored) = if lower {
            (l_full, g_full)
        } else {
            (transpose(&l_full), transpose(&g_full))
        };
        let mut ls = Stored::<T>::new(&l_stored, layouts.0);
        let mut gs = Stored::<T>::new(&g_stored, layouts.1);
        let (lm, gm) = (ls.memref(), gs.memref());
        clear_error();
        unsafe { potrf_adjoint_blocked(i32::from(lower), &lm, &gm, nb) };
        assert!(last_error().is_none(), "{:?}", last_error());
        let scale = expected
            .iter()
            .flatten()
            .fold(1e-300f64, |m, &x| m.max(x.abs()));
        let mut worst = 0.0f64;
        for (i, row) in expected.iter().enumerate() {
            for (j, &want) in row.iter().enumerate() {
                let got = if lower { gs.get(i, j) } else { gs.get(j, i) };
                if j > i {
                    assert_eq!(
                        got,
                        T::of(sentinel(i, j)).back(),
                        "the other triangle changed at ({i}, {j})"
                    );
                } else {
                    worst = worst.max((got - want).abs() / scale);
                }
            }
        }
        assert!(
            worst <= T::TOLERANCE,
            "n = {n}, nb = {nb}, lower = {lower}, layouts {layouts:?}, {}: relative error {worst:e}",
            std::any::type_name::<T>()
        );
    }

    #[test]
    fn potrf_adjoint_is_the_symbolic_formula() {
        use Layout::*;
        let mut rng = Rng(1);
        let layouts = [RowMajor, ColumnMajor, Padded, Scattered];
        for n in [1, 2, 5, 64, 200, 300] {
            let l = cholesky(&spd(n, &mut rng));
            let g = random_lower(n, &mut rng);
            let expected = symbolic(&l, &g);
            let pairs: Vec<(Layout, Layout)> = if n <= 64 {
                layouts
                    .iter()
                    .flat_map(|&a| layouts.iter().map(move |&b| (a, b)))
                    .collect()
            } else {
                vec![
                    (RowMajor, RowMajor),
                    (ColumnMajor, RowMajor),
                    (Padded, ColumnMajor),
                ]
            };
            for (k, &pair) in pairs.iter().enumerate() {
                for lower in [true, false] {
                    // Blocks that divide n, that do not, and one block.
                    for nb in [3, 64, 48, n.max(1)] {
                        if n > 64 && (k > 0 && nb == 3) {
                            continue;
                        }
                        compare::<f64>(&l, &g, &expected, lower, pair, nb);
                        compare::<f32>(&l, &g, &expected, lower, pair, nb);
                    }
                }
            }
        }
    }

    #[test]
    fn potrf_adjoint_matches_finite_differences() {
        // f(A) = sum_{i >= k} R_ik chol(A)_ik; df/dA_ik for each element of
        // the lower triangle, the variables potrf reads.
        let n = 6;
        let mut rng = Rng(7);
        let a = spd(n, &mut rng);
        let r = random_lower(n, &mut rng);
        let f = |a: &Dense| -> f64 {
            let l = cholesky(a);
            (0..n)
                .map(|i| (0..=i).map(|k| r[i][k] * l[i][k]).sum::<f64>())
                .sum()
        };
        let mut lv: Vec<f64> = cholesky(&a).into_iter().flatten().collect();
        let mut gv: Vec<f64> = r.iter().flatten().copied().collect();
        let lm = MemRef::from_slice(&mut lv, [n, n]).unwrap();
        let gm = MemRef::from_slice(&mut gv, [n, n]).unwrap();
        unsafe { potrf_adjoint_blocked(1, &lm, &gm, 4) };
        let h = 1e-6;
        for i in 0..n {
            for k in 0..=i {
                let (mut up, mut down) = (a.clone(), a.clone());
                up[i][k] += h;
                down[i][k] -= h;
                let numeric = (f(&up) - f(&down)) / (2.0 * h);
                let analytic = gv[i * n + k];
                assert!(
                    (numeric - analytic).abs() <= 1e-7 * (1.0 + numeric.abs()),
                    "({i}, {k}): finite differences {numeric}, adjoint {analytic}"
                );
            }
        }
    }

    #[test]
    fn potrf_adjoint_checks_sizes() {
        let mut l = vec![1.0f64; 4];
        let mut g = vec![1.0f64; 6];
        let lm = MemRef::from_slice(&mut l, [2, 2]).unwrap();
        let gm = MemRef::from_slice(&mut g, [2, 3]).unwrap();
        clear_error();
        unsafe { potrf_adjoint(1, &lm, &gm) };
        let error = last_error().expect("an error").message().to_string();
        assert_eq!(error, "moonrt_dpotrf_adjoint: L is 2x2 but G is 2x3");
        assert_eq!(g, vec![1.0; 6]);
        clear_error();
    }

    #[test]
    fn potrf_adjoint_is_timed_as_blas() {
        let n = 100;
        let mut rng = Rng(3);
        let mut l: Vec<f64> = cholesky(&spd(n, &mut rng)).into_iter().flatten().collect();
        let mut g: Vec<f64> = random_lower(n, &mut rng).into_iter().flatten().collect();
        let lm = MemRef::from_slice(&mut l, [n, n]).unwrap();
        let gm = MemRef::from_slice(&mut g, [n, n]).unwrap();
        let before = moonrt_blas_time_ns();
        unsafe { moonrt_dpotrf_adjoint(1, &lm, &gm) };
        assert!(moonrt_blas_time_ns() > before);
    }

    /// `a` (rows x cols) with the swaps of `ipiv` applied by definition.
    fn swapped(a: &Dense, ipiv: &[i32], forward: bool) -> Dense {
        let mut a = a.clone();
        let order: Vec<usize> = if forward {
            (0..ipiv.len()).collect()
        } else {
            (0..ipiv.len()).rev().collect()
        };
        for i in order {
            a.swap(i, ipiv[i] as usize - 1);
        }
        a
    }

    #[test]
    fn laswp_applies_the_interchanges_in_any_layout() {
        let (rows, cols) = (6, 4);
        let mut rng = Rng(5);
        let a: Dense = (0..rows)
            .map(|_| (0..cols).map(|_| rng.next()).collect())
            .collect();
        let mut ipiv = [3, 2, 6, 4, 6];
        // Row-major, column-major, transposed (the descriptor of a
        // column-major cols x rows buffer's transpose) and scattered.
        for (s0, s1, offset) in [(4, 1, 0), (1, 6, 0), (1, 6, 3), (2 * 4 * 2, 2, 1)] {
            for forward in [true, false] {
                let mut data = vec![0.0f64; 1 + 16 * 6 + 8];
                for i in 0..rows {
                    for j in 0..cols {
                        data[(offset + i as i64 * s0 + j as i64 * s1) as usize] = a[i][j];
                    }
                }
                let ptr = data.as_mut_ptr();
                let am = MemRef {
                    allocated: ptr,
                    aligned: ptr,
                    offset,
                    sizes: [rows as i64, cols as i64],
                    strides: [s0, s1],
                };
                let pm = MemRef::from_slice(&mut ipiv, [5]).unwrap();
                clear_error();
                unsafe { moonrt_dlaswp(i32::from(forward), &am, &pm) };
                assert!(last_error().is_none());
                let expected = swapped(&a, &ipiv, forward);
                for i in 0..rows {
                    for j in 0..cols {
                        let got = data[(offset + i as i64 * s0 + j as i64 * s1) as usize];
                        assert_eq!(got, expected[i][j], "({i}, {j}), strides [{s0}, {s1}]");
                    }
                }
            }
        }
    }

    #[test]
    fn laswp_undoes_getrf_pivoting() {
        // getrf: A = P L U; laswp forward on A gives P^T A = L U.
        let n = 5;
        let mut rng = Rng(11);
        let a: Vec<f32> = (0..n * n).map(|_| rng.next() as f32).collect();
        let (mut lu, mut b) = (a.clone(), a.clone());
        let mut ipiv = vec![0i32; n];
        let lum = MemRef::from_slice(&mut lu, [n, n]).unwrap();
        let pm = MemRef::from_slice(&mut ipiv, [n]).unwrap();
        assert_eq!(unsafe { crate::moonrt_sgetrf(&lum, &pm) }, 0);
        let bm = MemRef::from_slice(&mut b, [n, n]).unwrap();
        unsafe { moonrt_slaswp(1, &bm, &pm) };
        for i in 0..n {
            for j in 0..n {
                let product: f32 = (0..=i.min(j))
                    .map(|k| {
                        let lik = if k == i { 1.0 } else { lu[i * n + k] };
                        lik * lu[k * n + j]
                    })
                    .sum();
                assert!((product - b[i * n + j]).abs() < 1e-5, "({i}, {j})");
            }
        }
        // And backward restores A.
        unsafe { moonrt_slaswp(0, &bm, &pm) };
        assert_eq!(b, a);
    }

    #[test]
    fn laswp_rejects_bad_pivots_and_changes_nothing() {
        let mut a = vec![1.0f64, 2.0, 3.0, 4.0];
        let am = MemRef::from_slice(&mut a, [2, 2]).unwrap();
        for (pivots, message) in [
            (vec![2, 3], "ipiv[1] is 3, not a row of A (1 to 2)"),
            (vec![0], "ipiv[0] is 0, not a row of A (1 to 2)"),
            (vec![1, 2, 2], "ipiv has 3 elements but A only 2 rows"),
        ] {
            let mut pivots = pivots;
            let len = pivots.len();
            let pm = MemRef::from_slice(&mut pivots, [len]).unwrap();
            clear_error();
            unsafe { moonrt_dlaswp(1, &am, &pm) };
            let error = last_error().expect("an error").message().to_string();
            assert_eq!(error, format!("moonrt_dlaswp: {message}"));
        }
        assert_eq!(a, vec![1.0, 2.0, 3.0, 4.0]);
        clear_error();
    }
}

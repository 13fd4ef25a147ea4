//! BLAS entry points for compiled code, over OpenBLAS: `moonrt_{s,d}NAME`
//! declared in MLIR as external functions taking strided memrefs (any
//! offset, leading dimension and sign of stride), called through MLIR's C
//! interface (`moonrt_dgemm`: memrefs as pointers to their
//! descriptors). `docs/blas.md` lists the MLIR signatures.
//!
//! A matrix whose elements are contiguous along one dimension goes to BLAS
//! as it is (row- or column-major, its other stride the leading
//! dimension); any other matrix, a vector with stride 0, and an input that
//! overlaps the output are copied first (and an output copied back). Sizes
//! that do not match, or that do not fit BLAS's 32-bit integers, are
//! reported through `moonrt_last_error`, and the call then does nothing.

use crate::cblas::{self, COL_MAJOR, NO_TRANS, ROW_MAJOR, TRANS};
use crate::error::set_error;
use crate::memref::MemRef;
use std::ffi::c_int;

/// The element types BLAS computes in, with their CBLAS functions.
pub(crate) trait Real: Copy + Default {
    /// `s` or `d`, for messages.
    const PREFIX: &'static str;
    unsafe fn dot(n: c_int, x: *const Self, incx: c_int, y: *const Self, incy: c_int) -> Self;
    unsafe fn nrm2(n: c_int, x: *const Self, incx: c_int) -> Self;
    unsafe fn asum(n: c_int, x: *const Self, incx: c_int) -> Self;
    unsafe fn scal(n: c_int, alpha: Self, x: *mut Self, incx: c_int);
    unsafe fn axpy(n: c_int, alpha: Self, x: *const Self, incx: c_int, y: *mut Self, incy: c_int);
    unsafe fn copy(n: c_int, x: *const Self, incx: c_int, y: *mut Self, incy: c_int);
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemv(
        order: c_int,
        trans: c_int,
        m: c_int,
        n: c_int,
        alpha: Self,
        a: *const Self,
        lda: c_int,
        x: *const Self,
        incx: c_int,
        beta: Self,
        y: *mut Self,
        incy: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemm(
        order: c_int,
        transa: c_int,
        transb: c_int,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: Self,
        a: *const Self,
        lda: c_int,
        b: *const Self,
        ldb: c_int,
        beta: Self,
        c: *mut Self,
        ldc: c_int,
    );
}

macro_rules! real {
    ($t:ty, $p:literal, $dot:ident, $nrm2:ident, $asum:ident, $scal:ident, $axpy:ident,
     $copy:ident, $gemv:ident, $gemm:ident) => {
        impl Real for $t {
            const PREFIX: &'static str = $p;
            unsafe fn dot(n: c_int, x: *const $t, incx: c_int, y: *const $t, incy: c_int) -> $t {
                unsafe { cblas::$dot(n, x, incx, y, incy) }
            }
            unsafe fn nrm2(n: c_int, x: *const $t, incx: c_int) -> $t {
                unsafe { cblas::$nrm2(n, x, incx) }
            }
            unsafe fn asum(n: c_int, x: *const $t, incx: c_int) -> $t {
                unsafe { cblas::$asum(n, x, incx) }
            }
            unsafe fn scal(n: c_int, alpha: $t, x: *mut $t, incx: c_int) {
                unsafe { cblas::$scal(n, alpha, x, incx) }
            }
            unsafe fn axpy(
                n: c_int,
                alpha: $t,
                x: *const $t,
                incx: c_int,
                y: *mut $t,
                incy: c_int,
            ) {
                unsafe { cblas::$axpy(n, alpha, x, incx, y, incy) }
            }
            unsafe fn copy(n: c_int, x: *const $t, incx: c_int, y: *mut $t, incy: c_int) {
                unsafe { cblas::$copy(n, x, incx, y, incy) }
            }
            unsafe fn gemv(
                order: c_int,
                trans: c_int,
                m: c_int,
                n: c_int,
                alpha: $t,
                a: *const $t,
                lda: c_int,
                x: *const $t,
                incx: c_int,
                beta: $t,
                y: *mut $t,
                incy: c_int,
            ) {
                unsafe { cblas::$gemv(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy) }
            }
            unsafe fn gemm(
                order: c_int,
                transa: c_int,
                transb: c_int,
                m: c_int,
                n: c_int,
                k: c_int,
                alpha: $t,
                a: *const $t,
                lda: c_int,
                b: *const $t,
                ldb: c_int,
                beta: $t,
                c: *mut $t,
                ldc: c_int,
            ) {
                unsafe {
                    cblas::$gemm(
                        order, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,
                    )
                }
            }
        }
    };
}

real!(
    f32,
    "s",
    cblas_sdot,
    cblas_snrm2,
    cblas_sasum,
    cblas_sscal,
    cblas_saxpy,
    cblas_scopy,
    cblas_sgemv,
    cblas_sgemm
);
real!(
    f64,
    "d",
    cblas_ddot,
    cblas_dnrm2,
    cblas_dasum,
    cblas_dscal,
    cblas_daxpy,
    cblas_dcopy,
    cblas_dgemv,
    cblas_dgemm
);

/// A size or stride as BLAS's `int`, or an error naming `what`.
fn int(value: i64, what: &str) -> Result<c_int, String> {
    c_int::try_from(value).map_err(|_| format!("{what} {value} does not fit BLAS's 32-bit int"))
}

/// The bytes `[lo, hi)` a descriptor's elements span (empty for no elements).
fn span<T, const N: usize>(m: &MemRef<T, N>) -> (usize, usize) {
    if m.is_empty() {
        return (0, 0);
    }
    let (mut lo, mut hi) = (m.offset, m.offset);
    for (&size, &stride) in m.sizes.iter().zip(&m.strides) {
        let reach = (size - 1).saturating_mul(stride);
        lo = lo.saturating_add(reach.min(0));
        hi = hi.saturating_add(reach.max(0));
    }
    let width = std::mem::size_of::<T>() as i64;
    let base = m.aligned as usize as i64;
    (
        base.saturating_add(lo.saturating_mul(width)) as usize,
        base.saturating_add((hi + 1).saturating_mul(width)) as usize,
    )
}

/// Whether two descriptors' elements may share memory.
fn overlap<T, const N: usize, const M: usize>(a: &MemRef<T, N>, b: &MemRef<T, M>) -> bool {
    let ((a0, a1), (b0, b1)) = (span(a), span(b));
    a0 < a1 && b0 < b1 && a0 < b1 && b0 < a1
}

/// A vector as BLAS addresses it: the pointer, length and increment; a
/// packed copy when the memref cannot be addressed so.
struct Vector<T> {
    ptr: *mut T,
    n: c_int,
    inc: c_int,
    _packed: Option<Vec<T>>,
}

impl<T: Real> Vector<T> {
    /// `v` as BLAS reads it; copied when its stride is 0 or `copy` asks.
    unsafe fn input(v: &MemRef<T, 1>, copy: bool, what: &str) -> Result<Self, String> {
        let n = int(v.sizes[0], &format!("the length of {what}"))?;
        let stride = v.strides[0];
        if copy || (stride == 0 && n > 1) {
            let mut packed = unsafe { v.to_vec() };
            return Ok(Vector {
                ptr: packed.as_mut_ptr(),
                n,
                inc: 1,
                _packed: Some(packed),
            });
        }
        unsafe { Self::direct(v, n, what) }
    }

    /// `v` as BLAS writes it (a stride of 0 would write one element twice).
    unsafe fn output(v: &MemRef<T, 1>, what: &str) -> Result<Self, String> {
        let n = int(v.sizes[0], &format!("the length of {what}"))?;
        if v.strides[0] == 0 && n > 1 {
            return Err(format!("{what} has stride 0, so its elements share memory"));
        }
        unsafe { Self::direct(v, n, what) }
    }

    unsafe fn direct(v: &MemRef<T, 1>, n: c_int, what: &str) -> Result<Self, String> {
        let stride = if n <= 1 { 1 } else { v.strides[0] };
        let inc = int(stride, &format!("the stride of {what}"))?;
        // BLAS walks a negative increment from the lowest address up.
        let first = if inc < 0 {
            v.offset + (v.sizes[0] - 1) * stride
        } else {
            v.offset
        };
        Ok(Vector {
            ptr: unsafe { v.aligned.offset(first as isize) },
            n,
            inc,
            _packed: None,
        })
    }
}

/// A matrix as BLAS addresses it: pointer, rows, columns, leading dimension
/// and order; a packed row-major copy when the memref is not contiguous
/// along either dimension (`write_back` copies an output's back).
struct Matrix<T> {
    ptr: *mut T,
    rows: c_int,
    cols: c_int,
    ld: c_int,
    order: c_int,
    packed: Option<Vec<T>>,
}

impl<T: Real> Matrix<T> {
    unsafe fn new(m: &MemRef<T, 2>, copy: bool, what: &str) -> Result<Self, String> {
        let rows = int(m.sizes[0], &format!("the rows of {what}"))?;
        let cols = int(m.sizes[1], &format!("the columns of {what}"))?;
        let [s0, s1] = m.strides;
        let base = unsafe { m.aligned.offset(m.offset as isize) };
        let fits = |ld: i64, minimum: c_int| {
            ld >= i64::from(minimum.max(1)) && ld <= i64::from(c_int::MAX)
        };
        let direct = if copy {
            None
        } else if (s1 == 1 || cols <= 1) && (rows <= 1 || fits(s0, cols)) {
            Some((ROW_MAJOR, if rows <= 1 { cols.max(1) } else { s0 as c_int }))
        } else if (s0 == 1 || rows <= 1) && (cols <= 1 || fits(s1, rows)) {
            Some((COL_MAJOR, if cols <= 1 { rows.max(1) } else { s1 as c_int }))
        } else {
            None
        };
        Ok(match direct {
            Some((order, ld)) => Matrix {
                ptr: base,
                rows,
                cols,
                ld,
                order,
                packed: None,
            },
            None => {
                let mut packed = unsafe { m.to_vec() };
                Matrix {
                    ptr: packed.as_mut_ptr(),
                    rows,
                    cols,
                    ld: cols.max(1),
                    order: ROW_MAJOR,
                    packed: Some(packed),
                }
            }
        })
    }

    /// The transpose flag for BLAS called in `order`, given whether the
    /// operation transposes this matrix.
    fn trans(&self, order: c_int, transposed: bool) -> c_int {
        if transposed != (self.order != order) {
            TRANS
        } else {
            NO_TRANS
        }
    }

    /// Copies a packed output back into `m`.
    unsafe fn write_back(&self, m: &MemRef<T, 2>) {
        if let Some(packed) = &self.packed {
            let cols = m.sizes[1].max(0) as usize;
            for (k, &value) in packed.iter().enumerate() {
                let (i, j) = ((k / cols.max(1)) as i64, (k % cols.max(1)) as i64);
                let at = m.offset + i * m.strides[0] + j * m.strides[1];
                unsafe { *m.aligned.offset(at as isize) = value };
            }
        }
    }
}

/// Runs a BLAS entry point: reports its error (prefixed with its name)
/// through `moonrt_last_error`, returning `fallback` then.
fn report<R>(name: &str, fallback: R, body: impl FnOnce() -> Result<R, String>) -> R {
    body().unwrap_or_else(|message| {
        set_error(&format!("{name}: {message}"));
        fallback
    })
}

fn same_length(n: c_int, m: c_int) -> Result<(), String> {
    if n == m {
        Ok(())
    } else {
        Err(format!("x has {n} elements but y has {m}"))
    }
}

pub(crate) unsafe fn dot<T: Real>(x: &MemRef<T, 1>, y: &MemRef<T, 1>) -> T {
    report(
        &format!("moonrt_{}dot", T::PREFIX),
        T::default(),
        || unsafe {
            let (x, y) = (Vector::input(x, false, "x")?, Vector::input(y, false, "y")?);
            same_length(x.n, y.n)?;
            Ok(T::dot(x.n, x.ptr, x.inc, y.ptr, y.inc))
        },
    )
}

pub(crate) unsafe fn nrm2<T: Real>(x: &MemRef<T, 1>) -> T {
    report(
        &format!("moonrt_{}nrm2", T::PREFIX),
        T::default(),
        || unsafe {
            let x = Vector::input(x, false, "x")?;
            Ok(T::nrm2(x.n, x.ptr, x.inc))
        },
    )
}

pub(crate) unsafe fn asum<T: Real>(x: &MemRef<T, 1>) -> T {
    report(
        &format!("moonrt_{}asum", T::PREFIX),
        T::default(),
        || unsafe {
            let x = Vector::input(x, false, "x")?;
            Ok(T::asum(x.n, x.ptr, x.inc))
        },
    )
}

pub(crate) unsafe fn scal<T: Real>(alpha: T, x: &MemRef<T, 1>) {
    report(&format!("moonrt_{}scal", T::PREFIX), (), || unsafe {
        let x = Vector::output(x, "x")?;
        T::scal(x.n, alpha, x.ptr, x.inc);
        Ok(())
    })
}

pub(crate) unsafe fn axpy<T: Real>(alpha: T, x: &MemRef<T, 1>, y: &MemRef<T, 1>) {
    report(&format!("moonrt_{}axpy", T::PREFIX), (), || unsafe {
        let x = Vector::input(x, overlap(x, y), "x")?;
        let y = Vector::output(y, "y")?;
        same_length(x.n, y.n)?;
        T::axpy(x.n, alpha, x.ptr, x.inc, y.ptr, y.inc);
        Ok(())
    })
}

pub(crate) unsafe fn copy<T: Real>(x: &MemRef<T, 1>, y: &MemRef<T, 1>) {
    report(&format!("moonrt_{}copy", T::PREFIX), (), || unsafe {
        let x = Vector::input(x, overlap(x, y), "x")?;
        let y = Vector::output(y, "y")?;
        same_length(x.n, y.n)?;
        T::copy(x.n, x.ptr, x.inc, y.ptr, y.inc);
        Ok(())
    })
}

/// `y = alpha op(A) x + beta y`, `op(A)` = `A` or `A^T`.
pub(crate) unsafe fn gemv<T: Real>(
    trans: i32,
    alpha: T,
    a: &MemRef<T, 2>,
    x: &MemRef<T, 1>,
    beta: T,
    y: &MemRef<T, 1>,
) {
    report(&format!("moonrt_{}gemv", T::PREFIX), (), || unsafe {
        let transposed = trans != 0;
        let am = Matrix::new(a, overlap(a, y), "A")?;
        let xv = Vector::input(x, overlap(x, y), "x")?;
        let yv = Vector::output(y, "y")?;
        let (rows, cols) = if transposed {
            (am.cols, am.rows)
        } else {
            (am.rows, am.cols)
        };
        if xv.n != cols || yv.n != rows {
            return Err(format!(
                "op(A) is {rows}x{cols} but x has {} elements and y {}",
                xv.n, yv.n
            ));
        }
        let order = am.order;
        T::gemv(
            order,
            am.trans(order, transposed),
            am.rows,
            am.cols,
            alpha,
            am.ptr,
            am.ld,
            xv.ptr,
            xv.inc,
            beta,
            yv.ptr,
            yv.inc,
        );
        Ok(())
    })
}

/// `C = alpha op(A) op(B) + beta C`.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn gemm<T: Real>(
    transa: i32,
    transb: i32,
    alpha: T,
    a: &MemRef<T, 2>,
    b: &MemRef<T, 2>,
    beta: T,
    c: &MemRef<T, 2>,
) {
    report(&format!("moonrt_{}gemm", T::PREFIX), (), || unsafe {
        let (ta, tb) = (transa != 0, transb != 0);
        let am = Matrix::new(a, overlap(a, c), "A")?;
        let bm = Matrix::new(b, overlap(b, c), "B")?;
        let cm = Matrix::new(c, false, "C")?;
        let (m, k) = if ta {
            (am.cols, am.rows)
        } else {
            (am.rows, am.cols)
        };
        let (kb, n) = if tb {
            (bm.cols, bm.rows)
        } else {
            (bm.rows, bm.cols)
        };
        if k != kb || cm.rows != m || cm.cols != n {
            return Err(format!(
                "op(A) is {m}x{k} and op(B) {kb}x{n}, but C is {}x{}",
                cm.rows, cm.cols
            ));
        }
        let order = cm.order;
        T::gemm(
            order,
            am.trans(order, ta),
            bm.trans(order, tb),
            m,
            n,
            k,
            alpha,
            am.ptr,
            am.ld,
            bm.ptr,
            bm.ld,
            beta,
            cm.ptr,
            cm.ld,
        );
        cm.write_back(c);
        Ok(())
    })
}

/// The C-interface entry points compiled code calls, one per routine and
/// element type.
macro_rules! entry_points {
    ($t:ty, $dot:ident, $nrm2:ident, $asum:ident, $scal:ident, $axpy:ident, $copy:ident,
     $gemv:ident, $gemm:ident) => {
        /// `dot(x, y)`.
        ///
        /// # Safety
        /// The descriptors must address live memory of their sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $dot(x: &MemRef<$t, 1>, y: &MemRef<$t, 1>) -> $t {
            unsafe { dot(x, y) }
        }
        /// The Euclidean norm of `x`.
        ///
        /// # Safety
        /// The descriptor must address live memory of its size.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $nrm2(x: &MemRef<$t, 1>) -> $t {
            unsafe { nrm2(x) }
        }
        /// The sum of the magnitudes of `x`.
        ///
        /// # Safety
        /// The descriptor must address live memory of its size.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $asum(x: &MemRef<$t, 1>) -> $t {
            unsafe { asum(x) }
        }
        /// `x = alpha x`.
        ///
        /// # Safety
        /// The descriptor must address live memory of its size.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $scal(alpha: $t, x: &MemRef<$t, 1>) {
            unsafe { scal(alpha, x) }
        }
        /// `y = alpha x + y`.
        ///
        /// # Safety
        /// The descriptors must address live memory of their sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $axpy(alpha: $t, x: &MemRef<$t, 1>, y: &MemRef<$t, 1>) {
            unsafe { axpy(alpha, x, y) }
        }
        /// `y = x`.
        ///
        /// # Safety
        /// The descriptors must address live memory of their sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $copy(x: &MemRef<$t, 1>, y: &MemRef<$t, 1>) {
            unsafe { copy(x, y) }
        }
        /// `y = alpha op(A) x + beta y` (`trans` nonzero: `op(A) = A^T`).
        ///
        /// # Safety
        /// The descriptors must address live memory of their sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $gemv(
            trans: i32,
            alpha: $t,
            a: &MemRef<$t, 2>,
            x: &MemRef<$t, 1>,
            beta: $t,
            y: &MemRef<$t, 1>,
        ) {
            unsafe { gemv(trans, alpha, a, x, beta, y) }
        }
        /// `C = alpha op(A) op(B) + beta C` (a nonzero flag transposes).
        ///
        /// # Safety
        /// The descriptors must address live memory of their sizes.
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $gemm(
            transa: i32,
            transb: i32,
            alpha: $t,
            a: &MemRef<$t, 2>,
            b: &MemRef<$t, 2>,
            beta: $t,
            c: &MemRef<$t, 2>,
        ) {
            unsafe { gemm(transa, transb, alpha, a, b, beta, c) }
        }
    };
}

entry_points!(
    f32,
    moonrt_sdot,
    moonrt_snrm2,
    moonrt_sasum,
    moonrt_sscal,
    moonrt_saxpy,
    moonrt_scopy,
    moonrt_sgemv,
    moonrt_sgemm
);
entry_points!(
    f64,
    moonrt_ddot,
    moonrt_dnrm2,
    moonrt_dasum,
    moonrt_dscal,
    moonrt_daxpy,
    moonrt_dcopy,
    moonrt_dgemv,
    moonrt_dgemm
);

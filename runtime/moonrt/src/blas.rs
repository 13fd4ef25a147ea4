//! BLAS and LAPACK entry points for compiled code, over OpenBLAS and
//! LAPACKE: `moonrt_{s,d}NAME`, declared in MLIR as external functions
//! taking strided memrefs (any offset, leading dimension and sign of
//! stride). moonc calls them through MLIR's C interface (memrefs as
//! pointers to their descriptors), under their own names. `docs/blas.md`
//! lists the MLIR signatures.
//!
//! A matrix whose elements are contiguous along one dimension goes to BLAS
//! as it is (row- or column-major, its other stride the leading
//! dimension); any other matrix, one a routine needs in the other order, a
//! vector with stride 0, and an input that overlaps the output are copied
//! first (and an output copied back). Sizes that do not match, or that do
//! not fit BLAS's 32-bit integers, are reported through
//! `moonrt_last_error`, and the call then does nothing.

use crate::cblas::*;
use crate::error::set_error;
use crate::lapacke::*;
use crate::memref::MemRef;
use std::cell::Cell;
use std::ffi::{c_char, c_int};
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::time::Instant;

mod helpers;

pub use helpers::{moonrt_dlaswp, moonrt_dpotrf_adjoint, moonrt_slaswp, moonrt_spotrf_adjoint};

/// One element type's CBLAS and LAPACKE functions.
#[allow(clippy::type_complexity)]
pub(crate) struct Routines<T> {
    pub dot: unsafe extern "C" fn(c_int, *const T, c_int, *const T, c_int) -> T,
    pub nrm2: unsafe extern "C" fn(c_int, *const T, c_int) -> T,
    pub asum: unsafe extern "C" fn(c_int, *const T, c_int) -> T,
    pub scal: unsafe extern "C" fn(c_int, T, *mut T, c_int),
    pub axpy: unsafe extern "C" fn(c_int, T, *const T, c_int, *mut T, c_int),
    pub copy: unsafe extern "C" fn(c_int, *const T, c_int, *mut T, c_int),
    pub gemv: unsafe extern "C" fn(
        c_int,
        c_int,
        c_int,
        c_int,
        T,
        *const T,
        c_int,
        *const T,
        c_int,
        T,
        *mut T,
        c_int,
    ),
    pub symv: unsafe extern "C" fn(
        c_int,
        c_int,
        c_int,
        T,
        *const T,
        c_int,
        *const T,
        c_int,
        T,
        *mut T,
        c_int,
    ),
    pub trmv:
        unsafe extern "C" fn(c_int, c_int, c_int, c_int, c_int, *const T, c_int, *mut T, c_int),
    pub trsv:
        unsafe extern "C" fn(c_int, c_int, c_int, c_int, c_int, *const T, c_int, *mut T, c_int),
    pub ger: unsafe extern "C" fn(
        c_int,
        c_int,
        c_int,
        T,
        *const T,
        c_int,
        *const T,
        c_int,
        *mut T,
        c_int,
    ),
    pub gemm: unsafe extern "C" fn(
        c_int,
        c_int,
        c_int,
        c_int,
        c_int,
        c_int,
        T,
        *const T,
        c_int,
        *const T,
        c_int,
        T,
        *mut T,
        c_int,
    ),
    pub symm: unsafe extern "C" fn(
        c_int,
        c_int,
        c_int,
        c_int,
        c_int,
        T,
        *const T,
        c_int,
        *const T,
        c_int,
        T,
        *mut T,
        c_int,
    ),
    pub syrk: unsafe extern "C" fn(
        c_int,
        c_int,
        c_int,
        c_int,
        c_int,
        T,
        *const T,
        c_int,
        T,
        *mut T,
        c_int,
    ),
    pub trmm: unsafe extern "C" fn(
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
    ),
    pub trsm: unsafe extern "C" fn(
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
    ),
    pub getrf: unsafe extern "C" fn(c_int, i32, i32, *mut T, i32, *mut i32) -> i32,
    pub getrs: unsafe extern "C" fn(
        c_int,
        c_char,
        i32,
        i32,
        *const T,
        i32,
        *const i32,
        *mut T,
        i32,
    ) -> i32,
    pub getri: unsafe extern "C" fn(c_int, i32, *mut T, i32, *const i32) -> i32,
    pub potrf: unsafe extern "C" fn(c_int, c_char, i32, *mut T, i32) -> i32,
    pub potrs: unsafe extern "C" fn(c_int, c_char, i32, i32, *const T, i32, *mut T, i32) -> i32,
    pub trtrs: unsafe extern "C" fn(
        c_int,
        c_char,
        c_char,
        c_char,
        i32,
        i32,
        *const T,
        i32,
        *mut T,
        i32,
    ) -> i32,
    pub sytrf: unsafe extern "C" fn(c_int, c_char, i32, *mut T, i32, *mut i32) -> i32,
    pub sytrs: unsafe extern "C" fn(
        c_int,
        c_char,
        i32,
        i32,
        *const T,
        i32,
        *const i32,
        *mut T,
        i32,
    ) -> i32,
}

/// The element types BLAS computes in.
pub(crate) trait Real:
    Copy
    + Default
    + PartialEq
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + 'static
{
    /// `s` or `d`, for messages.
    const PREFIX: &'static str;
    /// The routines in this type.
    const ROUTINES: Routines<Self>;
    /// 1/2 and 1.
    const HALF: Self;
    const ONE: Self;
}

macro_rules! real {
    ($t:ty, $p:literal, $($field:ident: $f:ident),* $(,)?) => {
        impl Real for $t {
            const PREFIX: &'static str = $p;
            const ROUTINES: Routines<$t> = Routines { $($field: $f),* };
            const HALF: $t = 0.5;
            const ONE: $t = 1.0;
        }
    };
}

real!(f32, "s", dot: cblas_sdot, nrm2: cblas_snrm2, asum: cblas_sasum, scal: cblas_sscal,
      axpy: cblas_saxpy, copy: cblas_scopy, gemv: cblas_sgemv, symv: cblas_ssymv,
      trmv: cblas_strmv, trsv: cblas_strsv, ger: cblas_sger, gemm: cblas_sgemm,
      symm: cblas_ssymm, syrk: cblas_ssyrk, trmm: cblas_strmm, trsm: cblas_strsm,
      getrf: LAPACKE_sgetrf, getrs: LAPACKE_sgetrs, getri: LAPACKE_sgetri,
      potrf: LAPACKE_spotrf, potrs: LAPACKE_spotrs, trtrs: LAPACKE_strtrs,
      sytrf: LAPACKE_ssytrf, sytrs: LAPACKE_ssytrs);
real!(f64, "d", dot: cblas_ddot, nrm2: cblas_dnrm2, asum: cblas_dasum, scal: cblas_dscal,
      axpy: cblas_daxpy, copy: cblas_dcopy, gemv: cblas_dgemv, symv: cblas_dsymv,
      trmv: cblas_dtrmv, trsv: cblas_dtrsv, ger: cblas_dger, gemm: cblas_dgemm,
      symm: cblas_dsymm, syrk: cblas_dsyrk, trmm: cblas_dtrmm, trsm: cblas_dtrsm,
      getrf: LAPACKE_dgetrf, getrs: LAPACKE_dgetrs, getri: LAPACKE_dgetri,
      potrf: LAPACKE_dpotrf, potrs: LAPACKE_dpotrs, trtrs: LAPACKE_dtrtrs,
      sytrf: LAPACKE_dsytrf, sytrs: LAPACKE_dsytrs);

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
/// and order; a packed copy when the memref is not contiguous along either
/// dimension, or not in the order a routine needs (`write_back` copies an
/// output's back).
struct Matrix<T> {
    ptr: *mut T,
    rows: c_int,
    cols: c_int,
    ld: c_int,
    order: c_int,
    packed: Option<Vec<T>>,
}

/// How a routine needs a matrix.
#[derive(Clone, Copy, PartialEq)]
enum Need {
    /// In either order, as it is when it can be.
    Any,
    /// A copy (an input that overlaps the output).
    Copy,
    /// In this order (as it is when it already is).
    Order(c_int),
    /// A copy in this order.
    CopyIn(c_int),
}

/// [`Need::Copy`] for an input that overlaps the output, else [`Need::Any`].
fn copy_if(overlaps: bool) -> Need {
    if overlaps { Need::Copy } else { Need::Any }
}

impl<T: Real> Matrix<T> {
    unsafe fn new(m: &MemRef<T, 2>, need: Need, what: &str) -> Result<Self, String> {
        let rows = int(m.sizes[0], &format!("the rows of {what}"))?;
        let cols = int(m.sizes[1], &format!("the columns of {what}"))?;
        let [s0, s1] = m.strides;
        let fits = |ld: i64, minimum: c_int| {
            ld >= i64::from(minimum.max(1)) && ld <= i64::from(c_int::MAX)
        };
        let natural = if (s1 == 1 || cols <= 1) && (rows <= 1 || fits(s0, cols)) {
            Some((ROW_MAJOR, if rows <= 1 { cols.max(1) } else { s0 as c_int }))
        } else if (s0 == 1 || rows <= 1) && (cols <= 1 || fits(s1, rows)) {
            Some((COL_MAJOR, if cols <= 1 { rows.max(1) } else { s1 as c_int }))
        } else {
            None
        };
        let direct = match (need, natural) {
            (Need::Any, natural) => natural,
            (Need::Order(order), Some((o, ld))) if o == order => Some((o, ld)),
            _ => None,
        };
        if let Some((order, ld)) = direct {
            let ptr = unsafe { m.aligned.offset(m.offset as isize) };
            return Ok(Matrix {
                ptr,
                rows,
                cols,
                ld,
                order,
                packed: None,
            });
        }
        let order = match need {
            Need::Order(order) | Need::CopyIn(order) => order,
            Need::Any | Need::Copy => ROW_MAJOR,
        };
        let mut packed = Vec::with_capacity(m.len());
        for k in 0..m.len() {
            packed.push(unsafe { *m.aligned.offset(Self::at(m, order, k) as isize) });
        }
        let ld = if order == ROW_MAJOR { cols } else { rows }.max(1);
        Ok(Matrix {
            ptr: packed.as_mut_ptr(),
            rows,
            cols,
            ld,
            order,
            packed: Some(packed),
        })
    }

    /// The element offset in `m` of the `k`th element in `order`.
    fn at(m: &MemRef<T, 2>, order: c_int, k: usize) -> i64 {
        let [rows, cols] = m.shape();
        let (i, j) = if order == ROW_MAJOR {
            (k / cols.max(1), k % cols.max(1))
        } else {
            (k % rows.max(1), k / rows.max(1))
        };
        m.offset + i as i64 * m.strides[0] + j as i64 * m.strides[1]
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

    /// The triangle flag for BLAS called in `order` for this matrix's
    /// `lower` (logical) triangle: stored in the other order, the matrix is
    /// its transpose, whose triangles are swapped.
    fn uplo(&self, order: c_int, lower: bool) -> c_int {
        if lower != (self.order != order) {
            LOWER
        } else {
            UPPER
        }
    }

    /// Copies a packed output back into `m`.
    unsafe fn write_back(&self, m: &MemRef<T, 2>) {
        if let Some(packed) = &self.packed {
            for (k, &value) in packed.iter().enumerate() {
                unsafe { *m.aligned.offset(Self::at(m, self.order, k) as isize) = value };
            }
        }
    }
}

/// Nanoseconds spent inside moonrt's BLAS and LAPACK entry points, over
/// all threads, since the start or the last `moonrt_blas_time_reset`.
static BLAS_TIME_NS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// How many entry points the calling thread is inside (an entry point
    /// that calls another is timed once, as the outermost).
    static BLAS_DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Runs `body` and adds the time it takes to [`BLAS_TIME_NS`] when it is
/// the calling thread's outermost entry point.
fn timed<R>(body: impl FnOnce() -> R) -> R {
    let depth = BLAS_DEPTH.get();
    if depth > 0 {
        return body();
    }
    BLAS_DEPTH.set(1);
    let start = Instant::now();
    let result = body();
    let spent = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
    BLAS_TIME_NS.fetch_add(spent, Ordering::Relaxed);
    BLAS_DEPTH.set(0);
    result
}

/// The nanoseconds compiled code has spent inside moonrt's BLAS and LAPACK
/// entry points (`moonrt_dgemm`, ...), summed over threads, since the
/// process started or the last [`moonrt_blas_time_reset`]. A routine that
/// another calls is counted once, as part of the outer one.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_blas_time_ns() -> u64 {
    BLAS_TIME_NS.load(Ordering::Relaxed)
}

/// Restarts [`moonrt_blas_time_ns`] at 0.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_blas_time_reset() {
    BLAS_TIME_NS.store(0, Ordering::Relaxed);
}

/// The threads `moonrt_set_blas_threads` allows (0: never set, OpenBLAS's
/// own choice stands).
static BLAS_THREADS: AtomicI32 = AtomicI32::new(0);

/// The thread count OpenBLAS was last set to.
static BLAS_THREADS_NOW: AtomicI32 = AtomicI32::new(0);

/// The least multiply-adds of a `gemm` (f32 ones: an f64 one counts
/// twice) that runs on more than one thread. Below it, waking OpenBLAS's
/// threads costs more than they gain: a CNN's per-image f32 products (0.4
/// to 1.2 million multiply-adds) took 1.5 times as long on 2 threads as on
/// one here, while a transformer's projections (8 and 33 million) and an
/// MLP's f64 products (2.3 million) took about half and two thirds as
/// long.
const PARALLEL_GEMM_MIN_MACS: i64 = 4 << 20;

/// Sets how many threads OpenBLAS may run a routine on: a `gemm` of at
/// least [`PARALLEL_GEMM_MIN_MACS`] multiply-adds runs on that many, a
/// smaller one on one thread, any other routine on OpenBLAS's current
/// count. `threads` of 0 or less keeps OpenBLAS's own count (all cores, or
/// `$OPENBLAS_NUM_THREADS`). `moonc` calls it at start: with 0, or with the
/// core count under `--parallel`.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_set_blas_threads(threads: c_int) {
    // SAFETY: OpenBLAS's getter has no preconditions.
    let threads = if threads > 0 {
        threads
    } else {
        unsafe { openblas_get_num_threads() }.max(1)
    };
    BLAS_THREADS.store(threads, Ordering::Relaxed);
    set_openblas_threads(threads);
}

fn set_openblas_threads(threads: c_int) {
    if BLAS_THREADS_NOW.swap(threads, Ordering::Relaxed) != threads {
        // SAFETY: OpenBLAS's setter takes any count; it clamps it to its
        // range.
        unsafe { openblas_set_num_threads(threads) }
    }
}

/// Before a `gemm` of `macs` multiply-adds: one thread below
/// [`PARALLEL_GEMM_MIN_MACS`], all those allowed from it.
fn threads_for_gemm(macs: i64) {
    let allowed = BLAS_THREADS.load(Ordering::Relaxed);
    if allowed > 1 {
        set_openblas_threads(if macs >= PARALLEL_GEMM_MIN_MACS {
            allowed
        } else {
            1
        });
    }
}

/// An entry point's name, built only for an error: (`s` or `d`, routine).
pub(crate) type Name = (&'static str, &'static str);

/// Runs a BLAS entry point, timed ([`moonrt_blas_time_ns`]): reports its
/// error (prefixed with its name) through `moonrt_last_error`, returning
/// `fallback` then.
fn report<R>(name: Name, fallback: R, body: impl FnOnce() -> Result<R, String>) -> R {
    timed(body).unwrap_or_else(|message| {
        let (prefix, routine) = name;
        set_error(&format!("moonrt_{prefix}{routine}: {message}"));
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
    report((T::PREFIX, "dot"), T::default(), || unsafe {
        let (x, y) = (Vector::input(x, false, "x")?, Vector::input(y, false, "y")?);
        same_length(x.n, y.n)?;
        Ok((T::ROUTINES.dot)(x.n, x.ptr, x.inc, y.ptr, y.inc))
    })
}

pub(crate) unsafe fn nrm2<T: Real>(x: &MemRef<T, 1>) -> T {
    report((T::PREFIX, "nrm2"), T::default(), || unsafe {
        let x = Vector::input(x, false, "x")?;
        Ok((T::ROUTINES.nrm2)(x.n, x.ptr, x.inc))
    })
}

pub(crate) unsafe fn asum<T: Real>(x: &MemRef<T, 1>) -> T {
    report((T::PREFIX, "asum"), T::default(), || unsafe {
        let x = Vector::input(x, false, "x")?;
        Ok((T::ROUTINES.asum)(x.n, x.ptr, x.inc))
    })
}

pub(crate) unsafe fn scal<T: Real>(alpha: T, x: &MemRef<T, 1>) {
    report((T::PREFIX, "scal"), (), || unsafe {
        let x = Vector::output(x, "x")?;
        (T::ROUTINES.scal)(x.n, alpha, x.ptr, x.inc);
        Ok(())
    })
}

pub(crate) unsafe fn axpy<T: Real>(alpha: T, x: &MemRef<T, 1>, y: &MemRef<T, 1>) {
    report((T::PREFIX, "axpy"), (), || unsafe {
        let x = Vector::input(x, overlap(x, y), "x")?;
        let y = Vector::output(y, "y")?;
        same_length(x.n, y.n)?;
        (T::ROUTINES.axpy)(x.n, alpha, x.ptr, x.inc, y.ptr, y.inc);
        Ok(())
    })
}

pub(crate) unsafe fn copy<T: Real>(x: &MemRef<T, 1>, y: &MemRef<T, 1>) {
    report((T::PREFIX, "copy"), (), || unsafe {
        let x = Vector::input(x, overlap(x, y), "x")?;
        let y = Vector::output(y, "y")?;
        same_length(x.n, y.n)?;
        (T::ROUTINES.copy)(x.n, x.ptr, x.inc, y.ptr, y.inc);
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
    report((T::PREFIX, "gemv"), (), || unsafe {
        let transposed = trans != 0;
        let am = Matrix::new(a, copy_if(overlap(a, y)), "A")?;
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
        (T::ROUTINES.gemv)(
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
    report((T::PREFIX, "gemm"), (), || unsafe {
        let (ta, tb) = (transa != 0, transb != 0);
        let am = Matrix::new(a, copy_if(overlap(a, c)), "A")?;
        let bm = Matrix::new(b, copy_if(overlap(b, c)), "B")?;
        let cm = Matrix::new(c, Need::Any, "C")?;
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
        // An f64 multiply-add costs about two f32 ones.
        let width = (size_of::<T>() / 4) as i64;
        threads_for_gemm(i64::from(m) * i64::from(n) * i64::from(k) * width);
        (T::ROUTINES.gemm)(
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

fn square<T>(m: &Matrix<T>, what: &str) -> Result<c_int, String> {
    if m.rows == m.cols {
        Ok(m.rows)
    } else {
        Err(format!("{what} is {}x{}, not square", m.rows, m.cols))
    }
}

/// `y = alpha A x + beta y`, `A` symmetric (its `lower` or upper triangle read).
pub(crate) unsafe fn symv<T: Real>(
    lower: i32,
    alpha: T,
    a: &MemRef<T, 2>,
    x: &MemRef<T, 1>,
    beta: T,
    y: &MemRef<T, 1>,
) {
    report((T::PREFIX, "symv"), (), || unsafe {
        let am = Matrix::new(a, copy_if(overlap(a, y)), "A")?;
        let n = square(&am, "A")?;
        let xv = Vector::input(x, overlap(x, y), "x")?;
        let yv = Vector::output(y, "y")?;
        if xv.n != n || yv.n != n {
            return Err(format!(
                "A is {n}x{n} but x has {} elements and y {}",
                xv.n, yv.n
            ));
        }
        let order = am.order;
        (T::ROUTINES.symv)(
            order,
            am.uplo(order, lower != 0),
            n,
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

/// `x = op(A) x` (`solve`: `x = op(A)^-1 x`), `A` triangular.
unsafe fn triangular_vector<T: Real>(
    solve: bool,
    lower: i32,
    trans: i32,
    unit: i32,
    a: &MemRef<T, 2>,
    x: &MemRef<T, 1>,
) {
    let name = (T::PREFIX, if solve { "trsv" } else { "trmv" });
    report(name, (), || unsafe {
        let am = Matrix::new(a, copy_if(overlap(a, x)), "A")?;
        let n = square(&am, "A")?;
        let xv = Vector::output(x, "x")?;
        if xv.n != n {
            return Err(format!("A is {n}x{n} but x has {} elements", xv.n));
        }
        let order = am.order;
        let routine = if solve {
            T::ROUTINES.trsv
        } else {
            T::ROUTINES.trmv
        };
        let diag = if unit != 0 { UNIT } else { NON_UNIT };
        routine(
            order,
            am.uplo(order, lower != 0),
            am.trans(order, trans != 0),
            diag,
            n,
            am.ptr,
            am.ld,
            xv.ptr,
            xv.inc,
        );
        Ok(())
    })
}

/// `A = alpha x y^T + A`.
pub(crate) unsafe fn ger<T: Real>(alpha: T, x: &MemRef<T, 1>, y: &MemRef<T, 1>, a: &MemRef<T, 2>) {
    report((T::PREFIX, "ger"), (), || unsafe {
        let xv = Vector::input(x, overlap(x, a), "x")?;
        let yv = Vector::input(y, overlap(y, a), "y")?;
        let am = Matrix::new(a, Need::Any, "A")?;
        if xv.n != am.rows || yv.n != am.cols {
            return Err(format!(
                "A is {}x{} but x has {} elements and y {}",
                am.rows, am.cols, xv.n, yv.n
            ));
        }
        (T::ROUTINES.ger)(
            am.order, am.rows, am.cols, alpha, xv.ptr, xv.inc, yv.ptr, yv.inc, am.ptr, am.ld,
        );
        am.write_back(a);
        Ok(())
    })
}

/// `C = alpha A B + beta C` (`right`: `alpha B A + beta C`), `A` symmetric.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn symm<T: Real>(
    right: i32,
    lower: i32,
    alpha: T,
    a: &MemRef<T, 2>,
    b: &MemRef<T, 2>,
    beta: T,
    c: &MemRef<T, 2>,
) {
    report((T::PREFIX, "symm"), (), || unsafe {
        let cm = Matrix::new(c, Need::Any, "C")?;
        let order = cm.order;
        let am = Matrix::new(a, copy_if(overlap(a, c)), "A")?;
        // B has no transpose flag: it must be in C's order.
        let bm = Matrix::new(
            b,
            if overlap(b, c) {
                Need::CopyIn(order)
            } else {
                Need::Order(order)
            },
            "B",
        )?;
        let n = square(&am, "A")?;
        let (m, cols) = (cm.rows, cm.cols);
        let side_size = if right != 0 { cols } else { m };
        if n != side_size || bm.rows != m || bm.cols != cols {
            return Err(format!(
                "A is {n}x{n} and B {}x{}, but C is {m}x{cols}",
                bm.rows, bm.cols
            ));
        }
        let side = if right != 0 { RIGHT } else { LEFT };
        (T::ROUTINES.symm)(
            order,
            side,
            am.uplo(order, lower != 0),
            m,
            cols,
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

/// `C = alpha op(A) op(A)^T + beta C`, only `C`'s `lower` or upper triangle.
pub(crate) unsafe fn syrk<T: Real>(
    lower: i32,
    trans: i32,
    alpha: T,
    a: &MemRef<T, 2>,
    beta: T,
    c: &MemRef<T, 2>,
) {
    report((T::PREFIX, "syrk"), (), || unsafe {
        let cm = Matrix::new(c, Need::Any, "C")?;
        let order = cm.order;
        let am = Matrix::new(a, copy_if(overlap(a, c)), "A")?;
        let n = square(&cm, "C")?;
        let (rows, k) = if trans != 0 {
            (am.cols, am.rows)
        } else {
            (am.rows, am.cols)
        };
        if rows != n {
            return Err(format!("op(A) is {rows}x{k} but C is {n}x{n}"));
        }
        (T::ROUTINES.syrk)(
            order,
            cm.uplo(order, lower != 0),
            am.trans(order, trans != 0),
            n,
            k,
            alpha,
            am.ptr,
            am.ld,
            beta,
            cm.ptr,
            cm.ld,
        );
        cm.write_back(c);
        Ok(())
    })
}

/// `B = alpha op(A) B` or `alpha B op(A)` (`solve`: `op(A)^-1`), `A` triangular.
#[allow(clippy::too_many_arguments)]
unsafe fn triangular_matrix<T: Real>(
    solve: bool,
    right: i32,
    lower: i32,
    trans: i32,
    unit: i32,
    alpha: T,
    a: &MemRef<T, 2>,
    b: &MemRef<T, 2>,
) {
    let name = (T::PREFIX, if solve { "trsm" } else { "trmm" });
    report(name, (), || unsafe {
        let bm = Matrix::new(b, Need::Any, "B")?;
        let order = bm.order;
        let am = Matrix::new(a, copy_if(overlap(a, b)), "A")?;
        let n = square(&am, "A")?;
        let side_size = if right != 0 { bm.cols } else { bm.rows };
        if n != side_size {
            return Err(format!("A is {n}x{n} but B is {}x{}", bm.rows, bm.cols));
        }
        let routine = if solve {
            T::ROUTINES.trsm
        } else {
            T::ROUTINES.trmm
        };
        let side = if right != 0 { RIGHT } else { LEFT };
        let diag = if unit != 0 { UNIT } else { NON_UNIT };
        routine(
            order,
            side,
            am.uplo(order, lower != 0),
            am.trans(order, trans != 0),
            diag,
            bm.rows,
            bm.cols,
            alpha,
            am.ptr,
            am.ld,
            bm.ptr,
            bm.ld,
        );
        bm.write_back(b);
        Ok(())
    })
}

/// The pivot indices of a factorization as LAPACK writes them, with the
/// memref to copy them back into.
struct Pivots<'a> {
    memref: &'a MemRef<i32, 1>,
    values: Vec<i32>,
}

impl<'a> Pivots<'a> {
    unsafe fn new(memref: &'a MemRef<i32, 1>, n: c_int) -> Result<Self, String> {
        if memref.sizes[0] != i64::from(n) {
            return Err(format!("ipiv has {} elements, not {n}", memref.sizes[0]));
        }
        Ok(Pivots {
            memref,
            values: unsafe { memref.to_vec() },
        })
    }

    unsafe fn write_back(&self) {
        for (i, &v) in self.values.iter().enumerate() {
            let at = self.memref.offset + i as i64 * self.memref.strides[0];
            unsafe { *self.memref.aligned.offset(at as isize) = v };
        }
    }
}

/// LAPACK's flag characters.
fn flag(set: i32, yes: u8, no: u8) -> c_char {
    (if set != 0 { yes } else { no }) as c_char
}

/// Runs a LAPACK entry point: `info` as LAPACK returns it (0, or > 0 for a
/// singular or indefinite matrix); argument errors are reported and give -1.
fn lapack(name: Name, body: impl FnOnce() -> Result<i32, String>) -> i32 {
    report(name, -1, || {
        let info = body()?;
        if info < 0 {
            return Err(format!("LAPACK rejected argument {}", -info));
        }
        Ok(info)
    })
}

/// The LU factorization `A = P L U` in place; `ipiv` gets min(m, n) pivots.
pub(crate) unsafe fn getrf<T: Real>(a: &MemRef<T, 2>, ipiv: &MemRef<i32, 1>) -> i32 {
    lapack((T::PREFIX, "getrf"), || unsafe {
        let am = Matrix::new(a, Need::Any, "A")?;
        let mut pivots = Pivots::new(ipiv, am.rows.min(am.cols))?;
        let info = (T::ROUTINES.getrf)(
            am.order,
            am.rows,
            am.cols,
            am.ptr,
            am.ld,
            pivots.values.as_mut_ptr(),
        );
        am.write_back(a);
        pivots.write_back();
        Ok(info)
    })
}

/// Solves in place in `b` with the factors `a` of a square matrix (read
/// in `b`'s order) and their pivots, if any: checks the sizes, then
/// `call(order, n, nrhs, a, lda, ipiv, b, ldb)`.
#[allow(clippy::type_complexity)]
unsafe fn solve<T: Real>(
    name: &'static str,
    a: &MemRef<T, 2>,
    ipiv: Option<&MemRef<i32, 1>>,
    b: &MemRef<T, 2>,
    call: impl FnOnce(c_int, i32, i32, *const T, i32, *const i32, *mut T, i32) -> i32,
) -> i32 {
    lapack((T::PREFIX, name), || unsafe {
        let bm = Matrix::new(b, Need::Any, "B")?;
        let am = Matrix::new(a, Need::Order(bm.order), "A")?;
        let n = square(&am, "A")?;
        let pivots = ipiv.map(|p| Pivots::new(p, n)).transpose()?;
        if bm.rows != n {
            return Err(format!("A is {n}x{n} but B has {} rows", bm.rows));
        }
        let ipiv = pivots
            .as_ref()
            .map_or(std::ptr::null(), |p| p.values.as_ptr());
        let info = call(bm.order, n, bm.cols, am.ptr, am.ld, ipiv, bm.ptr, bm.ld);
        bm.write_back(b);
        Ok(info)
    })
}

/// Solves `op(A) X = B` in place in `B` from `getrf`'s factors.
pub(crate) unsafe fn getrs<T: Real>(
    trans: i32,
    a: &MemRef<T, 2>,
    ipiv: &MemRef<i32, 1>,
    b: &MemRef<T, 2>,
) -> i32 {
    let trans = flag(trans, b'T', b'N');
    unsafe {
        solve(
            "getrs",
            a,
            Some(ipiv),
            b,
            |o, n, nrhs, a, lda, p, b, ldb| {
                (T::ROUTINES.getrs)(o, trans, n, nrhs, a, lda, p, b, ldb)
            },
        )
    }
}

/// The inverse of `A` in place from `getrf`'s factors.
pub(crate) unsafe fn getri<T: Real>(a: &MemRef<T, 2>, ipiv: &MemRef<i32, 1>) -> i32 {
    lapack((T::PREFIX, "getri"), || unsafe {
        let am = Matrix::new(a, Need::Any, "A")?;
        let n = square(&am, "A")?;
        let pivots = Pivots::new(ipiv, n)?;
        let info = (T::ROUTINES.getri)(am.order, n, am.ptr, am.ld, pivots.values.as_ptr());
        am.write_back(a);
        Ok(info)
    })
}

/// The Cholesky factor of `A` in its `lower` (`A = L L^T`) or upper
/// (`A = U^T U`) triangle, in place; the other triangle is left alone.
pub(crate) unsafe fn potrf<T: Real>(lower: i32, a: &MemRef<T, 2>) -> i32 {
    lapack((T::PREFIX, "potrf"), || unsafe {
        let am = Matrix::new(a, Need::Any, "A")?;
        let n = square(&am, "A")?;
        let info = (T::ROUTINES.potrf)(am.order, flag(lower, b'L', b'U'), n, am.ptr, am.ld);
        am.write_back(a);
        Ok(info)
    })
}

/// Solves `A X = B` in place in `B` from `potrf`'s factor.
pub(crate) unsafe fn potrs<T: Real>(lower: i32, a: &MemRef<T, 2>, b: &MemRef<T, 2>) -> i32 {
    let uplo = flag(lower, b'L', b'U');
    unsafe {
        solve("potrs", a, None, b, |o, n, nrhs, a, lda, _, b, ldb| {
            (T::ROUTINES.potrs)(o, uplo, n, nrhs, a, lda, b, ldb)
        })
    }
}

/// Solves `op(A) X = B` in place in `B`, `A` triangular.
pub(crate) unsafe fn trtrs<T: Real>(
    lower: i32,
    trans: i32,
    unit: i32,
    a: &MemRef<T, 2>,
    b: &MemRef<T, 2>,
) -> i32 {
    let (uplo, trans, diag) = (
        flag(lower, b'L', b'U'),
        flag(trans, b'T', b'N'),
        flag(unit, b'U', b'N'),
    );
    unsafe {
        solve("trtrs", a, None, b, |o, n, nrhs, a, lda, _, b, ldb| {
            (T::ROUTINES.trtrs)(o, uplo, trans, diag, n, nrhs, a, lda, b, ldb)
        })
    }
}

/// The Bunch-Kaufman factorization of the symmetric `A` (its `lower` or
/// upper triangle) in place, with its pivots.
pub(crate) unsafe fn sytrf<T: Real>(lower: i32, a: &MemRef<T, 2>, ipiv: &MemRef<i32, 1>) -> i32 {
    lapack((T::PREFIX, "sytrf"), || unsafe {
        let am = Matrix::new(a, Need::Any, "A")?;
        let n = square(&am, "A")?;
        let mut pivots = Pivots::new(ipiv, n)?;
        let info = (T::ROUTINES.sytrf)(
            am.order,
            flag(lower, b'L', b'U'),
            n,
            am.ptr,
            am.ld,
            pivots.values.as_mut_ptr(),
        );
        am.write_back(a);
        pivots.write_back();
        Ok(info)
    })
}

/// Solves `A X = B` in place in `B` from `sytrf`'s factors.
pub(crate) unsafe fn sytrs<T: Real>(
    lower: i32,
    a: &MemRef<T, 2>,
    ipiv: &MemRef<i32, 1>,
    b: &MemRef<T, 2>,
) -> i32 {
    let uplo = flag(lower, b'L', b'U');
    unsafe {
        solve(
            "sytrs",
            a,
            Some(ipiv),
            b,
            |o, n, nrhs, a, lda, p, b, ldb| {
                (T::ROUTINES.sytrs)(o, uplo, n, nrhs, a, lda, p, b, ldb)
            },
        )
    }
}

/// The C entry points compiled code calls, one per routine and element
/// type (declared in `moonrt.h`; `docs/blas.md` has their MLIR types).
/// Flags are `i32`: nonzero transposes, takes the lower triangle, the unit
/// diagonal, or the right side.
macro_rules! entry_points {
    ($t:ty, $dot:ident, $nrm2:ident, $asum:ident, $scal:ident, $axpy:ident, $copy:ident,
     $gemv:ident, $symv:ident, $trmv:ident, $trsv:ident, $ger:ident, $gemm:ident,
     $symm:ident, $syrk:ident, $trmm:ident, $trsm:ident, $getrf:ident, $getrs:ident,
     $getri:ident, $potrf:ident, $potrs:ident, $trtrs:ident, $sytrf:ident, $sytrs:ident $(,)?) => {
        /// `x . y`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $dot(x: &MemRef<$t, 1>, y: &MemRef<$t, 1>) -> $t {
            unsafe { dot(x, y) }
        }
        /// `||x||_2`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $nrm2(x: &MemRef<$t, 1>) -> $t {
            unsafe { nrm2(x) }
        }
        /// `sum |x_i|`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $asum(x: &MemRef<$t, 1>) -> $t {
            unsafe { asum(x) }
        }
        /// `x = alpha x`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $scal(alpha: $t, x: &MemRef<$t, 1>) {
            unsafe { scal(alpha, x) }
        }
        /// `y = alpha x + y`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $axpy(alpha: $t, x: &MemRef<$t, 1>, y: &MemRef<$t, 1>) {
            unsafe { axpy(alpha, x, y) }
        }
        /// `y = x`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $copy(x: &MemRef<$t, 1>, y: &MemRef<$t, 1>) {
            unsafe { copy(x, y) }
        }
        /// `y = alpha op(A) x + beta y`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
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
        /// `y = alpha A x + beta y`, `A` symmetric.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $symv(
            lower: i32,
            alpha: $t,
            a: &MemRef<$t, 2>,
            x: &MemRef<$t, 1>,
            beta: $t,
            y: &MemRef<$t, 1>,
        ) {
            unsafe { symv(lower, alpha, a, x, beta, y) }
        }
        /// `x = op(A) x`, `A` triangular.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $trmv(
            lower: i32,
            trans: i32,
            unit: i32,
            a: &MemRef<$t, 2>,
            x: &MemRef<$t, 1>,
        ) {
            unsafe { triangular_vector(false, lower, trans, unit, a, x) }
        }
        /// `x = op(A)^-1 x`, `A` triangular.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $trsv(
            lower: i32,
            trans: i32,
            unit: i32,
            a: &MemRef<$t, 2>,
            x: &MemRef<$t, 1>,
        ) {
            unsafe { triangular_vector(true, lower, trans, unit, a, x) }
        }
        /// `A = alpha x y^T + A`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $ger(
            alpha: $t,
            x: &MemRef<$t, 1>,
            y: &MemRef<$t, 1>,
            a: &MemRef<$t, 2>,
        ) {
            unsafe { ger(alpha, x, y, a) }
        }
        /// `C = alpha op(A) op(B) + beta C`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
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
        /// `C = alpha A B + beta C` (`right`: `alpha B A + beta C`), `A` symmetric.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $symm(
            right: i32,
            lower: i32,
            alpha: $t,
            a: &MemRef<$t, 2>,
            b: &MemRef<$t, 2>,
            beta: $t,
            c: &MemRef<$t, 2>,
        ) {
            unsafe { symm(right, lower, alpha, a, b, beta, c) }
        }
        /// `C = alpha op(A) op(A)^T + beta C` in one triangle of `C`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $syrk(
            lower: i32,
            trans: i32,
            alpha: $t,
            a: &MemRef<$t, 2>,
            beta: $t,
            c: &MemRef<$t, 2>,
        ) {
            unsafe { syrk(lower, trans, alpha, a, beta, c) }
        }
        /// `B = alpha op(A) B` (`right`: `alpha B op(A)`), `A` triangular.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $trmm(
            right: i32,
            lower: i32,
            trans: i32,
            unit: i32,
            alpha: $t,
            a: &MemRef<$t, 2>,
            b: &MemRef<$t, 2>,
        ) {
            unsafe { triangular_matrix(false, right, lower, trans, unit, alpha, a, b) }
        }
        /// `B = alpha op(A)^-1 B` (`right`: `alpha B op(A)^-1`), `A` triangular.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $trsm(
            right: i32,
            lower: i32,
            trans: i32,
            unit: i32,
            alpha: $t,
            a: &MemRef<$t, 2>,
            b: &MemRef<$t, 2>,
        ) {
            unsafe { triangular_matrix(true, right, lower, trans, unit, alpha, a, b) }
        }
        /// LU with partial pivoting in place; LAPACK's `info`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $getrf(a: &MemRef<$t, 2>, ipiv: &MemRef<i32, 1>) -> i32 {
            unsafe { getrf(a, ipiv) }
        }
        /// Solves `op(A) X = B` from `getrf`'s factors; LAPACK's `info`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $getrs(
            trans: i32,
            a: &MemRef<$t, 2>,
            ipiv: &MemRef<i32, 1>,
            b: &MemRef<$t, 2>,
        ) -> i32 {
            unsafe { getrs(trans, a, ipiv, b) }
        }
        /// The inverse from `getrf`'s factors, in place; LAPACK's `info`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $getri(a: &MemRef<$t, 2>, ipiv: &MemRef<i32, 1>) -> i32 {
            unsafe { getri(a, ipiv) }
        }
        /// Cholesky in place; LAPACK's `info`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $potrf(lower: i32, a: &MemRef<$t, 2>) -> i32 {
            unsafe { potrf(lower, a) }
        }
        /// Solves `A X = B` from `potrf`'s factor; LAPACK's `info`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $potrs(lower: i32, a: &MemRef<$t, 2>, b: &MemRef<$t, 2>) -> i32 {
            unsafe { potrs(lower, a, b) }
        }
        /// Solves `op(A) X = B`, `A` triangular; LAPACK's `info`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $trtrs(
            lower: i32,
            trans: i32,
            unit: i32,
            a: &MemRef<$t, 2>,
            b: &MemRef<$t, 2>,
        ) -> i32 {
            unsafe { trtrs(lower, trans, unit, a, b) }
        }
        /// Bunch-Kaufman in place; LAPACK's `info`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $sytrf(
            lower: i32,
            a: &MemRef<$t, 2>,
            ipiv: &MemRef<i32, 1>,
        ) -> i32 {
            unsafe { sytrf(lower, a, ipiv) }
        }
        /// Solves `A X = B` from `sytrf`'s factors; LAPACK's `info`.
        ///
        /// # Safety
        /// Every descriptor must address live memory of its sizes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $sytrs(
            lower: i32,
            a: &MemRef<$t, 2>,
            ipiv: &MemRef<i32, 1>,
            b: &MemRef<$t, 2>,
        ) -> i32 {
            unsafe { sytrs(lower, a, ipiv, b) }
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
    moonrt_ssymv,
    moonrt_strmv,
    moonrt_strsv,
    moonrt_sger,
    moonrt_sgemm,
    moonrt_ssymm,
    moonrt_ssyrk,
    moonrt_strmm,
    moonrt_strsm,
    moonrt_sgetrf,
    moonrt_sgetrs,
    moonrt_sgetri,
    moonrt_spotrf,
    moonrt_spotrs,
    moonrt_strtrs,
    moonrt_ssytrf,
    moonrt_ssytrs,
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
    moonrt_dsymv,
    moonrt_dtrmv,
    moonrt_dtrsv,
    moonrt_dger,
    moonrt_dgemm,
    moonrt_dsymm,
    moonrt_dsyrk,
    moonrt_dtrmm,
    moonrt_dtrsm,
    moonrt_dgetrf,
    moonrt_dgetrs,
    moonrt_dgetri,
    moonrt_dpotrf,
    moonrt_dpotrs,
    moonrt_dtrtrs,
    moonrt_dsytrf,
    moonrt_dsytrs,
);

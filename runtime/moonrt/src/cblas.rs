//! The CBLAS functions of OpenBLAS that moonrt's BLAS entry points call:
//! the crate's only `extern` block for BLAS (`blasint` is C `int` in
//! Debian's OpenBLAS).

use std::ffi::c_int;

/// `CblasRowMajor`.
pub const ROW_MAJOR: c_int = 101;
/// `CblasColMajor`.
pub const COL_MAJOR: c_int = 102;
/// `CblasNoTrans`.
pub const NO_TRANS: c_int = 111;
/// `CblasTrans`.
pub const TRANS: c_int = 112;
/// `CblasUpper`.
pub const UPPER: c_int = 121;
/// `CblasLower`.
pub const LOWER: c_int = 122;
/// `CblasNonUnit`.
pub const NON_UNIT: c_int = 131;
/// `CblasUnit`.
pub const UNIT: c_int = 132;
/// `CblasLeft`.
pub const LEFT: c_int = 141;
/// `CblasRight`.
pub const RIGHT: c_int = 142;

#[link(name = "openblas")]
unsafe extern "C" {
    /// OpenBLAS's own: sets the number of threads its routines run on.
    pub fn openblas_set_num_threads(threads: c_int);
    /// OpenBLAS's own: the number of threads its routines run on.
    pub fn openblas_get_num_threads() -> c_int;
    pub fn cblas_sdot(n: c_int, x: *const f32, incx: c_int, y: *const f32, incy: c_int) -> f32;
    pub fn cblas_ddot(n: c_int, x: *const f64, incx: c_int, y: *const f64, incy: c_int) -> f64;
    pub fn cblas_snrm2(n: c_int, x: *const f32, incx: c_int) -> f32;
    pub fn cblas_dnrm2(n: c_int, x: *const f64, incx: c_int) -> f64;
    pub fn cblas_sasum(n: c_int, x: *const f32, incx: c_int) -> f32;
    pub fn cblas_dasum(n: c_int, x: *const f64, incx: c_int) -> f64;
    pub fn cblas_sscal(n: c_int, alpha: f32, x: *mut f32, incx: c_int);
    pub fn cblas_dscal(n: c_int, alpha: f64, x: *mut f64, incx: c_int);
    pub fn cblas_saxpy(n: c_int, alpha: f32, x: *const f32, incx: c_int, y: *mut f32, incy: c_int);
    pub fn cblas_daxpy(n: c_int, alpha: f64, x: *const f64, incx: c_int, y: *mut f64, incy: c_int);
    pub fn cblas_scopy(n: c_int, x: *const f32, incx: c_int, y: *mut f32, incy: c_int);
    pub fn cblas_dcopy(n: c_int, x: *const f64, incx: c_int, y: *mut f64, incy: c_int);
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_sgemv(
        order: c_int,
        trans: c_int,
        m: c_int,
        n: c_int,
        alpha: f32,
        a: *const f32,
        lda: c_int,
        x: *const f32,
        incx: c_int,
        beta: f32,
        y: *mut f32,
        incy: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_dgemv(
        order: c_int,
        trans: c_int,
        m: c_int,
        n: c_int,
        alpha: f64,
        a: *const f64,
        lda: c_int,
        x: *const f64,
        incx: c_int,
        beta: f64,
        y: *mut f64,
        incy: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_sgemm(
        order: c_int,
        transa: c_int,
        transb: c_int,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: f32,
        a: *const f32,
        lda: c_int,
        b: *const f32,
        ldb: c_int,
        beta: f32,
        c: *mut f32,
        ldc: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_dgemm(
        order: c_int,
        transa: c_int,
        transb: c_int,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: f64,
        a: *const f64,
        lda: c_int,
        b: *const f64,
        ldb: c_int,
        beta: f64,
        c: *mut f64,
        ldc: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_ssymv(
        order: c_int,
        uplo: c_int,
        n: c_int,
        alpha: f32,
        a: *const f32,
        lda: c_int,
        x: *const f32,
        incx: c_int,
        beta: f32,
        y: *mut f32,
        incy: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_strmv(
        order: c_int,
        uplo: c_int,
        trans: c_int,
        diag: c_int,
        n: c_int,
        a: *const f32,
        lda: c_int,
        x: *mut f32,
        incx: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_strsv(
        order: c_int,
        uplo: c_int,
        trans: c_int,
        diag: c_int,
        n: c_int,
        a: *const f32,
        lda: c_int,
        x: *mut f32,
        incx: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_sger(
        order: c_int,
        m: c_int,
        n: c_int,
        alpha: f32,
        x: *const f32,
        incx: c_int,
        y: *const f32,
        incy: c_int,
        a: *mut f32,
        lda: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_ssymm(
        order: c_int,
        side: c_int,
        uplo: c_int,
        m: c_int,
        n: c_int,
        alpha: f32,
        a: *const f32,
        lda: c_int,
        b: *const f32,
        ldb: c_int,
        beta: f32,
        c: *mut f32,
        ldc: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_ssyrk(
        order: c_int,
        uplo: c_int,
        trans: c_int,
        n: c_int,
        k: c_int,
        alpha: f32,
        a: *const f32,
        lda: c_int,
        beta: f32,
        c: *mut f32,
        ldc: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_strmm(
        order: c_int,
        side: c_int,
        uplo: c_int,
        transa: c_int,
        diag: c_int,
        m: c_int,
        n: c_int,
        alpha: f32,
        a: *const f32,
        lda: c_int,
        b: *mut f32,
        ldb: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_strsm(
        order: c_int,
        side: c_int,
        uplo: c_int,
        transa: c_int,
        diag: c_int,
        m: c_int,
        n: c_int,
        alpha: f32,
        a: *const f32,
        lda: c_int,
        b: *mut f32,
        ldb: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_dsymv(
        order: c_int,
        uplo: c_int,
        n: c_int,
        alpha: f64,
        a: *const f64,
        lda: c_int,
        x: *const f64,
        incx: c_int,
        beta: f64,
        y: *mut f64,
        incy: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_dtrmv(
        order: c_int,
        uplo: c_int,
        trans: c_int,
        diag: c_int,
        n: c_int,
        a: *const f64,
        lda: c_int,
        x: *mut f64,
        incx: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_dtrsv(
        order: c_int,
        uplo: c_int,
        trans: c_int,
        diag: c_int,
        n: c_int,
        a: *const f64,
        lda: c_int,
        x: *mut f64,
        incx: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_dger(
        order: c_int,
        m: c_int,
        n: c_int,
        alpha: f64,
        x: *const f64,
        incx: c_int,
        y: *const f64,
        incy: c_int,
        a: *mut f64,
        lda: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_dsymm(
        order: c_int,
        side: c_int,
        uplo: c_int,
        m: c_int,
        n: c_int,
        alpha: f64,
        a: *const f64,
        lda: c_int,
        b: *const f64,
        ldb: c_int,
        beta: f64,
        c: *mut f64,
        ldc: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_dsyrk(
        order: c_int,
        uplo: c_int,
        trans: c_int,
        n: c_int,
        k: c_int,
        alpha: f64,
        a: *const f64,
        lda: c_int,
        beta: f64,
        c: *mut f64,
        ldc: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_dtrmm(
        order: c_int,
        side: c_int,
        uplo: c_int,
        transa: c_int,
        diag: c_int,
        m: c_int,
        n: c_int,
        alpha: f64,
        a: *const f64,
        lda: c_int,
        b: *mut f64,
        ldb: c_int,
    );
    #[allow(clippy::too_many_arguments)]
    pub fn cblas_dtrsm(
        order: c_int,
        side: c_int,
        uplo: c_int,
        transa: c_int,
        diag: c_int,
        m: c_int,
        n: c_int,
        alpha: f64,
        a: *const f64,
        lda: c_int,
        b: *mut f64,
        ldb: c_int,
    );
}

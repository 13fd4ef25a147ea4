//! The LAPACKE functions moonrt's LAPACK entry points call: the crate's
//! only `extern` block for LAPACK (`lapack_int` is `int32_t` in Debian's
//! LAPACKE, whose LAPACK is OpenBLAS's through Debian's alternatives).
//! `LAPACK_ROW_MAJOR`/`LAPACK_COL_MAJOR` are CBLAS's 101 and 102.

use std::ffi::{c_char, c_int};

#[link(name = "lapacke")]
unsafe extern "C" {
    pub fn LAPACKE_sgetrf(
        layout: c_int,
        m: i32,
        n: i32,
        a: *mut f32,
        lda: i32,
        ipiv: *mut i32,
    ) -> i32;
    #[allow(clippy::too_many_arguments)]
    pub fn LAPACKE_sgetrs(
        layout: c_int,
        trans: c_char,
        n: i32,
        nrhs: i32,
        a: *const f32,
        lda: i32,
        ipiv: *const i32,
        b: *mut f32,
        ldb: i32,
    ) -> i32;
    pub fn LAPACKE_sgetri(layout: c_int, n: i32, a: *mut f32, lda: i32, ipiv: *const i32) -> i32;
    pub fn LAPACKE_spotrf(layout: c_int, uplo: c_char, n: i32, a: *mut f32, lda: i32) -> i32;
    #[allow(clippy::too_many_arguments)]
    pub fn LAPACKE_spotrs(
        layout: c_int,
        uplo: c_char,
        n: i32,
        nrhs: i32,
        a: *const f32,
        lda: i32,
        b: *mut f32,
        ldb: i32,
    ) -> i32;
    #[allow(clippy::too_many_arguments)]
    pub fn LAPACKE_strtrs(
        layout: c_int,
        uplo: c_char,
        trans: c_char,
        diag: c_char,
        n: i32,
        nrhs: i32,
        a: *const f32,
        lda: i32,
        b: *mut f32,
        ldb: i32,
    ) -> i32;
    pub fn LAPACKE_ssytrf(
        layout: c_int,
        uplo: c_char,
        n: i32,
        a: *mut f32,
        lda: i32,
        ipiv: *mut i32,
    ) -> i32;
    #[allow(clippy::too_many_arguments)]
    pub fn LAPACKE_ssytrs(
        layout: c_int,
        uplo: c_char,
        n: i32,
        nrhs: i32,
        a: *const f32,
        lda: i32,
        ipiv: *const i32,
        b: *mut f32,
        ldb: i32,
    ) -> i32;
    pub fn LAPACKE_dgetrf(
        layout: c_int,
        m: i32,
        n: i32,
        a: *mut f64,
        lda: i32,
        ipiv: *mut i32,
    ) -> i32;
    #[allow(clippy::too_many_arguments)]
    pub fn LAPACKE_dgetrs(
        layout: c_int,
        trans: c_char,
        n: i32,
        nrhs: i32,
        a: *const f64,
        lda: i32,
        ipiv: *const i32,
        b: *mut f64,
        ldb: i32,
    ) -> i32;
    pub fn LAPACKE_dgetri(layout: c_int, n: i32, a: *mut f64, lda: i32, ipiv: *const i32) -> i32;
    pub fn LAPACKE_dpotrf(layout: c_int, uplo: c_char, n: i32, a: *mut f64, lda: i32) -> i32;
    #[allow(clippy::too_many_arguments)]
    pub fn LAPACKE_dpotrs(
        layout: c_int,
        uplo: c_char,
        n: i32,
        nrhs: i32,
        a: *const f64,
        lda: i32,
        b: *mut f64,
        ldb: i32,
    ) -> i32;
    #[allow(clippy::too_many_arguments)]
    pub fn LAPACKE_dtrtrs(
        layout: c_int,
        uplo: c_char,
        trans: c_char,
        diag: c_char,
        n: i32,
        nrhs: i32,
        a: *const f64,
        lda: i32,
        b: *mut f64,
        ldb: i32,
    ) -> i32;
    pub fn LAPACKE_dsytrf(
        layout: c_int,
        uplo: c_char,
        n: i32,
        a: *mut f64,
        lda: i32,
        ipiv: *mut i32,
    ) -> i32;
    #[allow(clippy::too_many_arguments)]
    pub fn LAPACKE_dsytrs(
        layout: c_int,
        uplo: c_char,
        n: i32,
        nrhs: i32,
        a: *const f64,
        lda: i32,
        ipiv: *const i32,
        b: *mut f64,
        ldb: i32,
    ) -> i32;
}

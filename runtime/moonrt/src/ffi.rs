//! The libc functions moonrt calls: the only `extern` block of the crate.

use std::ffi::{c_int, c_void};

unsafe extern "C" {
    /// Allocates `size` bytes aligned to `alignment` (a power of two and a
    /// multiple of the pointer size) into `*memptr`; returns 0 or an errno.
    pub fn posix_memalign(memptr: *mut *mut c_void, alignment: usize, size: usize) -> c_int;

    /// Releases memory from `malloc` or `posix_memalign` (what MLIR's
    /// `memref.alloc` lowers to); null is ignored.
    pub fn free(ptr: *mut c_void);
}

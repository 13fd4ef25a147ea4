//! The libc functions moonrt calls: allocation, and `dlopen` for the CUDA
//! driver (`gpu/driver.rs`).

use std::ffi::{c_char, c_int, c_void};

/// `mallopt`'s parameter: the free memory at the top of the heap above
/// which `free` returns it to the system.
pub const M_TRIM_THRESHOLD: c_int = -1;
/// `mallopt`'s parameter: the most blocks `malloc` maps of its own at once
/// (0: none; every block then comes from the heap).
pub const M_MMAP_MAX: c_int = -4;

/// `dlopen`'s flag: resolve every symbol of the library at once.
pub const RTLD_NOW: c_int = 2;

unsafe extern "C" {
    /// Allocates `size` bytes aligned to `alignment` (a power of two and a
    /// multiple of the pointer size) into `*memptr`; returns 0 or an errno.
    pub fn posix_memalign(memptr: *mut *mut c_void, alignment: usize, size: usize) -> c_int;

    /// Sets one of glibc malloc's parameters (`M_TRIM_THRESHOLD`, ...);
    /// returns 1 on success, 0 on error.
    pub fn mallopt(param: c_int, value: c_int) -> c_int;

    /// Releases memory from `malloc` or `posix_memalign` (what MLIR's
    /// `memref.alloc` lowers to); null is ignored.
    pub fn free(ptr: *mut c_void);

    /// Loads the shared library `filename` (searched for as the dynamic
    /// linker searches); returns its handle, or null with the reason in
    /// `dlerror`.
    pub fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;

    /// The address of `symbol` in the library `handle`, or null.
    pub fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;

    /// The calling thread's last `dlopen`/`dlsym` error, or null; reading
    /// it clears it.
    pub fn dlerror() -> *mut c_char;
}

//! Aligned heap allocation for C callers, from libc so that `free` releases it too.

use crate::error::{Error, guard, set_error};
use crate::ffi;
use std::ffi::c_void;
use std::ptr::{self, NonNull};

/// Allocates `size` bytes aligned to `alignment` (a power of two) with
/// `posix_memalign`; size 0 gets a unique one-byte block.
pub(crate) fn aligned_alloc(alignment: usize, size: usize) -> Result<NonNull<c_void>, Error> {
    if !alignment.is_power_of_two() {
        return Err(Error::new(format!(
            "moonrt_aligned_alloc: alignment {alignment} is not a power of two"
        )));
    }
    // posix_memalign wants a multiple of the pointer size.
    let alignment = alignment.max(size_of::<*const c_void>());
    let mut memory = ptr::null_mut();
    // SAFETY: `memory` is a valid out-pointer and `alignment` a power of two
    // multiple of the pointer size.
    let status = unsafe { ffi::posix_memalign(&mut memory, alignment, size.max(1)) };
    match NonNull::new(memory) {
        Some(memory) if status == 0 => Ok(memory),
        _ => Err(Error::new(format!(
            "moonrt_aligned_alloc: cannot allocate {size} bytes aligned to {alignment} \
             (out of memory or alignment too large)"
        ))),
    }
}

/// Allocates `size` bytes aligned to `alignment`, a power of two (rounded up
/// to the pointer size). Returns null and sets the last error on failure; a
/// `size` of 0 returns a unique non-null pointer. Release the memory with
/// `moonrt_aligned_free` (or libc `free`).
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_aligned_alloc(alignment: usize, size: usize) -> *mut c_void {
    guard("moonrt_aligned_alloc", ptr::null_mut(), || {
        aligned_alloc(alignment, size).map_or_else(
            |error| {
                set_error(error.message());
                ptr::null_mut()
            },
            NonNull::as_ptr,
        )
    })
}

/// Releases memory from `moonrt_aligned_alloc`; null is ignored.
///
/// # Safety
///
/// `memory` must be null or a pointer returned by `moonrt_aligned_alloc`
/// (or libc `malloc`) that was not released yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn moonrt_aligned_free(memory: *mut c_void) {
    // SAFETY: the caller passes memory from libc's allocator, or null.
    unsafe { ffi::free(memory) }
}

/// Makes glibc's `malloc` keep freed memory for the next allocations
/// instead of returning it to the system: buffers of any size come from
/// the heap (glibc maps blocks of its own only when the heap cannot grow),
/// and the heap is trimmed only above 1 GiB free. Code that allocates and
/// frees the same large buffers on every call (a network's activations and
/// their adjoints, a gradient's tape) otherwise takes fresh pages, and a
/// page fault per 4 KiB, each time: that halves the speed of a CNN's
/// gradient here, and took 13-15% of gmm's (d = 64, K = 100, a 51 MB tape,
/// above the 32 MiB that glibc's mmap threshold can be raised to). `moonc`
/// calls it at start; a C program calling compiled code in a loop may too
/// (the environment variables `MALLOC_MMAP_MAX_=0` and
/// `MALLOC_TRIM_THRESHOLD_` do the same without code).
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_keep_freed_memory() {
    // SAFETY: sets two of glibc's malloc parameters.
    unsafe {
        ffi::mallopt(ffi::M_MMAP_MAX, 0);
        ffi::mallopt(ffi::M_TRIM_THRESHOLD, 1 << 30);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::last_error;

    #[test]
    fn results_are_aligned_and_writable() {
        for alignment in [1, 2, 4, 8, 16, 32, 64, 128, 4096, 1 << 16] {
            for size in [0, 1, 7, 100, 5000] {
                let memory = moonrt_aligned_alloc(alignment, size);
                assert!(!memory.is_null());
                assert_eq!(memory.addr() % alignment, 0, "alignment {alignment}");
                // SAFETY: `size` fresh bytes.
                unsafe { ptr::write_bytes(memory.cast::<u8>(), 0xAB, size) };
                // SAFETY: from moonrt_aligned_alloc, released once.
                unsafe { moonrt_aligned_free(memory) };
            }
        }
    }

    /// glibc's `mallinfo2` (the part read here): `hblkhd` counts the bytes
    /// of the blocks malloc has mapped of its own.
    #[repr(C)]
    struct MallInfo2 {
        arena: usize,
        ordblks: usize,
        smblks: usize,
        hblks: usize,
        hblkhd: usize,
        rest: [usize; 5],
    }

    unsafe extern "C" {
        fn mallinfo2() -> MallInfo2;
    }

    #[test]
    fn kept_memory_takes_large_buffers_from_the_heap() {
        moonrt_keep_freed_memory();
        let size = 40 << 20;
        // SAFETY: reads malloc's statistics.
        let before = unsafe { mallinfo2() }.hblkhd;
        let memory = moonrt_aligned_alloc(64, size);
        assert!(!memory.is_null());
        // SAFETY: as above.
        let during = unsafe { mallinfo2() }.hblkhd;
        // SAFETY: from moonrt_aligned_alloc, released once.
        unsafe { moonrt_aligned_free(memory) };
        // Other tests may free mapped blocks meanwhile, never map 40 MiB.
        assert!(during < before + size, "{before} -> {during} mapped bytes");
    }

    #[test]
    fn size_zero_gives_unique_pointers() {
        let a = moonrt_aligned_alloc(16, 0);
        let b = moonrt_aligned_alloc(16, 0);
        assert!(!a.is_null() && !b.is_null());
        assert_ne!(a, b);
        // SAFETY: from moonrt_aligned_alloc, released once.
        unsafe {
            moonrt_aligned_free(a);
            moonrt_aligned_free(b);
            moonrt_aligned_free(ptr::null_mut());
        }
    }

    #[test]
    fn bad_alignment_and_huge_sizes_fail() {
        for alignment in [0, 3, 24] {
            assert!(moonrt_aligned_alloc(alignment, 8).is_null());
            let error = last_error().unwrap();
            assert!(error.message().contains("not a power of two"), "{error}");
        }
        assert!(moonrt_aligned_alloc(64, usize::MAX - 4096).is_null());
        assert!(last_error().unwrap().message().contains("cannot allocate"));
    }
}

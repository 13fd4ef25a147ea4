//! The C functions moonc calls directly.

use std::ffi::c_void;

unsafe extern "C" {
    /// libc's `free`, for memref results compiled code allocated.
    pub fn free(pointer: *mut c_void);
}

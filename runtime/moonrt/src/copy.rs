//! `memrefCopy`, which MLIR's lowering of `memref.copy` calls for non-identity layouts.

use crate::error::{Error, guard, set_error};
use std::ffi::c_void;
use std::ptr;

/// An unranked memref as MLIR passes it to `memrefCopy`
/// (`moonrt_unranked_memref` in `moonrt.h`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct UnrankedMemRef {
    /// The rank of the memref that `descriptor` points to.
    pub rank: i64,
    /// A ranked descriptor, `{allocated, aligned, offset, sizes[rank],
    /// strides[rank]}` (a [`crate::MemRef`] of that rank).
    pub descriptor: *mut c_void,
}

/// The fields of a ranked descriptor before its sizes and strides.
#[repr(C)]
struct Header {
    /// The start of the allocation (unused here).
    allocated: *mut u8,
    /// The aligned start of the data.
    aligned: *mut u8,
    /// The first element's distance from `aligned`, in elements.
    offset: i64,
}

/// One side of a copy, read from its descriptor.
struct Side<'a> {
    /// The first element.
    first: *mut u8,
    /// The size of each dimension.
    sizes: &'a [i64],
    /// The stride of each dimension, in elements.
    strides: &'a [i64],
}

impl Side<'_> {
    /// Reads the descriptor of `memref` (`name` is "source" or
    /// "destination", for errors).
    ///
    /// # Safety
    ///
    /// `memref` must be null or point to an unranked memref whose descriptor
    /// is valid for its rank, and outlive the result.
    unsafe fn read<'a>(
        memref: *const UnrankedMemRef,
        elem_size: usize,
        name: &str,
    ) -> Result<Side<'a>, Error> {
        // SAFETY: the caller passes a valid unranked memref or null.
        let Some(memref) = (unsafe { memref.as_ref() }) else {
            return Err(Error::new(format!("memrefCopy: the {name} is NULL")));
        };
        let Ok(rank) = usize::try_from(memref.rank) else {
            return Err(Error::new(format!(
                "memrefCopy: the {name} has rank {}",
                memref.rank
            )));
        };
        if memref.descriptor.is_null() {
            return Err(Error::new(format!(
                "memrefCopy: the {name}'s descriptor is NULL"
            )));
        }
        let header = memref.descriptor.cast::<Header>();
        // SAFETY: a ranked descriptor is a header followed by `rank` sizes
        // and `rank` strides, all 8-byte aligned.
        let (header, sizes, strides) = unsafe {
            let sizes = header.add(1).cast::<i64>();
            (
                &*header,
                std::slice::from_raw_parts(sizes, rank),
                std::slice::from_raw_parts(sizes.add(rank), rank),
            )
        };
        let first = header
            .aligned
            .wrapping_offset((header.offset as isize).wrapping_mul(elem_size as isize));
        Ok(Side {
            first,
            sizes,
            strides,
        })
    }

    /// Whether the elements are packed in row-major order.
    fn is_contiguous(&self) -> bool {
        let mut expected = 1i64;
        for (&size, &stride) in self.sizes.iter().zip(self.strides).rev() {
            if size != 1 && stride != expected {
                return false;
            }
            expected = expected.saturating_mul(size);
        }
        true
    }
}

/// Copies one element of `E` bytes.
///
/// # Safety
///
/// `src` must be readable and `dst` writable for `E` bytes.
unsafe fn copy_element<const E: usize>(src: *const u8, dst: *mut u8) {
    // SAFETY: forwarded from the caller; no alignment is assumed.
    unsafe { ptr::write_unaligned(dst.cast::<[u8; E]>(), ptr::read_unaligned(src.cast())) }
}

/// Copies every element of `src` to the same index of `dst` (same shape,
/// rank ≥ 1, no empty dimension) through the strides, a row at a time, with
/// `copy_one` copying one element.
///
/// # Safety
///
/// Every element both sides address must be accessible for `elem_size`
/// bytes, and `copy_one` must be safe to call on any two such elements.
unsafe fn copy_strided(
    elem_size: usize,
    src: &Side,
    dst: &Side,
    copy_one: impl Fn(*const u8, *mut u8),
) {
    let last = src.sizes.len() - 1;
    let bytes = |stride: i64| (stride as isize).wrapping_mul(elem_size as isize);
    let (src_step, dst_step) = (bytes(src.strides[last]), bytes(dst.strides[last]));
    let mut index = vec![0i64; last];
    loop {
        let (mut s, mut d) = (src.first.cast_const(), dst.first);
        for (k, &i) in index.iter().enumerate() {
            s = s.wrapping_offset(bytes(i.wrapping_mul(src.strides[k])));
            d = d.wrapping_offset(bytes(i.wrapping_mul(dst.strides[k])));
        }
        for _ in 0..src.sizes[last] {
            copy_one(s, d);
            (s, d) = (s.wrapping_offset(src_step), d.wrapping_offset(dst_step));
        }
        // Advance the outer index like an odometer.
        let mut k = last;
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            index[k] += 1;
            if index[k] < src.sizes[k] {
                break;
            }
            index[k] = 0;
        }
    }
}

/// Copies `src` into `dst`, or says why not.
///
/// # Safety
///
/// As for [`memrefCopy`].
unsafe fn copy(
    elem_size: i64,
    src: *const UnrankedMemRef,
    dst: *const UnrankedMemRef,
) -> Result<(), Error> {
    let Ok(elem_size) = usize::try_from(elem_size) else {
        return Err(Error::new(format!(
            "memrefCopy: element size {elem_size} is negative"
        )));
    };
    // SAFETY: the caller passes valid memrefs (or null, reported).
    let (src, dst) = unsafe {
        (
            Side::read(src, elem_size, "source")?,
            Side::read(dst, elem_size, "destination")?,
        )
    };
    if src.sizes != dst.sizes {
        return Err(Error::new(format!(
            "memrefCopy: the source has shape {:?} but the destination {:?}",
            src.sizes, dst.sizes
        )));
    }
    let Some(count) = src.sizes.iter().try_fold(1usize, |count, &size| {
        count.checked_mul(usize::try_from(size).ok()?)
    }) else {
        return Err(Error::new(format!("memrefCopy: bad shape {:?}", src.sizes)));
    };
    if count == 0 || elem_size == 0 {
        return Ok(());
    }
    if src.sizes.is_empty() || (src.is_contiguous() && dst.is_contiguous()) {
        // SAFETY: both sides are `count` packed elements, which the caller
        // vouches for.
        unsafe { ptr::copy(src.first, dst.first, count * elem_size) };
        return Ok(());
    }
    let (src, dst) = (&src, &dst);
    // SAFETY: the caller vouches for every element both sides address, and
    // each `copy_one` copies exactly `elem_size` bytes.
    unsafe {
        match elem_size {
            1 => copy_strided(1, src, dst, |s, d| copy_element::<1>(s, d)),
            2 => copy_strided(2, src, dst, |s, d| copy_element::<2>(s, d)),
            4 => copy_strided(4, src, dst, |s, d| copy_element::<4>(s, d)),
            8 => copy_strided(8, src, dst, |s, d| copy_element::<8>(s, d)),
            16 => copy_strided(16, src, dst, |s, d| copy_element::<16>(s, d)),
            _ => copy_strided(elem_size, src, dst, |s, d| ptr::copy(s, d, elem_size)),
        }
    }
    Ok(())
}

/// Copies the memref `src` into `dst` (same shape, any strides), with the
/// ABI of MLIR's C runner utilities: `elem_size` bytes per element, both
/// arguments unranked memrefs. Uses `memmove` when both sides are contiguous
/// row-major, an element at a time otherwise. On bad arguments (null, rank
/// or shape mismatch) it copies nothing and sets the last error.
///
/// # Safety
///
/// `src` and `dst` must point to unranked memrefs whose descriptors are
/// valid for their rank, and every element they address must be readable
/// (`src`) or writable (`dst`) for `elem_size` bytes.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub unsafe extern "C" fn memrefCopy(
    elem_size: i64,
    src: *mut UnrankedMemRef,
    dst: *mut UnrankedMemRef,
) {
    guard("memrefCopy", (), || {
        // SAFETY: forwarded from the caller.
        if let Err(error) = unsafe { copy(elem_size, src, dst) } {
            set_error(error.message());
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemRef;
    use crate::error::{clear_error, last_error};

    /// The unranked view of `memref`, as MLIR builds it.
    fn unranked<T, const N: usize>(memref: &mut MemRef<T, N>) -> UnrankedMemRef {
        UnrankedMemRef {
            rank: N as i64,
            descriptor: ptr::from_mut(memref).cast(),
        }
    }

    #[test]
    fn transposed_strided_source() {
        // src: the transpose of a 3x4 row-major matrix, i.e. 4x3 with strides [1, 4].
        let mut data: Vec<f64> = (0..12).map(f64::from).collect();
        let base = MemRef::from_slice(&mut data, [3, 4]).unwrap();
        let mut src = MemRef::<f64, 2> {
            sizes: [4, 3],
            strides: [1, 4],
            ..base
        };
        let mut out = vec![0.0f64; 12];
        let mut dst = MemRef::from_slice(&mut out, [4, 3]).unwrap();
        // SAFETY: both descriptors address their vectors only.
        unsafe { memrefCopy(8, &mut unranked(&mut src), &mut unranked(&mut dst)) };
        assert_eq!(out, [0., 4., 8., 1., 5., 9., 2., 6., 10., 3., 7., 11.]);
    }

    #[test]
    fn strided_destination_and_offsets() {
        // Copy a contiguous 2x2 block into the middle of a 4x4 i32 matrix.
        let mut block = [1i32, 2, 3, 4];
        let mut src = MemRef::from_slice(&mut block, [2, 2]).unwrap();
        let mut grid = [0i32; 16];
        let base = MemRef::from_slice(&mut grid, [4, 4]).unwrap();
        let mut dst = MemRef::<i32, 2> {
            offset: 5,
            sizes: [2, 2],
            ..base
        };
        // SAFETY: both descriptors address their arrays only.
        unsafe { memrefCopy(4, &mut unranked(&mut src), &mut unranked(&mut dst)) };
        assert_eq!(grid, [0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn rank_zero_source() {
        let mut data = [1.5f32, 2.5, 3.5];
        let mut src = MemRef::<f32, 0> {
            allocated: data.as_mut_ptr(),
            aligned: data.as_mut_ptr(),
            offset: 2,
            sizes: [],
            strides: [],
        };
        let mut out = [0.0f32];
        let mut dst = MemRef::from_slice(&mut out, []).unwrap();
        // SAFETY: both descriptors address their arrays only.
        unsafe { memrefCopy(4, &mut unranked(&mut src), &mut unranked(&mut dst)) };
        assert_eq!(out, [3.5]);
    }

    #[test]
    fn contiguous_fast_path_and_odd_element_sizes() {
        let mut data: Vec<u8> = (0..24).collect();
        let mut src = MemRef::from_slice(&mut data, [2, 4, 3]).unwrap();
        let mut out = vec![0u8; 24];
        let mut dst = MemRef::from_slice(&mut out, [2, 4, 3]).unwrap();
        // SAFETY: both descriptors address their vectors only.
        unsafe { memrefCopy(1, &mut unranked(&mut src), &mut unranked(&mut dst)) };
        assert_eq!(out, data);

        // Three-byte elements, reversed through a negative stride.
        let mut bytes: Vec<u8> = (0..12).collect();
        let mut src = MemRef::<u8, 1> {
            offset: 3,
            sizes: [4],
            strides: [-1],
            ..MemRef::null()
        };
        (src.allocated, src.aligned) = (bytes.as_mut_ptr(), bytes.as_mut_ptr());
        let mut out = vec![0u8; 12];
        let mut dst = MemRef::<u8, 1> {
            sizes: [4],
            strides: [1],
            ..MemRef::null()
        };
        (dst.allocated, dst.aligned) = (out.as_mut_ptr(), out.as_mut_ptr());
        // SAFETY: elements 3, 2, 1, 0 of three bytes each lie within `bytes`.
        unsafe { memrefCopy(3, &mut unranked(&mut src), &mut unranked(&mut dst)) };
        assert_eq!(out, [9, 10, 11, 6, 7, 8, 3, 4, 5, 0, 1, 2]);
    }

    #[test]
    fn empty_memrefs_copy_nothing() {
        let mut src = MemRef::<f64, 2> {
            sizes: [0, 3],
            ..MemRef::null()
        };
        let mut dst = src;
        clear_error();
        // SAFETY: nothing is addressed.
        unsafe { memrefCopy(8, &mut unranked(&mut src), &mut unranked(&mut dst)) };
        assert_eq!(last_error(), None);
    }

    #[test]
    fn bad_arguments_are_errors() {
        let mut a = [0.0f64; 6];
        let mut b = [0.0f64; 6];
        let mut src = MemRef::from_slice(&mut a, [2, 3]).unwrap();
        let mut dst = MemRef::from_slice(&mut b, [3, 2]).unwrap();
        // SAFETY: the shapes differ, so nothing is copied.
        unsafe { memrefCopy(8, &mut unranked(&mut src), &mut unranked(&mut dst)) };
        assert!(last_error().unwrap().message().contains("shape [2, 3]"));
        // SAFETY: null is reported.
        unsafe { memrefCopy(8, ptr::null_mut(), &mut unranked(&mut dst)) };
        assert_eq!(
            last_error().unwrap().message(),
            "memrefCopy: the source is NULL"
        );
        let mut vector = MemRef::from_slice(&mut b, [6]).unwrap();
        // SAFETY: the ranks differ, so nothing is copied.
        unsafe { memrefCopy(8, &mut unranked(&mut src), &mut unranked(&mut vector)) };
        assert!(last_error().unwrap().message().contains("shape"));
    }
}

//! `MemRef`, the descriptor through which compiled code reads and writes arrays.

use crate::error::Error;
use crate::ffi;
use std::ptr;

/// The descriptor of a rank-`N` memref of `T`, laid out as MLIR's LLVM
/// lowering passes it (and as `moonrt_memref_<elt>_<N>d` in `moonrt.h`):
/// the element at index `i` lives at
/// `aligned + offset + i[0] * strides[0] + … + i[N-1] * strides[N-1]`.
/// For `N = 0` the empty arrays take no room: `{allocated, aligned, offset}`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MemRef<T, const N: usize> {
    /// The start of the allocation, what `free` must be given if the buffer
    /// is fresh from compiled code.
    pub allocated: *mut T,
    /// The aligned start of the data; offsets count from here.
    pub aligned: *mut T,
    /// The first element's distance from `aligned`, in elements.
    pub offset: i64,
    /// The size of each dimension.
    pub sizes: [i64; N],
    /// The distance between neighbours along each dimension, in elements.
    pub strides: [i64; N],
}

impl<T, const N: usize> MemRef<T, N> {
    /// A descriptor of `data` as a row-major array of the given shape; the
    /// slice must hold exactly as many elements as the shape (one for rank 0).
    pub fn from_slice(data: &mut [T], shape: [usize; N]) -> Result<Self, Error> {
        let count = shape
            .iter()
            .try_fold(1usize, |count, &size| count.checked_mul(size));
        if count != Some(data.len()) {
            return Err(Error::new(format!(
                "shape {shape:?} needs {} elements but the slice has {}",
                count.map_or_else(|| "too many".to_string(), |count| count.to_string()),
                data.len()
            )));
        }
        let mut sizes = [0i64; N];
        let mut strides = [0i64; N];
        let mut stride = 1i64;
        for k in (0..N).rev() {
            sizes[k] = i64::try_from(shape[k]).map_err(|_| {
                Error::new(format!(
                    "dimension {k} has size {}, too large for i64",
                    shape[k]
                ))
            })?;
            strides[k] = stride;
            stride = stride.saturating_mul(sizes[k]);
        }
        let data = data.as_mut_ptr();
        Ok(MemRef {
            allocated: data,
            aligned: data,
            offset: 0,
            sizes,
            strides,
        })
    }

    /// A descriptor with null pointers and zero sizes, for result slots that
    /// compiled code fills in.
    pub fn null() -> Self {
        MemRef {
            allocated: ptr::null_mut(),
            aligned: ptr::null_mut(),
            offset: 0,
            sizes: [0; N],
            strides: [0; N],
        }
    }

    /// The size of each dimension (negative sizes read as 0).
    pub fn shape(&self) -> [usize; N] {
        self.sizes.map(|size| usize::try_from(size).unwrap_or(0))
    }

    /// The number of elements (1 for rank 0).
    pub fn len(&self) -> usize {
        self.shape()
            .iter()
            .fold(1usize, |count, &size| count.saturating_mul(size))
    }

    /// Whether the memref has no elements (some dimension is 0).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements in row-major order, read through the strides and offset.
    ///
    /// # Safety
    ///
    /// Every element the descriptor addresses must be readable and initialised.
    pub unsafe fn to_vec(&self) -> Vec<T>
    where
        T: Copy,
    {
        let shape = self.shape();
        let mut elements = Vec::with_capacity(self.len());
        if self.is_empty() {
            return elements;
        }
        let mut index = [0usize; N];
        loop {
            let offset = index
                .iter()
                .zip(self.strides)
                .fold(self.offset, |offset, (&i, stride)| {
                    offset.wrapping_add((i as i64).wrapping_mul(stride))
                });
            // SAFETY: the caller vouches for every addressed element.
            elements.push(unsafe { *self.aligned.offset(offset as isize) });
            // Advance `index` like an odometer, the last dimension fastest.
            let mut k = N;
            loop {
                if k == 0 {
                    return elements;
                }
                k -= 1;
                index[k] += 1;
                if index[k] < shape[k] {
                    break;
                }
                index[k] = 0;
            }
        }
    }

    /// Checks the sizes against the static ones a compiled function expects
    /// (`None` for a dynamic dimension); the error names the first
    /// mismatching dimension and both sizes.
    pub fn check_static_shape(&self, expected: [Option<usize>; N]) -> Result<(), Error> {
        for (k, (&size, expected)) in self.sizes.iter().zip(expected).enumerate() {
            match expected {
                Some(expected) if usize::try_from(size) != Ok(expected) => {
                    return Err(Error::new(format!(
                        "dimension {k} has size {size}, expected {expected}"
                    )));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Releases the buffer with libc `free`, for memrefs that compiled code
    /// returned in freshly allocated (`memref.alloc`) memory.
    ///
    /// # Safety
    ///
    /// `allocated` must be null or come from libc's `malloc` and be released
    /// only once; nothing may use the buffer afterwards (mind aliases of an
    /// argument, which must not be freed this way).
    pub unsafe fn free_allocated(self) {
        // SAFETY: the caller vouches that `allocated` is malloc'd and live.
        unsafe { ffi::free(self.allocated.cast()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::offset_of;

    #[test]
    fn layout_matches_the_c_struct() {
        assert_eq!(size_of::<MemRef<f64, 2>>(), 56);
        assert_eq!(offset_of!(MemRef<f64, 2>, allocated), 0);
        assert_eq!(offset_of!(MemRef<f64, 2>, aligned), 8);
        assert_eq!(offset_of!(MemRef<f64, 2>, offset), 16);
        assert_eq!(offset_of!(MemRef<f64, 2>, sizes), 24);
        assert_eq!(offset_of!(MemRef<f64, 2>, strides), 40);
        assert_eq!(size_of::<MemRef<f32, 0>>(), 24);
        assert_eq!(offset_of!(MemRef<f32, 0>, offset), 16);
        assert_eq!(size_of::<MemRef<bool, 4>>(), 24 + 64);
        assert_eq!(align_of::<MemRef<bool, 1>>(), 8);
    }

    #[test]
    fn from_slice_is_row_major() {
        let mut data = [0.0f64; 24];
        let m = MemRef::from_slice(&mut data, [2, 3, 4]).unwrap();
        assert_eq!(m.sizes, [2, 3, 4]);
        assert_eq!(m.strides, [12, 4, 1]);
        assert_eq!(m.offset, 0);
        assert_eq!(m.aligned, data.as_mut_ptr());
        assert_eq!(m.shape(), [2, 3, 4]);
        assert_eq!(m.len(), 24);
        assert!(!m.is_empty());
    }

    #[test]
    fn from_slice_shape_errors() {
        let mut data = [1i32; 6];
        let error = MemRef::from_slice(&mut data, [2, 2]).unwrap_err();
        assert_eq!(
            error.message(),
            "shape [2, 2] needs 4 elements but the slice has 6"
        );
        assert!(MemRef::from_slice(&mut data, [usize::MAX, 2]).is_err());
        assert!(MemRef::<i32, 0>::from_slice(&mut data, []).is_err());
        assert!(MemRef::<i32, 0>::from_slice(&mut data[..1], []).is_ok());
        let mut empty: [i32; 0] = [];
        let m = MemRef::from_slice(&mut empty, [3, 0]).unwrap();
        assert!(m.is_empty());
        // SAFETY: nothing is read from an empty memref.
        assert_eq!(unsafe { m.to_vec() }, Vec::<i32>::new());
    }

    #[test]
    fn to_vec_on_a_strided_view() {
        // A 3x4 matrix; view its transpose's columns 1..3 (a 2x3 window of
        // the 4x3 transpose, starting at row 1).
        let mut data: Vec<f32> = (0..12).map(|x| x as f32).collect();
        let base = MemRef::from_slice(&mut data, [3, 4]).unwrap();
        // SAFETY: every addressed element is in `data`.
        assert_eq!(unsafe { base.to_vec() }, data);
        let view = MemRef::<f32, 2> {
            offset: 1,
            sizes: [2, 3],
            strides: [1, 4],
            ..base
        };
        // SAFETY: offsets 1 + i + 4j with i < 2, j < 3 lie within `data`.
        assert_eq!(unsafe { view.to_vec() }, [1.0, 5.0, 9.0, 2.0, 6.0, 10.0]);
        let scalar = MemRef::<f32, 0> {
            allocated: base.allocated,
            aligned: base.aligned,
            offset: 7,
            sizes: [],
            strides: [],
        };
        // SAFETY: element 7 is in `data`.
        assert_eq!(unsafe { scalar.to_vec() }, [7.0]);
        let broadcast = MemRef::<f32, 1> {
            offset: 2,
            sizes: [3],
            strides: [0],
            ..MemRef::null()
        };
        let broadcast = MemRef {
            allocated: base.allocated,
            aligned: base.aligned,
            ..broadcast
        };
        // SAFETY: element 2 is in `data`.
        assert_eq!(unsafe { broadcast.to_vec() }, [2.0; 3]);
    }

    #[test]
    fn static_shape_checks() {
        let mut data = [0u8; 12];
        let m = MemRef::from_slice(&mut data, [3, 4]).unwrap();
        assert!(m.check_static_shape([Some(3), Some(4)]).is_ok());
        assert!(m.check_static_shape([None, Some(4)]).is_ok());
        assert!(m.check_static_shape([None, None]).is_ok());
        let error = m.check_static_shape([Some(3), Some(5)]).unwrap_err();
        assert_eq!(error.message(), "dimension 1 has size 4, expected 5");
        assert!(MemRef::<u8, 0>::null().check_static_shape([]).is_ok());
    }

    #[test]
    fn null_and_free() {
        let m = MemRef::<f64, 3>::null();
        assert!(m.aligned.is_null());
        assert!(m.is_empty());
        let buffer = crate::alloc::moonrt_aligned_alloc(16, 8 * 4);
        let mut m = MemRef::<f64, 1>::null();
        m.allocated = buffer.cast();
        // SAFETY: a fresh libc allocation, released once.
        unsafe { m.free_allocated() };
    }
}

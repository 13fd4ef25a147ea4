//! The arguments of a workload function as flat buffers: GradBench's inputs
//! can hold millions of numbers (ba's expanded observations, the Jacobian
//! blocks it writes), so they are bound straight from `Vec`s, without a
//! JSON value per number (what `moonc run`'s `--args` binding takes).

use moonc_call::tensor::Tensor;
use moonc_codegen::{Scalar, Signature, ValueType};
use std::ffi::c_void;

/// One argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// An f64 (or f32) scalar.
    Float(f64),
    /// An index or integer scalar.
    Int(i64),
    /// A memref.
    Array(Array),
}

/// A row-major array: a memref argument's contents.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    pub shape: Vec<usize>,
    pub data: Data,
}

/// An array's elements.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    F64(Vec<f64>),
    I32(Vec<i32>),
}

impl Array {
    /// f64s shaped `shape` (row-major).
    pub fn f64(shape: &[usize], data: Vec<f64>) -> Array {
        debug_assert_eq!(shape.iter().product::<usize>(), data.len());
        Array {
            shape: shape.to_vec(),
            data: Data::F64(data),
        }
    }

    /// i32s shaped `shape` (row-major).
    pub fn i32(shape: &[usize], data: Vec<i32>) -> Array {
        debug_assert_eq!(shape.iter().product::<usize>(), data.len());
        Array {
            shape: shape.to_vec(),
            data: Data::I32(data),
        }
    }

    /// f64 zeros shaped `shape`.
    pub fn zeros(shape: &[usize]) -> Array {
        Array::f64(shape, vec![0.0; shape.iter().product()])
    }

    /// The elements as numbers, with the shape.
    pub fn tensor(&self) -> Tensor {
        match &self.data {
            Data::F64(data) => Tensor::new(Scalar::F64, &self.shape, data.clone()),
            Data::I32(data) => Tensor::new(
                Scalar::I32,
                &self.shape,
                data.iter().map(|&x| x as f64).collect(),
            ),
        }
    }

    fn element(&self) -> Scalar {
        match self.data {
            Data::F64(_) => Scalar::F64,
            Data::I32(_) => Scalar::I32,
        }
    }

    fn address(&mut self) -> i64 {
        match &mut self.data {
            Data::F64(data) => data.as_mut_ptr() as i64,
            Data::I32(data) => data.as_mut_ptr() as i64,
        }
    }
}

/// The memory a packed entry point reads its arguments from: one cell per
/// scalar (its bits) and per memref (its descriptor: allocated, aligned,
/// offset, sizes, strides), pointing into the arrays of `args`.
pub struct Cells(Vec<Box<[i64]>>);

impl Cells {
    /// Checks `args` against `signature`'s arguments and lays them out.
    /// The arrays must neither move nor change shape while the cells are
    /// used.
    pub fn bind(signature: &Signature, args: &mut [Arg]) -> Result<Cells, String> {
        let name = &signature.name;
        if args.len() != signature.args.len() {
            return Err(format!(
                "internal error: @{name} takes {} arguments, {} were made",
                signature.args.len(),
                args.len()
            ));
        }
        let mut cells = vec![];
        for (index, (t, arg)) in signature.args.iter().zip(args.iter_mut()).enumerate() {
            let cell =
                cell(t, arg).map_err(|e| format!("argument #{index} of @{name} ({t}): {e}"))?;
            cells.push(cell);
        }
        Ok(Cells(cells))
    }

    /// One slot per LLVM-level parameter, in order.
    pub fn slots(&mut self) -> Vec<*mut c_void> {
        self.0
            .iter_mut()
            .flat_map(|cell| cell.iter_mut().map(|f| (f as *mut i64).cast::<c_void>()))
            .collect()
    }
}

/// The cell of one argument.
fn cell(t: &ValueType, arg: &mut Arg) -> Result<Box<[i64]>, String> {
    let bits = match (t, arg) {
        (ValueType::Scalar(Scalar::F64), Arg::Float(x)) => x.to_bits() as i64,
        (ValueType::Scalar(Scalar::F32), Arg::Float(x)) => (*x as f32).to_bits() as i64,
        (ValueType::Scalar(Scalar::Index | Scalar::I64), Arg::Int(n)) => *n,
        (ValueType::Scalar(Scalar::I32), Arg::Int(n)) => {
            i32::try_from(*n).map_err(|_| format!("{n} does not fit in i32"))? as i64
        }
        (ValueType::MemRef { element, shape, .. }, Arg::Array(array)) => {
            if array.element() != *element {
                return Err(format!("given {}s", array.element().mlir()));
            }
            let fits = shape.len() == array.shape.len()
                && shape
                    .iter()
                    .zip(&array.shape)
                    .all(|(s, a)| s.is_none_or(|s| s == *a));
            if !fits {
                return Err(format!(
                    "given an array of shape [{}]",
                    (array.shape.iter().map(ToString::to_string))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if !t.accepts_row_major(&array.shape) {
                return Err("not a contiguous row-major memref".into());
            }
            let address = array.address();
            let mut descriptor = vec![address, address, 0];
            descriptor.extend(array.shape.iter().map(|&n| n as i64));
            let rank = array.shape.len();
            let mut strides = vec![0i64; rank];
            let mut stride = 1i64;
            for k in (0..rank).rev() {
                strides[k] = stride;
                stride *= array.shape[k] as i64;
            }
            descriptor.extend(strides);
            return Ok(descriptor.into_boxed_slice());
        }
        (_, given) => {
            return Err(format!(
                "given {}",
                match given {
                    Arg::Float(_) => "a float",
                    Arg::Int(_) => "an integer",
                    Arg::Array(_) => "an array",
                }
            ));
        }
    };
    Ok(vec![bits].into_boxed_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_checked_and_laid_out() {
        let memref = |element, shape| ValueType::MemRef {
            element,
            shape,
            layout: None,
        };
        let signature = Signature {
            name: "f".into(),
            args: vec![
                memref(Scalar::F64, vec![None, Some(2)]),
                ValueType::Scalar(Scalar::F64),
                ValueType::Scalar(Scalar::Index),
                memref(Scalar::I32, vec![None]),
            ],
            results: vec![],
        };
        let mut args = vec![
            Arg::Array(Array::f64(&[3, 2], vec![1.0; 6])),
            Arg::Float(0.5),
            Arg::Int(7),
            Arg::Array(Array::i32(&[1], vec![4])),
        ];
        let mut cells = Cells::bind(&signature, &mut args).unwrap();
        let slots = cells.slots();
        assert_eq!(slots.len(), 7 + 1 + 1 + 5);
        // SAFETY: the slots point into the live cells.
        unsafe {
            assert_eq!(*slots[3].cast::<i64>(), 3, "size 0");
            assert_eq!(*slots[5].cast::<i64>(), 2, "stride 0");
            assert_eq!(*slots[7].cast::<f64>(), 0.5);
            assert_eq!(*slots[8].cast::<i64>(), 7);
        }
        args[0] = Arg::Array(Array::f64(&[3, 3], vec![1.0; 9]));
        let error = Cells::bind(&signature, &mut args).err().unwrap();
        assert!(error.contains("given an array of shape [3, 3]"), "{error}");
        args[0] = Arg::Float(1.0);
        assert!(Cells::bind(&signature, &mut args).is_err());
    }
}

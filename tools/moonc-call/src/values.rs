//! Values that cross into and out of compiled code: `--args` JSON bound to
//! scalars and memref buffers, the slots a packed entry point reads, and
//! results and memref arguments after the call, as JSON or as numbers
//! ([`Tensor`]s).

use crate::{
    failure::{Failure, Outcome},
    json::Json,
    tensor::{Tensor, nest},
};
use moonc_codegen::{Scalar, Signature, ValueType};
use serde_json::Value;
use std::ffi::c_void;

/// Reads `--args`: inline JSON, or `@path` naming a JSON file.
pub fn parse_args(text: &str) -> Outcome<Vec<Value>> {
    let (source, origin) = match text.strip_prefix('@') {
        Some(path) => (
            std::fs::read_to_string(path)
                .map_err(|e| Failure::new(format!("--args: cannot read {path}: {e}")))?,
            path.to_string(),
        ),
        None => (text.to_string(), "--args".to_string()),
    };
    let value: Value = serde_json::from_str(&source)
        .map_err(|e| Failure::new(format!("--args: {origin} is not valid JSON: {e}")))?;
    match value {
        Value::Array(values) => Ok(values),
        other => Err(Failure::new(format!(
            "--args must be a JSON array with one value per argument, got `{other}`"
        ))),
    }
}

/// The bits of one scalar (low `size()` bytes, little-endian), from JSON.
fn encode(scalar: Scalar, value: &Value) -> Result<u64, String> {
    if scalar.is_float() {
        let x = match value {
            Value::Number(n) => n.as_f64().ok_or("a number out of range")?,
            Value::String(s) => match s.as_str() {
                "NaN" | "nan" => f64::NAN,
                "Infinity" | "inf" => f64::INFINITY,
                "-Infinity" | "-inf" => f64::NEG_INFINITY,
                _ => return Err(format!("expected a number, got the string {value}")),
            },
            other => return Err(format!("expected a number, got `{other}`")),
        };
        return Ok(match scalar {
            Scalar::F32 => (x as f32).to_bits() as u64,
            _ => x.to_bits(),
        });
    }
    // Signed ranges for every width, as results are printed: a value that
    // only fits as unsigned would come back as another number.
    let (low, high): (i128, i128) = match scalar {
        Scalar::I1 => (0, 1),
        Scalar::I8 => (i8::MIN as i128, i8::MAX as i128),
        Scalar::I16 => (i16::MIN as i128, i16::MAX as i128),
        Scalar::I32 => (i32::MIN as i128, i32::MAX as i128),
        _ => (i64::MIN as i128, i64::MAX as i128),
    };
    let n: i128 = match value {
        Value::Bool(b) if scalar == Scalar::I1 => *b as i128,
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i as i128,
            (None, Some(u)) => u as i128,
            _ => return Err(format!("expected an integer, got {n}")),
        },
        other => return Err(format!("expected an integer, got `{other}`")),
    };
    if n < low || n > high {
        return Err(format!(
            "{n} does not fit in {} ({low} to {high})",
            scalar.mlir()
        ));
    }
    Ok(n as u64)
}

/// The JSON of the scalar stored at `address`.
///
/// # Safety
/// `address` must point to a readable value of type `scalar`.
unsafe fn decode(scalar: Scalar, address: *const u8) -> Json {
    // SAFETY: per the contract; unaligned reads for packed memref data.
    unsafe {
        match scalar {
            Scalar::F32 => Json::f32(address.cast::<f32>().read_unaligned()),
            Scalar::F64 => Json::f64(address.cast::<f64>().read_unaligned()),
            Scalar::I1 => Json::int((address.read() & 1) as i64),
            Scalar::I8 => Json::int(address.cast::<i8>().read() as i64),
            Scalar::I16 => Json::int(address.cast::<i16>().read_unaligned() as i64),
            Scalar::I32 => Json::int(address.cast::<i32>().read_unaligned() as i64),
            Scalar::I64 | Scalar::Index => Json::int(address.cast::<i64>().read_unaligned()),
        }
    }
}

/// The number stored at `address` (integers beyond 2^53 are rounded).
///
/// # Safety
/// `address` must point to a readable value of type `scalar`.
unsafe fn number(scalar: Scalar, address: *const u8) -> f64 {
    // SAFETY: per the contract; unaligned reads for packed memref data.
    unsafe {
        match scalar {
            Scalar::F32 => address.cast::<f32>().read_unaligned() as f64,
            Scalar::F64 => address.cast::<f64>().read_unaligned(),
            Scalar::I1 => (address.read() & 1) as f64,
            Scalar::I8 => address.cast::<i8>().read() as f64,
            Scalar::I16 => address.cast::<i16>().read_unaligned() as f64,
            Scalar::I32 => address.cast::<i32>().read_unaligned() as f64,
            Scalar::I64 | Scalar::Index => address.cast::<i64>().read_unaligned() as f64,
        }
    }
}

/// The shape of the memref described by `descriptor` (`allocated,
/// aligned, offset, sizes.., strides..`) and the address of each of its
/// elements, in row-major order.
fn memref_elements(element: Scalar, descriptor: &[i64]) -> (Vec<usize>, Vec<*const u8>) {
    let rank = (descriptor.len() - 3) / 2;
    let aligned = descriptor[1] as *const u8;
    let sizes = &descriptor[3..3 + rank];
    let strides = &descriptor[3 + rank..];
    let shape: Vec<usize> = sizes.iter().map(|&n| n.max(0) as usize).collect();
    let count: usize = shape.iter().product();
    let mut addresses = Vec::with_capacity(count);
    let mut index = vec![0usize; rank];
    for _ in 0..count {
        let position = descriptor[2]
            + index
                .iter()
                .zip(strides)
                .map(|(&i, &s)| i as i64 * s)
                .sum::<i64>();
        addresses.push(aligned.wrapping_offset((position * element.size() as i64) as isize));
        // The next row-major index: the last dimension moves fastest.
        for k in (0..rank).rev() {
            index[k] += 1;
            if index[k] < shape[k] {
                break;
            }
            index[k] = 0;
        }
    }
    (shape, addresses)
}

/// The nested-list JSON of the memref described by `descriptor`.
///
/// # Safety
/// The descriptor must describe readable memory of `element`s.
unsafe fn memref_json(element: Scalar, descriptor: &[i64]) -> Json {
    let (shape, addresses) = memref_elements(element, descriptor);
    // SAFETY: the addresses lie in the descriptor's memory.
    let leaves: Vec<Json> = addresses
        .iter()
        .map(|&a| unsafe { decode(element, a) })
        .collect();
    nest(&shape, &leaves, &Json::clone, &Json::List)
}

/// The contents of the memref described by `descriptor`, as numbers.
///
/// # Safety
/// The descriptor must describe readable memory of `element`s.
unsafe fn memref_tensor(element: Scalar, descriptor: &[i64]) -> Tensor {
    let (shape, addresses) = memref_elements(element, descriptor);
    Tensor {
        element,
        shape,
        // SAFETY: the addresses lie in the descriptor's memory.
        data: addresses
            .iter()
            .map(|&a| unsafe { number(element, a) })
            .collect(),
    }
}

/// Collects the leaves of a nested list of depth `rank`, and its shape.
pub fn flatten<'v>(
    value: &'v Value,
    rank: usize,
    shape: &mut Vec<usize>,
    leaves: &mut Vec<&'v Value>,
    path: &mut Vec<usize>,
) -> Result<(), String> {
    let at = || path.iter().map(|i| format!("[{i}]")).collect::<String>();
    let depth = path.len();
    match value {
        Value::Array(items) if depth < rank => {
            if shape.len() == depth {
                shape.push(items.len());
            } else if shape[depth] != items.len() {
                return Err(format!(
                    "the list is ragged: element {} has {} items where {} were expected",
                    at(),
                    items.len(),
                    shape[depth]
                ));
            }
            for (index, item) in items.iter().enumerate() {
                path.push(index);
                flatten(item, rank, shape, leaves, path)?;
                path.pop();
            }
            Ok(())
        }
        Value::Array(_) => Err(format!(
            "expected a nested list of depth {rank}, but element {} is a list",
            at()
        )),
        _ if depth < rank => Err(format!(
            "expected a nested list of depth {rank}, but element {} is `{value}`",
            if depth == 0 {
                "itself".to_string()
            } else {
                at()
            }
        )),
        _ => {
            leaves.push(value);
            Ok(())
        }
    }
}

/// One argument, in the memory the call reads.
enum Bound {
    /// A scalar of type `.0`, its bits in the low bytes of `.1`.
    Scalar(Scalar, Box<u64>),
    MemRef {
        element: Scalar,
        /// The buffer; the descriptor points at its first 64-byte boundary.
        data: Vec<u64>,
        descriptor: Vec<i64>,
    },
}

/// The arguments of one call, bound from `--args`.
pub struct Arguments(Vec<Bound>);

impl Arguments {
    /// Checks `values` against `signature` (arity, types, shapes) and lays
    /// them out for the call.
    pub fn bind(signature: &Signature, values: &[Value]) -> Outcome<Arguments> {
        let name = &signature.name;
        if values.len() != signature.args.len() {
            return Err(Failure::new(format!(
                "--args has {} value{} but @{name} takes {} argument{} ({})",
                values.len(),
                if values.len() == 1 { "" } else { "s" },
                signature.args.len(),
                if signature.args.len() == 1 { "" } else { "s" },
                signature
                    .args
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let bound = signature
            .args
            .iter()
            .zip(values)
            .enumerate()
            .map(|(index, (t, value))| {
                bind_one(t, value).map_err(|message| {
                    Failure::new(format!(
                        "--args: argument #{index} of @{name} ({t}): {message}"
                    ))
                })
            })
            .collect::<Outcome<_>>()?;
        Ok(Arguments(bound))
    }

    /// One slot per LLVM-level parameter, each holding the address of its
    /// value (a memref contributes one slot per descriptor field).
    pub fn slots(&mut self) -> Vec<*mut c_void> {
        let mut slots = vec![];
        for bound in &mut self.0 {
            match bound {
                Bound::Scalar(_, bits) => slots.push((&mut **bits as *mut u64).cast()),
                Bound::MemRef { descriptor, .. } => slots.extend(
                    descriptor
                        .iter_mut()
                        .map(|f| (f as *mut i64).cast::<c_void>()),
                ),
            }
        }
        slots
    }

    /// The current value of every argument: a scalar's value, a memref's
    /// contents.
    pub fn tensors(&self) -> Vec<Tensor> {
        self.0
            .iter()
            .map(|bound| match bound {
                Bound::Scalar(scalar, bits) => Tensor {
                    element: *scalar,
                    shape: vec![],
                    // SAFETY: the low bytes of `bits` hold the value.
                    data: vec![unsafe { number(*scalar, (&**bits as *const u64).cast()) }],
                },
                // SAFETY: our own descriptor over our own buffer.
                Bound::MemRef {
                    element,
                    descriptor,
                    ..
                } => unsafe { memref_tensor(*element, descriptor) },
            })
            .collect()
    }

    /// Sets every element of the memref arguments at `indices` to zero, in
    /// place (the buffers do not move); scalars there are left alone.
    pub fn zero(&mut self, indices: std::ops::Range<usize>) {
        for bound in &mut self.0[indices] {
            if let Bound::MemRef { data, .. } = bound {
                data.fill(0);
            }
        }
    }

    /// Copies every memref argument to a new device buffer and points its
    /// descriptor there (the host buffer stays, for [`Arguments::move_back_from_device`]).
    pub fn move_to_device(&mut self) -> Result<OnDevice, String> {
        let mut copies = vec![];
        for (index, bound) in self.0.iter_mut().enumerate() {
            let Bound::MemRef {
                element,
                descriptor,
                ..
            } = bound
            else {
                continue;
            };
            let bytes = memref_bytes(*element, descriptor);
            // SAFETY: our own descriptor over our own buffer, contiguous
            // from its aligned pointer (offset 0, row-major).
            let host = unsafe { std::slice::from_raw_parts(descriptor[1] as *const u8, bytes) };
            let buffer = moonrt::gpu::DeviceBuffer::from_slice(host)?;
            copies.push((index, [descriptor[0], descriptor[1]], buffer));
            let device = copies[copies.len() - 1].2.as_ptr() as i64;
            descriptor[0] = device;
            descriptor[1] = device;
        }
        Ok(OnDevice(copies))
    }

    /// Copies the device buffers of [`Arguments::move_to_device`] back to the
    /// host buffers and points the descriptors at them again.
    pub fn move_back_from_device(&mut self, on_device: OnDevice) -> Result<(), String> {
        let mut first_error = None;
        for (index, host, buffer) in on_device.0 {
            let Bound::MemRef {
                element,
                descriptor,
                ..
            } = &mut self.0[index]
            else {
                continue;
            };
            descriptor[0] = host[0];
            descriptor[1] = host[1];
            let bytes = memref_bytes(*element, descriptor);
            // SAFETY: as in `move_to_device`, now writable.
            let host = unsafe { std::slice::from_raw_parts_mut(host[1] as *mut u8, bytes) };
            if let Err(e) = buffer.copy_to(host) {
                first_error.get_or_insert(e);
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    /// `null` for each scalar, the current contents of each memref.
    pub fn to_json(&self) -> Json {
        Json::List(
            self.0
                .iter()
                .map(|bound| match bound {
                    Bound::Scalar(..) => Json::Null,
                    // SAFETY: our own descriptor over our own buffer.
                    Bound::MemRef {
                        element,
                        descriptor,
                        ..
                    } => unsafe { memref_json(*element, descriptor) },
                })
                .collect(),
        )
    }
}

/// Device copies of the memref arguments of one call (`--gpu`): for each,
/// its index, its host descriptor's two pointers and the device buffer.
pub struct OnDevice(Vec<(usize, [i64; 2], moonrt::gpu::DeviceBuffer)>);

/// The size in bytes of the contiguous memref described by `descriptor`.
fn memref_bytes(element: Scalar, descriptor: &[i64]) -> usize {
    let rank = (descriptor.len() - 3) / 2;
    descriptor[3..3 + rank]
        .iter()
        .map(|&n| n.max(0) as usize)
        .product::<usize>()
        * element.size()
}

fn bind_one(t: &ValueType, value: &Value) -> Result<Bound, String> {
    let ValueType::MemRef { element, shape, .. } = t else {
        return Ok(Bound::Scalar(
            t.element(),
            Box::new(encode(t.element(), value)?),
        ));
    };
    let rank = shape.len();
    let mut actual = vec![];
    let mut leaves = vec![];
    flatten(value, rank, &mut actual, &mut leaves, &mut vec![])?;
    // Dimensions under an empty list are unseen: take the static size or 0.
    let seen = actual.len();
    actual.extend(shape[seen..].iter().map(|d| d.unwrap_or(0)));
    let expected: Vec<String> = shape
        .iter()
        .map(|d| d.map_or("?".to_string(), |n| n.to_string()))
        .collect();
    if shape
        .iter()
        .zip(&actual)
        .any(|(s, a)| s.is_some_and(|s| s != *a))
    {
        return Err(format!(
            "the list has shape [{}] but the memref's shape is [{}]",
            actual
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            expected.join(", ")
        ));
    }
    if !t.accepts_row_major(&actual) {
        return Err(
            "its static strides or offset do not describe a contiguous row-major buffer, \
             which is what moonc passes"
                .to_string(),
        );
    }
    let size = element.size();
    // Room to start the elements on a cache line (64 bytes), so that a
    // vectorized loop's speed does not depend on where the allocator put
    // the buffer.
    let words = (leaves.len() * size).div_ceil(8).max(1);
    let mut data = vec![0u64; words + 7];
    let skip = data.as_ptr().align_offset(64);
    let bytes = data[skip..].as_mut_ptr().cast::<u8>();
    for (index, leaf) in leaves.iter().enumerate() {
        let bits = encode(*element, leaf).map_err(|e| format!("element #{index}: {e}"))?;
        // SAFETY: `data` holds leaves.len() * size bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(
                bits.to_le_bytes().as_ptr(),
                bytes.add(index * size),
                size,
            )
        };
    }
    let mut descriptor = vec![bytes as i64, bytes as i64, 0];
    descriptor.extend(actual.iter().map(|&n| n as i64));
    let mut stride = 1i64;
    let mut strides = vec![0i64; rank];
    for k in (0..rank).rev() {
        strides[k] = stride;
        stride *= actual[k] as i64;
    }
    descriptor.extend(strides);
    Ok(Bound::MemRef {
        element: *element,
        data,
        descriptor,
    })
}

/// Storage for the results of one call.
pub struct Results {
    types: Vec<ValueType>,
    storage: Vec<Vec<i64>>,
}

impl Results {
    /// Room for `signature`'s results.
    pub fn new(signature: &Signature) -> Results {
        let storage = signature
            .results
            .iter()
            .map(|t| match t {
                ValueType::MemRef { .. } => vec![0i64; 3 + 2 * t.rank()],
                ValueType::Scalar(_) => vec![0i64; 1],
            })
            .collect();
        Results {
            types: signature.results.clone(),
            storage,
        }
    }

    /// One slot per result: the address its value is stored at.
    pub fn slots(&mut self) -> Vec<*mut c_void> {
        self.storage
            .iter_mut()
            .map(|s| s.as_mut_ptr().cast())
            .collect()
    }

    /// Frees every memref result whose buffer is not one of `arguments`'
    /// (so a repeated call does not leak what it allocates).
    pub fn release_fresh(&mut self, arguments: &Arguments) {
        let given: Vec<i64> = arguments
            .0
            .iter()
            .filter_map(|b| match b {
                Bound::MemRef { descriptor, .. } => Some(descriptor[0]),
                Bound::Scalar(..) => None,
            })
            .collect();
        // `memref.get_global` results carry this marker instead of a pointer.
        const GLOBAL: i64 = 0xdeadbeef;
        for (t, storage) in self.types.iter().zip(&mut self.storage) {
            let allocated = storage[0];
            if matches!(t, ValueType::MemRef { .. })
                && ![0, GLOBAL].contains(&allocated)
                && !given.contains(&allocated)
            {
                // SAFETY: compiled code allocates memref buffers with malloc.
                unsafe { libc::free(allocated as *mut c_void) };
                storage[0] = 0;
            }
        }
    }

    /// The results as numbers: a scalar's value, a memref's contents.
    ///
    /// # Safety
    /// Only after a call stored every result.
    pub unsafe fn tensors(&self) -> Vec<Tensor> {
        self.types
            .iter()
            .zip(&self.storage)
            // SAFETY: as in `to_json`.
            .map(|(t, s)| unsafe {
                match t {
                    ValueType::Scalar(scalar) => Tensor {
                        element: *scalar,
                        shape: vec![],
                        data: vec![number(*scalar, s.as_ptr().cast())],
                    },
                    ValueType::MemRef { element, .. } => memref_tensor(*element, s),
                }
            })
            .collect()
    }

    /// The results as JSON: numbers, and nested lists for memrefs.
    ///
    /// # Safety
    /// Only after a call stored every result.
    pub unsafe fn to_json(&self) -> Json {
        Json::List(
            self.types
                .iter()
                .zip(&self.storage)
                // SAFETY: the call wrote these; memref results point to
                // memory the compiled code allocated or was given.
                .map(|(t, s)| unsafe {
                    match t {
                        ValueType::Scalar(scalar) => decode(*scalar, s.as_ptr().cast()),
                        ValueType::MemRef { element, .. } => memref_json(*element, s),
                    }
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scalars_encode_exactly_and_check_ranges() {
        assert_eq!(encode(Scalar::F64, &json!(0.1)), Ok(0.1f64.to_bits()));
        assert_eq!(
            encode(Scalar::F32, &json!(0.1)),
            Ok(0.1f32.to_bits() as u64)
        );
        assert!(encode(Scalar::F64, &json!("NaN")).is_ok_and(|b| f64::from_bits(b).is_nan()));
        assert_eq!(encode(Scalar::I1, &json!(true)), Ok(1));
        assert!(encode(Scalar::I1, &json!(2)).is_err());
        assert!(encode(Scalar::I32, &json!(1.5)).is_err());
        assert_eq!(encode(Scalar::I8, &json!(-1)), Ok(-1i64 as u64));
        assert!(encode(Scalar::Index, &json!([1])).is_err());
    }

    #[test]
    fn zeroing_memrefs_in_place() {
        let memref = ValueType::MemRef {
            element: Scalar::F32,
            shape: vec![Some(3)],
            layout: None,
        };
        let signature = Signature {
            name: "f".into(),
            args: vec![memref.clone(), ValueType::Scalar(Scalar::F64), memref],
            results: vec![],
        };
        let values = [json!([1, 2, 3]), json!(4.5), json!([5, 6, 7])];
        let mut arguments = Arguments::bind(&signature, &values).unwrap();
        let slots = arguments.slots();
        arguments.zero(1..3);
        assert_eq!(arguments.slots(), slots, "nothing moved");
        let tensors = arguments.tensors();
        assert_eq!(tensors[0].data, vec![1.0, 2.0, 3.0]);
        assert_eq!(tensors[1].data, vec![4.5], "scalars are left alone");
        assert_eq!(tensors[2].data, vec![0.0; 3]);
    }

    #[test]
    fn nested_lists_flatten_or_report_raggedness() {
        let value = json!([[1, 2, 3], [4, 5, 6]]);
        let (mut shape, mut leaves) = (vec![], vec![]);
        flatten(&value, 2, &mut shape, &mut leaves, &mut vec![]).unwrap();
        assert_eq!(shape, vec![2, 3]);
        assert_eq!(leaves.len(), 6);
        let ragged = json!([[1, 2], [3]]);
        let error = flatten(&ragged, 2, &mut vec![], &mut vec![], &mut vec![]).unwrap_err();
        assert!(error.contains("element [1] has 1 items where 2"), "{error}");
        assert!(flatten(&json!(3), 1, &mut vec![], &mut vec![], &mut vec![]).is_err());
    }
}

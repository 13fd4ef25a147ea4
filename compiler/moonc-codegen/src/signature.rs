//! The types that cross the boundary between compiled code and its callers
//! (the JIT driver, C, Rust), read from a `func.func`'s MLIR type.

use crate::{Error, Result};
use melior::ir::{
    BlockLike, Module, OperationRef, RegionLike, Type, TypeLike, attribute::TypeAttribute,
    operation::OperationLike, r#type::FunctionType,
};

/// A scalar type, alone or as a memref's element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    F32,
    F64,
    /// `i1`, stored as one byte holding 0 or 1.
    I1,
    I8,
    I16,
    I32,
    I64,
    /// `index`, a 64-bit signed integer on the supported hosts.
    Index,
}

impl Scalar {
    /// Size in bytes, in memory and as a memref element.
    pub fn size(self) -> usize {
        match self {
            Scalar::I1 | Scalar::I8 => 1,
            Scalar::I16 => 2,
            Scalar::F32 | Scalar::I32 => 4,
            Scalar::F64 | Scalar::I64 | Scalar::Index => 8,
        }
    }

    /// Whether this is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F32 | Scalar::F64)
    }

    /// The MLIR spelling (`f64`, `i1`, `index`).
    pub fn mlir(self) -> &'static str {
        match self {
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
            Scalar::I1 => "i1",
            Scalar::I8 => "i8",
            Scalar::I16 => "i16",
            Scalar::I32 => "i32",
            Scalar::I64 => "i64",
            Scalar::Index => "index",
        }
    }

    fn from_type(t: Type) -> Option<Scalar> {
        let raw = t.to_raw();
        // SAFETY: type predicates only inspect a live type.
        unsafe {
            if mlir_sys::mlirTypeIsAF32(raw) {
                return Some(Scalar::F32);
            }
            if mlir_sys::mlirTypeIsAF64(raw) {
                return Some(Scalar::F64);
            }
            if mlir_sys::mlirTypeIsAIndex(raw) {
                return Some(Scalar::Index);
            }
            if mlir_sys::mlirTypeIsAInteger(raw) && mlir_sys::mlirIntegerTypeIsSignless(raw) {
                return match mlir_sys::mlirIntegerTypeGetWidth(raw) {
                    1 => Some(Scalar::I1),
                    8 => Some(Scalar::I8),
                    16 => Some(Scalar::I16),
                    32 => Some(Scalar::I32),
                    64 => Some(Scalar::I64),
                    _ => None,
                };
            }
        }
        None
    }
}

/// The MLIR spelling (`f64`, `memref<?x4xf32>`; layouts left out).
impl std::fmt::Display for ValueType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ValueType::Scalar(s) => f.write_str(s.mlir()),
            ValueType::MemRef { element, shape, .. } => {
                f.write_str("memref<")?;
                for dim in shape {
                    match dim {
                        Some(n) => write!(f, "{n}x")?,
                        None => f.write_str("?x")?,
                    }
                }
                write!(f, "{}>", element.mlir())
            }
        }
    }
}

/// Static parts of a `strided<[..], offset: ..>` layout; `None` is `?`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StridedLayout {
    pub offset: Option<i64>,
    pub strides: Vec<Option<i64>>,
}

/// The type of an argument or result of a public function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueType {
    Scalar(Scalar),
    /// A ranked memref in the default memory space. `shape` holds the static
    /// sizes (`None` for `?`); `layout` is `None` for the identity layout.
    MemRef {
        element: Scalar,
        shape: Vec<Option<usize>>,
        layout: Option<StridedLayout>,
    },
}

impl ValueType {
    /// The rank: 0 for scalars.
    pub fn rank(&self) -> usize {
        match self {
            ValueType::Scalar(_) => 0,
            ValueType::MemRef { shape, .. } => shape.len(),
        }
    }

    /// The scalar type itself, or the memref's element type.
    pub fn element(&self) -> Scalar {
        match self {
            ValueType::Scalar(s) | ValueType::MemRef { element: s, .. } => *s,
        }
    }

    /// Whether a contiguous row-major buffer of `shape` with offset 0 may
    /// be passed as this memref (the static strides and offset agree).
    pub fn accepts_row_major(&self, shape: &[usize]) -> bool {
        let ValueType::MemRef {
            layout: Some(layout),
            ..
        } = self
        else {
            return true;
        };
        let mut stride = 1i64;
        let mut ok = matches!(layout.offset, None | Some(0));
        for (k, expected) in layout.strides.iter().enumerate().rev() {
            ok &= expected.is_none_or(|s| s == stride || shape[k] <= 1);
            stride *= shape[k] as i64;
        }
        ok
    }

    fn from_type(t: Type) -> Option<ValueType> {
        if let Some(s) = Scalar::from_type(t) {
            return Some(ValueType::Scalar(s));
        }
        let raw = t.to_raw();
        // SAFETY: memref queries on a live type checked to be a memref.
        unsafe {
            if !mlir_sys::mlirTypeIsAMemRef(raw) {
                return None;
            }
            let space = mlir_sys::mlirMemRefTypeGetMemorySpace(raw);
            if !space.ptr.is_null() {
                return None;
            }
            let element =
                Scalar::from_type(Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw)))?;
            let rank = mlir_sys::mlirShapedTypeGetRank(raw) as isize;
            let shape = (0..rank)
                .map(|i| {
                    (!mlir_sys::mlirShapedTypeIsDynamicDim(raw, i))
                        .then(|| mlir_sys::mlirShapedTypeGetDimSize(raw, i) as usize)
                })
                .collect::<Vec<_>>();
            let layout_attr = mlir_sys::mlirMemRefTypeGetLayout(raw);
            let layout = if mlir_sys::mlirAttributeIsAAffineMap(layout_attr) {
                let map = mlir_sys::mlirAffineMapAttrGetValue(layout_attr);
                if !mlir_sys::mlirAffineMapIsIdentity(map) {
                    return None;
                }
                None
            } else {
                let text = melior::ir::Attribute::from_raw(layout_attr).to_string();
                Some(parse_strided(&text, shape.len())?)
            };
            Some(ValueType::MemRef {
                element,
                shape,
                layout,
            })
        }
    }
}

/// Reads `strided<[s0, s1, ..], offset: o>` (offset 0 when omitted).
fn parse_strided(text: &str, rank: usize) -> Option<StridedLayout> {
    let body = text.strip_prefix("strided<[")?.strip_suffix('>')?;
    let (strides, rest) = body.split_once(']')?;
    let number = |s: &str| -> Option<Option<i64>> {
        match s.trim() {
            "?" => Some(None),
            n => n.parse().ok().map(Some),
        }
    };
    let strides = if strides.trim().is_empty() {
        vec![]
    } else {
        strides.split(',').map(number).collect::<Option<Vec<_>>>()?
    };
    let offset = match rest.trim().strip_prefix(',') {
        None => Some(0),
        Some(o) => number(o.trim().strip_prefix("offset:")?)?,
    };
    (strides.len() == rank).then_some(StridedLayout { offset, strides })
}

/// A public function as seen from outside: its name and typed interface.
#[derive(Clone, Debug)]
pub struct Signature {
    pub name: String,
    pub args: Vec<ValueType>,
    pub results: Vec<ValueType>,
}

impl Signature {
    /// Whether the C interface returns results through a pointer passed as
    /// the first argument (several results, or a memref result).
    pub fn returns_through_pointer(&self) -> bool {
        self.results.len() > 1 || self.results.iter().any(is_memref)
    }
}

fn is_memref(t: &ValueType) -> bool {
    matches!(t, ValueType::MemRef { .. })
}

fn is_public_definition(op: &OperationRef) -> bool {
    op.name().as_string_ref().as_str() == Ok("func.func")
        && !op.has_attribute("sym_visibility")
        && op
            .region(0)
            .is_ok_and(|region| region.first_block().is_some())
}

fn function_name(op: &OperationRef) -> String {
    op.attribute("sym_name")
        .ok()
        .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_string())
        .unwrap_or_default()
}

/// The interface of `func.func` operation `op`, or an error naming the
/// first argument or result whose type cannot cross it.
pub fn signature_of(op: &OperationRef) -> Result<Signature> {
    let name = function_name(op);
    let function_type: FunctionType = TypeAttribute::try_from(op.attribute("function_type")?)
        .map_err(|_| Error::Unsupported(format!("@{name} has no function type")))?
        .value()
        .try_into()?;
    let convert = |t: Type, what: String| {
        ValueType::from_type(t).ok_or_else(|| {
            Error::Unsupported(format!(
                "{what} of @{name} has type `{t}`, which moonc cannot pass; supported are \
                 f32, f64, i1, i8, i16, i32, i64, index, ranked tensors of them and ranked \
                 memrefs of them with an identity or strided layout in the default memory \
                 space"
            ))
        })
    };
    let args = (0..function_type.input_count())
        .map(|i| convert(function_type.input(i)?, format!("argument #{i}")))
        .collect::<Result<_>>()?;
    let results = (0..function_type.result_count())
        .map(|i| convert(function_type.result(i)?, format!("result #{i}")))
        .collect::<Result<_>>()?;
    Ok(Signature {
        name,
        args,
        results,
    })
}

/// Every public function defined at the top level of `module`, in order,
/// with the operation it comes from (for its location).
pub fn public_functions<'c, 'a>(module: &'a Module<'c>) -> Vec<OperationRef<'c, 'a>> {
    let mut functions = vec![];
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        if is_public_definition(&op) {
            functions.push(op);
        }
        next = op.next_in_block();
    }
    functions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_layouts() {
        assert_eq!(
            parse_strided("strided<[?, 1], offset: ?>", 2),
            Some(StridedLayout {
                offset: None,
                strides: vec![None, Some(1)]
            })
        );
        assert_eq!(
            parse_strided("strided<[4, 1]>", 2),
            Some(StridedLayout {
                offset: Some(0),
                strides: vec![Some(4), Some(1)]
            })
        );
        assert_eq!(
            parse_strided("strided<[], offset: 3>", 0).unwrap().offset,
            Some(3)
        );
        assert_eq!(parse_strided("strided<[1]>", 2), None);
    }
}

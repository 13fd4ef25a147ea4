//! The value model of the derivative commands: every argument and result
//! as numbers with a shape ([`Tensor`]), and the inputs of a function
//! ([`Inputs`]) with their float coordinates, the variables derivatives
//! are taken with respect to.

use crate::{
    failure::Outcome,
    json::{Json, non_finite},
    values::Arguments,
    wrapper::{Wrt, has_tangent},
};
use moonc_codegen::{Scalar, Signature};
use serde_json::Value;

/// A scalar (shape `[]`) or the contents of a memref, row-major. The
/// numbers are f64: exact for f32 and f64 values, and for integers up to
/// 2^53 in magnitude.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    pub element: Scalar,
    pub shape: Vec<usize>,
    pub data: Vec<f64>,
}

impl Tensor {
    /// A tensor of `element`s shaped `shape`, holding `data`.
    pub fn new(element: Scalar, shape: &[usize], data: Vec<f64>) -> Tensor {
        Tensor {
            element,
            shape: shape.to_vec(),
            data,
        }
    }

    /// The JSON `--args` takes for this value: a number, or a nested list
    /// whose depth is the rank.
    pub fn to_value(&self) -> Value {
        let leaf = |&x: &f64| {
            if !self.element.is_float() {
                Value::from(x as i64)
            } else if let Some(number) = serde_json::Number::from_f64(x) {
                Value::Number(number)
            } else {
                Value::String(non_finite(x.is_nan(), x > 0.0))
            }
        };
        nest(&self.shape, &self.data, &leaf, &Value::Array)
    }

    /// The JSON moonc prints for this value (floats in their own
    /// precision, integers as integers).
    pub fn to_json(&self) -> Json {
        let element = self.element;
        let leaf = |&x: &f64| number_json(element, x);
        nest(&self.shape, &self.data, &leaf, &Json::List)
    }

    /// Whether both hold the same bits (so NaN equals NaN, and 0.0 differs
    /// from -0.0).
    pub fn same_bits(&self, other: &Tensor) -> bool {
        self.shape == other.shape
            && self.data.len() == other.data.len()
            && self
                .data
                .iter()
                .zip(&other.data)
                .all(|(a, b)| a.to_bits() == b.to_bits())
    }

    /// Whether both agree to within `ulps` units in the last place of their
    /// precision (relative to the larger magnitude): floats that are both
    /// finite, or both NaN, or the same bits; integers exactly.
    pub fn within_ulps(&self, other: &Tensor, ulps: f64) -> bool {
        let (epsilon, smallest) = match self.element {
            Scalar::F32 => (f32::EPSILON as f64, f32::MIN_POSITIVE as f64),
            Scalar::F64 => (f64::EPSILON, f64::MIN_POSITIVE),
            _ => (0.0, 0.0),
        };
        self.shape == other.shape
            && self.data.len() == other.data.len()
            && self.data.iter().zip(&other.data).all(|(&a, &b)| {
                a.to_bits() == b.to_bits()
                    || (a.is_nan() && b.is_nan())
                    || (a.is_finite()
                        && b.is_finite()
                        && (a - b).abs() <= ulps * epsilon * a.abs().max(b.abs()).max(smallest))
            })
    }
}

/// The JSON of the number `x` of type `element`.
pub fn number_json(element: Scalar, x: f64) -> Json {
    match element {
        Scalar::F32 => Json::f32(x as f32),
        Scalar::F64 => Json::f64(x),
        _ => Json::int(x as i64),
    }
}

/// The nested list of depth `shape.len()` over the row-major `leaves` (the
/// only leaf itself for shape `[]`), built with `leaf` and `list`.
pub fn nest<L, T>(
    shape: &[usize],
    leaves: &[L],
    leaf: &impl Fn(&L) -> T,
    list: &impl Fn(Vec<T>) -> T,
) -> T {
    let Some((&size, rest)) = shape.split_first() else {
        return match leaves.first() {
            Some(first) => leaf(first),
            None => list(vec![]),
        };
    };
    let stride: usize = rest.iter().product();
    list(
        (0..size)
            .map(|i| {
                let end = ((i + 1) * stride).min(leaves.len());
                nest(rest, &leaves[(i * stride).min(end)..end], leaf, list)
            })
            .collect(),
    )
}

/// One argument of a function being differentiated.
#[derive(Clone, Debug)]
pub enum Input {
    /// A float scalar or a memref of floats: its elements are coordinates.
    Float(Tensor),
    /// A float argument that `--wrt` leaves out: a constant, not
    /// coordinates.
    Constant(Tensor),
    /// Anything else (integers, index, memrefs of them), as given.
    Fixed(Value),
}

/// The arguments of a function being differentiated, in order. Their
/// coordinates are the elements of the float inputs flattened in argument
/// order (a scalar, then a memref row-major).
#[derive(Clone, Debug)]
pub struct Inputs(pub Vec<Input>);

impl Inputs {
    /// The inputs `values` (`--args`) give `signature`, checked and rounded
    /// the way a call binds them (f32 values to f32).
    pub fn from_args(signature: &Signature, values: &[Value]) -> Outcome<Inputs> {
        let bound = Arguments::bind(signature, values)?.tensors();
        Ok(Inputs(
            signature
                .args
                .iter()
                .zip(values)
                .zip(bound)
                .map(|((t, value), tensor)| {
                    if has_tangent(t) {
                        Input::Float(tensor)
                    } else {
                        Input::Fixed(value.clone())
                    }
                })
                .collect(),
        ))
    }

    /// The same inputs with the float arguments that `wrt` leaves out
    /// made constants: they are no longer coordinates.
    pub fn restrict(self, signature: &Signature, wrt: &Wrt) -> Inputs {
        Inputs(
            self.0
                .into_iter()
                .zip(&signature.args)
                .enumerate()
                .map(|(i, (input, t))| match input {
                    Input::Float(tensor) if !wrt.includes(i, t) => Input::Constant(tensor),
                    input => input,
                })
                .collect(),
        )
    }

    /// One JSON value per argument, for [`Arguments::bind`].
    pub fn values(&self) -> Vec<Value> {
        self.0
            .iter()
            .map(|input| match input {
                Input::Float(tensor) | Input::Constant(tensor) => tensor.to_value(),
                Input::Fixed(value) => value.clone(),
            })
            .collect()
    }

    /// The inputs as moonc prints values (one per argument).
    pub fn to_json(&self) -> Json {
        Json::List(
            self.0
                .iter()
                .map(|input| match input {
                    Input::Float(tensor) | Input::Constant(tensor) => tensor.to_json(),
                    Input::Fixed(value) => Json::Raw(value.to_string()),
                })
                .collect(),
        )
    }

    /// The float inputs, in argument order.
    pub fn floats(&self) -> impl Iterator<Item = &Tensor> {
        self.0.iter().filter_map(|input| match input {
            Input::Float(tensor) => Some(tensor),
            Input::Constant(_) | Input::Fixed(_) => None,
        })
    }

    /// How many coordinates there are.
    pub fn dimension(&self) -> usize {
        self.floats().map(|t| t.data.len()).sum()
    }

    /// Every coordinate, flattened.
    pub fn coordinates(&self) -> Vec<f64> {
        self.floats().flat_map(|t| t.data.iter().copied()).collect()
    }

    /// `flat` (one number per coordinate) cut into tensors shaped like the
    /// float inputs.
    pub fn shaped_like(&self, flat: &[f64]) -> Vec<Tensor> {
        let mut start = 0;
        self.floats()
            .map(|t| {
                let end = (start + t.data.len()).min(flat.len());
                let piece = Tensor::new(t.element, &t.shape, flat[start.min(end)..end].to_vec());
                start = end;
                piece
            })
            .collect()
    }

    /// The same inputs with the coordinates `coordinates`.
    pub fn with_coordinates(&self, coordinates: &[f64]) -> Inputs {
        let mut pieces = self.shaped_like(coordinates).into_iter();
        Inputs(
            self.0
                .iter()
                .map(|input| match input {
                    Input::Float(old) => Input::Float(pieces.next().unwrap_or_else(|| old.clone())),
                    Input::Constant(_) | Input::Fixed(_) => input.clone(),
                })
                .collect(),
        )
    }

    /// The tangent operands of the JVP wrapper for the direction
    /// `direction` (one number per coordinate): one value per float input,
    /// shaped like it.
    pub fn tangents(&self, direction: &[f64]) -> Vec<Value> {
        self.shaped_like(direction)
            .iter()
            .map(Tensor::to_value)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use moonc_codegen::ValueType;
    use serde_json::json;

    #[test]
    fn tensors_nest_row_major() {
        let t = Tensor::new(Scalar::F64, &[2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(t.to_value(), json!([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]));
        assert_eq!(t.to_json().render(), "[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]");
        let empty = Tensor::new(Scalar::F32, &[2, 0], vec![]);
        assert_eq!(empty.to_value(), json!([[], []]));
        let scalar = Tensor::new(Scalar::F32, &[], vec![0.1f32 as f64]);
        assert_eq!(scalar.to_json().render(), "0.1");
        let nan = Tensor::new(Scalar::F64, &[], vec![f64::NAN]);
        assert_eq!(nan.to_value(), json!("NaN"));
        assert_eq!(
            Tensor::new(Scalar::I32, &[1], vec![-3.0]).to_value(),
            json!([-3])
        );
    }

    #[test]
    fn bits_decide_sameness() {
        let a = Tensor::new(Scalar::F64, &[2], vec![f64::NAN, 0.0]);
        assert!(a.same_bits(&a.clone()));
        assert!(!a.same_bits(&Tensor::new(Scalar::F64, &[2], vec![f64::NAN, -0.0])));
    }

    #[test]
    fn ulps_are_relative_to_the_precision() {
        let one = Tensor::new(Scalar::F64, &[], vec![1.0]);
        let next = Tensor::new(Scalar::F64, &[], vec![1.0 + 2.0 * f64::EPSILON]);
        assert!(one.within_ulps(&next, 4.0));
        assert!(!one.within_ulps(&next, 1.0));
        let far = Tensor::new(Scalar::F64, &[], vec![1.0 + 1e-12]);
        assert!(!one.within_ulps(&far, 4.0));
        let f32_next = Tensor::new(Scalar::F32, &[], vec![1.0 + f32::EPSILON as f64]);
        assert!(Tensor::new(Scalar::F32, &[], vec![1.0]).within_ulps(&f32_next, 4.0));
        let infinite = Tensor::new(Scalar::F64, &[], vec![f64::INFINITY]);
        assert!(!infinite.within_ulps(&one, 4.0));
        assert!(infinite.within_ulps(&infinite, 0.0));
        let ints = Tensor::new(Scalar::I64, &[], vec![3.0]);
        assert!(!ints.within_ulps(&Tensor::new(Scalar::I64, &[], vec![4.0]), 4.0));
    }

    #[test]
    fn restricted_inputs_are_constants() {
        let f64 = ValueType::Scalar(Scalar::F64);
        let memref = ValueType::MemRef {
            element: Scalar::F32,
            shape: vec![Some(2)],
            layout: None,
        };
        let signature = Signature {
            name: "f".into(),
            args: vec![f64.clone(), ValueType::Scalar(Scalar::I32), memref],
            results: vec![f64],
        };
        let inputs = Inputs::from_args(&signature, &[json!(1.0), json!(7), json!([2.0, 3.0])])
            .unwrap()
            .restrict(&signature, &Wrt::parse(Some("2")).unwrap());
        assert!(matches!(inputs.0[0], Input::Constant(_)));
        assert_eq!(inputs.coordinates(), vec![2.0, 3.0]);
        assert_eq!(
            inputs.with_coordinates(&[4.0, 5.0]).values(),
            vec![json!(1.0), json!(7), json!([4.0, 5.0])]
        );
        assert_eq!(inputs.to_json().render(), "[1.0, 7, [2.0, 3.0]]");
    }

    #[test]
    fn coordinates_skip_fixed_inputs() {
        let inputs = Inputs(vec![
            Input::Float(Tensor::new(Scalar::F64, &[], vec![1.0])),
            Input::Fixed(json!(7)),
            Input::Float(Tensor::new(Scalar::F32, &[2], vec![2.0, 3.0])),
        ]);
        assert_eq!(inputs.dimension(), 3);
        assert_eq!(inputs.coordinates(), vec![1.0, 2.0, 3.0]);
        let moved = inputs.with_coordinates(&[4.0, 5.0, 6.0]);
        assert_eq!(
            moved.values(),
            vec![json!(4.0), json!(7), json!([5.0, 6.0])]
        );
        assert_eq!(
            inputs.tangents(&[0.0, 1.0, 0.0]),
            vec![json!(0.0), json!([1.0, 0.0])]
        );
    }
}

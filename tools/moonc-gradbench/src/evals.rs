//! The evals `moonc gradbench` implements: for each, its workload (an MLIR
//! module of `workloads/`, built into moonc) and, for each
//! GradBench function, the workload function it calls (or differentiates)
//! and how GradBench's input and output map to its arguments and results.

use super::{
    ba,
    buffers::{Arg, Array},
    det, gmm, ht, kmeans, llsq, lse, lstm, nested, ode,
};
use moonc_call::{json::Json, tensor::Tensor};
use serde_json::Value;

/// One GradBench eval.
pub struct Eval {
    /// The eval's (and its module's) name.
    pub name: &'static str,
    /// The workload's path in moonc's repository.
    pub file: &'static str,
    /// The workload's text; `None` while moonc has no workload for the
    /// eval (`define` then fails).
    pub source: Option<&'static str>,
    pub functions: &'static [Function],
}

/// One function of an eval's module.
pub struct Function {
    /// GradBench's name for it (`primal`, `gradient`, `objective`,
    /// `jacobian`).
    pub name: &'static str,
    /// The workload's public function it calls or differentiates.
    pub entry: &'static str,
    pub how: How,
    /// The entry's arguments, from GradBench's input.
    pub arguments: fn(&Input) -> Result<Vec<Arg>, String>,
    /// GradBench's output, from the input and what the last run left.
    pub output: fn(&Input, &Called) -> Result<Json, String>,
}

/// How a function is computed from its entry.
#[derive(Clone, Copy, Debug)]
pub enum How {
    /// A plain call.
    Call,
    /// One call of the entry's VJP wrapper with the cotangent 1 (the
    /// entry has one float scalar result) and zero shadows: the value and
    /// the gradient with respect to `wrt` (a `--wrt` list of argument
    /// indices; `None`: every float argument).
    Gradient { wrt: Option<&'static str> },
}

/// What the last run of a function left, in terms of its entry.
pub struct Called {
    /// The entry's results.
    pub results: Vec<Tensor>,
    /// The final value of each of the entry's arguments (what it wrote into
    /// its memref arguments).
    pub arguments: Vec<Tensor>,
    /// For [`How::Gradient`], per argument of the entry: its gradient when
    /// it is differentiated (`None` otherwise, and for a plain call).
    pub gradient: Vec<Option<Tensor>>,
    /// The time of each run, in nanoseconds.
    pub timings: Vec<u128>,
}

impl Called {
    /// The gradient with respect to argument `index`.
    pub fn gradient(&self, index: usize) -> Result<&Tensor, String> {
        self.gradient
            .get(index)
            .and_then(Option::as_ref)
            .ok_or_else(|| format!("internal error: no gradient of argument #{index}"))
    }

    /// The final value of argument `index`.
    pub fn argument(&self, index: usize) -> Result<&Tensor, String> {
        self.arguments
            .get(index)
            .ok_or_else(|| format!("internal error: no argument #{index}"))
    }

    /// Result `index`.
    pub fn result(&self, index: usize) -> Result<&Tensor, String> {
        self.results
            .get(index)
            .ok_or_else(|| format!("internal error: no result #{index}"))
    }
}

/// GradBench's input to a function: a JSON object.
pub struct Input<'a>(&'a serde_json::Map<String, Value>);

impl<'a> Input<'a> {
    /// The input `value`, which must be an object.
    pub fn new(value: &'a Value) -> Result<Input<'a>, String> {
        match value {
            Value::Object(fields) => Ok(Input(fields)),
            other => Err(format!(
                "the input must be a JSON object, not `{}`",
                super::abbreviate(other)
            )),
        }
    }

    /// Field `key`, if there is one.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.0.get(key)
    }

    /// Field `key`, which must be there.
    pub fn field(&self, key: &str) -> Result<&'a Value, String> {
        self.get(key)
            .ok_or_else(|| format!("the input has no field `{key}`"))
    }

    /// Field `key`, a nested list of numbers of depth `depth`: a
    /// row-major array (depth 1: a vector, 2: a matrix given by rows).
    pub fn array(&self, key: &str, depth: usize) -> Result<Array, String> {
        let (shape, data) =
            numbers(self.field(key)?, depth).map_err(|e| format!("input field `{key}`: {e}"))?;
        Ok(Array::f64(&shape, data))
    }

    /// Field `key`, a number.
    pub fn number(&self, key: &str) -> Result<f64, String> {
        let value = self.field(key)?;
        value.as_f64().ok_or_else(|| {
            format!(
                "input field `{key}` must be a number, not `{}`",
                super::abbreviate(value)
            )
        })
    }

    /// Field `key`, a list of exactly `length` numbers.
    pub fn fixed(&self, key: &str, length: usize) -> Result<Vec<f64>, String> {
        let numbers = match self.array(key, 1)?.data {
            super::buffers::Data::F64(data) => data,
            super::buffers::Data::I32(_) => unreachable!("arrays of the input are f64"),
        };
        if numbers.len() != length {
            return Err(format!(
                "input field `{key}` must hold {length} numbers, not {}",
                numbers.len()
            ));
        }
        Ok(numbers)
    }

    /// Field `key`, a non-negative integer.
    pub fn count(&self, key: &str) -> Result<u64, String> {
        let value = self.field(key)?;
        value.as_u64().ok_or_else(|| {
            format!(
                "input field `{key}` must be a non-negative integer, not `{}`",
                super::abbreviate(value)
            )
        })
    }
}

/// The numbers of `value`, a nested list of depth `depth`, and its shape
/// (the list's structure is checked by `moonc --args`'s own reader).
fn numbers(value: &Value, depth: usize) -> Result<(Vec<usize>, Vec<f64>), String> {
    let (mut shape, mut leaves) = (vec![], vec![]);
    moonc_call::values::flatten(value, depth, &mut shape, &mut leaves, &mut vec![])?;
    shape.resize(depth, 0);
    let data = leaves.iter().enumerate().map(|(flat, leaf)| {
        leaf.as_f64().ok_or_else(|| {
            // The leaf's indices, from its row-major position.
            let mut rest = flat;
            let mut path = vec![0; depth];
            for (index, &extent) in path.iter_mut().zip(&shape).rev() {
                (*index, rest) = (rest % extent, rest / extent);
            }
            let at: String = path.iter().map(|i| format!("[{i}]")).collect();
            format!(
                "expected a number, found `{}` (element {at})",
                super::abbreviate(leaf)
            )
        })
    });
    let data = data.collect::<Result<_, _>>()?;
    Ok((shape, data))
}

/// Every eval moonc knows of, implemented or not.
static EVALS: [&Eval; 11] = [
    &ba::EVAL,
    &det::EVAL,
    &gmm::EVAL,
    &ht::EVAL,
    &kmeans::EVAL,
    &llsq::EVAL,
    &lse::EVAL,
    &lstm::EVAL,
    &ode::EVAL,
    &nested::PARTICLE,
    &nested::SADDLE,
];

/// The eval named `name`.
pub fn find(name: &str) -> Option<&'static Eval> {
    EVALS.iter().copied().find(|e| e.name == name)
}

/// The names of the evals moonc implements, for messages.
pub fn names() -> String {
    let implemented = EVALS.iter().filter(|e| e.source.is_some());
    super::quoted(implemented.map(|e| e.name))
}

/// Output: result `0` (a scalar, or a memref as nested lists).
pub fn first_result(_: &Input, called: &Called) -> Result<Json, String> {
    Ok(called.result(0)?.to_json())
}

/// Output: the gradient with respect to argument 0, flat.
pub fn gradient_of_first(_: &Input, called: &Called) -> Result<Json, String> {
    Ok(flat(called.gradient(0)?))
}

/// A tensor's numbers as one flat list, whatever its shape.
pub fn flat(tensor: &Tensor) -> Json {
    Json::List(tensor.data.iter().map(|&x| Json::f64(x)).collect())
}

#[cfg(test)]
mod tests {
    use super::numbers;
    use serde_json::json;

    #[test]
    fn numbers_of_nested_lists() {
        let (shape, data) = numbers(&json!([[1, 2, 3], [4, 5, 6]]), 2).unwrap();
        assert_eq!(
            (shape, data),
            (vec![2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
        );
        assert_eq!(numbers(&json!([]), 2).unwrap(), (vec![0, 0], vec![]));
        let error = numbers(&json!([[1, 2, 3], [4, "x", 6]]), 2).unwrap_err();
        assert_eq!(error, "expected a number, found `\"x\"` (element [1][1])");
    }
}

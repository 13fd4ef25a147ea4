//! The point `moonc check` works at when `--args` is not given: floats
//! drawn uniformly from [0.5, 1.5].

use crate::random::SplitMix64;
use moonc_call::{
    failure::{Failure, Outcome},
    tensor::{Input, Inputs, Tensor},
};
use moonc_codegen::{Scalar, Signature, ValueType};

/// Inputs drawn from `rng`: every float uniform in [0.5, 1.5], memrefs of
/// their static shape. Integers and dynamic shapes must come from --args.
pub(super) fn random_inputs(signature: &Signature, rng: &mut SplitMix64) -> Outcome<Inputs> {
    let name = &signature.name;
    let mut inputs = vec![];
    for (index, t) in signature.args.iter().enumerate() {
        let element = t.element();
        if !element.is_float() {
            return Err(Failure::new(format!(
                "argument #{index} of @{name} ({t}) is not a float, and check draws only \
                 float inputs: give the arguments with --args"
            )));
        }
        let shape: Vec<usize> = match t {
            ValueType::Scalar(_) => vec![],
            ValueType::MemRef { shape, .. } => shape
                .iter()
                .map(|d| {
                    d.ok_or_else(|| {
                        Failure::new(format!(
                            "argument #{index} of @{name} ({t}) has a dynamic size, which \
                             check cannot choose: give the arguments with --args"
                        ))
                    })
                })
                .collect::<Outcome<_>>()?,
        };
        let data = (0..shape.iter().product())
            .map(|_| round(element, rng.uniform(0.5, 1.5)))
            .collect();
        inputs.push(Input::Float(Tensor::new(element, &shape, data)));
    }
    Ok(Inputs(inputs))
}

/// `x` rounded to the precision of `element`, as a call binds it.
pub(super) fn round(element: Scalar, x: f64) -> f64 {
    match element {
        Scalar::F32 => x as f32 as f64,
        _ => x,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signature(args: Vec<ValueType>) -> Signature {
        Signature {
            name: "f".into(),
            args,
            results: vec![],
        }
    }

    #[test]
    fn draws_floats_of_static_shapes_only() {
        let memref = |element, shape| ValueType::MemRef {
            element,
            shape,
            layout: None,
        };
        let ok = signature(vec![
            ValueType::Scalar(Scalar::F32),
            memref(Scalar::F64, vec![Some(2), Some(3)]),
        ]);
        let inputs = random_inputs(&ok, &mut SplitMix64::new(0)).unwrap();
        assert_eq!(inputs.dimension(), 7);
        let coordinates = inputs.coordinates();
        assert!(coordinates.iter().all(|x| (0.5..1.5).contains(x)));
        assert_eq!(
            coordinates[0], coordinates[0] as f32 as f64,
            "f32 stays f32"
        );
        let again = random_inputs(&ok, &mut SplitMix64::new(0)).unwrap();
        assert_eq!(again.coordinates(), coordinates, "the seed decides");

        let integer = signature(vec![ValueType::Scalar(Scalar::I32)]);
        let error = random_inputs(&integer, &mut SplitMix64::new(0)).unwrap_err();
        assert!(error.0.contains("is not a float"), "{error}");
        let dynamic = signature(vec![memref(Scalar::F64, vec![None])]);
        let error = random_inputs(&dynamic, &mut SplitMix64::new(0)).unwrap_err();
        assert!(error.0.contains("dynamic size"), "{error}");
    }
}

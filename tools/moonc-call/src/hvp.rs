//! Hessian-vector products: calls of the HVP wrapper of a [`Compiled`]
//! function (forward mode with several directions over reverse mode), with
//! the unit directions, giving columns of the Hessian.

use crate::{
    compiled::{Compiled, invoke},
    failure::{Failure, Outcome},
    tensor::{Inputs, Tensor},
    vjp::TapeUse,
    wrapper::{has_tangent, is_active_arg, is_dup_arg},
};

impl Compiled {
    /// Columns `first`, `first + 1`, ... of the Hessian at `inputs`, as many
    /// as the HVP wrapper's width (fewer at the end): the products with the
    /// unit directions, one number per coordinate (the product of each float
    /// scalar argument, the output of each memref of floats).
    pub fn hvp_columns(&self, inputs: &Inputs, first: usize) -> Outcome<Vec<Vec<f64>>> {
        let Some((signature, width)) = &self.hvp else {
            return Err(Failure::new(
                "internal error: the HVP wrapper was not compiled",
            ));
        };
        let width = *width;
        let n = inputs.dimension();
        let args = &self.primal.args;
        let rows = |tensor: &Tensor, data: Vec<f64>| {
            let shape: Vec<usize> = std::iter::once(width)
                .chain(tensor.shape.iter().copied())
                .collect();
            Tensor::new(tensor.element, &shape, data).to_value()
        };
        // Direction k is e_{first + k} (zero past the last coordinate).
        let mut per_input: Vec<Vec<f64>> = inputs.floats().map(|_| vec![]).collect();
        for k in 0..width {
            let mut direction = vec![0.0; n];
            if first + k < n {
                direction[first + k] = 1.0;
            }
            for (rows, piece) in per_input.iter_mut().zip(inputs.shaped_like(&direction)) {
                rows.extend(piece.data);
            }
        }
        let floats: Vec<&Tensor> = inputs.floats().collect();
        let mut values = inputs.values();
        values.extend(floats.iter().zip(per_input).map(|(t, data)| rows(t, data)));
        let dups = args.iter().filter(|t| has_tangent(t)).map(is_dup_arg);
        values.extend(
            floats
                .iter()
                .zip(dups)
                .filter(|(_, dup)| *dup)
                .map(|(t, _)| rows(t, vec![0.0; width * t.data.len()])),
        );
        values.extend(
            args.iter()
                .filter(|t| is_active_arg(t))
                .map(|t| Tensor::new(t.element(), &[width], vec![0.0; width]).to_value()),
        );
        let (call, tape) = TapeUse::around(|| invoke(&self.jit, signature, &values));
        let call = call?;
        tape.require_clean(&self.primal.name)?;
        let outputs_start = args.len() + floats.len();
        let dup_count = args.iter().filter(|t| is_dup_arg(t)).count();
        let outputs = &call.arguments[outputs_start..outputs_start + dup_count];
        let products = &call.arguments[outputs_start + dup_count..];
        let columns = (0..width.min(n - first))
            .map(|k| {
                let (mut products, mut outputs) = (products.iter(), outputs.iter());
                let mut column = vec![];
                for t in args {
                    if is_active_arg(t) {
                        column.push(products.next().expect("a product").data[k]);
                    } else if is_dup_arg(t) {
                        let output = outputs.next().expect("an output");
                        let size = output.data.len() / width;
                        column.extend_from_slice(&output.data[k * size..(k + 1) * size]);
                    }
                }
                column
            })
            .collect();
        Ok(columns)
    }
}

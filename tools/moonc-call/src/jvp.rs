//! Jacobian-vector products: calls of the JVP wrapper of a [`Compiled`]
//! function.

use crate::{
    compiled::{Compiled, Evaluation, invoke},
    failure::Outcome,
    tensor::{Inputs, Tensor},
};
use moonc_codegen::ValueType;

/// What one call of the JVP wrapper leaves behind.
pub struct Jvp {
    /// The entry's results and the final values of its arguments.
    pub primal: Evaluation,
    /// The tangent of each float scalar result, in order.
    pub result_tangents: Vec<Tensor>,
    /// The final shadow of each differentiated memref-of-floats argument,
    /// in order: the tangent of its contents after the call.
    pub shadows: Vec<Tensor>,
}

impl Compiled {
    /// The JVP of the entry at `inputs` in the direction `direction` (one
    /// number per coordinate of `inputs`).
    pub fn jvp(&self, inputs: &Inputs, direction: &[f64]) -> Outcome<Jvp> {
        let signature = self.wrapper(&self.jvp, "JVP")?;
        let mut values = inputs.values();
        values.extend(inputs.tangents(direction));
        let mut primal = invoke(&self.jit, signature, &values)?;
        let (result_tangents, tangent_operands) = primal.split_off(&self.primal);
        let shadows = self
            .primal
            .args
            .iter()
            .enumerate()
            .filter(|(i, t)| self.wrt.includes(*i, t))
            .map(|(_, t)| t)
            .zip(tangent_operands)
            .filter(|(t, _)| matches!(t, ValueType::MemRef { .. }))
            .map(|(_, shadow)| shadow)
            .collect();
        Ok(Jvp {
            primal,
            result_tangents,
            shadows,
        })
    }
}

//! A function compiled together with its forward-mode wrapper (see
//! [`crate::wrapper`]), called on fresh copies of its inputs: plain calls
//! and Jacobian-vector products. Every call binds new buffers, so what one
//! call writes to a memref never reaches the next.

use crate::{
    CallOptions,
    failure::Outcome,
    json::Json,
    program::Session,
    tensor::{Inputs, Tensor},
    values::{Arguments, Results},
    wrapper::{self, has_tangent},
};
use moonc_codegen::{Jit, Signature, ValueType};
use serde_json::Value;

/// The compiled entry and its JVP wrapper.
pub struct Forward {
    jit: Jit,
    /// The entry's signature.
    pub primal: Signature,
    /// The wrapper's signature.
    jvp: Signature,
}

/// What one call leaves behind.
pub struct Evaluation {
    /// Every result, as numbers.
    pub results: Vec<Tensor>,
    /// Every result, as `moonc run` prints them.
    pub printed: Json,
    /// The final value of every argument (a memref's contents after the
    /// call; a scalar's value).
    pub arguments: Vec<Tensor>,
}

/// What one call of the JVP wrapper leaves behind.
pub struct Jvp {
    /// The entry's results and the final values of its arguments.
    pub primal: Evaluation,
    /// The tangent of each float scalar result, in order.
    pub result_tangents: Vec<Tensor>,
    /// The final shadow of each memref-of-floats argument, in order: the
    /// tangent of its contents after the call.
    pub shadows: Vec<Tensor>,
}

impl Forward {
    /// Compiles `call.file` with the JVP wrapper of its entry and loads it.
    /// `inputs` makes the inputs from the entry's signature; it runs before
    /// compiling, so that bad input fails fast.
    pub fn compile(
        call: &CallOptions,
        inputs: impl FnOnce(&Signature) -> Outcome<Inputs>,
    ) -> Outcome<(Forward, Inputs)> {
        let session = Session::new();
        let (mut module, primal, location) =
            session.load_entry(&call.file, call.entry.as_deref())?;
        let inputs = inputs(&primal)?;
        let wrapper = wrapper::jvp_wrapper(&primal, &location);
        session.add_function(&mut module, &wrapper.name, &wrapper.text)?;
        let jit = session.jit(&mut module, &[primal.clone(), wrapper.signature.clone()])?;
        let forward = Forward {
            jit,
            primal,
            jvp: wrapper.signature,
        };
        Ok((forward, inputs))
    }

    /// A plain call of the entry on `inputs`.
    pub fn primal(&self, inputs: &Inputs) -> Outcome<Evaluation> {
        invoke(&self.jit, &self.primal, &inputs.values())
    }

    /// The JVP of the entry at `inputs` in the direction `direction` (one
    /// number per coordinate of `inputs`).
    pub fn jvp(&self, inputs: &Inputs, direction: &[f64]) -> Outcome<Jvp> {
        let mut values = inputs.values();
        values.extend(inputs.tangents(direction));
        let mut primal = invoke(&self.jit, &self.jvp, &values)?;
        let result_tangents = primal.results.split_off(self.primal.results.len());
        if let Json::List(printed) = &mut primal.printed {
            printed.truncate(self.primal.results.len());
        }
        let tangent_operands = primal.arguments.split_off(self.primal.args.len());
        let shadows = self
            .primal
            .args
            .iter()
            .filter(|t| has_tangent(t))
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

/// Calls `signature`'s entry point in `jit` once, on fresh buffers bound
/// from `values`, and reads everything back.
fn invoke(jit: &Jit, signature: &Signature, values: &[Value]) -> Outcome<Evaluation> {
    let mut arguments = Arguments::bind(signature, values)?;
    let mut results = Results::new(signature);
    let (entry, mut slots) = crate::frame(jit, signature, &mut arguments, &mut results)?;
    // SAFETY: the slots were laid out for this entry point's signature.
    unsafe { entry(slots.as_mut_ptr()) };
    let evaluation = Evaluation {
        // SAFETY: the call has stored every result.
        results: unsafe { results.tensors() },
        // SAFETY: as above.
        printed: unsafe { results.to_json() },
        arguments: arguments.tensors(),
    };
    results.release_fresh(&arguments);
    Ok(evaluation)
}

//! A function compiled together with its derivative wrappers (see
//! [`crate::wrapper`]), called on fresh copies of its inputs. Every call
//! binds new buffers, so what one call writes to a memref never reaches
//! the next. The derivative calls are in [`crate::jvp`] (JVPs),
//! [`crate::vjp`] (VJPs) and [`crate::hvp`] (Hessian-vector products).

use crate::{
    failure::{Failure, Outcome},
    frame::frame,
    json::Json,
    program::Session,
    tensor::{Inputs, Tensor},
    values::{Arguments, Results},
    wrapper::{self, Wrt},
};
use moonc_codegen::{Jit, Signature};
use serde_json::Value;
use std::path::Path;

/// Which derivative wrappers to compile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wrappers {
    /// `@__moonc_jvp_<entry>` (forward mode).
    pub jvp: bool,
    /// `@__moonc_vjp_<entry>` (reverse mode).
    pub vjp: bool,
    /// `@__moonc_hvp_<entry>` (Hessian-vector products), for this many
    /// directions at once.
    pub hvp_width: Option<usize>,
    /// The JVP wrapper also returns the tangents of the entry's results
    /// that were tensors of floats ([`wrapper::jvp_wrapper`]'s `buffers`).
    pub jvp_of_buffers: bool,
    /// The entry itself is never called, so it gets no JIT entry point:
    /// compiling one takes as long as compiling the entry, seconds for one
    /// of thousands of arguments.
    pub no_primal: bool,
}

/// The compiled entry and the wrappers asked for.
pub struct Compiled {
    /// The compiled module, loaded.
    pub jit: Jit,
    /// The entry's signature.
    pub primal: Signature,
    /// The JVP wrapper's signature, if it was compiled.
    pub jvp: Option<Signature>,
    /// The VJP wrapper's signature, if it was compiled.
    pub vjp: Option<Signature>,
    /// The HVP wrapper's signature and width, if it was compiled.
    pub hvp: Option<(Signature, usize)>,
    /// The arguments the JVP and VJP wrappers differentiate.
    pub wrt: Wrt,
    /// The JVP wrapper's results after the entry's: the tangents of these
    /// of the entry's results (the float scalars, and with
    /// [`Wrappers::jvp_of_buffers`] those that were tensors), in order.
    pub tangent_results: Vec<usize>,
    /// Whether the entry has a JIT entry point ([`Wrappers::no_primal`]).
    primal_entry: bool,
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

impl Evaluation {
    /// Splits off what follows the entry's own results and arguments (a
    /// wrapper's derivative results and operands): (extra results, extra
    /// arguments).
    pub fn split_off(&mut self, primal: &Signature) -> (Vec<Tensor>, Vec<Tensor>) {
        let results = self.results.split_off(primal.results.len());
        if let Json::List(printed) = &mut self.printed {
            printed.truncate(primal.results.len());
        }
        let arguments = self.arguments.split_off(primal.args.len());
        (results, arguments)
    }
}

impl Compiled {
    /// Compiles `file` with the wrappers `wrappers` of its public function
    /// `entry` (or its only public function when `entry` is `None`) and
    /// loads it. `inputs` makes the inputs from the entry's signature; it
    /// runs before compiling, so that bad input fails fast. The JVP and VJP
    /// wrappers differentiate with respect to `wrt`, and the inputs it
    /// leaves out are constants. `wrappers` says which wrappers to compile, from
    /// the entry's signature and those inputs. The HVP wrapper, when asked
    /// for, needs every float argument differentiated.
    pub fn compile(
        file: &Path,
        entry: Option<&str>,
        wrt: &Wrt,
        wrappers: impl FnOnce(&Signature, &Inputs) -> Wrappers,
        inputs: impl FnOnce(&Signature) -> Outcome<Inputs>,
    ) -> Outcome<(Compiled, Inputs)> {
        let session = Session::new();
        let (mut module, primal, location) = session.load_entry(file, entry)?;
        let tensor_results = crate::program::tensor_results(&module, &primal.name);
        wrt.check(&primal)?;
        let inputs = inputs(&primal)?.restrict(&primal, wrt);
        let wanted = wrappers(&primal, &inputs);
        if wanted.hvp_width.is_some() && *wrt != Wrt::all() {
            return Err(Failure::new(
                "internal error: the HVP wrapper differentiates every float argument",
            ));
        }
        let mut packed = vec![];
        if !wanted.no_primal {
            packed.push(primal.clone());
        }
        let mut add = |wrapper: wrapper::Wrapper| -> Outcome<Signature> {
            session.add_function(&mut module, &wrapper.name, &wrapper.text)?;
            packed.push(wrapper.signature.clone());
            Ok(wrapper.signature)
        };
        let buffers = if wanted.jvp_of_buffers {
            tensor_results
        } else {
            vec![]
        };
        let tangent_results: Vec<usize> = (0..primal.results.len())
            .filter(|j| wrapper::is_active_result(&primal.results[*j]) || buffers.contains(j))
            .collect();
        let jvp = wanted
            .jvp
            .then(|| add(wrapper::jvp_wrapper(&primal, &location, wrt, &buffers)))
            .transpose()?;
        let vjp = wanted
            .vjp
            .then(|| add(wrapper::vjp_wrapper(&primal, &location, wrt, false)))
            .transpose()?;
        let hvp = wanted
            .hvp_width
            .map(|width| Ok((add(wrapper::hvp_wrapper(&primal, &location, width))?, width)))
            .transpose()?;
        let note = |failure: Failure| match wrt.listed() {
            Some(_) => Failure(format!(
                "{failure}\n  note: the arguments --wrt leaves out are constants, without \
                 shadows: list every argument the function writes differentiated values into"
            )),
            None => failure,
        };
        let jit = session.jit(&mut module, &packed).map_err(note)?;
        let compiled = Compiled {
            jit,
            primal,
            jvp,
            vjp,
            hvp,
            wrt: wrt.clone(),
            tangent_results,
            primal_entry: !wanted.no_primal,
        };
        Ok((compiled, inputs))
    }

    /// A plain call of the entry on `inputs`.
    pub fn primal(&self, inputs: &Inputs) -> Outcome<Evaluation> {
        if !self.primal_entry {
            return Err(Failure::new(format!(
                "internal error: @{} was compiled without its entry point",
                self.primal.name
            )));
        }
        invoke(&self.jit, &self.primal, &inputs.values())
    }

    /// The signature of a wrapper that must have been compiled.
    pub fn wrapper<'a>(
        &self,
        signature: &'a Option<Signature>,
        what: &str,
    ) -> Outcome<&'a Signature> {
        signature.as_ref().ok_or_else(|| {
            Failure::new(format!(
                "internal error: the {what} wrapper of @{} was not compiled",
                self.primal.name
            ))
        })
    }
}

/// Calls `signature`'s entry point in `jit` once, on fresh buffers bound
/// from `values`, and reads everything back.
pub fn invoke(jit: &Jit, signature: &Signature, values: &[Value]) -> Outcome<Evaluation> {
    let mut arguments = Arguments::bind(signature, values)?;
    let mut results = Results::new(signature);
    let (entry, mut slots) = frame(jit, signature, &mut arguments, &mut results)?;
    if crate::gpu::enabled() {
        moonrt::clear_error();
    }
    // SAFETY: the slots were laid out for this entry point's signature.
    unsafe { crate::gpu::call(entry, &mut slots, &mut arguments)? };
    // With --gpu, a failed launch (say) is an error the call reported.
    if crate::gpu::enabled() {
        if let Some(error) = moonrt::last_error() {
            return Err(Failure::new(format!(
                "@{} reported an error: {}",
                signature.name,
                error.message()
            )));
        }
    }
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

//! The request driver: replaces every `moon.jvp` and `moon.vjp` of a module
//! by a call of a generated function, and generates those functions (and
//! the ones they call or request in turn) by forward mode
//! ([`crate::forward`]) or reverse mode ([`crate::reverse`]). The requests
//! nested in a function are replaced before the function is
//! differentiated, so derivatives nest in any order.

use crate::{
    forward,
    request::{Differentiator, Pending},
    reverse,
};
use moonc_ir::{Error, ir::Op};

/// Replaces every `moon.jvp` and `moon.vjp` in `module` by a call to its
/// generated function, generated as `settings` say.
pub fn differentiate(module: Op, settings: crate::Settings) -> Result<(), Error> {
    let mut diff = Differentiator::new(module);
    diff.settings = settings;
    generate_nested(&mut diff, module)
}

/// The first `moon.jvp` or `moon.vjp` nested in `op`, if any.
fn first_request(op: Op) -> Option<Op> {
    op.walk()
        .into_iter()
        .find(|o| matches!(o.name().as_str(), "moon.jvp" | "moon.vjp"))
}

/// Replaces one `moon.jvp` or `moon.vjp`.
fn replace_request(diff: &mut Differentiator, op: Op) -> Result<(), Error> {
    if op.name() == "moon.vjp" {
        reverse::replace_vjp(diff, op)
    } else {
        forward::replace_jvp(diff, op)
    }
}

/// Generates the derivatives requested inside `primal` first, so that
/// differentiating it differentiates their generated functions (nested
/// derivatives in any order).
fn generate_nested(diff: &mut Differentiator, primal: Op) -> Result<(), Error> {
    while let Some(inner) = first_request(primal) {
        replace_request(diff, inner)?;
        run_pending(diff)?;
    }
    Ok(())
}

/// Generates every queued function (and those they queue), each after the
/// requests nested in its primal.
fn run_pending(diff: &mut Differentiator) -> Result<(), Error> {
    while let Some(pending) = diff.next_pending() {
        match pending {
            Pending::Tangent { key, name, at } => {
                let primal = diff.function(&key.function).expect("a requested function");
                generate_nested(diff, primal)?;
                let tangent = forward::generate(diff, primal, &key, &name, at)?;
                diff.define(name, tangent);
            }
            Pending::Adjoint { key, names, at } => {
                let primal = diff.function(&key.function).expect("a requested function");
                generate_nested(diff, primal)?;
                for (name, function) in reverse::generate(diff, primal, &key, &names, at)? {
                    diff.define(name, function);
                }
            }
        }
    }
    Ok(())
}

//! `--moon-check-argument-shapes`: run-time checks that memref arguments
//! are as large as the loops of their function need, where its IR relates
//! them (`moonc --checked`).
//!
//! A loop `scf.for %i = %lb to dim(%a, k)` that loads or stores another
//! argument `%b` at `%i` in dimension `j` reads `%b` up to `dim(%a, k) - 1`
//! there, so `%b` needs at least `dim(%a, k)` elements along `j`. Each such
//! requirement becomes a `cf.assert` at the function's entry, before
//! anything is computed, whose message names both arguments and the loop.
//! MLIR's runtime verification, which `--checked` also adds, reports the
//! first load out of bounds instead, in whatever code reaches it first.

use moonc_ir::{
    Error,
    ir::{Builder, Loc, Op, Value},
    pass::{OptionValues, PassInfo},
};

/// The registration of `--moon-check-argument-shapes`.
pub static CHECK_ARGUMENT_SHAPES: PassInfo = PassInfo {
    argument: "moon-check-argument-shapes",
    summary: "Check at each function's entry that memref arguments are as large as its loops need",
    description: r#"
For every `scf.for` whose upper bound is `memref.dim` of an argument `%a`
(dimension `k`) and whose induction variable directly indexes a
`memref.load` or `memref.store` of another argument `%b` (dimension `j`),
inserts at the function's entry `cf.assert (dim(%b, j) >= dim(%a, k))`
with a message naming both arguments, the loop's location and the
access's. A call whose arguments do not fit then ends with that message
(`cf.assert` prints it and aborts) before computing anything. Each
requirement is checked once per function. `moonc --checked` runs it
before differentiation, so derivatives check the same arguments.
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[],
    run,
};

/// One requirement: argument `b` needs at least as many elements in
/// dimension `j` as argument `a` has in dimension `k`, for `access` in
/// `loop_`.
struct Requirement {
    b: Value,
    j: i64,
    a: Value,
    k: i64,
    loop_: Op,
    access: Op,
}

fn run(module: Op, _: OptionValues) -> Result<(), Error> {
    let functions = module
        .regions()
        .into_iter()
        .flat_map(|r| r.blocks())
        .flat_map(|b| b.ops())
        .filter(|f| f.name() == "func.func");
    for function in functions {
        let Some(entry) = function.regions()[0].entry() else {
            continue;
        };
        let requirements = requirements(function, &entry.args());
        let Some(&first) = entry.ops().first() else {
            continue;
        };
        let name = function
            .attr("sym_name")
            .map(|n| n.to_string().trim_matches('"').to_string())
            .unwrap_or_default();
        for r in requirements {
            check(first, &name, &entry.args(), &r);
        }
    }
    Ok(())
}

/// The requirements the loops of `function` (with entry arguments
/// `args`) put on its arguments, once each.
fn requirements(function: Op, args: &[Value]) -> Vec<Requirement> {
    let mut found: Vec<Requirement> = vec![];
    for l in function
        .walk()
        .into_iter()
        .filter(|o| o.name() == "scf.for")
    {
        let Some(dim) = l
            .operand(1)
            .defining_op()
            .filter(|d| d.name() == "memref.dim")
        else {
            continue;
        };
        let (a, k) = (dim.operand(0), dim.operand(1).index_constant());
        let (Some(k), true) = (k, args.contains(&a)) else {
            continue;
        };
        let Some(body) = l.regions()[0].entry() else {
            continue;
        };
        let iv = body.args()[0];
        // In program order, so that a message names the first access.
        for access in l.walk() {
            let first_index = match access.name().as_str() {
                "memref.load" => 1,
                "memref.store" => 2,
                _ => continue,
            };
            let operands = access.operands();
            let b = operands[first_index - 1];
            for (j, index) in operands[first_index..].iter().enumerate() {
                let j = j as i64;
                let known = found
                    .iter()
                    .any(|r| r.a == a && r.k == k && r.b == b && r.j == j);
                if *index == iv && args.contains(&b) && (b != a || j != k) && !known {
                    found.push(Requirement {
                        b,
                        j,
                        a,
                        k,
                        loop_: l,
                        access,
                    });
                }
            }
        }
    }
    found
}

/// Inserts the check of `r` before `first`, the first operation of
/// function `name` (of arguments `args`).
fn check(first: Op, name: &str, args: &[Value], r: &Requirement) {
    let mut b = Builder::before(first);
    let index = b.ctx.ty("index");
    let dim = |b: &mut Builder, memref: Value, d: i64| {
        let d = b.index(d);
        b.value("memref.dim", &[memref, d], index, &[])
    };
    let needed = dim(&mut b, r.a, r.k);
    let has = dim(&mut b, r.b, r.j);
    let sge = b.ctx.attr("5 : i64");
    let ok = b.value(
        "arith.cmpi",
        &[has, needed],
        b.ctx.ty("i1"),
        &[("predicate", sge)],
    );
    let position = |v: Value| args.iter().position(|a| *a == v).unwrap_or(0);
    let message = format!(
        "@{name}: argument {} (from 0) has fewer elements in dimension {} than argument {} \
         has in dimension {}, which bounds the loop at {} that accesses it at {}",
        position(r.b),
        r.j,
        position(r.a),
        r.k,
        place(r.loop_.loc()),
        place(r.access.loc()),
    );
    let escaped = message.replace('\\', "\\\\").replace('"', "\\\"");
    let msg = b.ctx.attr(&format!("\"{escaped}\""));
    b.create("cf.assert", &[ok], &[], &[("msg", msg)], &[], &[]);
}

/// `file:line:col` of a location, or MLIR's spelling of it.
fn place(loc: Loc) -> String {
    let text = loc.to_string();
    let inner = text
        .strip_prefix("loc(\"")
        .and_then(|t| t.strip_suffix(')'))
        .and_then(|t| t.split_once('"'))
        .map(|(file, rest)| format!("{file}{rest}"));
    inner.unwrap_or(text)
}

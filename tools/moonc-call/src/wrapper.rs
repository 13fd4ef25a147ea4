//! The derivative wrappers of an entry function: public functions
//! `@__moonc_jvp_<entry>`, `@__moonc_vjp_<entry>` and `@__moonc_hvp_<entry>`
//! whose body is one `moon.jvp`, `moon.vjp` or `moon.hvp` of `@<entry>` with
//! the default activities (or, for the JVP and the VJP, those of `--wrt`),
//! so that `--moon-autodiff` generates the derivative code and the JIT can
//! call it like any public function.

use crate::failure::{Failure, Outcome};
use moonc_codegen::{Signature, ValueType};

/// The arguments to differentiate with respect to (`--wrt`): by default
/// every float argument; otherwise those listed (0-based indices, each a
/// float scalar or a memref of floats), the others then `const`, so that
/// the derivative code does not compute their adjoints or tangents.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wrt(Option<Vec<usize>>);

impl Wrt {
    /// Every float argument.
    pub fn all() -> Wrt {
        Wrt(None)
    }

    /// `--wrt`'s value, a comma-separated list of argument indices
    /// (`None`: the flag was not given).
    pub fn parse(list: Option<&str>) -> Outcome<Wrt> {
        let Some(list) = list else {
            return Ok(Wrt::all());
        };
        if list.trim().is_empty() {
            return Err(Failure::new(
                "--wrt is empty: give the indices of the arguments to differentiate, e.g. \
                 --wrt 0,2",
            ));
        }
        let mut indices = vec![];
        for item in list.split(',').map(str::trim) {
            let index: usize = item.parse().map_err(|_| {
                Failure::new(format!(
                    "--wrt {list}: `{item}` is not an argument index (0, 1, ...)"
                ))
            })?;
            if indices.contains(&index) {
                return Err(Failure::new(format!(
                    "--wrt {list}: argument #{index} is listed twice"
                )));
            }
            indices.push(index);
        }
        Ok(Wrt(Some(indices)))
    }

    /// The indices listed, or `None` for every float argument.
    pub fn listed(&self) -> Option<&[usize]> {
        self.0.as_deref()
    }

    /// Whether argument `index` of type `t` is differentiated.
    pub fn includes(&self, index: usize, t: &ValueType) -> bool {
        has_tangent(t) && self.0.as_ref().is_none_or(|list| list.contains(&index))
    }

    /// Fails unless every listed index names a float argument of `entry`.
    pub fn check(&self, entry: &Signature) -> Outcome<()> {
        for &index in self.0.iter().flatten() {
            let name = &entry.name;
            match entry.args.get(index) {
                None => {
                    return Err(Failure::new(format!(
                        "--wrt: @{name} has no argument #{index} (it takes {})",
                        entry.args.len()
                    )));
                }
                Some(t) if !has_tangent(t) => {
                    return Err(Failure::new(format!(
                        "--wrt: argument #{index} of @{name} ({t}) is not a float scalar or \
                         a memref of floats, so it has no derivative"
                    )));
                }
                Some(_) => {}
            }
        }
        Ok(())
    }
}

/// Whether an argument of type `t` has a tangent operand under the default
/// activities: a float scalar is `active`, a memref of floats is `dup`
/// (its shadow has the memref's type); everything else is `const`.
pub fn has_tangent(t: &ValueType) -> bool {
    t.element().is_float()
}

/// Whether an argument of type `t` is `dup` under the default activities:
/// a memref of floats, whose shadow has its type.
pub fn is_dup_arg(t: &ValueType) -> bool {
    matches!(t, ValueType::MemRef { .. }) && t.element().is_float()
}

/// Whether an argument of type `t` is `active` under the default
/// activities: a float scalar, whose derivative is a value.
pub fn is_active_arg(t: &ValueType) -> bool {
    matches!(t, ValueType::Scalar(s) if s.is_float())
}

/// Whether a result of type `t` has a tangent (forward) or takes a
/// cotangent (reverse) under the default activities: float scalars are
/// `active`, everything else is `const`.
pub fn is_active_result(t: &ValueType) -> bool {
    matches!(t, ValueType::Scalar(s) if s.is_float())
}

/// A generated wrapper: its MLIR text (a module that also declares the
/// entry, so that it verifies on its own) and its signature.
pub struct Wrapper {
    /// `__moonc_jvp_<entry>` or `__moonc_vjp_<entry>`.
    pub name: String,
    pub text: String,
    /// The wrapper's arguments and results (see [`jvp_wrapper`] and
    /// [`vjp_wrapper`]).
    pub signature: Signature,
}

/// The arguments of `entry` that `wrt` differentiates.
fn differentiated<'a>(
    entry: &'a Signature,
    wrt: &'a Wrt,
) -> impl Iterator<Item = &'a ValueType> + 'a {
    entry
        .args
        .iter()
        .enumerate()
        .filter(move |(i, t)| wrt.includes(*i, t))
        .map(|(_, t)| t)
}

/// The `args [...]` clause of a wrapper's operation when `wrt` leaves out
/// a float argument: `active` for a float scalar, `dup` for a memref of
/// floats, `const` for the others. Empty for the default activities.
fn activities(entry: &Signature, wrt: &Wrt) -> String {
    let all = entry.args.iter().enumerate();
    if all
        .clone()
        .all(|(i, t)| wrt.includes(i, t) == has_tangent(t))
    {
        return String::new();
    }
    let names: Vec<&str> = all
        .map(|(i, t)| {
            if !wrt.includes(i, t) {
                "const"
            } else if is_dup_arg(t) {
                "dup"
            } else {
                "active"
            }
        })
        .collect();
    format!(" args [{}]", names.join(", "))
}

/// The JVP wrapper of `entry`, every operation located at `location` (the
/// entry's own location as MLIR prints it, `loc(...)`), so that errors in
/// differentiating it point at the user's function. Arguments: the
/// entry's, then one tangent per argument with one ([`has_tangent`]) that
/// `wrt` includes (the others are `const`). Results: the entry's, then one
/// tangent per active result and per result in `buffers` (`dup`: memrefs
/// of floats the call allocates, tensor results once bufferized), in result
/// order.
pub fn jvp_wrapper(entry: &Signature, location: &str, wrt: &Wrt, buffers: &[usize]) -> Wrapper {
    let extra_args = differentiated(entry, wrt)
        .enumerate()
        .map(|(i, t)| (format!("%t{i}"), t));
    let mut clauses = activities(entry, wrt);
    if !buffers.is_empty() {
        let results: Vec<&str> = (0..entry.results.len())
            .map(
                |j| match (is_active_result(&entry.results[j]), buffers.contains(&j)) {
                    (true, _) => "active",
                    (false, true) => "dup",
                    _ => "const",
                },
            )
            .collect();
        clauses += &format!(" results [{}]", results.join(", "));
    }
    let tangents = entry
        .results
        .iter()
        .enumerate()
        .filter(|&(j, t)| is_active_result(t) || buffers.contains(&j))
        .map(|(_, t)| t);
    render(
        ("jvp", &clauses),
        entry,
        extra_args.collect(),
        tangents.collect(),
        location,
    )
}

/// The VJP wrapper of `entry`, located like [`jvp_wrapper`]'s. Arguments:
/// the entry's, then one shadow per `dup` argument ([`is_dup_arg`], in
/// argument order), then one cotangent per active result (in result
/// order); shadows are incremented, or, with `overwrite`, set to the
/// derivatives (`moon.overwrite_shadows`: what they held is ignored).
/// Results: the entry's, then one cotangent per active argument
/// ([`is_active_arg`], in argument order). Arguments that `wrt` leaves out
/// are `const`: no shadow, no cotangent.
pub fn vjp_wrapper(entry: &Signature, location: &str, wrt: &Wrt, overwrite: bool) -> Wrapper {
    let shadows = differentiated(entry, wrt).filter(|t| is_dup_arg(t));
    let seeds = entry.results.iter().filter(|t| is_active_result(t));
    let extra_args = shadows
        .enumerate()
        .map(|(i, t)| (format!("%s{i}"), t))
        .chain(seeds.enumerate().map(|(i, t)| (format!("%c{i}"), t)));
    let cotangents = differentiated(entry, wrt).filter(|t| is_active_arg(t));
    let mut clauses = activities(entry, wrt);
    if overwrite {
        clauses += " {moon.overwrite_shadows}";
    }
    render(
        ("vjp", &clauses),
        entry,
        extra_args.collect(),
        cotangents.collect(),
        location,
    )
}

/// The Hessian-vector product wrapper of `entry` (one float scalar result)
/// for `width` directions at once, located like [`jvp_wrapper`]'s. It
/// returns nothing and takes memrefs with a leading dimension of `width`
/// (one row per direction), all of which the driver can pass: the entry's
/// arguments, then one direction per argument with a tangent
/// ([`has_tangent`]), then one output per `dup` argument ([`is_dup_arg`]),
/// into which the products are added, then one output per active argument
/// ([`is_active_arg`]), where the products are stored. Its body is one
/// `moon.hvp @<entry> ... width <width>`; scalar directions and products
/// go through `vector<width x T>`.
pub fn hvp_wrapper(entry: &Signature, location: &str, width: usize) -> Wrapper {
    let name = format!("__moonc_hvp_{}", entry.name);
    let rows = |t: &ValueType| {
        let shape = match t {
            ValueType::Scalar(_) => vec![Some(width)],
            ValueType::MemRef { shape, .. } => std::iter::once(Some(width))
                .chain(shape.iter().copied())
                .collect(),
        };
        ValueType::MemRef {
            element: t.element(),
            shape,
            layout: None,
        }
    };
    let vector = |t: &ValueType| format!("vector<{width}x{}>", t.element().mlir());
    let mut args: Vec<ValueType> = entry.args.clone();
    let mut parameters: Vec<String> = (0..entry.args.len()).map(|i| format!("%a{i}")).collect();
    let mut body = vec![format!("%c0 = arith.constant 0 : index {location}")];
    let mut operands = parameters.clone();
    let mut operand_types: Vec<String> = entry.args.iter().map(spelling).collect();
    for (i, t) in entry.args.iter().filter(|t| has_tangent(t)).enumerate() {
        args.push(rows(t));
        parameters.push(format!("%t{i}"));
        if is_active_arg(t) {
            body.push(format!(
                "%v{i} = vector.load %t{i}[%c0] : {}, {} {location}",
                spelling(&rows(t)),
                vector(t)
            ));
            operands.push(format!("%v{i}"));
            operand_types.push(vector(t));
        } else {
            operands.push(format!("%t{i}"));
            operand_types.push(spelling(&rows(t)));
        }
    }
    for (i, t) in entry.args.iter().filter(|t| is_dup_arg(t)).enumerate() {
        args.push(rows(t));
        parameters.push(format!("%o{i}"));
        operands.push(format!("%o{i}"));
        operand_types.push(spelling(&rows(t)));
    }
    let active: Vec<&ValueType> = entry.args.iter().filter(|t| is_active_arg(t)).collect();
    for (k, t) in active.iter().enumerate() {
        args.push(rows(t));
        parameters.push(format!("%p{k}"));
    }
    let products = match active.len() {
        0 => String::new(),
        1 => "%r = ".to_string(),
        n => format!("%r:{n} = "),
    };
    body.push(format!(
        "{products}moon.hvp {}({}) width {width} : ({}) -> ({}) {location}",
        symbol(&entry.name),
        operands.join(", "),
        operand_types.join(", "),
        active
            .iter()
            .map(|t| vector(t))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    for (k, t) in active.iter().enumerate() {
        let result = if active.len() == 1 {
            "%r".to_string()
        } else {
            format!("%r#{k}")
        };
        body.push(format!(
            "vector.store {result}, %p{k}[%c0] : {}, {} {location}",
            spelling(&rows(t)),
            vector(t)
        ));
    }
    body.push(format!("return {location}"));
    let list = |types: &[ValueType]| types.iter().map(spelling).collect::<Vec<_>>().join(", ");
    let typed: Vec<String> = parameters
        .iter()
        .zip(&args)
        .map(|(p, t)| format!("{p}: {}", spelling(t)))
        .collect();
    let text = format!(
        "func.func private {callee}({entry_args}) -> ({entry_results}) {location}\n\
         func.func {wrapper}({typed}) {{\n{body}\n}} {location}\n",
        callee = symbol(&entry.name),
        entry_args = list(&entry.args),
        entry_results = list(&entry.results),
        wrapper = symbol(&name),
        typed = typed.join(", "),
        body = body
            .iter()
            .map(|line| format!("  {line}"))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    Wrapper {
        signature: Signature {
            name: name.clone(),
            args,
            results: vec![],
        },
        name,
        text,
    }
}

/// The wrapper `@__moonc_<op>_<entry>`: one `moon.<op> @<entry>` (then
/// `clauses`, such as `args [...]`) whose operands are the entry's
/// arguments (`%a<i>`) then `extra_args` (named), and whose results are the
/// entry's then `extra_results`.
fn render(
    (op, clauses): (&str, &str),
    entry: &Signature,
    extra_args: Vec<(String, &ValueType)>,
    extra_results: Vec<&ValueType>,
    location: &str,
) -> Wrapper {
    let name = format!("__moonc_{op}_{}", entry.name);
    let operands: Vec<String> = (0..entry.args.len())
        .map(|i| format!("%a{i}"))
        .chain(extra_args.iter().map(|(name, _)| name.clone()))
        .collect();
    let args: Vec<ValueType> = entry
        .args
        .iter()
        .chain(extra_args.iter().map(|&(_, t)| t))
        .cloned()
        .collect();
    let results: Vec<ValueType> = entry.results.iter().chain(extra_results).cloned().collect();

    let list = |types: &[ValueType]| types.iter().map(spelling).collect::<Vec<_>>().join(", ");
    let parameters: Vec<String> = operands
        .iter()
        .zip(&args)
        .map(|(operand, t)| format!("{operand}: {}", spelling(t)))
        .collect();
    let (bind, returned) = match results.len() {
        0 => (String::new(), String::new()),
        1 => ("%r = ".to_string(), " %r".to_string()),
        n => (
            format!("%r:{n} = "),
            format!(
                " {}",
                (0..n)
                    .map(|i| format!("%r#{i}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    };
    let return_types = if results.is_empty() {
        String::new()
    } else {
        format!(" : {}", list(&results))
    };
    let text = format!(
        "func.func private {callee}({entry_args}) -> ({entry_results}) {location}\n\
         func.func {wrapper}({parameters}) -> ({results}) {{\n\
         \x20 {bind}moon.{op} {callee}({operands}){clauses} : ({args}) -> ({results}) {location}\n\
         \x20 return{returned}{return_types} {location}\n\
         }} {location}\n",
        callee = symbol(&entry.name),
        entry_args = list(&entry.args),
        entry_results = list(&entry.results),
        wrapper = symbol(&name),
        parameters = parameters.join(", "),
        results = list(&results),
        operands = operands.join(", "),
        args = list(&args),
    );
    Wrapper {
        signature: Signature {
            name: name.clone(),
            args,
            results,
        },
        name,
        text,
    }
}

/// The full MLIR spelling of `t`, its strided layout included.
fn spelling(t: &ValueType) -> String {
    let plain = t.to_string();
    let ValueType::MemRef {
        layout: Some(layout),
        ..
    } = t
    else {
        return plain;
    };
    let number = |n: Option<i64>| n.map_or("?".to_string(), |n| n.to_string());
    let strides: Vec<String> = layout.strides.iter().map(|s| number(*s)).collect();
    format!(
        "{}, strided<[{}], offset: {}>>",
        &plain[..plain.len() - 1],
        strides.join(", "),
        number(layout.offset)
    )
}

/// `@name`, quoted when `name` is not a bare identifier.
fn symbol(name: &str) -> String {
    let bare = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_$.".contains(c));
    if bare {
        format!("@{name}")
    } else {
        format!("@\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use moonc_codegen::Scalar;

    fn memref(shape: Vec<Option<usize>>) -> ValueType {
        ValueType::MemRef {
            element: Scalar::F64,
            shape,
            layout: None,
        }
    }

    #[test]
    fn wrapper_follows_the_default_activities() {
        let entry = Signature {
            name: "f".into(),
            args: vec![
                ValueType::Scalar(Scalar::F64),
                memref(vec![None]),
                ValueType::Scalar(Scalar::I32),
            ],
            results: vec![ValueType::Scalar(Scalar::F64), memref(vec![Some(2)])],
        };
        let wrapper = jvp_wrapper(&entry, "loc(\"f.mlir\":1:1)", &Wrt::all(), &[]);
        assert_eq!(wrapper.name, "__moonc_jvp_f");
        assert_eq!(
            wrapper.text,
            "func.func private @f(f64, memref<?xf64>, i32) -> (f64, memref<2xf64>) loc(\"f.mlir\":1:1)\n\
             func.func @__moonc_jvp_f(%a0: f64, %a1: memref<?xf64>, %a2: i32, %t0: f64, %t1: memref<?xf64>) -> (f64, memref<2xf64>, f64) {\n\
             \x20 %r:3 = moon.jvp @f(%a0, %a1, %a2, %t0, %t1) : (f64, memref<?xf64>, i32, f64, memref<?xf64>) -> (f64, memref<2xf64>, f64) loc(\"f.mlir\":1:1)\n\
             \x20 return %r#0, %r#1, %r#2 : f64, memref<2xf64>, f64 loc(\"f.mlir\":1:1)\n\
             } loc(\"f.mlir\":1:1)\n"
        );
        assert_eq!(wrapper.signature.args.len(), 5);
        assert_eq!(wrapper.signature.results.len(), 3);
    }

    #[test]
    fn no_results_and_one_result() {
        let none = Signature {
            name: "g".into(),
            args: vec![memref(vec![Some(3)])],
            results: vec![],
        };
        let text = jvp_wrapper(&none, "loc(unknown)", &Wrt::all(), &[]).text;
        assert!(text.contains("  moon.jvp @g(%a0, %t0) : (memref<3xf64>, memref<3xf64>) -> () loc(unknown)\n  return loc(unknown)\n"), "{text}");
        let one = Signature {
            name: "h".into(),
            args: vec![ValueType::Scalar(Scalar::I64)],
            results: vec![ValueType::Scalar(Scalar::I64)],
        };
        let text = jvp_wrapper(&one, "loc(unknown)", &Wrt::all(), &[]).text;
        assert!(
            text.contains("%r = moon.jvp @h(%a0) : (i64) -> (i64)"),
            "{text}"
        );
        assert!(text.contains("return %r : i64"), "{text}");
    }

    #[test]
    fn jvp_wrapper_takes_tangents_of_buffer_results() {
        let entry = Signature {
            name: "f".into(),
            args: vec![memref(vec![Some(2)])],
            results: vec![
                ValueType::Scalar(Scalar::F64),
                memref(vec![Some(2)]),
                memref(vec![Some(3)]),
            ],
        };
        let wrapper = jvp_wrapper(&entry, "loc(unknown)", &Wrt::all(), &[1]);
        assert!(
            wrapper.text.contains(
                "moon.jvp @f(%a0, %t0) results [active, dup, const] : (memref<2xf64>, \
                 memref<2xf64>) -> (f64, memref<2xf64>, memref<3xf64>, f64, memref<2xf64>)"
            ),
            "{}",
            wrapper.text
        );
        assert_eq!(wrapper.signature.results.len(), 5);
    }

    #[test]
    fn vjp_wrapper_follows_the_default_activities() {
        let entry = Signature {
            name: "f".into(),
            args: vec![
                ValueType::Scalar(Scalar::F64),
                memref(vec![None]),
                ValueType::Scalar(Scalar::I32),
                ValueType::Scalar(Scalar::F32),
                memref(vec![Some(2)]),
            ],
            results: vec![
                ValueType::Scalar(Scalar::F64),
                memref(vec![Some(2)]),
                ValueType::Scalar(Scalar::F32),
            ],
        };
        let wrapper = vjp_wrapper(&entry, "loc(\"f.mlir\":1:1)", &Wrt::all(), false);
        assert_eq!(wrapper.name, "__moonc_vjp_f");
        assert_eq!(
            wrapper.text,
            "func.func private @f(f64, memref<?xf64>, i32, f32, memref<2xf64>) -> (f64, memref<2xf64>, f32) loc(\"f.mlir\":1:1)\n\
             func.func @__moonc_vjp_f(%a0: f64, %a1: memref<?xf64>, %a2: i32, %a3: f32, %a4: memref<2xf64>, %s0: memref<?xf64>, %s1: memref<2xf64>, %c0: f64, %c1: f32) -> (f64, memref<2xf64>, f32, f64, f32) {\n\
             \x20 %r:5 = moon.vjp @f(%a0, %a1, %a2, %a3, %a4, %s0, %s1, %c0, %c1) : (f64, memref<?xf64>, i32, f32, memref<2xf64>, memref<?xf64>, memref<2xf64>, f64, f32) -> (f64, memref<2xf64>, f32, f64, f32) loc(\"f.mlir\":1:1)\n\
             \x20 return %r#0, %r#1, %r#2, %r#3, %r#4 : f64, memref<2xf64>, f32, f64, f32 loc(\"f.mlir\":1:1)\n\
             } loc(\"f.mlir\":1:1)\n"
        );
        assert_eq!(wrapper.signature.args.len(), 9);
        assert_eq!(wrapper.signature.results.len(), 5);
    }

    #[test]
    fn vjp_of_a_function_without_results() {
        let entry = Signature {
            name: "g".into(),
            args: vec![memref(vec![Some(3)]), ValueType::Scalar(Scalar::Index)],
            results: vec![],
        };
        let text = vjp_wrapper(&entry, "loc(unknown)", &Wrt::all(), false).text;
        assert!(
            text.contains("  moon.vjp @g(%a0, %a1, %s0) : (memref<3xf64>, index, memref<3xf64>) -> () loc(unknown)\n  return loc(unknown)\n"),
            "{text}"
        );
        // One that sets its shadows says so.
        let text = vjp_wrapper(&entry, "loc(unknown)", &Wrt::all(), true).text;
        assert!(
            text.contains("  moon.vjp @g(%a0, %a1, %s0) {moon.overwrite_shadows} : (memref<3xf64>, index, memref<3xf64>) -> () loc(unknown)\n"),
            "{text}"
        );
    }

    #[test]
    fn wrt_makes_the_other_arguments_const() {
        let entry = Signature {
            name: "f".into(),
            args: vec![
                ValueType::Scalar(Scalar::F64),
                memref(vec![None]),
                ValueType::Scalar(Scalar::I32),
                memref(vec![Some(2)]),
            ],
            results: vec![ValueType::Scalar(Scalar::F64)],
        };
        let wrt = Wrt::parse(Some("3")).unwrap();
        let vjp = vjp_wrapper(&entry, "loc(unknown)", &wrt, false);
        assert!(
            vjp.text.contains(
                "  %r = moon.vjp @f(%a0, %a1, %a2, %a3, %s0, %c0) args [const, const, const, dup] \
                 : (f64, memref<?xf64>, i32, memref<2xf64>, memref<2xf64>, f64) -> (f64) loc(unknown)\n"
            ),
            "{}",
            vjp.text
        );
        let wrt = Wrt::parse(Some("0, 1")).unwrap();
        let jvp = jvp_wrapper(&entry, "loc(unknown)", &wrt, &[]);
        assert!(
            jvp.text.contains(
                "moon.jvp @f(%a0, %a1, %a2, %a3, %t0, %t1) args [active, dup, const, const] \
                 : (f64, memref<?xf64>, i32, memref<2xf64>, f64, memref<?xf64>) -> (f64, f64)"
            ),
            "{}",
            jvp.text
        );
        let vjp = vjp_wrapper(&entry, "loc(unknown)", &wrt, false);
        assert_eq!(vjp.signature.results.len(), 2, "the value and dx");
        // Listing every float argument is the default: no clause.
        let all = Wrt::parse(Some("3,1,0")).unwrap();
        assert_eq!(
            vjp_wrapper(&entry, "loc(unknown)", &all, false).text,
            vjp_wrapper(&entry, "loc(unknown)", &Wrt::all(), false).text
        );
    }

    #[test]
    fn wrt_is_a_list_of_float_arguments() {
        let entry = Signature {
            name: "f".into(),
            args: vec![
                ValueType::Scalar(Scalar::F64),
                ValueType::Scalar(Scalar::I32),
            ],
            results: vec![],
        };
        assert!(Wrt::parse(Some("0")).unwrap().check(&entry).is_ok());
        let error = |list: &str| match Wrt::parse(Some(list)) {
            Err(failure) => failure.0,
            Ok(wrt) => wrt.check(&entry).unwrap_err().0,
        };
        assert!(error("1").contains("argument #1 of @f (i32) is not a float"));
        assert!(error("2").contains("@f has no argument #2 (it takes 2)"));
        assert!(error("0,0").contains("listed twice"));
        assert!(error("-1").contains("`-1` is not an argument index"));
        assert!(error("").contains("--wrt is empty"));
    }

    #[test]
    fn odd_names_are_quoted() {
        assert_eq!(symbol("f.x$1"), "@f.x$1");
        assert_eq!(symbol("a b\"c"), "@\"a b\\\"c\"");
        assert_eq!(symbol("1f"), "@\"1f\"");
    }
}

//! Forward mode: generates the tangent function of a function for one
//! choice of argument and result activities and one width, and replaces
//! `moon.jvp` operations by calls to them.
//!
//! A tangent function is a copy of the primal function in which every
//! active value gets its tangent computed right after it (by the rule of
//! its operation, see [`crate::rules`]) and every active memref a shadow
//! buffer. Loops carry tangents as extra iteration values, branches pass
//! them as extra block arguments, and calls call the callees' tangent
//! functions, which are generated on demand (once per key, so recursion
//! works).

use crate::{
    activity::Activity,
    expr,
    ir::{Block, Builder, Ctx, Op, Region, Type, Value, error_at},
    reverse,
    rules::{self, Forward},
};
use mlir_sys as sys;
use moonc_ir::{Error, moon::Activity as Act};
use std::collections::HashMap;

/// What a tangent function is generated for.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Key {
    pub function: String,
    pub args: Vec<Act>,
    pub results: Vec<Act>,
    pub width: u32,
}

impl Key {
    /// The key with the default activities of `function`'s type: floats
    /// active, memrefs of floats `dup`, everything else constant.
    pub fn default_for(function: &str, ty: (Vec<Type>, Vec<Type>), width: u32) -> Key {
        let activity = |t: &Type, memref: Act| {
            if t.is_differentiable() {
                Act::Active
            } else if t.is_float_memref() {
                memref
            } else {
                Act::Const
            }
        };
        Key {
            function: function.to_string(),
            args: ty.0.iter().map(|t| activity(t, Act::Dup)).collect(),
            results: ty.1.iter().map(|t| activity(t, Act::Const)).collect(),
            width,
        }
    }

    /// The generated function's name: `@f_jvp` followed by one letter per
    /// argument and result activity and the width, e.g. `@f_jvp_ac_a` or
    /// `@f_jvp_d_n_w4`.
    pub fn mangled(&self, tag: &str) -> String {
        let letters = |acts: &[Act]| -> String {
            acts.iter()
                .map(|a| match a {
                    Act::Const => 'c',
                    Act::Active => 'a',
                    Act::ActiveNoNeed => 'n',
                    Act::Dup => 'd',
                    Act::DupNoNeed => 'u',
                })
                .collect()
        };
        let mut name = format!(
            "{}_{tag}_{}_{}",
            self.function,
            letters(&self.args),
            letters(&self.results)
        );
        if self.width > 1 {
            name += &format!("_w{}", self.width);
        }
        name
    }
}

/// The type of the tangent of a value of type `ty` with `width` directions.
/// Memrefs get a leading direction dimension and a fully dynamic strided
/// layout inside generated functions (so that views of shadows have types).
pub fn tangent_type(ctx: Ctx, ty: Type, width: u32) -> Type {
    if width == 1 {
        return ty;
    }
    let element = ty.element();
    if ty.is_memref() {
        let rank = ty.shape().len() + 1;
        let strides = vec!["?"; rank].join(", ");
        ctx.ty(&format!(
            "memref<{width}x{}{element}, strided<[{strides}], offset: ?>>",
            ty.shape_prefix()
        ))
    } else {
        ctx.ty(&format!("vector<{width}x{}{element}>", ty.shape_prefix()))
    }
}

/// The tangent type of a memref at the interface of `moon.jvp`: the
/// identity layout.
pub fn interface_shadow_type(ctx: Ctx, ty: Type, width: u32) -> Type {
    if width == 1 {
        return ty;
    }
    ctx.ty(&format!(
        "memref<{width}x{}{}>",
        ty.shape_prefix(),
        ty.element()
    ))
}

/// The module-wide state of differentiation: which tangent functions exist
/// or are still to be generated, and the user's custom rules.
pub struct Differentiator {
    ctx: Ctx,
    functions: HashMap<String, Op>,
    custom_jvp: HashMap<String, String>,
    custom_vjp: HashMap<String, String>,
    generated: HashMap<Key, String>,
    pending: Vec<(Key, String, Op)>,
    /// Adjoint functions by key and whether they are a split pair: the
    /// (forward, reverse) names (both the same function when combined).
    generated_vjp: HashMap<(Key, bool), (String, String)>,
    pending_vjp: Vec<(Key, reverse::Names, Op)>,
    /// How code is generated (`--moon-autodiff`'s options).
    pub settings: crate::Settings,
}

impl Differentiator {
    /// Indexes the functions and custom rules of `module`.
    pub fn new(module: Op) -> Differentiator {
        // SAFETY: the module is live.
        let ctx = Ctx(unsafe { sys::mlirOperationGetContext(module.0) });
        let mut functions = HashMap::new();
        let mut custom_jvp = HashMap::new();
        let mut custom_vjp = HashMap::new();
        let body = module.regions()[0].entry().expect("a module has a body");
        for op in body.ops() {
            match op.name().as_str() {
                "func.func" => {
                    if let Some(name) = op.attr("sym_name").and_then(|a| a.string()) {
                        functions.insert(name, op);
                    }
                }
                "moon.custom_rule" => {
                    let Some(callee) = op.attr("callee").and_then(|a| a.string()) else {
                        continue;
                    };
                    if let Some(jvp) = op.attr("jvp").and_then(|a| a.string()) {
                        custom_jvp.insert(callee.clone(), jvp);
                    }
                    if let Some(vjp) = op.attr("vjp").and_then(|a| a.string()) {
                        custom_vjp.insert(callee, vjp);
                    }
                }
                _ => {}
            }
        }
        Differentiator {
            ctx,
            functions,
            custom_jvp,
            custom_vjp,
            generated: HashMap::new(),
            pending: vec![],
            generated_vjp: HashMap::new(),
            pending_vjp: vec![],
            settings: crate::Settings::default(),
        }
    }

    /// The context.
    pub fn ctx(&self) -> Ctx {
        self.ctx
    }

    /// The user's adjoint function for `function`, if it has a custom rule.
    pub fn custom_vjp(&self, function: &str) -> Option<&str> {
        self.custom_vjp.get(function).map(String::as_str)
    }

    /// A fresh function name starting with `name`.
    fn fresh(&self, mut name: String) -> String {
        while self.functions.contains_key(&name) {
            name += "_";
        }
        name
    }

    /// Checks that `function` can be differentiated (it exists and has a
    /// body); `at` asks.
    fn differentiable(&self, function: &str, at: Op) -> Result<Op, Error> {
        let Some(&primal) = self.functions.get(function) else {
            return Err(error_at(
                at,
                &format!("no function @{function} to differentiate"),
            ));
        };
        if primal.regions()[0].entry().is_none() {
            return Err(error_at(
                at,
                &format!(
                    "cannot differentiate @{function}: it is only declared; give its body or \
                     attach a custom rule (moon.custom_rule)"
                ),
            ));
        }
        Ok(primal)
    }

    /// The names of the adjoint function for `key` (a split pair when
    /// `split`), queueing its generation if needed.
    pub fn request_vjp(
        &mut self,
        key: Key,
        split: bool,
        at: Op,
    ) -> Result<(String, String), Error> {
        if let Some(names) = self.generated_vjp.get(&(key.clone(), split)) {
            return Ok(names.clone());
        }
        let primal = self.differentiable(&key.function, at)?;
        let names = if split {
            let forward = self.fresh(key.mangled("fwd"));
            self.functions.insert(forward.clone(), primal);
            let reverse = self.fresh(key.mangled("rev"));
            self.functions.insert(reverse.clone(), primal);
            reverse::Names::Split { forward, reverse }
        } else {
            let name = self.fresh(key.mangled("vjp"));
            self.functions.insert(name.clone(), primal);
            reverse::Names::Combined(name)
        };
        let pair = match &names {
            reverse::Names::Combined(n) => (n.clone(), n.clone()),
            reverse::Names::Split { forward, reverse } => (forward.clone(), reverse.clone()),
        };
        self.generated_vjp
            .insert((key.clone(), split), pair.clone());
        self.pending_vjp.push((key, names, at));
        Ok(pair)
    }

    /// The function `name` of the module (as the user wrote it).
    pub fn function(&self, name: &str) -> Option<Op> {
        self.functions.get(name).copied()
    }

    /// The argument and result types of the function `name`.
    pub fn function_type(&self, name: &str) -> Option<(Vec<Type>, Vec<Type>)> {
        self.functions.get(name)?.function_type()
    }

    /// The user's tangent function for `function`, if it has a custom rule.
    pub fn custom_rule(&self, function: &str) -> Option<&str> {
        self.custom_jvp.get(function).map(String::as_str)
    }

    /// The name of the tangent function for `key`, queueing its generation
    /// if needed; `at` is the operation that asks (for diagnostics).
    pub fn request(&mut self, key: Key, at: Op) -> Result<String, Error> {
        if let Some(name) = self.generated.get(&key) {
            return Ok(name.clone());
        }
        let primal = self.differentiable(&key.function, at)?;
        let name = self.fresh(key.mangled("jvp"));
        self.functions.insert(name.clone(), primal);
        self.generated.insert(key.clone(), name.clone());
        self.pending.push((key, name.clone(), at));
        Ok(name)
    }

    /// Generates every queued tangent function (and those they queue).
    pub fn run_pending(&mut self) -> Result<(), Error> {
        loop {
            if let Some((key, name, at)) = self.pending.pop() {
                let primal = self.functions[&key.function];
                let tangent = generate(self, primal, &key, &name, at)?;
                self.functions.insert(name, tangent);
            } else if let Some((key, names, at)) = self.pending_vjp.pop() {
                let primal = self.functions[&key.function];
                for (name, function) in reverse::generate(self, primal, &key, &names, at)? {
                    self.functions.insert(name, function);
                }
            } else {
                return Ok(());
            }
        }
    }
}

/// The per-function state of generating one tangent function; structural
/// rules (`rules::Forward::Custom`) work through it.
pub struct FunctionState<'d> {
    pub diff: &'d mut Differentiator,
    pub activity: Activity,
    tangents: HashMap<Value, Value>,
    /// The number of directions.
    pub width: u32,
    /// The activities of the function's results (for `func.return`).
    pub results: Vec<Act>,
}

impl FunctionState<'_> {
    /// The context.
    pub fn ctx(&self) -> Ctx {
        self.diff.ctx
    }

    /// The tangent type of `ty` at this width.
    pub fn tangent_type(&self, ty: Type) -> Type {
        tangent_type(self.ctx(), ty, self.width)
    }

    /// Whether `value` is active.
    pub fn is_active(&self, value: Value) -> bool {
        self.activity.is_active(value)
    }

    /// The tangent (or shadow) of `value`, if it has one.
    pub fn tangent(&self, value: Value) -> Option<Value> {
        self.tangents.get(&value).copied()
    }

    /// Records the tangent of `value`.
    pub fn set_tangent(&mut self, value: Value, tangent: Value) {
        self.tangents.insert(value, tangent);
    }

    /// The tangent of `value`, or an explicit zero built with `b`. Memrefs
    /// without a shadow get a fresh zero-filled one.
    pub fn tangent_or_zero(&mut self, b: &mut Builder, value: Value) -> Value {
        if let Some(t) = self.tangent(value) {
            return t;
        }
        if value.ty().is_memref() {
            return self.new_shadow(b, value, "memref.alloc");
        }
        b.float(self.tangent_type(value.ty()), 0.0)
    }

    /// The shadow of an active memref, or a located error.
    pub fn shadow(&self, op: Op, memref: Value) -> Result<Value, Error> {
        self.tangent(memref).ok_or_else(|| {
            error_at(
                op,
                "this memref receives derivatives but has no shadow: pass it as `dup` (or \
                 allocate it inside the differentiated function)",
            )
        })
    }

    /// A zero-filled shadow buffer shaped like `like`, allocated by
    /// `alloc` (`memref.alloc` or `memref.alloca`).
    pub fn new_shadow(&mut self, b: &mut Builder, like: Value, alloc: &str) -> Value {
        let ty = like.ty();
        let allocated_type = interface_shadow_type(self.ctx(), ty, self.width);
        let buffer = b.alloc_like(alloc, like, allocated_type);
        let zero = b.float(ty.element(), 0.0);
        fill(b, zero, buffer);
        let wanted = self.tangent_type(ty);
        if wanted == allocated_type {
            buffer
        } else {
            b.value("memref.cast", &[buffer], wanted, &[])
        }
    }

    /// Replaces `old` by `new`, whose first results are `old`'s and whose
    /// remaining results are the tangents of `old`'s results at `active`.
    pub fn replace_rebuilt(&mut self, old: Op, new: Op, active: &[usize]) {
        let old_results = old.results();
        let new_results = new.results();
        for (i, &r) in old_results.iter().enumerate() {
            self.activity.inherit(r, new_results[i]);
            r.replace_uses(new_results[i]);
        }
        for (j, &i) in active.iter().enumerate() {
            self.tangents
                .insert(new_results[i], new_results[old_results.len() + j]);
        }
        old.erase();
    }

    /// Transforms every block of `region`; the entry block's arguments
    /// belong to the region's owner, other blocks get a tangent argument
    /// for each active argument.
    pub fn transform_region(&mut self, region: Region) -> Result<(), Error> {
        let blocks = region.blocks();
        for &block in blocks.iter().skip(1) {
            for arg in block.args() {
                if self.is_active(arg) {
                    let ty = self.tangent_type(arg.ty());
                    let t = block.add_arg(ty, op_loc(block));
                    self.tangents.insert(arg, t);
                }
            }
        }
        for block in blocks {
            self.transform_block(block)?;
        }
        Ok(())
    }

    /// Transforms the operations of one block.
    pub fn transform_block(&mut self, block: Block) -> Result<(), Error> {
        for op in block.ops() {
            self.transform_op(op)?;
        }
        Ok(())
    }

    /// Adds a tangent argument to `block` for each active argument among
    /// `args` (positions in `block.args()`), returning those positions.
    pub fn add_tangent_args(&mut self, block: Block, positions: &[usize]) {
        let args = block.args();
        let loc = op_loc(block);
        for &i in positions {
            let t = block.add_arg(self.tangent_type(args[i].ty()), loc);
            self.tangents.insert(args[i], t);
        }
    }

    /// Emits the tangent code of one operation.
    fn transform_op(&mut self, op: Op) -> Result<(), Error> {
        let name = op.name();
        let rule = rules::lookup(&name);
        if let Some(rules::Rule {
            forward: Forward::Custom(transform),
            ..
        }) = rule
        {
            return transform(self, op);
        }
        let operands = op.operands();
        let uses_active = operands.iter().any(|&v| self.is_active(v))
            || (!op.regions().is_empty()
                && op
                    .walk()
                    .iter()
                    .any(|o| o.operands().iter().any(|&v| self.is_active(v))));
        if !uses_active {
            return Ok(());
        }
        let Some(rule) = rule else {
            return Err(error_at(
                op,
                &format!(
                    "no derivative rule for `{name}`; attach a custom rule (moon.custom_rule)"
                ),
            ));
        };
        match rule.forward {
            Forward::Expr(text) => {
                let result = op.result(0);
                if !self.is_active(result) {
                    return Ok(());
                }
                if result.ty().is_memref() {
                    return Err(error_at(
                        op,
                        &format!("`{name}` of active buffers cannot be differentiated yet"),
                    ));
                }
                let tangents: Vec<Option<Value>> =
                    operands.iter().map(|&v| self.tangent(v)).collect();
                let ty = self.tangent_type(result.ty());
                let mut b = Builder::after(op);
                if let Some(t) = expr::tangent(&mut b, op, text, &tangents, ty, self.width) {
                    self.tangents.insert(result, t);
                }
                Ok(())
            }
            Forward::Zero | Forward::Inactive => Ok(()),
            Forward::Custom(_) => unreachable!("handled above"),
        }
    }
}

/// The location of the operation that holds `block`.
fn op_loc(block: Block) -> moonc_ir::ir::Loc {
    block.parent_op().loc()
}

/// `linalg.fill` of `buffer` with the scalar `value`.
pub fn fill(b: &mut Builder, value: Value, buffer: Value) {
    let segments = b.ctx.attr("array<i32: 1, 1>");
    let shell = Region::new();
    let op = b.create(
        "linalg.fill",
        &[value, buffer],
        &[],
        &[("operandSegmentSizes", segments)],
        &[shell],
        &[],
    );
    shell.destroy();
    // SAFETY: the operation is a live linalg.fill with an empty region.
    unsafe { sys::mlirLinalgFillBuiltinNamedOpRegion(op.0) };
}

/// Generates the tangent function `name` of `primal` for `key`.
fn generate(
    diff: &mut Differentiator,
    primal: Op,
    key: &Key,
    name: &str,
    at: Op,
) -> Result<Op, Error> {
    let ctx = diff.ctx;
    generate_nested(diff, primal)?;
    let (inputs, outputs) = diff.function_type(&key.function).expect("a function");
    if key.args.len() != inputs.len() || key.results.len() != outputs.len() {
        return Err(error_at(
            at,
            "activities do not match the function's arguments and results",
        ));
    }
    for (i, (&t, &a)) in inputs.iter().zip(&key.args).enumerate() {
        let fits = match a {
            Act::Active => t.is_differentiable(),
            Act::Dup | Act::DupNoNeed => t.is_float_memref(),
            _ => true,
        };
        if !fits || a == Act::ActiveNoNeed {
            return Err(error_at(
                at,
                &format!(
                    "argument #{i} of @{} ({t}) cannot be `{}`",
                    key.function,
                    a.keyword()
                ),
            ));
        }
    }
    let function = primal.clone_detached();
    // SAFETY: both are live; the module block takes the detached clone.
    unsafe {
        sys::mlirBlockInsertOwnedOperationAfter(
            sys::mlirOperationGetBlock(primal.0),
            primal.0,
            function.0,
        );
    }
    function.set_attr("sym_name", ctx.attr(&format!("\"{name}\"")));
    function.set_attr("sym_visibility", ctx.attr("\"private\""));
    function.remove_attr("arg_attrs");
    function.remove_attr("res_attrs");
    function.remove_attr("llvm.emit_c_interface");

    let body = function.regions()[0];
    let entry = body.entry().expect("the function has a body");
    let args = entry.args();
    let seeds: Vec<usize> = (0..args.len())
        .filter(|&i| key.args[i] != Act::Const)
        .collect();
    let activity = Activity::analyze(
        function,
        &seeds.iter().map(|&i| args[i]).collect::<Vec<_>>(),
    );
    let mut state = FunctionState {
        diff,
        activity,
        tangents: HashMap::new(),
        width: key.width,
        results: key.results.clone(),
    };
    state.add_tangent_args(entry, &seeds);
    state.transform_region(body)?;

    let mut new_inputs: Vec<String> = inputs.iter().map(ToString::to_string).collect();
    new_inputs.extend(
        seeds
            .iter()
            .map(|&i| state.tangent_type(inputs[i]).to_string()),
    );
    let mut new_outputs = vec![];
    for (t, a) in outputs.iter().zip(&key.results) {
        if !matches!(a, Act::ActiveNoNeed | Act::DupNoNeed) {
            new_outputs.push(t.to_string());
        }
    }
    for (t, a) in outputs.iter().zip(&key.results) {
        if *a != Act::Const {
            new_outputs.push(state.tangent_type(*t).to_string());
        }
    }
    let ty = format!(
        "({}) -> ({})",
        new_inputs.join(", "),
        new_outputs.join(", ")
    );
    function.set_attr("function_type", ctx.attr(&ty));
    remove_dead_code(function);
    tracing::debug!(function = name, "generated a tangent function");
    Ok(function)
}

/// Generates the derivatives requested inside `primal` first, so that
/// differentiating it differentiates their generated functions (nested
/// derivatives in any order).
pub fn generate_nested(diff: &mut Differentiator, primal: Op) -> Result<(), Error> {
    while let Some(inner) = first_request(primal) {
        replace_request(diff, inner)?;
        diff.run_pending()?;
    }
    Ok(())
}

/// Operations without side effects that dead-code removal may erase.
fn is_pure(name: &str) -> bool {
    (name.starts_with("arith.") || name.starts_with("math."))
        || matches!(
            name,
            "vector.broadcast"
                | "vector.transfer_read"
                | "memref.load"
                | "memref.dim"
                | "memref.subview"
                | "memref.cast"
        )
}

/// Erases unused side-effect-free operations of a generated function:
/// tangents nobody needs, and primal work that only fed dropped results.
pub fn remove_dead_code(function: Op) {
    loop {
        let dead: Vec<Op> = function
            .walk()
            .into_iter()
            .rev()
            .filter(|op| is_pure(&op.name()) && op.results().iter().all(|r| r.is_unused()))
            .collect();
        if dead.is_empty() {
            return;
        }
        for op in dead {
            if op.results().iter().all(|r| r.is_unused()) {
                op.erase();
            }
        }
    }
}

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
        replace_jvp(diff, op)
    }
}

/// The key a `moon.jvp` or `moon.vjp` of `callee` (of type `ty`) asks for:
/// its activities (default ones where not given) and width.
pub fn requested_key(op: Op, callee: &str, ty: (Vec<Type>, Vec<Type>)) -> Key {
    let width = op
        .attr("width")
        .map(|a| a.to_string())
        .and_then(|t| t.split(':').next().and_then(|n| n.trim().parse().ok()))
        .unwrap_or(1);
    let mut key = Key::default_for(callee, ty, width);
    if let Some(args) = activities(op, "arg_activity") {
        key.args = args;
    }
    if let Some(results) = activities(op, "res_activity") {
        key.results = results;
    }
    key
}

/// The activities stored in `op`'s attribute `name`, if present.
fn activities(op: Op, name: &str) -> Option<Vec<Act>> {
    let attr = op.attr(name)?;
    Some(
        attr.elements()
            .iter()
            .map(|a| {
                let text = a.to_string();
                match text
                    .trim_start_matches("#moon.activity<")
                    .trim_end_matches('>')
                {
                    "active" => Act::Active,
                    "active_noneed" => Act::ActiveNoNeed,
                    "dup" => Act::Dup,
                    "dup_noneed" => Act::DupNoNeed,
                    _ => Act::Const,
                }
            })
            .collect(),
    )
}

/// Replaces one `moon.jvp` by a call.
fn replace_jvp(diff: &mut Differentiator, op: Op) -> Result<(), Error> {
    let callee = op
        .attr("callee")
        .and_then(|a| a.string())
        .expect("moon.jvp names a callee");
    let Some(ty) = diff.function_type(&callee) else {
        return Err(error_at(
            op,
            &format!("no function @{callee} to differentiate"),
        ));
    };
    let key = requested_key(op, &callee, ty.clone());
    let width = key.width;
    let default = Key::default_for(&callee, ty.clone(), 1);
    let name = match diff.custom_rule(&callee) {
        Some(custom) if key == default => custom.to_string(),
        Some(_) => {
            return Err(error_at(
                op,
                &format!(
                    "@{callee} has a custom rule, which only serves the default activities at \
                     width 1"
                ),
            ));
        }
        None => diff.request(key.clone(), op)?,
    };
    let ctx = diff.ctx;
    let mut b = Builder::before(op);
    let mut operands = op.operands();
    let n_args = ty.0.len();
    let shadowed = (0..n_args).filter(|&i| key.args[i] != Act::Const);
    for (k, i) in shadowed.enumerate() {
        if ty.0[i].is_memref() && width > 1 {
            let internal = tangent_type(ctx, ty.0[i], width);
            operands[n_args + k] = b.value("memref.cast", &[operands[n_args + k]], internal, &[]);
        }
    }
    let mut result_types: Vec<Type> = op.results().iter().map(|r| r.ty()).collect();
    let kept = key
        .results
        .iter()
        .filter(|a| !matches!(a, Act::ActiveNoNeed | Act::DupNoNeed))
        .count();
    let tangent_results: Vec<usize> = (0..key.results.len())
        .filter(|&i| key.results[i] != Act::Const)
        .collect();
    for (k, &i) in tangent_results.iter().enumerate() {
        if ty.1[i].is_memref() && width > 1 {
            result_types[kept + k] = tangent_type(ctx, ty.1[i], width);
        }
    }
    let callee_attr = ctx.attr(&format!("@{name}"));
    let call = b.create(
        "func.call",
        &operands,
        &result_types,
        &[("callee", callee_attr)],
        &[],
        &[],
    );
    let mut after = Builder::after(call);
    for (old, mut new) in op.results().into_iter().zip(call.results()) {
        if old.ty() != new.ty() {
            new = after.value("memref.cast", &[new], old.ty(), &[]);
        }
        old.replace_uses(new);
    }
    op.erase();
    Ok(())
}

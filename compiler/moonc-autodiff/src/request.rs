//! Derivative requests: what a generated function is for (a [`Key`]: the
//! function, the activity of each argument and result, the width), the
//! names generated functions get, and the module-wide [`Differentiator`]
//! that hands out those names and queues the functions still to generate
//! (the driver, [`crate::driver`], generates them).

use mlir_sys as sys;
use moonc_ir::{
    Error,
    ir::{Ctx, Op, Type, error_at},
    moon::Activity as Act,
};
use std::collections::HashMap;

/// What a tangent function is generated for.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Key {
    pub function: String,
    pub args: Vec<Act>,
    pub results: Vec<Act>,
    pub width: u32,
    /// Reverse mode sets the shadows rather than adding to them
    /// ([`crate::OVERWRITE_SHADOWS`]).
    pub overwrite: bool,
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
            overwrite: false,
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
        if self.overwrite {
            name += "_o";
        }
        name
    }
}

/// The functions generated for one key: the adjoint function, or the split
/// pair used by calls.
#[derive(Clone, Debug)]
pub enum Names {
    Combined(String),
    Split { forward: String, reverse: String },
}

/// A function still to be generated.
pub enum Pending {
    /// The tangent function `name` for `key`, which `at` asked for.
    Tangent { key: Key, name: String, at: Op },
    /// The adjoint function(s) `names` for `key`, which `at` asked for.
    Adjoint { key: Key, names: Names, at: Op },
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
    pending_vjp: Vec<(Key, Names, Op)>,
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

    /// The functions of the module (the user's and those generated so far).
    pub fn functions(&self) -> impl Iterator<Item = (&String, Op)> {
        self.functions.iter().map(|(n, &f)| (n, f))
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
            Names::Split { forward, reverse }
        } else {
            let name = self.fresh(key.mangled("vjp"));
            self.functions.insert(name.clone(), primal);
            Names::Combined(name)
        };
        let pair = match &names {
            Names::Combined(n) => (n.clone(), n.clone()),
            Names::Split { forward, reverse } => (forward.clone(), reverse.clone()),
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

    /// Records `function` as the module's function `name`.
    pub fn define(&mut self, name: String, function: Op) {
        self.functions.insert(name, function);
    }

    /// Takes the next function still to be generated (tangent functions
    /// first).
    pub fn next_pending(&mut self) -> Option<Pending> {
        if let Some((key, name, at)) = self.pending.pop() {
            return Some(Pending::Tangent { key, name, at });
        }
        let (key, names, at) = self.pending_vjp.pop()?;
        Some(Pending::Adjoint { key, names, at })
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
    if let Some(args) = Act::written(op, "arg_activity") {
        key.args = args;
    }
    if let Some(results) = Act::written(op, "res_activity") {
        key.results = results;
    }
    key.overwrite = op.name() == "moon.vjp" && op.attr(crate::OVERWRITE_SHADOWS).is_some();
    key
}

/// What a `moon.jvp` or `moon.vjp` asks for.
pub struct Requested {
    /// The function to differentiate.
    pub callee: String,
    /// Its argument and result types.
    pub ty: (Vec<Type>, Vec<Type>),
    /// The activities and width asked for.
    pub key: Key,
}

impl Requested {
    /// Reads the request `op`; a located error when its callee is not a
    /// function of the module.
    pub fn read(diff: &Differentiator, op: Op) -> Result<Requested, Error> {
        let callee = op
            .attr("callee")
            .and_then(|a| a.string())
            .expect("a derivative request names a callee");
        let Some(ty) = diff.function_type(&callee) else {
            return Err(error_at(
                op,
                &format!("no function @{callee} to differentiate"),
            ));
        };
        let key = requested_key(op, &callee, ty.clone());
        Ok(Requested { callee, ty, key })
    }

    /// The user's function `custom` (a custom rule's tangent or adjoint
    /// function, if the callee has one) when it serves this request; a
    /// located error at `op` when the request is not the default one the
    /// rule serves.
    pub fn served_by(&self, custom: Option<&str>, op: Op) -> Result<Option<String>, Error> {
        let Some(custom) = custom else {
            return Ok(None);
        };
        let key = Key {
            overwrite: false,
            ..self.key.clone()
        };
        if key != Key::default_for(&self.callee, self.ty.clone(), 1) {
            return Err(error_at(
                op,
                &format!(
                    "@{} has a custom rule, which only serves the default activities at width 1",
                    self.callee
                ),
            ));
        }
        Ok(Some(custom.to_string()))
    }
}

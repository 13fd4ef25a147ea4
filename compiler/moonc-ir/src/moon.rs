//! Typed builders for the moon operations, generated from
//! `dialects/moon/include/Moon/MoonOps.td`: one function per operation,
//! location last, plus a builder type per operation for its optional
//! attributes. Also the activity attribute, which ODS gives no builder.

mod generated {
    melior::dialect! {
        name: "moon",
        files: ["Moon/MoonOps.td"],
        include_directories: ["./dialects/moon/include"],
    }
}

pub use generated::moon::*;

use crate::ir::{self, Builder};
use melior::{
    Context, ContextRef,
    ir::{
        Attribute, Location, Type, Value,
        attribute::{
            ArrayAttribute, DenseI64ArrayAttribute, FlatSymbolRefAttribute, IntegerAttribute,
        },
        r#type::IntegerType,
    },
};

/// How an argument or result takes part in differentiation (the ODS enum
/// `Moon_Activity`; see `docs/dialects/moon.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activity {
    /// Not differentiated.
    Const,
    /// A value with a derivative.
    Active,
    /// A result whose derivative is wanted but whose value is not.
    ActiveNoNeed,
    /// A memref with a shadow memref holding its derivative.
    Dup,
    /// Like `Dup`, without the primal memref's final contents.
    DupNoNeed,
}

impl Activity {
    /// The keyword of the activity in moon's syntax.
    pub fn keyword(self) -> &'static str {
        match self {
            Self::Const => "const",
            Self::Active => "active",
            Self::ActiveNoNeed => "active_noneed",
            Self::Dup => "dup",
            Self::DupNoNeed => "dup_noneed",
        }
    }

    /// The `#moon.activity<...>` attribute of the activity.
    pub fn attribute(self, context: &Context) -> Attribute<'_> {
        Attribute::parse(context, &format!("#moon.activity<{}>", self.keyword()))
            .expect("the moon dialect is loaded and the activity is valid")
    }

    /// The activities stored in the attribute `name` (`arg_activity` or
    /// `res_activity`) of the request `op`, if it has one.
    pub fn written(op: ir::Op, name: &str) -> Option<Vec<Activity>> {
        let all = [
            Self::Const,
            Self::Active,
            Self::ActiveNoNeed,
            Self::Dup,
            Self::DupNoNeed,
        ];
        let activities = op.attr(name)?.elements().into_iter().map(|a| {
            let text = a.to_string();
            let keyword = text
                .trim_start_matches("#moon.activity<")
                .trim_end_matches('>');
            all.into_iter()
                .find(|k| k.keyword() == keyword)
                .unwrap_or(Self::Const)
        });
        Some(activities.collect())
    }

    /// An array attribute of activities, as stored in `arg_activity` and
    /// `res_activity`.
    pub fn array<'c>(context: &'c Context, activities: &[Activity]) -> ArrayAttribute<'c> {
        let attributes: Vec<_> = activities.iter().map(|a| a.attribute(context)).collect();
        ArrayAttribute::new(context, &attributes)
    }
}

/// Which derivative a [`Request`] asks for: the `moon` operation it
/// builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transform {
    Jvp,
    Vjp,
    Grad,
    ValueAndGrad,
    Hvp,
}

impl Transform {
    /// The transform of the operation named `name` (`moon.grad`), if any.
    pub fn of(name: &str) -> Option<Transform> {
        Some(match name {
            "moon.jvp" => Self::Jvp,
            "moon.vjp" => Self::Vjp,
            "moon.grad" => Self::Grad,
            "moon.value_and_grad" => Self::ValueAndGrad,
            "moon.hvp" => Self::Hvp,
            _ => return None,
        })
    }
}

/// A derivative request (`moon.jvp`, `moon.vjp`, `moon.grad`,
/// `moon.value_and_grad` or `moon.hvp`) to build with the IR view's
/// [`Builder`], through the generated builders.
pub struct Request<'a> {
    /// The function to differentiate.
    pub callee: &'a str,
    /// Its operands (arguments, then shadows, directions or cotangents).
    pub operands: &'a [ir::Value],
    /// Its result types.
    pub results: &'a [ir::Type],
    /// The activity of each of the callee's arguments and results (the
    /// result activities are ignored by the scalar-loss transforms).
    pub args: &'a [Activity],
    pub res: &'a [Activity],
    /// The number of directions (`width`, omitted when 1; `moon.jvp` and
    /// `moon.hvp` only).
    pub width: u32,
}

impl Request<'_> {
    /// Inserts `moon.jvp` with `b`.
    pub fn jvp(&self, b: &mut Builder) -> ir::Op {
        self.build(Transform::Jvp, b)
    }

    /// Inserts `moon.vjp` with `b`.
    pub fn vjp(&self, b: &mut Builder) -> ir::Op {
        self.build(Transform::Vjp, b)
    }

    /// Inserts the operation of `transform` with `b`.
    pub fn build(&self, transform: Transform, b: &mut Builder) -> ir::Op {
        // SAFETY: the builder's context, location, values and types belong
        // to live IR, which outlives the operation built here; `context`
        // borrows `context_ref`, which lives until the end of the function.
        let context_ref = unsafe { ContextRef::from_raw(b.ctx.0) };
        let context = unsafe { context_ref.to_ref() };
        let (location, operands, results) = unsafe {
            (
                Location::from_raw(b.loc.0),
                self.operands
                    .iter()
                    .map(|v| Value::from_raw(v.0))
                    .collect::<Vec<_>>(),
                self.results
                    .iter()
                    .map(|t| Type::from_raw(t.0))
                    .collect::<Vec<_>>(),
            )
        };
        let callee = FlatSymbolRefAttribute::new(context, self.callee);
        let (args, res) = (
            Activity::array(context, self.args),
            Activity::array(context, self.res),
        );
        let width = (self.width > 1).then(|| {
            let i64_type = IntegerType::new(context, 64).into();
            IntegerAttribute::new(i64_type, self.width.into())
        });
        let op: melior::ir::Operation = match transform {
            Transform::Jvp => {
                let mut builder = JvpOperation::builder(context, location)
                    .outputs(&results)
                    .inputs(&operands)
                    .callee(callee)
                    .arg_activity(args)
                    .res_activity(res);
                if let Some(width) = width {
                    builder = builder.width(width);
                }
                builder.build().into()
            }
            Transform::Vjp => VjpOperation::builder(context, location)
                .outputs(&results)
                .inputs(&operands)
                .callee(callee)
                .arg_activity(args)
                .res_activity(res)
                .build()
                .into(),
            Transform::Grad => GradOperation::builder(context, location)
                .outputs(&results)
                .inputs(&operands)
                .callee(callee)
                .arg_activity(args)
                .build()
                .into(),
            Transform::ValueAndGrad => ValueAndGradOperation::builder(context, location)
                .outputs(&results)
                .inputs(&operands)
                .callee(callee)
                .arg_activity(args)
                .build()
                .into(),
            Transform::Hvp => {
                let mut builder = HvpOperation::builder(context, location)
                    .outputs(&results)
                    .inputs(&operands)
                    .callee(callee)
                    .arg_activity(args);
                if let Some(width) = width {
                    builder = builder.width(width);
                }
                builder.build().into()
            }
        };
        b.insert(ir::Op(op.into_raw()))
    }
}

/// Inserts `moon.vmap @callee(operands) in_axes [..] out_axes [..]` with
/// `b` (axes as stored: `-1` for `none`).
pub fn vmap(
    b: &mut Builder,
    callee: &str,
    operands: &[ir::Value],
    results: &[ir::Type],
    in_axes: &[i64],
    out_axes: &[i64],
) -> ir::Op {
    // SAFETY: as in `Request::build`.
    let context_ref = unsafe { ContextRef::from_raw(b.ctx.0) };
    let context = unsafe { context_ref.to_ref() };
    let (location, operands, results) = unsafe {
        (
            Location::from_raw(b.loc.0),
            operands
                .iter()
                .map(|v| Value::from_raw(v.0))
                .collect::<Vec<_>>(),
            results
                .iter()
                .map(|t| Type::from_raw(t.0))
                .collect::<Vec<_>>(),
        )
    };
    let op: melior::ir::Operation = VmapOperation::builder(context, location)
        .outputs(&results)
        .inputs(&operands)
        .callee(FlatSymbolRefAttribute::new(context, callee))
        .in_axes(DenseI64ArrayAttribute::new(context, in_axes).into())
        .out_axes(DenseI64ArrayAttribute::new(context, out_axes).into())
        .build()
        .into();
    b.insert(ir::Op(op.into_raw()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::create_context;
    use melior::ir::{
        Block, BlockLike, Location, Module, Region, RegionLike, Type,
        attribute::{FlatSymbolRefAttribute, StringAttribute, TypeAttribute},
        operation::OperationLike,
        r#type::FunctionType,
    };

    const ALL: [Activity; 5] = [
        Activity::Const,
        Activity::Active,
        Activity::ActiveNoNeed,
        Activity::Dup,
        Activity::DupNoNeed,
    ];

    #[test]
    fn activity_keywords_match_the_dialect() {
        let context = create_context();
        for activity in ALL {
            let attribute = activity.attribute(&context);
            assert_eq!(
                attribute.to_string(),
                format!("#moon.activity<{}>", activity.keyword())
            );
        }
        assert_eq!(
            Activity::array(&context, &[Activity::Active, Activity::Dup]).to_string(),
            "[#moon.activity<active>, #moon.activity<dup>]"
        );
    }

    /// Builds `func.func @caller(%x: f64) -> f64 { moon.grad @f(%x) }` with
    /// the generated builders and checks that it verifies and prints.
    #[test]
    fn generated_builders_make_verified_ops() {
        let context = create_context();
        let location = Location::unknown(&context);
        let module = Module::parse(&context, "func.func private @f(f64) -> f64").unwrap();
        let f64_type = Type::float64(&context);
        let function_type = FunctionType::new(&context, &[f64_type], &[f64_type]);
        let block = Block::new(&[(f64_type, location)]);
        let grad = block.append_operation(
            GradOperation::builder(&context, location)
                .outputs(&[f64_type])
                .inputs(&[block.argument(0).unwrap().into()])
                .callee(FlatSymbolRefAttribute::new(&context, "f"))
                .arg_activity(Activity::array(&context, &[Activity::Active]))
                .build()
                .into(),
        );
        block.append_operation(melior::dialect::func::r#return(
            &[grad.result(0).unwrap().into()],
            location,
        ));
        let region = Region::new();
        region.append_block(block);
        module.body().append_operation(melior::dialect::func::func(
            &context,
            StringAttribute::new(&context, "caller"),
            TypeAttribute::new(function_type.into()),
            region,
            &[],
            location,
        ));
        assert!(module.as_operation().verify());
        insta::assert_snapshot!(module.as_operation().to_string());
    }
}

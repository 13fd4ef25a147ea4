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

use melior::{
    Context,
    ir::{Attribute, attribute::ArrayAttribute},
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

    /// An array attribute of activities, as stored in `arg_activity` and
    /// `res_activity`.
    pub fn array<'c>(context: &'c Context, activities: &[Activity]) -> ArrayAttribute<'c> {
        let attributes: Vec<_> = activities.iter().map(|a| a.attribute(context)).collect();
        ArrayAttribute::new(context, &attributes)
    }
}

//! Vector math through glibc's libmvec. After translation, every scalar
//! call to a math function libmvec provides (as an LLVM intrinsic such as
//! `llvm.exp.f64` or a libm call such as `tanh`) is annotated with the
//! vector variants the host can run (`vector-function-abi-variant`), so
//! that LLVM's loop vectorizer calls `_ZGVeN8v_exp` on eight lanes instead
//! of `exp` eight times. libm calls are also marked `memory(none)
//! nounwind`: moonc, like `-fno-math-errno`, never reads `errno`.
//!
//! Why libmvec (see `bench/cpu/README.md` for the numbers): MLIR's
//! polynomial approximations cover f32 only, and LLVM 22's own
//! `-vector-library=LIBMVEC-X86` table lacks tanh, log1p, expm1 and the
//! other hyperbolic and inverse functions and stops at AVX2 widths.

use inkwell::{
    AddressSpace,
    attributes::{Attribute, AttributeLoc},
    context::Context,
    module::{Linkage, Module},
    types::{BasicMetadataTypeEnum, BasicTypeEnum},
    values::{CallSiteValue, InstructionOpcode},
};

/// Functions libmvec (glibc 2.35 or later) vectorizes, by their f64 libm
/// name, with their arity. An entry applies to `name` and `llvm.name.f64`
/// (f64) and to `namef` and `llvm.name.f32` (f32).
const FUNCTIONS: &[(&str, usize)] = &[
    ("sin", 1),
    ("cos", 1),
    ("tan", 1),
    ("asin", 1),
    ("acos", 1),
    ("atan", 1),
    ("atan2", 2),
    ("sinh", 1),
    ("cosh", 1),
    ("tanh", 1),
    ("asinh", 1),
    ("acosh", 1),
    ("atanh", 1),
    ("exp", 1),
    ("exp2", 1),
    ("exp10", 1),
    ("expm1", 1),
    ("log", 1),
    ("log2", 1),
    ("log10", 1),
    ("log1p", 1),
    ("pow", 2),
    ("hypot", 2),
    ("cbrt", 1),
    ("erf", 1),
    ("erfc", 1),
];

/// The x86-64 vector ABI variants the host can run, as (ISA letter, vector
/// bits), one per width: SSE (`b`), AVX2 (`d`) or AVX (`c`), AVX-512 (`e`).
fn host_variants(features: &str) -> Vec<(char, u32)> {
    let has = |f: &str| features.split(',').any(|x| x == format!("+{f}"));
    let mut variants = vec![('b', 128)];
    if has("avx2") {
        variants.push(('d', 256));
    } else if has("avx") {
        variants.push(('c', 256));
    }
    if has("avx512f") {
        variants.push(('e', 512));
    }
    variants
}

/// Which libmvec function a callee is: (libm f64 name, arity, is f32).
fn classify(callee: &str) -> Option<(&'static str, usize, bool)> {
    let (base, f32) = if let Some(rest) = callee.strip_prefix("llvm.") {
        if let Some(b) = rest.strip_suffix(".f64") {
            (b, false)
        } else {
            (rest.strip_suffix(".f32")?, true)
        }
    } else if let Some(&(name, _)) = FUNCTIONS.iter().find(|(n, _)| *n == callee) {
        (name, false)
    } else {
        (callee.strip_suffix('f')?, true)
    };
    FUNCTIONS
        .iter()
        .find(|(n, _)| *n == base)
        .map(|&(n, arity)| (n, arity, f32))
}

/// Annotates every vectorizable math call in `module` for the host CPU
/// whose LLVM feature string is `features`. Does nothing off x86-64 Linux,
/// or when the environment sets `MOONC_VECTOR_MATH=0` (for measuring).
pub(crate) fn annotate<'ll>(context: &'ll Context, module: &Module<'ll>, features: &str) {
    if !cfg!(all(target_arch = "x86_64", target_os = "linux"))
        || std::env::var("MOONC_VECTOR_MATH").is_ok_and(|v| v == "0")
    {
        return;
    }
    let variants = host_variants(features);
    let mut used = vec![];
    let nounwind = context.create_enum_attribute(Attribute::get_named_enum_kind_id("nounwind"), 0);
    let readnone = context.create_enum_attribute(Attribute::get_named_enum_kind_id("memory"), 0);
    for function in module.get_functions() {
        for block in function.get_basic_block_iter() {
            for inst in block.get_instructions() {
                if inst.get_opcode() != InstructionOpcode::Call {
                    continue;
                }
                let call = CallSiteValue::try_from(inst).expect("a call instruction");
                let callee = call.get_called_fn_value();
                let Some(callee) = callee.filter(|f| f.as_global_value().is_declaration()) else {
                    continue;
                };
                let name = callee.get_name().to_string_lossy().into_owned();
                let Some((base, arity, f32)) = classify(&name) else {
                    continue;
                };
                let scalar: BasicTypeEnum = if f32 {
                    context.f32_type().into()
                } else {
                    context.f64_type().into()
                };
                if callee.get_type().get_return_type() != Some(scalar) {
                    continue;
                }
                if !name.starts_with("llvm.") {
                    callee.add_attribute(AttributeLoc::Function, nounwind);
                    callee.add_attribute(AttributeLoc::Function, readnone);
                }
                let mut mappings = vec![];
                for &(isa, bits) in &variants {
                    let lanes = bits / if f32 { 32 } else { 64 };
                    let suffix = if f32 { "f" } else { "" };
                    let vector_name =
                        format!("_ZGV{isa}N{lanes}{}_{base}{suffix}", "v".repeat(arity));
                    let vector = if f32 {
                        context.f32_type().vec_type(lanes)
                    } else {
                        context.f64_type().vec_type(lanes)
                    };
                    if module.get_function(&vector_name).is_none() {
                        let params: Vec<BasicMetadataTypeEnum> = vec![vector.into(); arity];
                        let f = module.add_function(
                            &vector_name,
                            vector.fn_type(&params, false),
                            Some(Linkage::External),
                        );
                        f.add_attribute(AttributeLoc::Function, nounwind);
                        f.add_attribute(AttributeLoc::Function, readnone);
                        used.push(f);
                    }
                    mappings.push(format!(
                        "_ZGV_LLVM_N{lanes}{}_{name}({vector_name})",
                        "v".repeat(arity)
                    ));
                }
                call.add_attribute(
                    AttributeLoc::Function,
                    context.create_string_attribute(
                        "vector-function-abi-variant",
                        &mappings.join(","),
                    ),
                );
            }
        }
    }
    if used.is_empty() {
        return;
    }
    // Keep the declarations alive until the vectorizer has seen them.
    let ptr = context.ptr_type(AddressSpace::default());
    let pointers: Vec<_> = used
        .iter()
        .map(|f| f.as_global_value().as_pointer_value())
        .collect();
    let array = ptr.const_array(&pointers);
    let global = module.add_global(array.get_type(), None, "llvm.compiler.used");
    global.set_linkage(Linkage::Appending);
    global.set_section(Some("llvm.metadata"));
    global.set_initializer(&array);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_intrinsics_and_libm_names() {
        assert_eq!(classify("llvm.exp.f64"), Some(("exp", 1, false)));
        assert_eq!(classify("llvm.pow.f32"), Some(("pow", 2, true)));
        assert_eq!(classify("tanh"), Some(("tanh", 1, false)));
        assert_eq!(classify("tanhf"), Some(("tanh", 1, true)));
        assert_eq!(classify("llvm.sqrt.f64"), None);
        assert_eq!(classify("malloc"), None);
        assert_eq!(classify("erff"), Some(("erf", 1, true)));
    }

    #[test]
    fn one_variant_per_width() {
        assert_eq!(
            host_variants("+sse2,+avx,+avx2,+avx512f"),
            vec![('b', 128), ('d', 256), ('e', 512)]
        );
        assert_eq!(
            host_variants("+sse2,+avx,-avx2"),
            vec![('b', 128), ('c', 256)]
        );
    }
}

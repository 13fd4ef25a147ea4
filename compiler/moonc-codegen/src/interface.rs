//! The interfaces compiled functions offer. In LLVM IR, public function
//! `f` becomes:
//! - `f`: MLIR's C interface (`_mlir_ciface_f`, renamed): scalars by value,
//!   memrefs as pointers to descriptors, several results or a memref result
//!   through a pointer passed first. This is what C and Rust call; see
//!   `runtime/moonrt/include/moonrt.h` (internal in the JIT).
//! - `_moonc_impl_f`: the function itself, with each memref expanded into
//!   its descriptor's fields (internal: inlined into the others).
//! - `_moonc_packed_f(void **slots)` (JIT only): loads every LLVM-level
//!   parameter of `_moonc_impl_f` from the address in its slot, calls it,
//!   and stores each result at the address in the following slots, so that
//!   one Rust signature can call any function.

use crate::{Error, Result, Signature};
use inkwell::{
    AddressSpace,
    attributes::{Attribute, AttributeLoc},
    context::Context,
    module::{Linkage, Module},
    types::BasicTypeEnum,
    values::{BasicMetadataValueEnum, FunctionValue, ValueKind},
};

const CIFACE_PREFIX: &str = "_mlir_ciface_";

/// The most parameters and results a packed entry point may move and still
/// be optimized.
const WIDE_ENTRY: usize = 128;

/// The symbol of `function`'s packed entry point in the JIT.
pub(crate) fn packed_name(function: &str) -> String {
    format!("_moonc_packed_{function}")
}

fn impl_name(function: &str) -> String {
    format!("_moonc_impl_{function}")
}

/// Gives every C interface its function's name and hides the expanded
/// implementation. Without `exported` (the JIT, which calls only packed
/// entries) the C interfaces are internal too, so that optimization drops
/// them and each implementation keeps one caller, its packed entry, and is
/// inlined into it as it is into its C interface in an object file.
pub(crate) fn expose_c_interfaces(module: &Module, exported: bool) {
    let interfaces: Vec<FunctionValue> = module
        .get_functions()
        .filter(|f| {
            f.get_name()
                .to_bytes()
                .starts_with(CIFACE_PREFIX.as_bytes())
        })
        .collect();
    for interface in interfaces {
        let full = interface.get_name().to_string_lossy().into_owned();
        let name = &full[CIFACE_PREFIX.len()..];
        if let Some(implementation) = module.get_function(name) {
            implementation.as_global_value().set_name(&impl_name(name));
            implementation.set_linkage(Linkage::Internal);
        }
        interface.as_global_value().set_name(name);
        if !exported && interface.count_basic_blocks() > 0 {
            interface.set_linkage(Linkage::Internal);
        }
    }
}

/// Adds `_moonc_packed_NAME` for `signature` (see the module doc).
pub(crate) fn add_packed_entry<'ll>(
    context: &'ll Context,
    module: &Module<'ll>,
    signature: &Signature,
) -> Result<()> {
    let missing = || Error::Llvm(format!("no function @{} after lowering", signature.name));
    let implementation = module
        .get_function(&impl_name(&signature.name))
        .ok_or_else(missing)?;
    let ptr = context.ptr_type(AddressSpace::default());
    let entry = module.add_function(
        &packed_name(&signature.name),
        context.void_type().fn_type(&[ptr.into()], false),
        None,
    );
    if implementation.count_params() as usize + signature.results.len() > WIDE_ENTRY {
        // Optimized, an entry point that moves thousands of values takes
        // seconds of code generation, quadratic in their number, for
        // nothing: each value is loaded and stored once either way.
        for name in ["noinline", "optnone"] {
            let kind = Attribute::get_named_enum_kind_id(name);
            entry.add_attribute(
                AttributeLoc::Function,
                context.create_enum_attribute(kind, 0),
            );
        }
    }
    let builder = context.create_builder();
    builder.position_at_end(context.append_basic_block(entry, "entry"));
    let slots = entry
        .get_nth_param(0)
        .ok_or_else(missing)?
        .into_pointer_value();
    let llvm = |e: inkwell::builder::BuilderError| Error::Llvm(e.to_string());
    let i64_type = context.i64_type();
    let slot = |index: usize| -> Result<_> {
        // SAFETY: the caller provides one slot per parameter and result.
        let address = unsafe {
            builder.build_gep(
                ptr,
                slots,
                &[i64_type.const_int(index as u64, false)],
                "slot",
            )
        }
        .map_err(llvm)?;
        Ok(builder
            .build_load(ptr, address, "address")
            .map_err(llvm)?
            .into_pointer_value())
    };
    let parameter_types = implementation.get_type().get_param_types();
    let mut arguments: Vec<BasicMetadataValueEnum> = vec![];
    for (index, parameter) in parameter_types.iter().enumerate() {
        let parameter = BasicTypeEnum::try_from(*parameter)
            .map_err(|_| Error::Llvm("a non-first-class parameter".into()))?;
        let value = builder
            .build_load(parameter, slot(index)?, "argument")
            .map_err(llvm)?;
        arguments.push(value.into());
    }
    let call = builder
        .build_call(implementation, &arguments, "results")
        .map_err(llvm)?;
    if let ValueKind::Basic(value) = call.try_as_basic_value() {
        let first = parameter_types.len();
        if signature.results.len() > 1 {
            let aggregate = value.into_struct_value();
            for index in 0..signature.results.len() {
                let element = builder
                    .build_extract_value(aggregate, index as u32, "result")
                    .map_err(llvm)?;
                builder
                    .build_store(slot(first + index)?, element)
                    .map_err(llvm)?;
            }
        } else {
            builder.build_store(slot(first)?, value).map_err(llvm)?;
        }
    }
    builder.build_return(None).map_err(llvm)?;
    Ok(())
}

//! Heap allocations in compiled code that fail loudly: `memref.alloc`
//! lowers to a `malloc` (or `aligned_alloc`) call whose result the code
//! then stores through, so a failed allocation (a buffer or a derivative's
//! tape larger than the memory there is) would be a segmentation fault.
//! Every such call goes through a wrapper that, given null for a nonzero
//! size, prints `out of memory: cannot allocate N bytes ...` on stderr and
//! ends the process with status 1 (`fflush(NULL)`, then `_exit`: exit
//! handlers may wait for threads that are short of memory too). Only libc
//! is called, so objects still need no runtime library for it.

use inkwell::{
    AddressSpace, attributes::AttributeLoc, context::Context, module::Linkage, module::Module,
    values::BasicValue, values::FunctionValue,
};

/// The message, with the number of bytes for `%lld`.
const MESSAGE: &str = "out of memory: cannot allocate %lld bytes (a buffer, or the tape of a \
                       derivative, of compiled code)\n";

/// Routes every call of `malloc` and `aligned_alloc` in `module` through
/// a checking wrapper (see the module's documentation).
pub(crate) fn check_allocations<'ll>(context: &'ll Context, module: &Module<'ll>) {
    let allocators = [("malloc", 0), ("aligned_alloc", 1)];
    let mut report = None;
    for (name, size_param) in allocators {
        let Some(allocator) = module.get_function(name) else {
            continue;
        };
        if allocator
            .as_global_value()
            .as_pointer_value()
            .get_first_use()
            .is_none()
        {
            continue;
        }
        let report = *report.get_or_insert_with(|| out_of_memory_function(context, module));
        let wrapper = module.add_function(
            &format!("__moonc_checked_{name}"),
            allocator.get_type(),
            Some(Linkage::Private),
        );
        allocator.replace_all_uses_with(wrapper);
        build_wrapper(context, wrapper, allocator, report, size_param);
    }
}

/// The body of `wrapper`: calls `allocator` with its arguments and returns
/// the pointer, calling `report` with the size (parameter `size_param`)
/// when it is null and the size is not 0.
fn build_wrapper<'ll>(
    context: &'ll Context,
    wrapper: FunctionValue<'ll>,
    allocator: FunctionValue<'ll>,
    report: FunctionValue<'ll>,
    size_param: u32,
) {
    let builder = context.create_builder();
    let entry = context.append_basic_block(wrapper, "entry");
    let failed = context.append_basic_block(wrapper, "failed");
    let done = context.append_basic_block(wrapper, "done");
    builder.position_at_end(entry);
    let arguments: Vec<_> = wrapper.get_param_iter().map(Into::into).collect();
    let pointer = builder
        .build_call(allocator, &arguments, "p")
        .expect("a call in a fresh block")
        .try_as_basic_value()
        .basic()
        .expect("an allocator returns a pointer")
        .into_pointer_value();
    let size = wrapper
        .get_nth_param(size_param)
        .expect("the size parameter")
        .into_int_value();
    let null = builder.build_is_null(pointer, "null").expect("a pointer");
    let zero = size.get_type().const_zero();
    let nonzero = builder
        .build_int_compare(inkwell::IntPredicate::NE, size, zero, "nonzero")
        .expect("an integer");
    let fail = builder.build_and(null, nonzero, "fail").expect("booleans");
    builder
        .build_conditional_branch(fail, failed, done)
        .expect("a branch");
    builder.position_at_end(failed);
    builder
        .build_call(report, &[size.into()], "")
        .expect("a call");
    builder.build_unreachable().expect("unreachable");
    builder.position_at_end(done);
    builder.build_return(Some(&pointer)).expect("a return");
}

/// A private, cold, non-returning function that prints the message with
/// its `i64` argument on stderr (`dprintf(2, ...)`), flushes stdio and ends
/// the process with status 1.
fn out_of_memory_function<'ll>(context: &'ll Context, module: &Module<'ll>) -> FunctionValue<'ll> {
    let i32_type = context.i32_type();
    let i64_type = context.i64_type();
    let ptr = context.ptr_type(AddressSpace::default());
    let dprintf = module.get_function("dprintf").unwrap_or_else(|| {
        module.add_function(
            "dprintf",
            i32_type.fn_type(&[i32_type.into(), ptr.into()], true),
            None,
        )
    });
    let fflush = module.get_function("fflush").unwrap_or_else(|| {
        module.add_function("fflush", i32_type.fn_type(&[ptr.into()], false), None)
    });
    let exit = module.get_function("_exit").unwrap_or_else(|| {
        module.add_function(
            "_exit",
            context.void_type().fn_type(&[i32_type.into()], false),
            None,
        )
    });
    let report = module.add_function(
        "__moonc_out_of_memory",
        context.void_type().fn_type(&[i64_type.into()], false),
        Some(Linkage::Private),
    );
    for attribute in ["noreturn", "cold", "noinline"] {
        let kind = inkwell::attributes::Attribute::get_named_enum_kind_id(attribute);
        report.add_attribute(
            AttributeLoc::Function,
            context.create_enum_attribute(kind, 0),
        );
    }
    let builder = context.create_builder();
    builder.position_at_end(context.append_basic_block(report, "entry"));
    let format = builder
        .build_global_string_ptr(MESSAGE, "__moonc_out_of_memory_message")
        .expect("a string");
    let size = report.get_nth_param(0).expect("the size").into_int_value();
    builder
        .build_call(
            dprintf,
            &[
                i32_type.const_int(2, false).into(),
                format.as_pointer_value().into(),
                size.into(),
            ],
            "",
        )
        .expect("a call");
    builder
        .build_call(fflush, &[ptr.const_null().into()], "")
        .expect("a call");
    builder
        .build_call(exit, &[i32_type.const_int(1, false).into()], "")
        .expect("a call");
    builder.build_unreachable().expect("unreachable");
    report
}

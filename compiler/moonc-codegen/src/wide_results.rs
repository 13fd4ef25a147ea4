//! Wide results through memory. MLIR lowers a function of several results
//! to one returning an LLVM struct of them, and LLVM handles a wide
//! returned struct in time quadratic in its width: SCCP keeps a lattice
//! value per field of every `insertvalue`, and instruction selection merges
//! the stores of each field into the hidden return slot in one
//! TokenFactor. Returning 3,000 `double`s took 14.7 s in `llc`; storing
//! them through a pointer, 0.95 s. The gradient of a function of thousands
//! of scalar arguments returns such a struct.
//!
//! So an internal function (nothing outside the module calls it) whose
//! result has more than [`WIDE`] scalar fields gets a last parameter, a
//! pointer to caller-allocated memory of the result's type, stores each
//! field there and returns nothing. Each caller allocates that memory on
//! its stack and loads the fields it extracts. Where LLVM inlines such a
//! function, SROA turns the memory back into values.
//!
//! Wide parameter lists stay: passing 3,000 arguments through memory
//! instead made the SLP vectorizer quadratic in the callee (8 s at 1,000).

use inkwell::{
    attributes::{Attribute, AttributeLoc},
    builder::Builder,
    context::Context,
    module::{Linkage, Module},
    types::{BasicTypeEnum, StructType},
    values::{
        AsValueRef, BasicValue, BasicValueEnum, CallSiteValue, FunctionValue, InstructionOpcode,
        InstructionValue, PointerValue,
    },
};
use llvm_sys::core as llvm;

/// The most scalar fields a result may have and still be returned by value
/// (x86-64 returns at most 4 in registers).
const WIDE: usize = 16;

/// Rewrites every internal function of `module` with a wide result, and
/// its calls (see the module's documentation).
pub(crate) fn return_wide_results_in_memory<'ll>(context: &'ll Context, module: &Module<'ll>) {
    let wide: Vec<(FunctionValue, StructType)> = module
        .get_functions()
        .filter_map(|f| wide_result(f).map(|result| (f, result)))
        .collect();
    // Every call is rewritten before any return, so that a function that
    // returns what it got from another one (a wrapper) finds the loads
    // from that one's memory, and passes its own instead (`forward`).
    let replacements: Vec<_> = wide
        .iter()
        .map(|(function, result)| (*function, replace(context, module, *function), *result))
        .collect();
    let builder = context.create_builder();
    for (function, replacement, result) in &replacements {
        for call in calls(*function).expect("only called") {
            replace_call(context, &builder, call, *replacement, *result);
        }
    }
    for (function, replacement, result) in replacements {
        let out = replacement
            .get_last_param()
            .expect("the added parameter")
            .into_pointer_value();
        store_results(&builder, replacement, result, out);
        let name = function.get_name().to_string_lossy().into_owned();
        // SAFETY: the old function has no blocks and no uses left.
        unsafe { llvm::LLVMDeleteFunction(function.as_value_ref()) };
        replacement.as_global_value().set_name(&name);
    }
}

/// The result of `function` if it is wider than [`WIDE`] and `function`
/// is internal, defined here and only ever called directly.
fn wide_result(function: FunctionValue) -> Option<StructType> {
    let internal = matches!(function.get_linkage(), Linkage::Internal | Linkage::Private);
    let Some(BasicTypeEnum::StructType(result)) = function.get_type().get_return_type() else {
        return None;
    };
    (internal
        && function.count_basic_blocks() > 0
        && scalar_fields(result.into()) > WIDE
        && calls(function).is_some())
    .then_some(result)
}

/// How many scalars a value of type `t` holds.
fn scalar_fields(t: BasicTypeEnum) -> usize {
    match t {
        BasicTypeEnum::StructType(s) => s.get_field_types().into_iter().map(scalar_fields).sum(),
        BasicTypeEnum::ArrayType(a) => a.len() as usize * scalar_fields(a.get_element_type()),
        _ => 1,
    }
}

/// The calls of `function`, or `None` when it is used otherwise (its
/// address taken, say).
fn calls(function: FunctionValue) -> Option<Vec<InstructionValue>> {
    let mut calls = vec![];
    let mut next = function
        .as_global_value()
        .as_pointer_value()
        .get_first_use();
    while let Some(current) = next {
        next = current.get_next_use();
        let user = current.get_user().as_value_ref();
        // SAFETY: `user` is a live value of the module.
        let is_call = unsafe {
            !llvm::LLVMIsACallInst(user).is_null()
                && llvm::LLVMGetCalledValue(user) == function.as_value_ref()
        };
        if !is_call {
            return None;
        }
        // SAFETY: `user` is a call instruction.
        calls.push(unsafe { InstructionValue::new(user) });
    }
    Some(calls)
}

/// A function like `function` but for a last parameter, a pointer to
/// memory for its result, and no result, with `function`'s body moved into
/// it (the returns still to be rewritten, by [`store_results`]).
fn replace<'ll>(
    context: &'ll Context,
    module: &Module<'ll>,
    function: FunctionValue<'ll>,
) -> FunctionValue<'ll> {
    let ptr = context.ptr_type(Default::default());
    let mut parameters = function.get_type().get_param_types();
    parameters.push(ptr.into());
    let name = function.get_name().to_string_lossy();
    let replacement = module.add_function(
        &format!("{name}.results_in_memory"),
        context.void_type().fn_type(&parameters, false),
        Some(function.get_linkage()),
    );
    for attribute in function.attributes(AttributeLoc::Function) {
        replacement.add_attribute(AttributeLoc::Function, attribute);
    }
    for index in 0..function.count_params() {
        for attribute in function.attributes(AttributeLoc::Param(index)) {
            replacement.add_attribute(AttributeLoc::Param(index), attribute);
        }
    }
    let noalias = context.create_enum_attribute(Attribute::get_named_enum_kind_id("noalias"), 0);
    replacement.add_attribute(AttributeLoc::Param(function.count_params()), noalias);
    replacement.set_call_conventions(function.get_call_conventions());
    for block in function.get_basic_blocks() {
        // SAFETY: the block moves, with its instructions, from the old
        // function to its replacement.
        unsafe {
            llvm::LLVMRemoveBasicBlockFromParent(block.as_mut_ptr());
            llvm::LLVMAppendExistingBasicBlock(replacement.as_value_ref(), block.as_mut_ptr());
        }
    }
    for (old, new) in function.get_param_iter().zip(replacement.get_param_iter()) {
        // SAFETY: both are parameters of the same type.
        unsafe { llvm::LLVMReplaceAllUsesWith(old.as_value_ref(), new.as_value_ref()) };
    }
    replacement
}

/// Replaces each `ret` of `function` by stores of the returned struct's
/// fields at `out` (of type `result`) and a `ret void`.
fn store_results<'ll>(
    builder: &Builder<'ll>,
    function: FunctionValue<'ll>,
    result: StructType<'ll>,
    out: PointerValue<'ll>,
) {
    for block in function.get_basic_blocks() {
        let Some(ret) = block.get_terminator() else {
            continue;
        };
        if ret.get_opcode() != InstructionOpcode::Return {
            continue;
        }
        builder.position_before(&ret);
        let value = operand(ret, 0);
        if !forward(result, value, out) {
            store_fields(builder, result, value, out);
        }
        builder.build_return(None).expect("a return");
        ret.erase_from_basic_block();
        erase_dead_inserts(value);
    }
}

/// Whether `value`, returned through `out`, is all the fields of what
/// another function stored in memory of this function's (built as loads
/// of each field by [`replace_call`]), in which case that function now
/// stores them at `out` directly: a wrapper copies nothing. Nothing else
/// may use that memory but loads.
fn forward<'ll>(
    result: StructType<'ll>,
    value: BasicValueEnum<'ll>,
    out: PointerValue<'ll>,
) -> bool {
    let mut memory = None;
    let mut fields = 0;
    let mut current = value;
    while let Some(insert) = current
        .as_instruction_value()
        .filter(|i| i.get_opcode() == InstructionOpcode::InsertValue)
    {
        let field = operand(insert, 1).as_instruction_value();
        let address = field
            .filter(|l| l.get_opcode() == InstructionOpcode::Load)
            .and_then(|l| operand(l, 0).as_instruction_value())
            .filter(|a| a.get_opcode() == InstructionOpcode::GetElementPtr);
        let Some(address) = address else {
            return false;
        };
        let base = operand(address, 0);
        let same_field = insert.get_indices().len() == 1
            && address.get_num_operands() == 3
            && constant(operand(address, 1)) == Some(0)
            && constant(operand(address, 2)) == Some(u64::from(insert.get_indices()[0]));
        if !same_field || memory.is_some_and(|m: BasicValueEnum| m != base) {
            return false;
        }
        memory = Some(base);
        fields += 1;
        current = operand(insert, 0);
    }
    // SAFETY: `current` is a live value.
    let complete = fields == result.count_fields()
        && unsafe { llvm::LLVMIsUndef(current.as_value_ref()) != 0 };
    let Some(memory) = memory.and_then(|m| m.as_instruction_value()) else {
        return false;
    };
    let is_ours = memory.get_opcode() == InstructionOpcode::Alloca
        && memory.get_allocated_type().ok() == Some(result.into());
    if !complete || !is_ours || !only_loaded_and_filled(memory) {
        return false;
    }
    // SAFETY: `out` has the memory's type, and no one else writes it.
    unsafe { llvm::LLVMReplaceAllUsesWith(memory.as_value_ref(), out.as_value_ref()) };
    memory.erase_from_basic_block();
    true
}

/// Whether `memory` is written by one call, as its last argument (for its
/// results), and otherwise only read, field by field.
fn only_loaded_and_filled(memory: InstructionValue) -> bool {
    let mut calls = 0;
    let mut next = memory.get_first_use();
    while let Some(current) = next {
        next = current.get_next_use();
        // SAFETY: the users of an instruction are instructions.
        let user = unsafe { InstructionValue::new(current.get_user().as_value_ref()) };
        let fine = match user.get_opcode() {
            InstructionOpcode::Call => {
                calls += 1;
                operand(user, user.get_num_operands() - 2).as_value_ref() == memory.as_value_ref()
            }
            InstructionOpcode::GetElementPtr => {
                let mut loads = user.get_first_use();
                let mut only_loads = true;
                while let Some(load) = loads {
                    loads = load.get_next_use();
                    // SAFETY: as above.
                    let load = unsafe { InstructionValue::new(load.get_user().as_value_ref()) };
                    only_loads &= load.get_opcode() == InstructionOpcode::Load;
                }
                only_loads
            }
            _ => false,
        };
        if !fine {
            return false;
        }
    }
    calls == 1
}

/// The value of `value` if it is an integer constant.
fn constant(value: BasicValueEnum) -> Option<u64> {
    match value {
        BasicValueEnum::IntValue(i) => i.get_zero_extended_constant(),
        _ => None,
    }
}

/// Operand `index` of `instruction`, a value.
fn operand<'ll>(instruction: InstructionValue<'ll>, index: u32) -> BasicValueEnum<'ll> {
    instruction
        .get_operand(index)
        .and_then(|o| o.value())
        .expect("a value operand")
}

/// Stores each field of `value` (of type `result`) at `out`, looking
/// through the chain of `insertvalue`s that usually builds it, so that no
/// wide aggregate is left for instruction selection.
fn store_fields<'ll>(
    builder: &Builder<'ll>,
    result: StructType<'ll>,
    value: BasicValueEnum<'ll>,
    out: PointerValue<'ll>,
) {
    let mut missing = vec![true; result.count_fields() as usize];
    let mut remaining = missing.len();
    let mut current = value;
    while remaining > 0 {
        let Some(insert) = current
            .as_instruction_value()
            .filter(|i| i.get_opcode() == InstructionOpcode::InsertValue)
            .filter(|i| i.get_indices().len() == 1)
        else {
            break;
        };
        let index = insert.get_indices()[0];
        if missing[index as usize] {
            store_field(builder, result, out, index, operand(insert, 1));
            missing[index as usize] = false;
            remaining -= 1;
        }
        current = operand(insert, 0);
    }
    // SAFETY: `current` is a live value.
    if remaining == 0 || unsafe { llvm::LLVMIsUndef(current.as_value_ref()) != 0 } {
        return;
    }
    for index in (0..missing.len() as u32).filter(|i| missing[*i as usize]) {
        let field = builder
            .build_extract_value(current.into_struct_value(), index, "field")
            .expect("a field of the result");
        store_field(builder, result, out, index, field);
    }
}

/// Stores `field` as field `index` of the `result` struct at `out`.
fn store_field<'ll>(
    builder: &Builder<'ll>,
    result: StructType<'ll>,
    out: PointerValue<'ll>,
    index: u32,
    field: BasicValueEnum<'ll>,
) {
    let address = builder
        .build_struct_gep(result, out, index, "result")
        .expect("a field of the result");
    builder.build_store(address, field).expect("a store");
}

/// Erases `value` and the `insertvalue`s below it once nothing uses them.
fn erase_dead_inserts(value: BasicValueEnum) {
    let mut current = value.as_instruction_value();
    while let Some(insert) = current {
        if insert.get_opcode() != InstructionOpcode::InsertValue || insert.get_first_use().is_some()
        {
            return;
        }
        current = operand(insert, 0).as_instruction_value();
        insert.erase_from_basic_block();
    }
}

/// Replaces `call` by a call of `replacement` with memory for the `result`
/// allocated at the start of the caller. Each `extractvalue` of the result
/// becomes a load of its field; any other use, a load of the whole struct.
fn replace_call<'ll>(
    context: &'ll Context,
    builder: &Builder<'ll>,
    call: InstructionValue<'ll>,
    replacement: FunctionValue<'ll>,
    result: StructType<'ll>,
) {
    let entry = call
        .get_parent()
        .and_then(|b| b.get_parent())
        .and_then(|f| f.get_first_basic_block())
        .expect("a call in a function");
    match entry.get_first_instruction() {
        Some(first) => builder.position_before(&first),
        None => builder.position_at_end(entry),
    }
    let memory = builder.build_alloca(result, "results").expect("an alloca");
    builder.position_before(&call);
    let mut arguments: Vec<_> = (0..call.get_num_operands() - 1)
        .map(|i| operand(call, i).into())
        .collect();
    arguments.push(memory.into());
    let new_call = builder
        .build_call(replacement, &arguments, "")
        .expect("a call before the old one");
    // SAFETY: `call` is a call instruction.
    let old_call = unsafe { CallSiteValue::new(call.as_value_ref()) };
    new_call.set_call_convention(old_call.get_call_convention());
    if let Some(whole) = load_results(context, builder, call, result, memory) {
        // SAFETY: the load has the old call's type.
        unsafe { llvm::LLVMReplaceAllUsesWith(call.as_value_ref(), whole.as_value_ref()) };
    }
    call.erase_from_basic_block();
}

/// Replaces each `extractvalue` of `call`'s result by a load from the
/// `result` struct at `memory`; returns a load of the whole struct, just
/// after the call, when something else uses the result.
fn load_results<'ll>(
    context: &'ll Context,
    builder: &Builder<'ll>,
    call: InstructionValue<'ll>,
    result: StructType<'ll>,
    memory: PointerValue<'ll>,
) -> Option<BasicValueEnum<'ll>> {
    let i32_type = context.i32_type();
    let mut other_uses = false;
    let mut next = call.get_first_use();
    while let Some(current) = next {
        next = current.get_next_use();
        // SAFETY: the users of an instruction are instructions.
        let user = unsafe { InstructionValue::new(current.get_user().as_value_ref()) };
        if user.get_opcode() != InstructionOpcode::ExtractValue {
            other_uses = true;
            continue;
        }
        builder.position_before(&user);
        let path: Vec<_> = std::iter::once(0)
            .chain(user.get_indices())
            .map(|i| i32_type.const_int(u64::from(i), false))
            .collect();
        // SAFETY: the indices are those of an extractvalue of this type.
        let address = unsafe { builder.build_in_bounds_gep(result, memory, &path, "") }
            .expect("a field's address");
        let field_type = BasicTypeEnum::try_from(user.get_type()).expect("a first-class field");
        let field = builder
            .build_load(field_type, address, "field")
            .expect("a field's load");
        // SAFETY: the load has the extracted field's type.
        unsafe { llvm::LLVMReplaceAllUsesWith(user.as_value_ref(), field.as_value_ref()) };
        user.erase_from_basic_block();
    }
    other_uses.then(|| {
        builder.position_before(&call.get_next_instruction().expect("a terminator after"));
        builder
            .build_load(result, memory, "results")
            .expect("a load of the results")
    })
}

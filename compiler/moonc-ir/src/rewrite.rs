//! IR rewriting helpers that melior does not provide: finding operations,
//! replacing uses, erasing, and looking up the function a moon op names.

use crate::ffi;
use melior::ir::{
    OperationRef, Type, TypeLike, Value, ValueLike,
    operation::{OperationLike, WalkOrder, WalkResult},
    r#type::FunctionType,
};

/// The operations called `name` nested anywhere inside `root` (including
/// `root` itself), in pre-order.
pub fn collect_named<'c, 'a>(root: OperationRef<'c, 'a>, name: &str) -> Vec<OperationRef<'c, 'a>> {
    let mut found = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() == Ok(name) {
            found.push(op.to_raw());
        }
        WalkResult::Advance
    });
    found
        .into_iter()
        // SAFETY: the operations are nested in `root`, which outlives 'a.
        .map(|op| unsafe { OperationRef::from_raw(op) })
        .collect()
}

/// Makes every user of `from` use `to` instead.
pub fn replace_all_uses<'c>(from: impl ValueLike<'c>, to: impl ValueLike<'c>) {
    // SAFETY: both values are live.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(from.to_raw(), to.to_raw()) }
}

/// Replaces every result of `op` by the value at the same position in `with`
/// and erases `op`.
///
/// # Safety
///
/// `op` is freed: no copy of its `OperationRef` (such as those
/// [`collect_named`] returns) may be used afterwards, and no value in `with`
/// may be a result of `op`.
pub unsafe fn replace_op(op: OperationRef, with: &[Value]) {
    assert_eq!(op.result_count(), with.len(), "one replacement per result");
    for (result, value) in op.results().zip(with) {
        replace_all_uses(result, *value);
    }
    // SAFETY: `op` has no more uses; erasing it detaches it from its block.
    unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) }
}

/// Copies the discardable attributes of `from` (those the user attached, as
/// opposed to the operation's own) onto `to`, except those named in `skip`:
/// pass the names of `to`'s own attributes there, which a user attribute must
/// not shadow.
pub fn copy_discardable_attributes(from: OperationRef, to: OperationRef, skip: &[&str]) {
    // SAFETY: both operations are live; names and attributes are uniqued in
    // their context.
    unsafe {
        for i in 0..mlir_sys::mlirOperationGetNumDiscardableAttributes(from.to_raw()) {
            let named = mlir_sys::mlirOperationGetDiscardableAttribute(from.to_raw(), i);
            let name = mlir_sys::mlirIdentifierStr(named.name);
            if skip
                .iter()
                .any(|s| melior::StringRef::from_raw(name).as_str() == Ok(*s))
            {
                continue;
            }
            mlir_sys::mlirOperationSetDiscardableAttributeByName(
                to.to_raw(),
                name,
                named.attribute,
            );
        }
    }
}

/// The type of the function named by `op`'s `callee` attribute, looked up
/// from the nearest symbol table, or `None` when there is no such function.
pub fn callee_type<'c>(op: OperationRef<'c, '_>) -> Option<FunctionType<'c>> {
    // SAFETY: `op` is live; the returned type is owned by its context.
    let raw = unsafe { ffi::moonGetCalleeType(op.to_raw()) };
    if raw.ptr.is_null() {
        return None;
    }
    // SAFETY: the type is non-null and a function type.
    FunctionType::try_from(unsafe { Type::from_raw(raw) }).ok()
}

/// The single result of a function type, when it has exactly one.
pub fn single_result<'c>(function: FunctionType<'c>) -> Option<Type<'c>> {
    (function.result_count() == 1)
        .then(|| function.result(0).ok())
        .flatten()
}

/// Whether `ty` is a floating-point scalar type.
pub fn is_float(ty: Type) -> bool {
    // SAFETY: `ty` is live.
    unsafe { mlir_sys::mlirTypeIsAFloat(ty.to_raw()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::create_context;
    use melior::ir::{Module, attribute::ArrayAttribute};

    const SOURCE: &str = r#"
        func.func private @f(f64, memref<2xf32>) -> f32
        func.func @caller(%x: f64, %m: memref<2xf32>) -> f64 {
          %0 = moon.grad @f(%x, %m, %m) args [active, dup] : (f64, memref<2xf32>, memref<2xf32>) -> f64
          %1 = arith.addf %0, %0 : f64
          return %1 : f64
        }
    "#;

    #[test]
    fn finds_ops_callees_and_activities() {
        let context = create_context();
        let module = Module::parse(&context, SOURCE).unwrap();
        let grads = collect_named(module.as_operation(), "moon.grad");
        assert_eq!(grads.len(), 1);
        assert_eq!(collect_named(module.as_operation(), "func.func").len(), 2);

        let callee = callee_type(grads[0]).expect("@f is a function");
        assert_eq!(callee.to_string(), "(f64, memref<2xf32>) -> f32");
        assert!(single_result(callee).is_some_and(is_float));
        assert!(!is_float(callee.input(1).unwrap()));

        let activities =
            ArrayAttribute::try_from(grads[0].attribute("arg_activity").unwrap()).unwrap();
        assert_eq!(activities.len(), 2);
        assert!(ArrayAttribute::try_from(grads[0].attribute("callee").unwrap()).is_err());
    }

    #[test]
    fn replaces_an_operation() {
        let context = create_context();
        let module = Module::parse(&context, SOURCE).unwrap();
        let grad = collect_named(module.as_operation(), "moon.grad")[0];
        let x = grad.operand(0).unwrap();
        // SAFETY: `grad` is not used afterwards, and `x` is not its result.
        unsafe { replace_op(grad, &[x]) };
        assert!(module.as_operation().verify());
        let printed = module.as_operation().to_string();
        assert!(!printed.contains("moon.grad"), "{printed}");
        assert!(printed.contains("arith.addf %arg0, %arg0"), "{printed}");
    }

    #[test]
    fn unknown_callees_have_no_type() {
        let context = create_context();
        context.set_allow_unregistered_dialects(true);
        let module = Module::parse(&context, r#""x.op"() {callee = @nowhere} : () -> ()"#).unwrap();
        let op = collect_named(module.as_operation(), "x.op")[0];
        assert!(callee_type(op).is_none());
    }
}

// The x86-64 floating-point mode switches of `--moon-flush-subnormals`:
// @moon_fp_mode returns MXCSR, @moon_set_fp_mode sets it.
module {
  func.func private @moon_fp_mode() -> i32
      attributes {llvm.linkage = #llvm.linkage<internal>} {
    %one = llvm.mlir.constant(1 : i32) : i32
    %slot = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
    llvm.call_intrinsic "llvm.x86.sse.stmxcsr"(%slot) : (!llvm.ptr) -> ()
    %mode = llvm.load %slot : !llvm.ptr -> i32
    return %mode : i32
  }
  func.func private @moon_set_fp_mode(%mode: i32)
      attributes {llvm.linkage = #llvm.linkage<internal>} {
    %one = llvm.mlir.constant(1 : i32) : i32
    %slot = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
    llvm.store %mode, %slot : i32, !llvm.ptr
    llvm.call_intrinsic "llvm.x86.sse.ldmxcsr"(%slot) : (!llvm.ptr) -> ()
    return
  }
}

// The x86-64 floating-point mode switches of `--moon-flush-subnormals`:
// @moon_fp_mode returns MXCSR; @moon_set_fp_mode sets it;
// @moon_ensure_fp_mode sets it when it differs (reading MXCSR costs a few
// cycles, writing it tens).
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
  func.func private @moon_ensure_fp_mode(%mode: i32)
      attributes {llvm.linkage = #llvm.linkage<internal>} {
    %now = func.call @moon_fp_mode() : () -> i32
    %differs = arith.cmpi ne, %now, %mode : i32
    scf.if %differs {
      func.call @moon_set_fp_mode(%mode) : (i32) -> ()
    }
    return
  }
}

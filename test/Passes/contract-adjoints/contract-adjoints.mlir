// RUN: moonc-opt --moon-contract-adjoints %s | FileCheck %s
// RUN: moonc-opt --moon-contract-adjoints=contract=0 %s | FileCheck %s --check-prefix=OFF
// RUN: moonc-opt --moon-cpu-pipeline %s | FileCheck %s --check-prefix=LLVM

// The arithmetic of a reverse loop (moon.reverse), nested loops included,
// may be fused: contract joins the flags it has (reassoc here), except on
// a reassociable sum (a carried accumulation, whose chain a fused
// multiply-add would lengthen). The forward loop before it keeps the
// rounding of every operation.
// CHECK-LABEL: func.func @adjoint(
// CHECK: scf.for
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: arith.addf %{{.*}}, %{{.*}} : f64
// CHECK: }{{$}}
// CHECK: scf.for
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f64
// CHECK: arith.negf %{{.*}} fastmath<contract> : f64
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f64
// CHECK: scf.for
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : f64
// CHECK: arith.subf %{{.*}}, %{{.*}} fastmath<contract> : f64
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f64
// CHECK: } {moon.reverse}
// OFF-NOT: contract
// In the LLVM dialect the flags reach the reverse loop's operations only.
// LLVM-LABEL: llvm.func @adjoint(
// LLVM: llvm.fmul %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}} : f64
// LLVM: llvm.fadd %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}} : f64
// LLVM: llvm.fmul %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f64
func.func @adjoint(%x: memref<?xf64>, %dx: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.load %x[%i] : memref<?xf64>
    %p = arith.mulf %a, %two : f64
    %s = arith.addf %p, %a : f64
    memref.store %s, %x[%i] : memref<?xf64>
  }
  scf.for %r = %c0 to %n step %c1 {
    %a = memref.load %x[%r] : memref<?xf64>
    %d = memref.load %dx[%r] : memref<?xf64>
    %p = arith.mulf %a, %d : f64
    %q = arith.negf %p : f64
    %s = arith.addf %q, %d : f64
    memref.store %s, %dx[%r] : memref<?xf64>
    scf.for %j = %c0 to %n step %c1 {
      %b = memref.load %x[%j] : memref<?xf64>
      %m = arith.mulf %b, %s fastmath<reassoc> : f64
      %t = arith.subf %b, %m : f64
      memref.store %t, %dx[%j] : memref<?xf64>
      %acc = memref.load %x[%c0] : memref<?xf64>
      %sum = arith.addf %acc, %m fastmath<reassoc> : f64
      memref.store %sum, %x[%c0] : memref<?xf64>
    }
  } {moon.reverse}
  return
}

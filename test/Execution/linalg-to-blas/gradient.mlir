// The gradient of a loss through a large linalg.matmul runs through BLAS:
// reverse mode turns the matmul into linalg.generics (the product and the
// adjoints dA += G B^T, dB += A^T G, each with an input it does not read),
// and moon-cpu-pipeline hands all three to moonrt_dgemm
// (32 * 32 * 32 multiply-adds each). `moonc check` compares the gradient
// with forward mode and finite differences on random inputs.
//
// RUN: moonc check %s --entry loss | FileCheck %s
// CHECK: check: PASS
//
// RUN: moonc-opt %s --moon-autodiff --moon-cpu-pipeline --mlir-print-ir-after=moon-linalg-to-blas -o /dev/null 2>&1 | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @loss(
// IR: call @moonrt_dgemm(
// IR-LABEL: func.func private @loss_vjp_{{.*}}(
// IR-NOT: linalg.matmul
// IR-COUNT-3: call @moonrt_dgemm(
// IR-LABEL: func.func @loss_grad(
//
// moonc's --moon-blas-min-flops sets the threshold: 0 keeps the loops.
// RUN: moonc compile %s --emit llvm -o - | FileCheck %s --check-prefix=CALLS
// RUN: moonc --moon-blas-min-flops 0 compile %s --emit llvm -o - | FileCheck %s --check-prefix=LOOPS
// RUN: moonc --moon-blas-min-flops 0 check %s --entry loss | FileCheck %s
// CALLS: call {{.*}}@moonrt_dgemm
// LOOPS-NOT: moonrt_dgemm

// sum((A B)^2) over 32x32 matrices.
func.func @loss(%a: memref<32x32xf64>, %b: memref<32x32xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %c = memref.alloc() : memref<32x32xf64>
  linalg.fill ins(%zero : f64) outs(%c : memref<32x32xf64>)
  linalg.matmul ins(%a, %b : memref<32x32xf64>, memref<32x32xf64>) outs(%c : memref<32x32xf64>)
  %sum = memref.alloca() : memref<f64>
  memref.store %zero, %sum[] : memref<f64>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%c : memref<32x32xf64>) outs(%sum : memref<f64>) {
  ^bb0(%v: f64, %acc: f64):
    %sq = arith.mulf %v, %v : f64
    %next = arith.addf %acc, %sq : f64
    linalg.yield %next : f64
  }
  memref.dealloc %c : memref<32x32xf64>
  %r = memref.load %sum[] : memref<f64>
  return %r : f64
}

func.func @loss_grad(%a: memref<32x32xf64>, %b: memref<32x32xf64>, %da: memref<32x32xf64>, %db: memref<32x32xf64>) {
  moon.grad @loss(%a, %b, %da, %db) : (memref<32x32xf64>, memref<32x32xf64>, memref<32x32xf64>, memref<32x32xf64>) -> ()
  return
}

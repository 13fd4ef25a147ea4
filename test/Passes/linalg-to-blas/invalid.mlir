// RUN: moonc-opt --moon-linalg-to-blas --split-input-file --verify-diagnostics %s
// RUN: not moonc-opt --moon-linalg-to-blas=min-flop=3 %s 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not moonc-opt --moon-linalg-to-blas=min-flops=-3 %s 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: moonc-opt --pass-pipeline='builtin.module(moon-linalg-to-blas{min-flops=0})' --dump-pass-pipeline -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PRINT

// Options are MLIR's: an unknown name or a bad value is an error, and a
// pipeline prints the value given.
// NAME: no such option min-flop
// VALUE: '-3' value invalid for ulong argument
// PRINT:      builtin.module(
// PRINT-NEXT:   moon-linalg-to-blas{min-flops=0}
// PRINT-NEXT: )

// The module defines the routine's name with another type: the product
// cannot call it.
func.func private @moonrt_dgemm(i32)
func.func @clash(%a: memref<64x64xf64>, %c: memref<64x64xf64>) {
  // expected-error @+1 {{cannot call BLAS for this product: @moonrt_dgemm is already defined, but not as `func.func private @moonrt_dgemm(i32, i32, f64, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, f64, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()`}}
  linalg.matmul ins(%a, %a : memref<64x64xf64>, memref<64x64xf64>) outs(%c : memref<64x64xf64>)
  return
}

// -----

// The name is taken by something that is not a function.
memref.global "private" @moonrt_ddot : memref<2xf64>
func.func @global(%x: memref<8192xf64>, %out: memref<f64>) {
  // expected-error @+1 {{@moonrt_ddot is already defined}}
  linalg.dot ins(%x, %x : memref<8192xf64>, memref<8192xf64>) outs(%out : memref<f64>)
  return
}

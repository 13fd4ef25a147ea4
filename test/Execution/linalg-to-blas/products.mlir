// linalg products computed by moonrt's BLAS, as moon-linalg-to-blas
// rewrites them (min-flops=1, so that these small products are rewritten
// too), then compiled by moon-cpu-pipeline and run: plain, transposed and
// strided operands (memref.transpose and subviews, which BLAS takes as they
// are or moonrt copies), transposed outputs, f32 and f64, and generics.
// The products are A = [[1, 2, 3], [4, 5, 6]] and B = [[1, 0], [0, 1],
// [1, 1]], A B = [[4, 5], [10, 11]], added to the output.
//
// RUN: moonc-opt %s --moon-linalg-to-blas=min-flops=1 -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file %t.mlir
// IR-LABEL: func.func @matmul(
// IR: call @moonrt_dgemm(
// IR-NOT: linalg.
// IR-LABEL: func.func @matmul_dynamic(
// IR: scf.if
// IR: call @moonrt_dgemm(
// IR: } else {
// IR-NEXT: linalg.matmul
// IR-LABEL: func.func @views(
// IR-COUNT-2: call @moonrt_dgemm(
// IR-NOT: linalg.
// IR-LABEL: func.func @strided_f32(
// IR-COUNT-3: call @moonrt_sgemm(
// IR-NOT: linalg.
// IR-LABEL: func.func @vectors(
// IR-COUNT-2: call @moonrt_dgemv(
// IR-NOT: linalg.
// IR-LABEL: func.func @dots(
// IR: call @moonrt_ddot(
// IR: call @moonrt_sdot(
// IR-NOT: linalg.
// IR-LABEL: func.func @batch(
// IR: scf.for
// IR: call @moonrt_dgemm(
// IR-NOT: linalg.
// IR-LABEL: func.func @generics(
// IR-COUNT-2: call @moonrt_dgemm(
// IR-NOT: linalg.
//
// RUN: moonc run %t.mlir --entry matmul --args '[[[1, 2, 3], [4, 5, 6]], [[1, 0], [0, 1], [1, 1]], [[1, 1], [1, 1]]]' | FileCheck %s --check-prefix=MATMUL
// MATMUL: {"results": [], "args": {{\[\[}}[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], {{\[\[}}1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], {{\[\[}}5.0, 6.0], [11.0, 12.0]]]}
//
// The dynamic op runs BLAS (min-flops=1) or loops (the pipeline's default
// threshold, far above 12): the same numbers.
// RUN: moonc run %t.mlir --entry matmul_dynamic --args '[[[1, 2, 3], [4, 5, 6]], [[1, 0], [0, 1], [1, 1]], [[1, 1], [1, 1]]]' | FileCheck %s --check-prefix=MATMUL
// RUN: moonc run %s --entry matmul_dynamic --args '[[[1, 2, 3], [4, 5, 6]], [[1, 0], [0, 1], [1, 1]], [[1, 1], [1, 1]]]' | FileCheck %s --check-prefix=MATMUL
//
// A and B given transposed and viewed back by memref.transpose (BLAS reads
// them column-major); C += A B, and D^T += A B through a transposed view.
// RUN: moonc run %t.mlir --entry views --args '[[[1, 4], [2, 5], [3, 6]], [[1, 0, 1], [0, 1, 1]], [[1, 1], [1, 1]], [[0, 0], [0, 0]]]' | FileCheck %s --check-prefix=VIEWS
// VIEWS: "args": {{\[\[}}[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]], {{\[\[}}1.0, 0.0, 1.0], [0.0, 1.0, 1.0]], {{\[\[}}5.0, 6.0], [11.0, 12.0]], {{\[\[}}4.0, 10.0], [5.0, 11.0]]]}
//
// f32: A every other column of a 2x6 buffer (contiguous along neither
// dimension: moonrt copies it), then matmuls with A and with B transposed
// by their indexing maps.
// RUN: moonc run %t.mlir --entry strided_f32 --args '[[[1, 9, 2, 9, 3, 9], [4, 9, 5, 9, 6, 9]], [[1, 0], [0, 1], [1, 1]], [[1, 4], [2, 5], [3, 6]], [[1, 0, 1], [0, 1, 1]], [[1, 1], [1, 1]], [[0, 0], [0, 0]], [[0, 0], [0, 0]]]' | FileCheck %s --check-prefix=STRIDED
// STRIDED: "args": [{{.*}}, {{\[\[}}5.0, 6.0], [11.0, 12.0]], {{\[\[}}4.0, 5.0], [10.0, 11.0]], {{\[\[}}4.0, 5.0], [10.0, 11.0]]]}
//
// matvec y += A x; vecmat z += w A with w every other element of [1, 7, -1].
// RUN: moonc run %t.mlir --entry vectors --args '[[[1, 2, 3], [4, 5, 6]], [1, 2, 3], [1, 1], [1, 7, -1], [0, 0, 0]]' | FileCheck %s --check-prefix=VECTORS
// VECTORS: "args": [{{.*}}, [1.0, 2.0, 3.0], [15.0, 33.0], [1.0, 7.0, -1.0], [-3.0, -3.0, -3.0]]}
//
// dot, added to the output: f64 plainly, f32 on every other element.
// RUN: moonc run %t.mlir --entry dots --args '[[1, 2, 3], [4, 5, 6], 1, [1, 0, 2, 0, 3], [4, 5, 6], 0.5]' | FileCheck %s --check-prefix=DOTS
// DOTS: "args": [{{.*}}, 33.0, {{.*}}, 32.5]}
//
// batch_matmul: [[1, 2], [3, 4]] times the identity, [[5, 6], [7, 8]]
// times the swap.
// RUN: moonc run %t.mlir --entry batch --args '[[[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[[1, 0], [0, 1]], [[0, 1], [1, 0]]], [[[0, 0], [0, 0]], [[0, 0], [0, 0]]]]' | FileCheck %s --check-prefix=BATCH
// BATCH: "args": [{{.*}}, {{\[\[}}[1.0, 2.0], [3.0, 4.0]], {{\[\[}}6.0, 5.0], [8.0, 7.0]]]]}
//
// Generics: the adjoint of A in a matmul as reverse mode writes it (dA +=
// G B^T, with an unused input A), and a product written into the
// transposed output. G = [[1, 0], [0, 2]].
// RUN: moonc run %t.mlir --entry generics --args '[[[1, 2, 3], [4, 5, 6]], [[1, 0], [0, 1], [1, 1]], [[1, 0], [0, 2]], [[0, 0, 0], [0, 0, 0]], [[0, 0], [0, 0]]]' | FileCheck %s --check-prefix=GENERICS
// GENERICS: "args": [{{.*}}, {{\[\[}}1.0, 0.0, 1.0], [0.0, 2.0, 2.0]], {{\[\[}}4.0, 10.0], [5.0, 11.0]]]}

func.func @matmul(%a: memref<2x3xf64>, %b: memref<3x2xf64>, %c: memref<2x2xf64>) {
  linalg.matmul ins(%a, %b : memref<2x3xf64>, memref<3x2xf64>) outs(%c : memref<2x2xf64>)
  return
}

func.func @matmul_dynamic(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  linalg.matmul ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>)
  return
}

func.func @views(%at: memref<3x2xf64>, %bt: memref<2x3xf64>, %c: memref<2x2xf64>, %d: memref<2x2xf64>) {
  %a = memref.transpose %at (i, j) -> (j, i) : memref<3x2xf64> to memref<2x3xf64, strided<[1, 2]>>
  %b = memref.transpose %bt (i, j) -> (j, i) : memref<2x3xf64> to memref<3x2xf64, strided<[1, 3]>>
  %dt = memref.transpose %d (i, j) -> (j, i) : memref<2x2xf64> to memref<2x2xf64, strided<[1, 2]>>
  linalg.matmul ins(%a, %b : memref<2x3xf64, strided<[1, 2]>>, memref<3x2xf64, strided<[1, 3]>>) outs(%c : memref<2x2xf64>)
  linalg.matmul ins(%a, %b : memref<2x3xf64, strided<[1, 2]>>, memref<3x2xf64, strided<[1, 3]>>) outs(%dt : memref<2x2xf64, strided<[1, 2]>>)
  return
}

func.func @strided_f32(%buffer: memref<2x6xf32>, %b: memref<3x2xf32>, %at: memref<3x2xf32>, %bt: memref<2x3xf32>,
                       %c: memref<2x2xf32>, %d: memref<2x2xf32>, %e: memref<2x2xf32>) {
  %a = memref.subview %buffer[0, 0] [2, 3] [1, 2] : memref<2x6xf32> to memref<2x3xf32, strided<[6, 2]>>
  linalg.matmul ins(%a, %b : memref<2x3xf32, strided<[6, 2]>>, memref<3x2xf32>) outs(%c : memref<2x2xf32>)
  linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]
    ins(%at, %b : memref<3x2xf32>, memref<3x2xf32>) outs(%d : memref<2x2xf32>)
  %a2 = memref.transpose %at (i, j) -> (j, i) : memref<3x2xf32> to memref<2x3xf32, strided<[1, 2]>>
  linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>]
    ins(%a2, %bt : memref<2x3xf32, strided<[1, 2]>>, memref<2x3xf32>) outs(%e : memref<2x2xf32>)
  return
}

func.func @vectors(%a: memref<2x3xf64>, %x: memref<3xf64>, %y: memref<2xf64>, %wbuffer: memref<3xf64>, %z: memref<3xf64>) {
  linalg.matvec ins(%a, %x : memref<2x3xf64>, memref<3xf64>) outs(%y : memref<2xf64>)
  %w = memref.subview %wbuffer[0] [2] [2] : memref<3xf64> to memref<2xf64, strided<[2]>>
  linalg.vecmat ins(%w, %a : memref<2xf64, strided<[2]>>, memref<2x3xf64>) outs(%z : memref<3xf64>)
  return
}

func.func @dots(%x: memref<3xf64>, %y: memref<3xf64>, %out: memref<f64>, %xbuffer: memref<5xf32>, %y32: memref<3xf32>, %out32: memref<f32>) {
  linalg.dot ins(%x, %y : memref<3xf64>, memref<3xf64>) outs(%out : memref<f64>)
  %x32 = memref.subview %xbuffer[0] [3] [2] : memref<5xf32> to memref<3xf32, strided<[2]>>
  linalg.dot ins(%x32, %y32 : memref<3xf32, strided<[2]>>, memref<3xf32>) outs(%out32 : memref<f32>)
  return
}

func.func @batch(%a: memref<2x2x2xf64>, %b: memref<2x2x2xf64>, %c: memref<2x2x2xf64>) {
  linalg.batch_matmul ins(%a, %b : memref<2x2x2xf64>, memref<2x2x2xf64>) outs(%c : memref<2x2x2xf64>)
  return
}

#ma = affine_map<(d0, d1, d2) -> (d0, d2)>
#mb = affine_map<(d0, d1, d2) -> (d2, d1)>
#mc = affine_map<(d0, d1, d2) -> (d0, d1)>
#mct = affine_map<(d0, d1, d2) -> (d1, d0)>
func.func @generics(%a: memref<2x3xf64>, %b: memref<3x2xf64>, %g: memref<2x2xf64>, %da: memref<2x3xf64>, %ct: memref<2x2xf64>) {
  linalg.generic {indexing_maps = [#ma, #mb, #mc, #ma], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b, %g : memref<2x3xf64>, memref<3x2xf64>, memref<2x2xf64>) outs(%da : memref<2x3xf64>) {
  ^bb0(%av: f64, %bv: f64, %gv: f64, %out: f64):
    %p = arith.mulf %gv, %bv : f64
    %s = arith.addf %out, %p : f64
    linalg.yield %s : f64
  }
  linalg.generic {indexing_maps = [#ma, #mb, #mct], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x3xf64>, memref<3x2xf64>) outs(%ct : memref<2x2xf64>) {
  ^bb0(%av: f64, %bv: f64, %out: f64):
    %p = arith.mulf %bv, %av : f64
    %s = arith.addf %p, %out : f64
    linalg.yield %s : f64
  }
  return
}

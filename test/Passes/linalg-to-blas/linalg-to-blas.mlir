// RUN: moonc-opt --moon-linalg-to-blas=min-flops=4096 --split-input-file %s | FileCheck %s
// RUN: moonc-opt --moon-linalg-to-blas=min-flops=4096 --split-input-file %s | moonc-opt --split-input-file > /dev/null
// RUN: moonc-opt --moon-linalg-to-blas=min-flops=0 --split-input-file %s | FileCheck %s --check-prefix=OFF
// RUN: moonc-opt --moon-linalg-to-blas=min-flops=1000000 --split-input-file %s | FileCheck %s --check-prefix=HIGH

// min-flops=0 turns the pass off; with a threshold above every product
// here, only the dynamic ones change (into a test at run time).
// OFF-NOT: {{call @moonrt_|scf\.}}
// HIGH-NOT: call @moonrt_dgemm(

// A static matmul of 64 * 16 * 32 = 32768 multiply-adds: one gemm,
// accumulating (alpha = beta = 1), no transpose; the routine is declared
// with the C interface.
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %[[A:[^:]*]]: memref<64x32xf64>, %[[B:[^:]*]]: memref<32x16xf64>, %[[C:[^:]*]]: memref<64x16xf64>)
// CHECK-NOT: linalg.matmul
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-DAG: %[[NO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[AC:.*]] = memref.cast %[[A]] : memref<64x32xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK-DAG: %[[BC:.*]] = memref.cast %[[B]] : memref<32x16xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK-DAG: %[[CC:.*]] = memref.cast %[[C]] : memref<64x16xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: call @moonrt_dgemm(%[[NO]], %[[NO]], %[[ONE]], %[[AC]], %[[BC]], %[[ONE]], %[[CC]])
// CHECK-NEXT: return
// CHECK: func.func private @moonrt_dgemm(i32, i32, f64, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, f64, memref<?x?xf64, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
func.func @matmul(%a: memref<64x32xf64>, %b: memref<32x16xf64>, %c: memref<64x16xf64>) {
  linalg.matmul ins(%a, %b : memref<64x32xf64>, memref<32x16xf64>) outs(%c : memref<64x16xf64>)
  return
}

// -----

// 4 * 2 * 8 = 64 multiply-adds: the loops are faster, the op stays.
// CHECK-LABEL: func.func @small(
// CHECK-NEXT: linalg.matmul
// CHECK-NEXT: return
// CHECK-NOT: moonrt_
func.func @small(%a: memref<4x8xf64>, %b: memref<8x2xf64>, %c: memref<4x2xf64>) {
  linalg.matmul ins(%a, %b : memref<4x8xf64>, memref<8x2xf64>) outs(%c : memref<4x2xf64>)
  return
}

// -----

// Transposed factors in f32 (matmul's indexing_maps; MLIR 19 spelled them
// linalg.matmul_transpose_a/_b) set gemm's flags; a declaration already in
// the module is used.
// CHECK-LABEL: func.func @transposed(
// CHECK-SAME: %[[A:[^:]*]]: memref<32x64xf32>, %[[B:[^:]*]]: memref<32x16xf32>, %[[C:[^:]*]]: memref<64x16xf32>, %[[BT:[^:]*]]: memref<16x32xf32>
// CHECK-DAG: %[[T:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[N:.*]] = arith.constant 0 : i32
// CHECK: call @moonrt_sgemm(%[[T]], %[[N]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-DAG: %[[T2:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[N2:.*]] = arith.constant 0 : i32
// CHECK: call @moonrt_sgemm(%[[N2]], %[[T2]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT: linalg.
// CHECK: return
// CHECK-COUNT-1: func.func private @moonrt_sgemm(
// CHECK-NOT: func.func private @moonrt_sgemm(
func.func @transposed(%a: memref<32x64xf32>, %b: memref<32x16xf32>, %c: memref<64x16xf32>, %bt: memref<16x32xf32>, %a2: memref<64x32xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%a, %b : memref<32x64xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%a2, %bt : memref<64x32xf32>, memref<16x32xf32>) outs(%c : memref<64x16xf32>)
  return
}
func.func private @moonrt_sgemm(i32, i32, f32, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, f32, memref<?x?xf32, strided<[?, ?], offset: ?>>)

// -----

// Dynamic sizes: the multiply-adds are counted at run time; the call runs
// from the threshold up, the original op below it.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf64>, %[[B:[^:]*]]: memref<?x?xf64>, %[[C:[^:]*]]: memref<?x?xf64>)
// CHECK: %[[M:.*]] = memref.dim %[[C]], %{{.*}} : memref<?x?xf64>
// CHECK: %[[N:.*]] = memref.dim %[[C]], %{{.*}} : memref<?x?xf64>
// CHECK: %[[MN:.*]] = arith.muli %[[M]], %[[N]] : index
// CHECK: %[[K:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x?xf64>
// CHECK: %[[MNK:.*]] = arith.muli %[[MN]], %[[K]] : index
// CHECK: %[[MIN:.*]] = arith.constant 4096 : index
// CHECK: %[[LARGE:.*]] = arith.cmpi uge, %[[MNK]], %[[MIN]] : index
// CHECK: scf.if %[[LARGE]] {
// CHECK: func.call @moonrt_dgemm(
// CHECK-NEXT: } else {
// CHECK-NEXT: linalg.matmul ins(%[[A]], %[[B]] : memref<?x?xf64>, memref<?x?xf64>) outs(%[[C]] : memref<?x?xf64>)
// CHECK-NEXT: }
// CHECK-NEXT: return
// HIGH-LABEL: func.func @dynamic(
// HIGH: arith.constant 1000000 : index
// HIGH: scf.if
// HIGH: func.call @moonrt_dgemm(
// HIGH: linalg.matmul
func.func @dynamic(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  linalg.matmul ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>)
  return
}

// -----

// Partly static sizes: the static ones are multiplied in as one constant.
// CHECK-LABEL: func.func @partly_dynamic(
// CHECK: %[[M:.*]] = memref.dim
// CHECK: %[[KN:.*]] = arith.constant 1024 : index
// CHECK: %[[MNK:.*]] = arith.muli %[[M]], %[[KN]] : index
// CHECK: arith.cmpi uge, %[[MNK]]
func.func @partly_dynamic(%a: memref<?x32xf64>, %b: memref<32x32xf64>, %c: memref<?x32xf64>) {
  linalg.matmul ins(%a, %b : memref<?x32xf64>, memref<32x32xf64>) outs(%c : memref<?x32xf64>)
  return
}

// -----

// matvec is gemv, vecmat gemv of the transpose (128 * 64 = 8192).
// CHECK-LABEL: func.func @matvec_vecmat(
// CHECK-SAME: %[[A:[^:]*]]: memref<128x64xf64>, %[[X:[^:]*]]: memref<64xf64>, %[[Y:[^:]*]]: memref<128xf64>)
// CHECK-DAG: %[[AC:.*]] = memref.cast %[[A]] : memref<128x64xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK-DAG: %[[XC:.*]] = memref.cast %[[X]] : memref<64xf64> to memref<?xf64, strided<[?], offset: ?>>
// CHECK-DAG: %[[YC:.*]] = memref.cast %[[Y]] : memref<128xf64> to memref<?xf64, strided<[?], offset: ?>>
// CHECK-DAG: %[[NO:.*]] = arith.constant 0 : i32
// CHECK: call @moonrt_dgemv(%[[NO]], %{{.*}}, %[[AC]], %[[XC]], %{{.*}}, %[[YC]])
// CHECK: %[[YES:.*]] = arith.constant 1 : i32
// CHECK: call @moonrt_dgemv(%[[YES]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NEXT: return
// CHECK: func.func private @moonrt_dgemv(i32, f64, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, f64, memref<?xf64, strided<[?], offset: ?>>) attributes {llvm.emit_c_interface}
func.func @matvec_vecmat(%a: memref<128x64xf64>, %x: memref<64xf64>, %y: memref<128xf64>) {
  linalg.matvec ins(%a, %x : memref<128x64xf64>, memref<64xf64>) outs(%y : memref<128xf64>)
  linalg.vecmat ins(%y, %a : memref<128xf64>, memref<128x64xf64>) outs(%x : memref<64xf64>)
  return
}

// -----

// dot's result is added to the rank-0 output.
// CHECK-LABEL: func.func @dot(
// CHECK-SAME: %[[X:[^:]*]]: memref<8192xf32>, %[[Y:[^:]*]]: memref<8192xf32>, %[[OUT:[^:]*]]: memref<f32>)
// CHECK: %[[D:.*]] = call @moonrt_sdot(%{{.*}}, %{{.*}}) : (memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>) -> f32
// CHECK-NEXT: %[[OLD:.*]] = memref.load %[[OUT]][] : memref<f32>
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]], %[[D]] : f32
// CHECK-NEXT: memref.store %[[NEW]], %[[OUT]][] : memref<f32>
// CHECK-NEXT: return
func.func @dot(%x: memref<8192xf32>, %y: memref<8192xf32>, %out: memref<f32>) {
  linalg.dot ins(%x, %y : memref<8192xf32>, memref<8192xf32>) outs(%out : memref<f32>)
  return
}

// -----

// batch_matmul: a loop over the batch, one gemm of 16 * 16 * 32 per
// iteration on rank-2 views (the threshold applies to one call): each view
// is the operand's base at its offset plus the batch index times its
// batch stride, with its other sizes and strides.
// CHECK-LABEL: func.func @batch_matmul(
// CHECK-SAME: %[[A:[^:]*]]: memref<5x16x32xf64>, %[[B:[^:]*]]: memref<5x32x16xf64>, %[[C:[^:]*]]: memref<5x16x16xf64>)
// CHECK: %[[AB:[^,]*]], %[[AO:[^,]*]], %[[AS:[^:]*]]:3, %[[AT:[^:]*]]:3 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[BB:[^,]*]], %{{[^,]*}}, %{{[^:]*}}:3, %{{[^:]*}}:3 = memref.extract_strided_metadata %[[B]]
// CHECK: %[[CB:[^,]*]], %{{[^,]*}}, %{{[^:]*}}:3, %{{[^:]*}}:3 = memref.extract_strided_metadata %[[C]]
// CHECK: %[[FIVE:.*]] = arith.constant 5 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[FIVE]] step %{{.*}} {
// CHECK-NEXT: %[[STEP:.*]] = arith.muli %[[I]], %[[AT]]#0 : index
// CHECK-NEXT: %[[MOVED:.*]] = arith.addi %[[AO]], %[[STEP]] : index
// CHECK-NEXT: %[[AI:.*]] = memref.reinterpret_cast %[[AB]] to offset: [%[[MOVED]]], sizes: [%[[AS]]#1, %[[AS]]#2], strides: [%[[AT]]#1, %[[AT]]#2] : memref<f64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: %[[BI:.*]] = memref.reinterpret_cast %[[BB]]
// CHECK: %[[CI:.*]] = memref.reinterpret_cast %[[CB]]
// CHECK: func.call @moonrt_dgemm(%{{.*}}, %{{.*}}, %{{.*}}, %[[AI]], %[[BI]], %{{.*}}, %[[CI]])
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-LABEL: func.func @batch_transposed(
// CHECK: scf.for
// CHECK-DAG: %[[N:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[T:.*]] = arith.constant 1 : i32
// CHECK: func.call @moonrt_dgemm(%[[N]], %[[T]],
// CHECK: scf.for
// CHECK-DAG: %[[N:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[T:.*]] = arith.constant 1 : i32
// CHECK: func.call @moonrt_dgemm(%[[T]], %[[N]],
func.func @batch_matmul(%a: memref<5x16x32xf64>, %b: memref<5x32x16xf64>, %c: memref<5x16x16xf64>) {
  linalg.batch_matmul ins(%a, %b : memref<5x16x32xf64>, memref<5x32x16xf64>) outs(%c : memref<5x16x16xf64>)
  return
}
func.func @batch_transposed(%a: memref<5x16x32xf64>, %bt: memref<5x16x32xf64>, %at: memref<5x32x16xf64>, %b: memref<5x32x16xf64>, %c: memref<5x16x16xf64>) {
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
    ins(%a, %bt : memref<5x16x32xf64>, memref<5x16x32xf64>) outs(%c : memref<5x16x16xf64>)
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
    ins(%at, %b : memref<5x32x16xf64>, memref<5x32x16xf64>) outs(%c : memref<5x16x16xf64>)
  return
}

// -----

// The generics reverse mode makes for the adjoints of
// linalg.matmul(%a, %b, %c), with G = dC: dA[i, k] += G[i, j] B[k, j]
// (gemm(G, B^T)) and dB[k, j] += A[i, k] G[i, j] (gemm(A^T, G)). Each has
// an input its body does not read (the other factor), which is ignored.
#ma = affine_map<(d0, d1, d2) -> (d0, d2)>
#mb = affine_map<(d0, d1, d2) -> (d2, d1)>
#mc = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_adjoints(
// CHECK-SAME: %[[A:[^:]*]]: memref<64x32xf64>, %[[B:[^:]*]]: memref<32x16xf64>, %[[G:[^:]*]]: memref<64x16xf64>, %[[DA:[^:]*]]: memref<64x32xf64>, %[[DB:[^:]*]]: memref<32x16xf64>)
// CHECK-NOT: linalg.generic
// CHECK-DAG: %[[GC:.*]] = memref.cast %[[G]] : memref<64x16xf64> to
// CHECK-DAG: %[[BC:.*]] = memref.cast %[[B]] : memref<32x16xf64> to
// CHECK-DAG: %[[DAC:.*]] = memref.cast %[[DA]] : memref<64x32xf64> to
// CHECK-DAG: %[[N:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[T:.*]] = arith.constant 1 : i32
// CHECK: call @moonrt_dgemm(%[[N]], %[[T]], %{{.*}}, %[[GC]], %[[BC]], %{{.*}}, %[[DAC]])
// CHECK-DAG: %[[AC:.*]] = memref.cast %[[A]] : memref<64x32xf64> to
// CHECK-DAG: %[[GC2:.*]] = memref.cast %[[G]] : memref<64x16xf64> to
// CHECK-DAG: %[[DBC:.*]] = memref.cast %[[DB]] : memref<32x16xf64> to
// CHECK-DAG: %[[T2:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[N2:.*]] = arith.constant 0 : i32
// CHECK: call @moonrt_dgemm(%[[T2]], %[[N2]], %{{.*}}, %[[AC]], %[[GC2]], %{{.*}}, %[[DBC]])
// CHECK-NEXT: return
func.func @matmul_adjoints(%a: memref<64x32xf64>, %b: memref<32x16xf64>, %g: memref<64x16xf64>, %da: memref<64x32xf64>, %db: memref<32x16xf64>) {
  linalg.generic {indexing_maps = [#ma, #mb, #mc, #ma], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b, %g : memref<64x32xf64>, memref<32x16xf64>, memref<64x16xf64>) outs(%da : memref<64x32xf64>) {
  ^bb0(%av: f64, %bv: f64, %gv: f64, %out: f64):
    %p = arith.mulf %gv, %bv : f64
    %s = arith.addf %out, %p : f64
    linalg.yield %s : f64
  }
  linalg.generic {indexing_maps = [#ma, #mb, #mc, #mb], iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%a, %b, %g : memref<64x32xf64>, memref<32x16xf64>, memref<64x16xf64>) outs(%db : memref<32x16xf64>) {
  ^bb0(%av: f64, %bv: f64, %gv: f64, %out: f64):
    %p = arith.mulf %av, %gv : f64
    %s = arith.addf %out, %p : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// A generic writing the transposed product, C^T[j, i] += A[i, k] B[k, j],
// with the sum written `p + out`: gemm(B^T, A^T) into C as it is.
// CHECK-LABEL: func.func @transposed_output(
// CHECK-SAME: %[[A:[^:]*]]: memref<64x32xf64>, %[[B:[^:]*]]: memref<32x16xf64>, %[[CT:[^:]*]]: memref<16x64xf64>)
// CHECK-DAG: %[[BC:.*]] = memref.cast %[[B]]
// CHECK-DAG: %[[AC:.*]] = memref.cast %[[A]]
// CHECK-DAG: %[[CC:.*]] = memref.cast %[[CT]]
// CHECK-DAG: %[[T:.*]] = arith.constant 1 : i32
// CHECK: call @moonrt_dgemm(%[[T]], %[[T]], %{{.*}}, %[[BC]], %[[AC]], %{{.*}}, %[[CC]])
#ma = affine_map<(i, j, k) -> (i, k)>
#mb = affine_map<(i, j, k) -> (k, j)>
#mct = affine_map<(i, j, k) -> (j, i)>
func.func @transposed_output(%a: memref<64x32xf64>, %b: memref<32x16xf64>, %ct: memref<16x64xf64>) {
  linalg.generic {indexing_maps = [#ma, #mb, #mct], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xf64>, memref<32x16xf64>) outs(%ct : memref<16x64xf64>) {
  ^bb0(%av: f64, %bv: f64, %out: f64):
    %p = arith.mulf %av, %bv : f64
    %s = arith.addf %p, %out : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// Generic matvec forms: a matrix read transposed (y[j] += A[k, j] x[k])
// is gemv with trans = 1; a sum of squares (x[k] * x[k], one input read
// twice) is dot(x, x).
#akj = affine_map<(j, k) -> (k, j)>
#k = affine_map<(j, k) -> (k)>
#j = affine_map<(j, k) -> (j)>
#id = affine_map<(k) -> (k)>
#none = affine_map<(k) -> ()>
// CHECK-LABEL: func.func @generic_vector_forms(
// CHECK: %[[T:.*]] = arith.constant 1 : i32
// CHECK: call @moonrt_dgemv(%[[T]],
// CHECK: %[[D:.*]] = call @moonrt_ddot(%[[X:[^,]*]], %[[X]])
// CHECK-NOT: linalg.generic
func.func @generic_vector_forms(%a: memref<128x64xf64>, %x: memref<128xf64>, %y: memref<64xf64>, %s: memref<f64>, %big: memref<8192xf64>) {
  linalg.generic {indexing_maps = [#akj, #k, #j], iterator_types = ["parallel", "reduction"]}
      ins(%a, %x : memref<128x64xf64>, memref<128xf64>) outs(%y : memref<64xf64>) {
  ^bb0(%av: f64, %xv: f64, %out: f64):
    %p = arith.mulf %xv, %av : f64
    %r = arith.addf %out, %p : f64
    linalg.yield %r : f64
  }
  linalg.generic {indexing_maps = [#id, #none], iterator_types = ["reduction"]}
      ins(%big : memref<8192xf64>) outs(%s : memref<f64>) {
  ^bb0(%v: f64, %out: f64):
    %p = arith.mulf %v, %v : f64
    %r = arith.addf %out, %p : f64
    linalg.yield %r : f64
  }
  return
}

// -----

// Left alone: integers, tensors, a body that is not out + x * y, a
// scaled product, a loop only one factor reads (a sum inside the product),
// a layout that is not strided, another memory space, a broadcast factor.
#ma = affine_map<(i, j, k) -> (i, k)>
#mb = affine_map<(i, j, k) -> (k, j)>
#mc = affine_map<(i, j, k) -> (i, j)>
#a4 = affine_map<(i, j, k, l) -> (i, k, l)>
#b4 = affine_map<(i, j, k, l) -> (k, j)>
#c4 = affine_map<(i, j, k, l) -> (i, j)>
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: moonrt_
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<64x64xi32>, memref<64x64xi32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x64xf64>, tensor<64x64xf64>)
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: linalg.generic
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<64x64xf64, #{{.*}}>, memref<64x64xf64>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<64x64xf64, 1>, memref<64x64xf64>)
// CHECK: linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%{{.*}}, %{{.*}} : memref<64xf64>, memref<64x64xf64>)
// CHECK-NOT: moonrt_
func.func @left_alone(%ai: memref<64x64xi32>, %ci: memref<64x64xi32>, %t: tensor<64x64xf64>,
                      %a: memref<64x64xf64>, %c: memref<64x64xf64>, %s: f64,
                      %a3: memref<64x64x8xf64>,
                      %odd: memref<64x64xf64, affine_map<(i, j) -> (j, i floordiv 2)>>,
                      %far: memref<64x64xf64, 1>, %row: memref<64xf64>) -> tensor<64x64xf64> {
  linalg.matmul ins(%ai, %ai : memref<64x64xi32>, memref<64x64xi32>) outs(%ci : memref<64x64xi32>)
  %r = linalg.matmul ins(%t, %t : tensor<64x64xf64>, tensor<64x64xf64>) outs(%t : tensor<64x64xf64>) -> tensor<64x64xf64>
  linalg.generic {indexing_maps = [#ma, #mb, #mc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %a : memref<64x64xf64>, memref<64x64xf64>) outs(%c : memref<64x64xf64>) {
  ^bb0(%x: f64, %y: f64, %out: f64):
    %p = arith.mulf %x, %y : f64
    %d = arith.subf %out, %p : f64
    linalg.yield %d : f64
  }
  linalg.generic {indexing_maps = [#ma, #mb, #mc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %a : memref<64x64xf64>, memref<64x64xf64>) outs(%c : memref<64x64xf64>) {
  ^bb0(%x: f64, %y: f64, %out: f64):
    %p = arith.mulf %x, %y : f64
    %q = arith.mulf %p, %s : f64
    %d = arith.addf %out, %q : f64
    linalg.yield %d : f64
  }
  linalg.generic {indexing_maps = [#a4, #b4, #c4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a3, %a : memref<64x64x8xf64>, memref<64x64xf64>) outs(%c : memref<64x64xf64>) {
  ^bb0(%x: f64, %y: f64, %out: f64):
    %p = arith.mulf %x, %y : f64
    %d = arith.addf %out, %p : f64
    linalg.yield %d : f64
  }
  linalg.matmul ins(%odd, %a : memref<64x64xf64, affine_map<(i, j) -> (j, i floordiv 2)>>, memref<64x64xf64>) outs(%c : memref<64x64xf64>)
  linalg.matmul ins(%far, %a : memref<64x64xf64, 1>, memref<64x64xf64>) outs(%c : memref<64x64xf64>)
  // A factor broadcast along the rows by its indexing map is no BLAS product.
  linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (k)>, #mb, #mc]
    ins(%row, %a : memref<64xf64>, memref<64x64xf64>) outs(%c : memref<64x64xf64>)
  return %r : tensor<64x64xf64>
}

// -----

// Dimensions beyond one per role become loops around the calls, and of
// several dimensions of one role the routine takes the largest: a
// convolution's product (moon-conv-to-gemm; the filter has no batch), its
// filter gradient (two contraction dimensions: the images and the
// pixels), and a product with a unit dimension beside the rows (the
// routine takes the 128 rows, not the unit dimension).
// CHECK-LABEL: func.func @shared_factor(
// CHECK-SAME: %[[W:[^:]*]]: memref<16x27xf32>, %[[P:[^:]*]]: memref<8x27x1024xf32>, %[[O:[^:]*]]: memref<8x16x1024xf32>)
// CHECK: %[[WB:[^,]*]], %[[WO:[^,]*]], %{{[^:]*}}:2, %{{[^:]*}}:2 = memref.extract_strided_metadata %[[W]]
// CHECK: %[[PB:[^,]*]], %{{[^,]*}}, %{{[^:]*}}:3, %[[PT:[^:]*]]:3 = memref.extract_strided_metadata %[[P]]
// CHECK: %[[OB:[^,]*]], %{{[^,]*}}, %{{[^:]*}}:3, %[[OT:[^:]*]]:3 = memref.extract_strided_metadata %[[O]]
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: %[[WN:.*]] = memref.reinterpret_cast %[[WB]] to offset: [%[[WO]]]
// CHECK-NEXT: arith.muli %[[N]], %[[PT]]#0
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[PN:.*]] = memref.reinterpret_cast %[[PB]]
// CHECK-NEXT: arith.muli %[[N]], %[[OT]]#0
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[ON:.*]] = memref.reinterpret_cast %[[OB]]
// CHECK: func.call @moonrt_sgemm(%{{.*}}, %{{.*}}, %{{.*}}, %[[WN]], %[[PN]], %{{.*}}, %[[ON]])
// CHECK-LABEL: func.func @two_contractions(
// CHECK: scf.for %[[N:.*]] =
// CHECK: %[[T:.*]] = arith.constant 1 : i32
// CHECK: func.call @moonrt_sgemm(%{{.*}}, %[[T]],
// CHECK-LABEL: func.func @unit_dimension(
// CHECK: %[[XB:[^,]*]], %{{[^,]*}}, %[[XS:[^:]*]]:3, %[[XT:[^:]*]]:3 = memref.extract_strided_metadata
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[ONE]] step
// CHECK-NOT: scf.for
// CHECK: memref.reinterpret_cast %[[XB]] to offset: [%{{.*}}], sizes: [%[[XS]]#0, %[[XS]]#2], strides: [%[[XT]]#0, %[[XT]]#2]
// CHECK: func.call @moonrt_sgemm(
func.func @shared_factor(%w: memref<16x27xf32>, %p: memref<8x27x1024xf32>, %o: memref<8x16x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, f, q, k) -> (f, k)>, affine_map<(n, f, q, k) -> (n, k, q)>,
                                   affine_map<(n, f, q, k) -> (n, f, q)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %p : memref<16x27xf32>, memref<8x27x1024xf32>) outs(%o : memref<8x16x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  return
}
func.func @two_contractions(%do: memref<8x16x1024xf32>, %p: memref<8x27x1024xf32>, %dw: memref<16x27xf32>) {
  linalg.generic {indexing_maps = [affine_map<(f, k, n, q) -> (n, f, q)>, affine_map<(f, k, n, q) -> (n, k, q)>,
                                   affine_map<(f, k, n, q) -> (f, k)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%do, %p : memref<8x16x1024xf32>, memref<8x27x1024xf32>) outs(%dw : memref<16x27xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  return
}
func.func @unit_dimension(%x: memref<128x1x256xf32>, %w: memref<256x1024xf32>, %o: memref<128x1x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, u, j, k) -> (i, u, k)>, affine_map<(i, u, j, k) -> (k, j)>,
                                   affine_map<(i, u, j, k) -> (i, u, j)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<128x1x256xf32>, memref<256x1024xf32>) outs(%o : memref<128x1x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The routine is declared in the module nearest to the product; a product
// in another kind of symbol table (a gpu.module) is left alone. A buffer
// read twice is cast once.
// CHECK-LABEL: module @inner {
// CHECK: func.func @f(%[[A:[^:]*]]: memref<64x64xf64>, %{{.*}}: memref<64x64xf64>)
// CHECK: %[[AC:.*]] = memref.cast %[[A]]
// CHECK: call @moonrt_dgemm(%{{.*}}, %{{.*}}, %{{.*}}, %[[AC]], %[[AC]], %{{.*}}, %{{.*}})
// CHECK: func.func private @moonrt_dgemm({{.*}}) attributes {llvm.emit_c_interface}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.module @g {
// CHECK-NEXT: func.func @f(
// CHECK-NEXT: linalg.matmul
module @inner {
  func.func @f(%a: memref<64x64xf64>, %c: memref<64x64xf64>) {
    linalg.matmul ins(%a, %a : memref<64x64xf64>, memref<64x64xf64>) outs(%c : memref<64x64xf64>)
    return
  }
}
gpu.module @g {
  func.func @f(%a: memref<64x64xf64>, %c: memref<64x64xf64>) {
    linalg.matmul ins(%a, %a : memref<64x64xf64>, memref<64x64xf64>) outs(%c : memref<64x64xf64>)
    return
  }
}

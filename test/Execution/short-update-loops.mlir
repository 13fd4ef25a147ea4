// moon-cpu-pipeline versions the triangular loop's inner loop, which
// updates `out` in place (--moon-short-update-loops): rows of fewer than 16
// elements take the scalar copy, longer ones the loop LLVM vectorizes. With
// x = 1, 2, ..., d and every L 1, out[j] = x[j] + x[0] + ... + x[j-1] is
// the triangular number (j+1)(j+2)/2; d = 20 runs rows of both kinds.
//
// RUN: moonc-opt --moon-cpu-pipeline %s | FileCheck %s --check-prefix=IR
// RUN: moonc run %s --entry tri --args '[[1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [1, 2, 3, 4, 5], [0, 0, 0, 0, 0]]' | FileCheck %s --check-prefix=D5
// RUN: %python -c "import json; d = 20; print(json.dumps([[1.0] * (d * (d - 1) // 2), list(range(1, d + 1)), [0] * d]))" > %t.args.json
// RUN: moonc run %s --entry tri --args @%t.args.json | FileCheck %s --check-prefix=D20
// IR-LABEL: llvm.func @tri(
// IR: llvm.icmp "slt"
// D5: {"results": [10], "args": [{{.*}}, {{.*}}, [1.0, 3.0, 6.0, 10.0, 15.0]]}
// D20: {"results": [190], "args": [{{.*}}, {{.*}}, [1.0, 3.0, 6.0, 10.0, 15.0, 21.0, 28.0, 36.0, 45.0, 55.0, 66.0, 78.0, 91.0, 105.0, 120.0, 136.0, 153.0, 171.0, 190.0, 210.0]]}

func.func @tri(%ltri: memref<?xf64>, %x: memref<?xf64>, %out: memref<?xf64>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %d step %c1 {
    %xv = memref.load %x[%i] : memref<?xf64>
    memref.store %xv, %out[%i] : memref<?xf64>
  }
  %last = scf.for %i = %c0 to %d step %c1 iter_args(%li0 = %c0) -> index {
    %i1 = arith.addi %i, %c1 : index
    %li1 = scf.for %j = %i1 to %d step %c1 iter_args(%li = %li0) -> index {
      %ov = memref.load %out[%j] : memref<?xf64>
      %lv = memref.load %ltri[%li] : memref<?xf64>
      %xi = memref.load %x[%i] : memref<?xf64>
      %pr = arith.mulf %lv, %xi : f64
      %s = arith.addf %ov, %pr : f64
      memref.store %s, %out[%j] : memref<?xf64>
      %next = arith.addi %li, %c1 : index
      scf.yield %next : index
    }
    scf.yield %li1 : index
  }
  return %last : index
}

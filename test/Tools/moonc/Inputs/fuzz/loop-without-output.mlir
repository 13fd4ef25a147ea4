// A parallel loop that loads and multiplies but stores nothing (the fuzzer
// deleted the store of test/Execution/parallel-reverse/gradient.mlir):
// nothing flows back through it, and reverse mode took it for a sum.
func.func @scale(%x: memref<?xf32>, %w: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %u = memref.load %w[%c0] : memref<?xf32>
    %p = arith.mulf %v, %u : f32
    scf.reduce
  }
  return
}
func.func @g(%x: memref<?xf32>, %w: memref<?xf32>, %y: memref<?xf32>, %dx: memref<?xf32>, %dw: memref<?xf32>, %dy: memref<?xf32>) {
  moon.vjp @scale(%x, %w, %y, %dx, %dw, %dy) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  return
}

// x[i]^2, for test/Tools/moonc/checked.test; i is the caller's.
func.func @f(%x: memref<?xf64>, %i: index) -> f64 {
  %v = memref.load %x[%i] : memref<?xf64>
  %s = arith.mulf %v, %v : f64
  return %s : f64
}

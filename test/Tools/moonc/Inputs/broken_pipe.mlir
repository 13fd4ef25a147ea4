// Returns a memref of n elements, so that `moonc run` prints a long line.
func.func @fill(%n: index) -> memref<?xf64> {
  %m = memref.alloc(%n) : memref<?xf64>
  %one = arith.constant 1.0 : f64
  linalg.fill ins(%one : f64) outs(%m : memref<?xf64>)
  return %m : memref<?xf64>
}

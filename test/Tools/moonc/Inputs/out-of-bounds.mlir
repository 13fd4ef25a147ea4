// Loads far past the end of its argument: undefined behaviour, which
// crashes (test/Tools/moonc/crash.test).
func.func @f(%x: memref<?xf64>) -> f64 {
  %big = arith.constant 1000000000000 : index
  %v = memref.load %x[%big] : memref<?xf64>
  return %v : f64
}

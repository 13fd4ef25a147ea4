// s[i] = sin(x[i]) and c[i] = cos(x[i]): --moon-share-sincos versions this
// loop (the kernel when |x| <= 2^20, libm otherwise). Not named @sincos:
// LLVM 22 turns sin and cos of one value into a call of libm's
// `sincos`, which would then call this function.
func.func @sin_cos(%x: memref<?xf64>, %s: memref<?xf64>, %c: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %sin = math.sin %v : f64
    %cos = math.cos %v : f64
    memref.store %sin, %s[%i] : memref<?xf64>
    memref.store %cos, %c[%i] : memref<?xf64>
  }
  return
}

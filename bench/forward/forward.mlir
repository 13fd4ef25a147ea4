// Forward-mode benchmarks: each public function is timed by `moonc bench`
// (see run.sh) and compared with its primal in the same run.

// sum(cos(exp(x))) over n = 1024 f64: the seed benchmark's primal.
func.func @sum_cos_exp(%x: memref<1024xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %x[%i] : memref<1024xf64>
    %e = math.exp %v : f64
    %c = math.cos %e : f64
    %next = arith.addf %acc, %c : f64
    scf.yield %next : f64
  }
  return %sum : f64
}

// One JVP (one direction) of sum_cos_exp, value included.
func.func @sum_cos_exp_jvp(%x: memref<1024xf64>, %dx: memref<1024xf64>) -> (f64, f64) {
  %y, %dy = moon.jvp @sum_cos_exp(%x, %dx) : (memref<1024xf64>, memref<1024xf64>) -> (f64, f64)
  return %y, %dy : f64, f64
}

// Eight JVPs at once (width 8), value included; the eight directional
// derivatives are stored into %out.
func.func @sum_cos_exp_jvp8(%x: memref<1024xf64>, %dx: memref<8x1024xf64>, %out: memref<8xf64>) -> f64 {
  %y, %dy = moon.jvp @sum_cos_exp(%x, %dx) width 8
      : (memref<1024xf64>, memref<8x1024xf64>) -> (f64, vector<8xf64>)
  %c0 = arith.constant 0 : index
  vector.store %dy, %out[%c0] : memref<8xf64>, vector<8xf64>
  return %y : f64
}

// A scalar loop of 500 dependent steps: x <- sin(x) * a.
func.func @sin_loop(%x: f64, %a: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 500 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> f64 {
    %s = math.sin %v : f64
    %m = arith.mulf %s, %a : f64
    scf.yield %m : f64
  }
  return %r : f64
}

// Its JVP with respect to both inputs, value included.
func.func @sin_loop_jvp(%x: f64, %a: f64, %dx: f64, %da: f64) -> (f64, f64) {
  %y, %dy = moon.jvp @sin_loop(%x, %a, %dx, %da) : (f64, f64, f64, f64) -> (f64, f64)
  return %y, %dy : f64, f64
}

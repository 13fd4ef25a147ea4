// A loop of N steps whose reverse sweep needs a tape of 8N bytes, sized
// before the loop (test/Tools/moonc/out-of-memory.test).
func.func @f(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (f64) {
    %s = math.sin %a : f64
    %t = arith.mulf %s, %a : f64
    scf.yield %t : f64
  }
  return %r : f64
}

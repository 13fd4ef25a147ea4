// A while loop of N steps: its reverse sweep pushes each step on moonrt's
// tape (test/Tools/moonc/out-of-memory.test).
func.func @f(%x: f64, %n: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r:2 = scf.while (%i = %c0, %a = %x) : (i64, f64) -> (i64, f64) {
    %go = arith.cmpi slt, %i, %n : i64
    scf.condition(%go) %i, %a : i64, f64
  } do {
  ^bb0(%j: i64, %b: f64):
    %s = math.sin %b : f64
    %t = arith.mulf %s, %b : f64
    %k = arith.addi %j, %c1 : i64
    scf.yield %k, %t : i64, f64
  }
  return %r#1 : f64
}

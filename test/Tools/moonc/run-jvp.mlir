// `moonc run` differentiates before it compiles: a `moon.jvp` in the
// program becomes a call to the tangent function --moon-autodiff generates.
// d sin(x*y) = cos(x*y) * (y*dx + x*dy); at (1, 2) in direction (1, 0):
// 2 cos 2.
// RUN: moonc run %s --args '[1.0, 2.0, 1.0, 0.0]' | FileCheck %s
// CHECK: {"results": [0.9092974268256817, -0.8322936730942848], "args": [null, null, null, null]}

func.func private @f(%x: f64, %y: f64) -> f64 {
  %p = arith.mulf %x, %y : f64
  %s = math.sin %p : f64
  return %s : f64
}

func.func @df(%x: f64, %y: f64, %dx: f64, %dy: f64) -> (f64, f64) {
  %r:2 = moon.jvp @f(%x, %y, %dx, %dy) : (f64, f64, f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

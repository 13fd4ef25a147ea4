func.func @add(%a: f64, %b: f64) -> f64 {
  %s = arith.addf %a, %b : f64
  return %s : f64
}

func.func @first(%x: memref<3xf64>, %n: i32) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<3xf64>
  return %v : f64
}

func.func @norm(%m: memref<?x2xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0, %c0] : memref<?x2xf32>
  return %v : f32
}

func.func private @hidden(%a: f64) -> f64 {
  return %a : f64
}

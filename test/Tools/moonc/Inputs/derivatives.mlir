func.func @two(%x: f64, %y: f64) -> (f64, f64) {
  return %y, %x : f64, f64
}

func.func @dynamic(%m: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<?xf64>
  return %v : f64
}

func.func @counted(%x: f64, %n: i32) -> f64 {
  return %x : f64
}

func.func private @external(f64) -> f64

func.func @opaque(%x: f64) -> f64 {
  %y = func.call @external(%x) : (f64) -> f64
  return %y : f64
}

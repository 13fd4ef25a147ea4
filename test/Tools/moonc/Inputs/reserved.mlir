func.func @f(%x: f64) -> f64 {
  return %x : f64
}

func.func private @__moonc_jvp_f(%x: f64) -> f64 {
  return %x : f64
}

func.func private @__moonc_vjp_f(%x: f64) -> f64 {
  return %x : f64
}

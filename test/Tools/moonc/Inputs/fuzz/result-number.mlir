// Found by the fuzzer (tools/fuzz): a result number far past the op's
// results made MLIR's parser run out of memory and abort.
func.func @f(%x: f64) -> f64 {
  %r:2 = scf.execute_region -> (f64, f64) {
    scf.yield %x, %x : f64, f64
  }
  return %r#2147483648 : f64
}

"""Prints a module of N functions (argv[1]), each a loop nest of memref
loads, math and stores of about 1.2 KB, for compile-time tests of big
modules (N = 40,000 is about 50 MB)."""
import sys

n = int(sys.argv[1])
for i in range(n):
    print(f"""func.func @f{i}(%x: memref<?x8xf64>, %y: memref<?x8xf64>, %s: f64) -> f64 {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %n = memref.dim %x, %c0 : memref<?x8xf64>
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {{
    %t = scf.for %j = %c0 to %c8 step %c1 iter_args(%a = %acc) -> f64 {{
      %v = memref.load %x[%i, %j] : memref<?x8xf64>
      %e = math.exp %v : f64
      %m = arith.mulf %e, %s : f64
      memref.store %m, %y[%i, %j] : memref<?x8xf64>
      %b = arith.addf %a, %m : f64
      scf.yield %b : f64
    }}
    scf.yield %t : f64
  }}
  return %r : f64
}}""")

"""Prints a function of N nested scf.if (argv[1]): the innermost squares x
when the condition holds, every other branch returns x."""
import sys

n = int(sys.argv[1])
print("func.func @f(%x: f64, %c: i1) -> f64 {")
for i in range(n):
    print(f"  %r{i} = scf.if %c -> (f64) {{")
print("  %y = arith.mulf %x, %x : f64")
print("  scf.yield %y : f64")
for i in reversed(range(n)):
    print("  } else {")
    print("  scf.yield %x : f64")
    print("  }")
    if i > 0:
        print(f"  scf.yield %r{i} : f64")
print("  return %r0 : f64")
print("}")

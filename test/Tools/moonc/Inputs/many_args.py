"""Prints a function of N f64 arguments (argv[1]): the sum of x_i * x_{i+1}
over the chain of arguments, each term through math.sin."""
import sys

n = int(sys.argv[1])
args = ", ".join(f"%x{i}: f64" for i in range(n))
print(f"func.func @f({args}) -> f64 {{")
print("  %s0 = arith.constant 0.0 : f64")
for i in range(n):
    j = (i + 1) % n
    print(f"  %p{i} = arith.mulf %x{i}, %x{j} : f64")
    print(f"  %q{i} = math.sin %p{i} : f64")
    print(f"  %s{i + 1} = arith.addf %s{i}, %q{i} : f64")
print(f"  return %s{n} : f64")
print("}")

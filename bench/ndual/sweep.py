#!/usr/bin/env python3
"""The sweep behind --moon-ndual-max-width's default: for N = 1..16
distinct differentiable inputs, the value and gradient of
log(sum_i sin(x1[i] * x2[i] * ... * xN[i])) over n = 10,000 elements,
fused (N-wide duals, partials stored) against the general reverse path
(--moon-ndual-max-width=0), both timed by `moonc bench` in this run.
Writes sweep.json and prints a table. Not a test."""
import json, os, random, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
moonc = os.environ.get("MOONC", os.path.join(here, "../../target/release/moonc"))
n = 10_000
widths = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32]


def program(k):
    args = ", ".join(f"%x{j}: memref<?xf64>" for j in range(k))
    loads = "\n".join(f"    %v{j} = memref.load %x{j}[%i] : memref<?xf64>" for j in range(k))
    prod = ["%v0"]
    body = []
    for j in range(1, k):
        body.append(f"    %p{j} = arith.mulf {prod[-1]}, %v{j} : f64")
        prod.append(f"%p{j}")
    return f"""func.func @f({args}) -> f64 {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x0, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {{
{loads}
{chr(10).join(body)}
    %e = math.sin {prod[-1]} : f64
    %a = arith.addf %acc, %e : f64
    scf.yield %a : f64
  }}
  %l = math.log %s : f64
  return %l : f64
}}
"""


def bench(path, args, width):
    out = subprocess.run([moonc, "bench", path, "--entry", "f", "--args", f"@{args}",
                          "--time-ms", "300", "--moon-ndual-max-width", str(width)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


rows = []
rng = random.Random(7)
with tempfile.TemporaryDirectory() as work:
    print(f"{'N':>3}{'primal ns':>12}{'fused ns':>12}{'general ns':>12}{'fused/general':>15}")
    for k in widths:
        path = os.path.join(work, f"w{k}.mlir")
        open(path, "w").write(program(k))
        args = os.path.join(work, f"w{k}.json")
        json.dump([[rng.uniform(0.9, 1.1) for _ in range(n)] for _ in range(k)], open(args, "w"))
        fused = bench(path, args, 64)
        general = bench(path, args, 0)
        row = {"n_inputs": k, "primal_ns": fused["primal_ns"], "fused_grad_ns": fused["grad_ns"],
               "general_grad_ns": general["grad_ns"]}
        rows.append(row)
        print(f"{k:>3}{row['primal_ns']:>12.0f}{row['fused_grad_ns']:>12.0f}"
              f"{row['general_grad_ns']:>12.0f}{row['fused_grad_ns'] / row['general_grad_ns']:>15.2f}",
              flush=True)
best = max((r["n_inputs"] for r in rows if r["fused_grad_ns"] <= r["general_grad_ns"]), default=0)
print(f"largest N where the fused path is at least as fast: {best}")
json.dump({"n": n, "rows": rows, "largest_n_fused_not_slower": best},
          open(os.path.join(here, "sweep.json"), "w"), indent=2)

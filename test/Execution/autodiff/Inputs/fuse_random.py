"""Differential test of --moon-fuse-adjoint-loops on random programs shaped
like GradBench's plain ode: a time loop whose step calls right-hand-side
helpers `z[i] = x[i] * y[i - s]` (s = 0, 1 or 2, the first s elements
copied from x), a two- or three-point stencil of y, or one written at
i - 1, writes `y + c k` into a temporary between stages and
updates the state in place. For each seed, `moonc grad` with a tape
budget of 1 byte (checkpointed: each step's reverse loops are fused)
must give the gradient of budget 0 (taped, unfused) to 1e-10 relative.

Usage: fuse_random.py MOONC FIRST_SEED LAST_SEED
"""

import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from same_json import compare  # noqa: E402


import random, sys
def program(seed):
    """The MLIR of random program `seed` (its entry is @f(x, s))."""
    r = random.Random(seed)
    nst = r.randint(1, 4)
    L = []
    A = L.append
    shifts = [r.choice([1, 1, 2, 0, 3, 4, 4, 5, 5]) for _ in range(nst)]
    for s in sorted(set(shifts)):
        if s == 3:
            # A three-point stencil: z[i] = x[i] (y[i - 1] - 2 y[i] + y[i + 1])
            # inside, z = x y at both ends (its reverse adds to ȳ at three
            # offsets in one loop).
            A("func.func private @rhs3(%x: memref<?xf64>, %y: memref<?xf64>, %z: memref<?xf64>) {")
            A("  %c0 = arith.constant 0 : index")
            A("  %c1 = arith.constant 1 : index")
            A("  %m2 = arith.constant -2.0 : f64")
            A("  %n = memref.dim %x, %c0 : memref<?xf64>")
            A("  %last = arith.subi %n, %c1 : index")
            A("  scf.for %i = %c0 to %n step %c1 {")
            A("    %xi = memref.load %x[%i] : memref<?xf64>")
            A("    %yi = memref.load %y[%i] : memref<?xf64>")
            A("    %p = arith.mulf %xi, %yi : f64")
            A("    memref.store %p, %z[%i] : memref<?xf64>")
            A("  }")
            A("  scf.for %i = %c1 to %last step %c1 {")
            A("    %xi = memref.load %x[%i] : memref<?xf64>")
            A("    %im = arith.subi %i, %c1 : index")
            A("    %ip = arith.addi %i, %c1 : index")
            A("    %a = memref.load %y[%im] : memref<?xf64>")
            A("    %b = memref.load %y[%i] : memref<?xf64>")
            A("    %c = memref.load %y[%ip] : memref<?xf64>")
            A("    %b2 = arith.mulf %m2, %b : f64")
            A("    %ab = arith.addf %a, %b2 : f64")
            A("    %abc = arith.addf %ab, %c : f64")
            A("    %p = arith.mulf %xi, %abc : f64")
            A("    memref.store %p, %z[%i] : memref<?xf64>")
            A("  }")
            A("  return")
            A("}")
            continue
        if s == 5:
            # A stencil written behind: z[i - 1] = x[i] y[i] from 1, the
            # last element z[n - 1] = x[n - 1] y[n - 1] (its reverse reads
            # z̄ at i - 1: the fused loop reads behind the element it
            # computes and works from copies).
            A("func.func private @rhs5(%x: memref<?xf64>, %y: memref<?xf64>, %z: memref<?xf64>) {")
            A("  %c0 = arith.constant 0 : index")
            A("  %c1 = arith.constant 1 : index")
            A("  %n = memref.dim %x, %c0 : memref<?xf64>")
            A("  scf.for %i = %c1 to %n step %c1 {")
            A("    %xi = memref.load %x[%i] : memref<?xf64>")
            A("    %yi = memref.load %y[%i] : memref<?xf64>")
            A("    %p = arith.mulf %xi, %yi : f64")
            A("    %im = arith.subi %i, %c1 : index")
            A("    memref.store %p, %z[%im] : memref<?xf64>")
            A("  }")
            A("  %last = arith.subi %n, %c1 : index")
            A("  %xl = memref.load %x[%last] : memref<?xf64>")
            A("  %yl = memref.load %y[%last] : memref<?xf64>")
            A("  %pl = arith.mulf %xl, %yl : f64")
            A("  memref.store %pl, %z[%last] : memref<?xf64>")
            A("  return")
            A("}")
            continue
        if s == 4:
            # A two-point stencil: z[i] = x[i] (y[i - 1] - 2 y[i]) from 1,
            # z[0] = x[0] y[0] (its reverse adds to ȳ at two offsets in
            # one loop, and reads only ahead).
            A("func.func private @rhs4(%x: memref<?xf64>, %y: memref<?xf64>, %z: memref<?xf64>) {")
            A("  %c0 = arith.constant 0 : index")
            A("  %c1 = arith.constant 1 : index")
            A("  %m2 = arith.constant -2.0 : f64")
            A("  %n = memref.dim %x, %c0 : memref<?xf64>")
            A("  %x0 = memref.load %x[%c0] : memref<?xf64>")
            A("  %y0 = memref.load %y[%c0] : memref<?xf64>")
            A("  %p0 = arith.mulf %x0, %y0 : f64")
            A("  memref.store %p0, %z[%c0] : memref<?xf64>")
            A("  scf.for %i = %c1 to %n step %c1 {")
            A("    %xi = memref.load %x[%i] : memref<?xf64>")
            A("    %im = arith.subi %i, %c1 : index")
            A("    %a = memref.load %y[%im] : memref<?xf64>")
            A("    %b = memref.load %y[%i] : memref<?xf64>")
            A("    %b2 = arith.mulf %m2, %b : f64")
            A("    %ab = arith.addf %a, %b2 : f64")
            A("    %p = arith.mulf %xi, %ab : f64")
            A("    memref.store %p, %z[%i] : memref<?xf64>")
            A("  }")
            A("  return")
            A("}")
            continue
        A(f"func.func private @rhs{s}(%x: memref<?xf64>, %y: memref<?xf64>, %z: memref<?xf64>) {{")
        A("  %c0 = arith.constant 0 : index")
        A("  %c1 = arith.constant 1 : index")
        A(f"  %s = arith.constant {s} : index")
        A("  %n = memref.dim %x, %c0 : memref<?xf64>")
        for k in range(s):
            A(f"  %k{k} = arith.constant {k} : index")
            A(f"  %x{k} = memref.load %x[%k{k}] : memref<?xf64>")
            A(f"  memref.store %x{k}, %z[%k{k}] : memref<?xf64>")
        A("  scf.for %i = %s to %n step %c1 {")
        A("    %xi = memref.load %x[%i] : memref<?xf64>")
        A("    %im = arith.subi %i, %s : index")
        A("    %yi = memref.load %y[%im] : memref<?xf64>")
        A("    %p = arith.mulf %xi, %yi : f64")
        A("    memref.store %p, %z[%i] : memref<?xf64>")
        A("  }")
        A("  return")
        A("}")
    A("func.func @f(%x: memref<?xf64>, %s: index) -> f64 {")
    A("  %c0 = arith.constant 0 : index")
    A("  %c1 = arith.constant 1 : index")
    A("  %h = arith.constant 0.1 : f64")
    A("  %n = memref.dim %x, %c0 : memref<?xf64>")
    A("  %y = memref.alloc(%n) : memref<?xf64>")
    A("  %yt = memref.alloc(%n) : memref<?xf64>")
    for j in range(nst):
        A(f"  %k{j} = memref.alloc(%n) : memref<?xf64>")
    A("  scf.for %i = %c0 to %n step %c1 {")
    A("    %v = memref.load %x[%i] : memref<?xf64>")
    A("    memref.store %v, %y[%i] : memref<?xf64>")
    A("  }")
    A("  scf.for %t = %c0 to %s step %c1 {")
    src = "%y"
    for j in range(nst):
        A(f"    func.call @rhs{shifts[j]}(%x, {src}, %k{j}) : (memref<?xf64>, memref<?xf64>, memref<?xf64>) -> ()")
        if j < nst - 1:
            c = r.choice(["0.5", "1.0", "0.25"])
            A(f"    %cc{j} = arith.constant {c} : f64")
            A("    scf.for %i = %c0 to %n step %c1 {")
            A("      %a = memref.load %y[%i] : memref<?xf64>")
            A(f"      %b = memref.load %k{j}[%i] : memref<?xf64>")
            A(f"      %q = arith.mulf %cc{j}, %b : f64")
            A("      %w = arith.addf %a, %q : f64")
            A("      memref.store %w, %yt[%i] : memref<?xf64>")
            A("    }")
            src = "%yt"
    A("    scf.for %i = %c0 to %n step %c1 {")
    A("      %a = memref.load %y[%i] : memref<?xf64>")
    acc = None
    for j in range(nst):
        A(f"      %b{j} = memref.load %k{j}[%i] : memref<?xf64>")
        if acc is None:
            acc = f"%b{j}"
        else:
            A(f"      %s{j} = arith.addf {acc}, %b{j} : f64")
            acc = f"%s{j}"
    A(f"      %q = arith.mulf %h, {acc} : f64")
    A("      %w = arith.addf %a, %q : f64")
    A("      memref.store %w, %y[%i] : memref<?xf64>")
    A("    }")
    A("  }")
    A("  %l = arith.subi %n, %c1 : index")
    A("  %r = memref.load %y[%l] : memref<?xf64>")
    A("  %r0 = memref.load %y[%c0] : memref<?xf64>")
    A("  %out = arith.addf %r, %r0 : f64")
    A("  return %out : f64")
    A("}")
    return "\n".join(L) + "\n"


def main():
    moonc, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with tempfile.TemporaryDirectory() as work:
        for seed in range(first, last + 1):
            r = random.Random(seed)
            n = r.choice([1, 2, 3, 5, 8, 13, 40])
            x = [round(r.uniform(0.3, 1.2), 3) for _ in range(n)]
            args = json.dumps([x, 1 + seed % 6])
            path = Path(work) / f"p{seed}.mlir"
            path.write_text(program(seed))
            grads = []
            for budget in ("0", "1"):
                out = subprocess.run(
                    [moonc, "--moon-tape-budget", budget, "grad", str(path), "--entry", "f", "--args", args],
                    capture_output=True, text=True, check=True,
                )
                grads.append(json.loads(out.stdout))
            try:
                compare(grads[0], grads[1], 1e-10)
            except SystemExit as e:
                sys.exit(f"seed {seed} (n = {n}): {e}")
    print(f"seeds {first}..{last}: fused gradients agree")


if __name__ == "__main__":
    main()

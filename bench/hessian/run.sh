#!/usr/bin/env bash
# bench/hessian: the full Hessian of the extended Rosenbrock function at
# n = 100 (moon.hvp, eight columns per call) against its value and
# gradient, both timed by `moonc bench`, side by side with JAX's
# jax.hessian when build/bench-venv has JAX. Writes results.json and
# prints a table. Not a test.
set -euo pipefail
cd "$(dirname "$0")"
moonc=${MOONC:-../../target/release/moonc}
python=${BENCH_PYTHON:-../../build/bench-venv/bin/python}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import json, random, sys
work = sys.argv[1]
rng = random.Random(3)
x = [rng.uniform(-1.5, 1.5) for _ in range(100)]
json.dump([x], open(f"{work}/x.json", "w"))
json.dump([x, [[0.0] * 100 for _ in range(100)]], open(f"{work}/xh.json", "w"))
PY
"$moonc" bench hessian.mlir --entry rosenbrock --args "@$work/x.json" >"$work/grad.json"
"$moonc" bench hessian.mlir --entry rosenbrock_hessian --args "@$work/xh.json" --primal-only >"$work/hessian.json"
"$moonc" hessian hessian.mlir --entry rosenbrock --args "@$work/x.json" >"$work/moonc_hessian.json"
"$moonc" run hessian.mlir --entry rosenbrock_hessian --args "@$work/xh.json" >"$work/run.json"
if "$python" -c 'import jax' 2>/dev/null; then
  "$python" jax_hessian.py "$work/x.json" "$work/moonc_hessian.json" >"$work/jax.json"
else
  echo '{}' >"$work/jax.json"
fi

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
grad = json.load(open(f"{work}/grad.json"))
hess = json.load(open(f"{work}/hessian.json"))
moonc_hessian = json.load(open(f"{work}/moonc_hessian.json"))["hessian"]
jax = json.load(open(f"{work}/jax.json"))
# The benchmarked function's Hessian against `moonc hessian`'s.
same = json.load(open(f"{work}/run.json"))["args"][1] == moonc_hessian
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"bench/hessian on {cpu}: extended Rosenbrock, n = 100")
print(f"{'':<8}{'grad ns':>12}{'hessian ns':>14}{'hessian / grad':>16}{'per column':>12}")
row = lambda name, g, h: print(f"{name:<8}{g:>12.0f}{h:>14.0f}{h / g:>16.1f}{h / g / 100:>12.2f}")
row("moonc", grad["grad_ns"], hess["primal_ns"])
if jax:
    row("jax", jax["grad_ns"], jax["hessian_ns"])
    print(f"jax {jax['jax']} (jit, CPU, x64): jax.hessian agrees with moonc hessian to "
          f"{jax['hessian_rel_err']:.1e}; moonc's Hessian is {jax['hessian_ns'] / hess['primal_ns']:.1f}x faster")
else:
    print("jax: skipped (no build/bench-venv; `make bench-venv`)")
print(f"the benchmarked @rosenbrock_hessian {'equals' if same else 'DIFFERS FROM'} `moonc hessian`")
json.dump({"cpu": cpu, "moonc_grad": grad, "moonc_hessian": hess, "jax": jax,
           "hessian_matches_moonc_hessian": same},
          open("results.json", "w"), indent=2)
PY

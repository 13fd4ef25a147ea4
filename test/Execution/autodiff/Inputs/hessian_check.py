"""Checks `moonc hessian FILE --entry ENTRY --args ARGS` against central
finite differences of `moonc grad` (step 1e-5 * max(1, |x_j|) in each
coordinate): every entry within 1e-5 * max(1, |H|) (relative to the
largest entry), the Hessian symmetric to 1e-9 of it, and the value and
gradient equal to `moonc grad`'s. Prints one line; exits 1 on a failure.

usage: hessian_check.py MOONC FILE ENTRY ARGS_JSON
"""
import json
import subprocess
import sys

moonc, path, entry, args = sys.argv[1:5]


def moonc_json(command, arguments):
    run = subprocess.run(
        [moonc, command, path, "--entry", entry, "--args", json.dumps(arguments)],
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        sys.exit(f"moonc {command} failed:\n{run.stderr}")
    return json.loads(run.stdout)


def flatten(value):
    if isinstance(value, list):
        return [x for v in value for x in flatten(v)]
    return [] if value is None else [value]


def coordinates(arguments):
    """(argument index, path) of every float coordinate, in order."""
    found = []

    def walk(value, where):
        if isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, where + [i])
        elif isinstance(value, float):
            found.append(where)

    for i, a in enumerate(arguments):
        walk(a, [i])
    return found


def moved(arguments, where, delta):
    copy = json.loads(json.dumps(arguments))
    holder = copy
    for i in where[:-1]:
        holder = holder[i]
    holder[where[-1]] += delta
    return copy


arguments = json.loads(args)
result = moonc_json("hessian", arguments)
grad = moonc_json("grad", arguments)
hessian = result["hessian"]
n = len(hessian)
failures = []
if result["value"] != grad["value"] or result["gradient"] != grad["gradient"]:
    failures.append("value or gradient differs from moonc grad")
scale = max([1.0] + [abs(h) for row in hessian for h in row])
for j, where in enumerate(coordinates(arguments)):
    x = arguments
    for i in where:
        x = x[i]
    step = 1e-5 * max(1.0, abs(x))
    up = flatten(moonc_json("grad", moved(arguments, where, step))["gradient"])
    down = flatten(moonc_json("grad", moved(arguments, where, -step))["gradient"])
    for i in range(n):
        estimate = (up[i] - down[i]) / (2 * step)
        if abs(estimate - hessian[i][j]) > 1e-5 * scale:
            failures.append(f"H[{i}][{j}] = {hessian[i][j]}, finite differences {estimate}")
for i in range(n):
    for j in range(i):
        if abs(hessian[i][j] - hessian[j][i]) > 1e-9 * scale:
            failures.append(f"H[{i}][{j}] = {hessian[i][j]} but H[{j}][{i}] = {hessian[j][i]}")
verdict = "ok" if not failures else "FAIL: " + "; ".join(failures[:5])
print(f"hessian @{entry}: {n}x{n}: {verdict}")
sys.exit(1 if failures else 0)

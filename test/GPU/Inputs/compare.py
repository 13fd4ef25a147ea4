"""Compares two JSON outputs of moonc (the GPU's and the CPU's): every
number at the same place must agree within a relative tolerance (given
first), relative to the larger magnitude, with an absolute floor of the
tolerance itself for values near zero. Prints `match` or the first
mismatch and exits 1."""

import json
import sys


def leaves(value, path="$"):
    if isinstance(value, dict):
        for key in sorted(value):
            yield from leaves(value[key], f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, f"{path}[{index}]")
    else:
        yield path, value


def main():
    tolerance = float(sys.argv[1])
    with open(sys.argv[2]) as f:
        gpu = list(leaves(json.load(f)))
    with open(sys.argv[3]) as f:
        cpu = list(leaves(json.load(f)))
    if [p for p, _ in gpu] != [p for p, _ in cpu]:
        print("mismatch: the outputs have different shapes")
        return 1
    for (path, a), (_, b) in zip(gpu, cpu):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            scale = max(abs(a), abs(b), 1.0)
            if abs(a - b) > tolerance * scale:
                print(f"mismatch at {path}: gpu {a} cpu {b}")
                return 1
        elif a != b:
            print(f"mismatch at {path}: gpu {a} cpu {b}")
            return 1
    print(f"match ({len(gpu)} values)")
    return 0


sys.exit(main())

"""Compares two JSON outputs of moonc (`grad`, `run`, ...) number by number:
exits 1, naming the first difference, unless every number agrees to a
relative tolerance (default 1e-12) and the structures are the same.

Usage: same_json.py A.json B.json [RTOL]
"""

import json
import sys


def compare(a, b, rtol, path="$"):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if abs(a - b) > rtol * max(abs(a), abs(b)):
            sys.exit(f"{path}: {a!r} != {b!r}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            compare(x, y, rtol, f"{path}[{i}]")
    elif isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        for k in a:
            compare(a[k], b[k], rtol, f"{path}.{k}")
    elif a != b:
        sys.exit(f"{path}: {a!r} != {b!r}")


def main():
    with open(sys.argv[1]) as fa, open(sys.argv[2]) as fb:
        a, b = json.load(fa), json.load(fb)
    compare(a, b, float(sys.argv[3]) if len(sys.argv) > 3 else 1e-12)


if __name__ == "__main__":
    main()

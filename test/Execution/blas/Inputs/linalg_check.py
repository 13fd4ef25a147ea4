"""Checks moonc's output for examples/blas against plain-Python linear
algebra (Gauss-Jordan with partial pivoting), to a relative 1e-10.

    linalg_check.py inv  A.json < `moonc run inv.mlir --entry inv` output
    linalg_check.py det  A.json < `moonc grad det.mlir` output

`inv`: the argument after the call is A^-1. `det`: the value is det(A) and
the gradient det(A) A^-T. Prints OK or what differs, and exits nonzero
then."""
import json
import sys


def inverse_and_det(a):
    n = len(a)
    m = [row[:] + [float(i == j) for j in range(n)] for i, row in enumerate(a)]
    det = 1.0
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if p != c:
            m[c], m[p] = m[p], m[c]
            det = -det
        det *= m[c][c]
        pivot = m[c][c]
        m[c] = [x / pivot for x in m[c]]
        for r in range(n):
            if r != c:
                f = m[r][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [row[n:] for row in m], det


def close(x, y, scale):
    return abs(x - y) <= 1e-10 * max(1.0, scale)


def main():
    mode, path = sys.argv[1], sys.argv[2]
    a = json.load(open(path))[0]
    out = json.load(sys.stdin)
    inv, det = inverse_and_det(a)
    n = len(a)
    if mode == "inv":
        got = out["args"][0]
        want = inv
    else:
        if not close(out["value"], det, abs(det)):
            sys.exit(f"det: got {out['value']}, want {det}")
        got = out["gradient"][0]
        want = [[det * inv[j][i] for j in range(n)] for i in range(n)]
    scale = max(abs(x) for row in want for x in row)
    for i in range(n):
        for j in range(n):
            if not close(got[i][j], want[i][j], scale):
                sys.exit(f"{mode}[{i}][{j}]: got {got[i][j]}, want {want[i][j]}")
    print("OK")


main()

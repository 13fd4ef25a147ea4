#!/usr/bin/env python3
"""The comparison table of `all.sh`'s logs (LOGDIR/moonc/*.jsonl and
LOGDIR/jax/*.jsonl): per eval, at its largest default size (the last one the
eval sends), moonc's derivative ÷ primal ratio and times beside JAX's from
the same run and the best ratio in GradBench's published nightly results
(../shared/ANCHORS.md: 2026-03-14, GitHub runners), then summarize.py's
table of every size.

usage: table.py LOGDIR"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import summarize  # noqa: E402

# The leaders in GradBench's nightly results of 2026-03-14 (derivative time
# ÷ primal time), as ANCHORS.md records them; particle and saddle have no
# primal function, so no ratio.
PUBLISHED = {
    "ba": "9.6 (Enzyme)",
    "det": "3.5 (ad-hpp)",
    "gmm": "1.28 (JAX)",
    "ht": "~43 (CoDiPack)",
    "kmeans": "1.43 (JAX)",
    "llsq": "1.44 (Enzyme)",
    "lse": "1.2–3.5 (PyTorch, JAX)",
    "lstm": "2.1 (CoDiPack)",
    "ode": "1.59 (JAX); Enzyme 2.0",
    "particle": "none (no primal)",
    "saddle": "none (no primal)",
}


def largest(path):
    """(module, size, {function: (median ns, calls)}, valid, total) for the
    last size of one log."""
    module, order, rows, _, _ = summarize.read(path)
    valid = sum(sum(r.get("valid", [])) for r in rows.values())
    total = sum(len(r.get("valid", [])) for r in rows.values())
    if not order:
        return module, "-", {}, valid, total
    return module, order[-1], rows[order[-1]], valid, total


def ratio(row):
    """(primal ms, derivative ms, ratio) of a row, or None."""
    pair = next((p for p in summarize.PAIRS if p[0] in row), None)
    if not pair or not row.get(pair[0]) or not row.get(pair[1]):
        return None
    p, d = row[pair[0]][0] / 1e6, row[pair[1]][0] / 1e6
    return p, d, d / p


def main():
    logdir = sys.argv[1]
    jax = {}
    for path in sorted(glob.glob(os.path.join(logdir, "jax", "*.jsonl"))):
        module, size, row, valid, total = largest(path)
        jax[module] = (size, ratio(row), valid, total)
    print("| eval | largest default size | moonc primal ms | moonc derivative ms | moonc ratio "
          "| JAX primal ms | JAX derivative ms | JAX ratio | best published ratio | moonc valid |")
    print("|---" * 10 + "|")
    for path in sorted(glob.glob(os.path.join(logdir, "moonc", "*.jsonl"))):
        module, size, row, valid, total = largest(path)
        r = ratio(row)
        if r:
            ours = f"{r[0]:.4g} | {r[1]:.4g} | {r[2]:.2f}"
        else:
            times = ", ".join(f"{f} {t[0] / 1e6:.3g}" for f, t in row.items() if f != "valid" and t)
            ours = f"- | {times} | -"
        theirs = "- | - | -"
        if module in jax and jax[module][1]:
            p, d, q = jax[module][1]
            theirs = f"{p:.4g} | {d:.4g} | {q:.2f}"
        print(f"| {module} | {size} | {ours} | {theirs} | {PUBLISHED.get(module, '?')} "
              f"| {valid}/{total} |")
    for tool in ("moonc", "jax"):
        print(f"\n# Every size: {tool}\n")
        sys.argv = ["summarize.py"] + sorted(glob.glob(os.path.join(logdir, tool, "*.jsonl")))
        summarize.main()


if __name__ == "__main__":
    main()

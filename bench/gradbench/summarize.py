#!/usr/bin/env python3
"""Summarize forward.py logs: per eval and size, the median `evaluate`
timing of the primal function (primal, objective or cost) and of the
derivative (gradient, jacobian or dir), their ratio, and the evals'
validation. Evals without a primal function (saddle and particle: four
nestings of derivatives) get one column per function instead.

usage: summarize.py LOG...

Logs of the same eval (named by their `define` message's module), from
repeated runs, are combined: each size's time is then the median over the
runs of each run's median (the calls of all runs counted), which keeps one
run's excursion on a noisy machine out of the table, and the validations of
all runs are counted."""
import json
import statistics
import sys


def read(path):
    """One log: (module, sizes in order, {size: {function: (median, calls)
    or None, "valid": [bool...]}}, failures, compile times)."""
    byid, rows, order, fails, compile_ms = {}, {}, [], [], []
    module = None
    for line in open(path):
        r = json.loads(line)
        m, resp = r["message"], r["response"]
        byid[m["id"]] = m
        if m["kind"] == "define":
            module = m.get("module")
            compile_ms += [t["nanoseconds"] / 1e6 for t in resp.get("timings") or []]
        elif m["kind"] == "evaluate":
            d = m.get("description", "")
            if d not in rows:
                rows[d] = {}
                order.append(d)
            if resp.get("success"):
                ts = [t["nanoseconds"] for t in resp.get("timings", []) if t["name"] == "evaluate"]
                rows[d][m["function"]] = (statistics.median(ts), len(ts))
            else:
                rows[d][m["function"]] = None
                fails.append((d, m["function"], resp.get("error")))
        elif m["kind"] == "analysis":
            of = byid[m["of"]]
            d = of.get("description", "")
            rows[d].setdefault("valid", []).append(m["valid"])
            if not m["valid"]:
                fails.append((d, of["function"], m.get("error")))
    return module or path, order, rows, fails, compile_ms


# The primal and derivative functions of the evals that have both.
PAIRS = [("primal", "gradient"), ("objective", "jacobian"), ("cost", "dir")]


def combine(timings):
    """The median of the runs' medians and the calls of all runs, or None
    when a run failed."""
    if not timings or any(t is None for t in timings):
        return None
    return statistics.median(t[0] for t in timings), sum(t[1] for t in timings)


def main():
    evals = {}
    for path in sys.argv[1:]:
        module, order, rows, fails, compile_ms = read(path)
        evals.setdefault(module, []).append((path, order, rows, fails, compile_ms))
    for module, logs in evals.items():
        order = logs[0][1]
        valid = sum(sum(r.get("valid", [])) for _, _, rows, _, _ in logs for r in rows.values())
        total = sum(len(r.get("valid", [])) for _, _, rows, _, _ in logs for r in rows.values())
        compile_ms = [c for log in logs for c in log[4]]
        print(f"## {module}\n")
        print(f"{len(logs)} run(s): {', '.join(log[0] for log in logs)}; compile ms {compile_ms}; "
              f"analyses valid={valid} invalid={total - valid}\n")
        fmt = lambda x: f"{x[0]/1e6:.4g} ({x[1]})" if x else "FAIL"
        functions = [f for f in logs[0][2][order[0]] if f != "valid"] if order else []
        pair = next((p for p in PAIRS if p[0] in functions), None)
        if pair:
            print("| size | primal ms (calls) | deriv ms (calls) | ratio | valid |")
            print("|---|---|---|---|---|")
        else:
            print(f"| size | {' | '.join(f + ' ms (calls)' for f in functions)} | valid |")
            print("|---" * (len(functions) + 2) + "|")
        for d in order:
            per_run = [log[2].get(d, {}) for log in logs]
            v = [x for r in per_run for x in r.get("valid", [])]
            if pair:
                p = combine([r.get(pair[0]) for r in per_run])
                g = combine([r.get(pair[1]) for r in per_run])
                ratio = f"{g[0]/p[0]:.2f}" if p and g else "-"
                print(f"| {d} | {fmt(p)} | {fmt(g)} | {ratio} | {sum(v)}/{len(v)} |")
            else:
                times = [fmt(combine([r.get(f) for r in per_run])) for f in functions]
                print(f"| {d} | {' | '.join(times)} | {sum(v)}/{len(v)} |")
        print()
        for log in logs:
            for f in log[3]:
                print("FAIL:", log[0], f)


if __name__ == "__main__":
    main()

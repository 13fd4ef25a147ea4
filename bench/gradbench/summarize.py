#!/usr/bin/env python3
"""Summarize a forward.py log: per description, median evaluate timing of
primal/objective and gradient/jacobian, ratio, and analysis validity."""
import json, statistics, sys
for path in sys.argv[1:]:
    recs = [json.loads(l) for l in open(path)]
    byid = {}
    rows = {}
    order = []
    valid = invalid = 0
    fails = []
    for r in recs:
        m, resp = r["message"], r["response"]
        byid[m["id"]] = m
        if m["kind"] == "evaluate":
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
            if m["valid"]: valid += 1
            else:
                invalid += 1
                fails.append((d, of["function"], m.get("error")))
        elif m["kind"] == "define":
            print(f"# define success={resp.get('success')} compile_ms=" +
                  str([t['nanoseconds']/1e6 for t in resp.get('timings') or []]))
    print(f"# {path}: analyses valid={valid} invalid={invalid}")
    print("| size | primal ms (runs) | deriv ms (runs) | ratio | valid |")
    print("|---|---|---|---|---|")
    for d in order:
        row = rows[d]
        p = row.get("primal") or row.get("objective")
        g = row.get("gradient") or row.get("jacobian")
        fmt = lambda x: f"{x[0]/1e6:.4g} ({x[1]})" if x else "FAIL"
        ratio = f"{g[0]/p[0]:.2f}" if p and g else "-"
        v = row.get("valid", [])
        print(f"| {d} | {fmt(p)} | {fmt(g)} | {ratio} | {sum(v)}/{len(v)} |")
    for f in fails:
        print("FAIL:", f)

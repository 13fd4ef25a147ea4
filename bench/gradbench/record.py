#!/usr/bin/env python3
"""Turns a conversation that forward.py logged with --full into a lit test's
inputs: the eval's messages (NAME.jsonl, one a line, every evaluate asking
for one run) and, unless --no-expected, the outputs of GradBench's C++
reference tool `manual` for each evaluate message (NAME.expected.json,
message id to output, what test/Tools/moonc/gradbench/Inputs/compare.py
reads). Run with GB_ROOT set to a GradBench work tree made by setup.sh, in
the virtualenv setup.sh made.

usage: record.py LOG OUT_PREFIX [--no-expected]"""
import json
import os
import sys


def main():
    log, prefix = sys.argv[1], os.path.abspath(sys.argv[2])
    messages = [json.loads(line)["message"] for line in open(log)]
    for m in messages:
        if m["kind"] == "evaluate":
            m["input"] |= {"min_runs": 1, "min_seconds": 0}
    with open(prefix + ".jsonl", "w") as out:
        for m in messages:
            out.write(json.dumps(m) + "\n")
    if "--no-expected" in sys.argv:
        return
    os.chdir(os.environ["GB_ROOT"])
    from gradbench import cpp

    expected = {}
    for m in messages:
        if m["kind"] == "evaluate":
            response = cpp.evaluate(
                tool="manual", module=m["module"], function=m["function"], input=m["input"]
            )
            assert response["success"], response
            expected[str(m["id"])] = response["output"]
    with open(prefix + ".expected.json", "w") as out:
        json.dump(expected, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Minimal stand-in for GradBench's intermediary.

Starts the eval and the tool, forwards each eval stdout line to the tool's
stdin and each tool stdout line back to the eval's stdin, one at a time, and
logs the conversation as JSONL: {"message": ..., "response": ..., "elapsed_ns": ...}.
Large "input" (message) and "output" (response) payloads are truncated in the log (--full keeps them).

usage: forward.py LOG [--full] -- EVAL_CMD... -- TOOL_CMD...
(eval runs with cwd = GradBench work tree, given by $GB_ROOT)
"""
import json
import os
import subprocess
import sys
import time


def shrink(v, full):
    if full:
        return v
    if isinstance(v, list):
        if len(v) > 8:
            return [shrink(x, full) for x in v[:4]] + [f"...({len(v)} items)"]
        return [shrink(x, full) for x in v]
    if isinstance(v, dict):
        return {k: shrink(x, full) for k, x in v.items()}
    if isinstance(v, str) and len(v) > 4000:
        return v[:4000] + "...(truncated)"
    return v


def main():
    argv = sys.argv[1:]
    log_path = argv.pop(0)
    full = False
    if argv and argv[0] == "--full":
        full = True
        argv.pop(0)
    assert argv[0] == "--"
    argv = argv[1:]
    sep = argv.index("--")
    eval_cmd, tool_cmd = argv[:sep], argv[sep + 1 :]
    root = os.environ.get("GB_ROOT", ".")
    ev = subprocess.Popen(eval_cmd, cwd=root, stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True, bufsize=1)
    tool = subprocess.Popen(tool_cmd, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)
    rc = 0
    with open(log_path, "w") as log:
        while True:
            line = ev.stdout.readline()
            if line == "":
                break
            msg = json.loads(line)
            kind = msg.get("kind")
            desc = msg.get("description", "")
            if kind == "end":
                break
            t0 = time.perf_counter_ns()
            tool.stdin.write(line if line.endswith("\n") else line + "\n")
            tool.stdin.flush()
            resp_line = tool.stdout.readline()
            elapsed = time.perf_counter_ns() - t0
            if resp_line == "":
                print(f"tool closed stdout after message {msg.get('id')}", file=sys.stderr)
                rc = 1
                break
            resp = json.loads(resp_line)
            lmsg = dict(msg)
            if "input" in lmsg:
                lmsg["input"] = shrink(lmsg["input"], full)
            lresp = dict(resp)
            if "output" in lresp:
                lresp["output"] = shrink(lresp["output"], full)
            log.write(json.dumps({"message": lmsg,
                                  "response": lresp,
                                  "elapsed_ns": elapsed}) + "\n")
            log.flush()
            # progress on stderr
            extra = ""
            if kind == "evaluate":
                ts = [t["nanoseconds"] for t in resp.get("timings") or [] if t["name"] == "evaluate"]
                extra = f" {msg.get('function')} {desc} success={resp.get('success')} runs={len(ts)}"
                if not resp.get("success"):
                    extra += f" error={resp.get('error')!r}"
            elif kind == "analysis":
                extra = f" of={msg.get('of')} valid={msg.get('valid')}"
                if not msg.get("valid"):
                    extra += f" error={msg.get('error')!r}"
            elif kind == "define":
                extra = f" success={resp.get('success')} {resp.get('error') or ''}"
            print(f"[{kind}]{extra} ({elapsed/1e9:.2f}s)", file=sys.stderr, flush=True)
            ev.stdin.write(resp_line if resp_line.endswith("\n") else resp_line + "\n")
            ev.stdin.flush()
    try:
        ev.stdin.close()
    except BrokenPipeError:
        pass
    try:
        tool.stdin.close()
    except BrokenPipeError:
        pass
    erc = ev.wait()
    trc = tool.wait()
    print(f"eval exit {erc}, tool exit {trc}", file=sys.stderr)
    sys.exit(rc or erc or trc)


if __name__ == "__main__":
    main()

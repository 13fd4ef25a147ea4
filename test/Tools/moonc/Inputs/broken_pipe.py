"""Runs MOONC ARGS... with its standard output closed by the reader after
one byte, as `moonc ... | head -c 1` does, and checks that moonc stops
quietly (killed by SIGPIPE, or exit 0) without a panic on standard error.

usage: broken_pipe.py MOONC ARGS...
"""
import signal
import subprocess
import sys

run = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
run.stdout.read(1)
run.stdout.close()
_, err = run.communicate()
err = err.decode(errors="replace")
if run.returncode not in (0, -signal.SIGPIPE) or "panicked" in err:
    sys.exit(f"moonc exited with {run.returncode}:\n{err}")
print("quiet")

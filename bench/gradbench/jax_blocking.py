#!/usr/bin/env python3
"""GradBench's own JAX tool (python/gradbench/gradbench/tools/jax/run.py,
under GB_ROOT) with each timed call waited for: `gradbench.wrap` times the
call of a jitted function, which on JAX's CPU backend returns as soon as
the work is dispatched, so the `evaluate` timings it reports leave the
computation out (the gradient of gmm at d = 64, k = 100 "took" 0.3 ms).
Here the timed function is followed by `jax.block_until_ready`; nothing
else of the tool changes. Arguments are the tool's (`--multithreaded`)."""
import os
import runpy
import sys

import jax
from gradbench import wrap

timed = {"multiple_runs": wrap.multiple_runs, "function": wrap.function}


def blocking(decorate):
    """`decorate` (one of gradbench.wrap's decorators) around a function
    that waits for its result."""

    def with_options(**options):
        def decorator(function):
            return decorate(**options)(lambda x: jax.block_until_ready(function(x)))

        return decorator

    return with_options


for name, decorate in timed.items():
    setattr(wrap, name, blocking(decorate))

tool = os.path.join(os.environ["GB_ROOT"], "python/gradbench/gradbench/tools/jax/run.py")
sys.path.insert(0, os.path.dirname(tool))
sys.argv = [tool] + sys.argv[1:]
runpy.run_path(tool, run_name="__main__")

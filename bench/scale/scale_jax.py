"""JAX's twin of bench/scale/scale.cpp: the same workloads on the same inputs, one per process.

Usage: scale_jax.py chain N | mlp L

Prints one JSON object: {"system": "jax", "workload", "size", "first_ms", "warm_ms"}. The first
call includes tracing and XLA's compile (JAX's persistent compilation cache is off unless the
environment turns it on); warm_ms is the median of the warm calls (at least 5, and at least
0.2 s of them), each with block_until_ready.
"""

import json
import math
import statistics
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np


def first_and_warm(call):
    t0 = time.perf_counter()
    call()
    first = (time.perf_counter() - t0) * 1e3
    warm = []
    start = time.perf_counter()
    while len(warm) < 5 or time.perf_counter() - start < 0.2:
        t = time.perf_counter()
        call()
        warm.append((time.perf_counter() - t) * 1e3)
    return first, statistics.median(warm)


def pattern(shape, seed):
    """0.1 * cos(0.37 * i + seed) in float32, the C++ side's inputs."""
    n = math.prod(shape)
    i = np.arange(n, dtype=np.float64)
    return jnp.asarray((0.1 * np.cos(0.37 * i + seed)).astype(np.float32).reshape(shape))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: scale_jax.py chain N | mlp L")
    workload, size = sys.argv[1], int(sys.argv[2])
    if workload == "chain":

        @jax.jit
        def f(y):
            for _ in range(size):
                y = jnp.sin(y) * 0.5 + y
            return y

        x = jnp.ones((65536,), jnp.float32)
        first, warm = first_and_warm(lambda: f(x).block_until_ready())
    elif workload == "mlp":
        ws = [pattern((64, 64), l + 1) for l in range(size)]
        x = pattern((32, 64), 0)

        def loss(w, h):
            for wl in w:
                h = jnp.tanh(h @ wl)
            return jnp.sum(h * h)

        g = jax.jit(jax.grad(loss))
        first, warm = first_and_warm(lambda: g(ws, x)[0].block_until_ready())
    else:
        sys.exit(f"scale_jax.py: unknown workload {workload}")
    print(json.dumps({"system": "jax", "workload": workload, "size": size,
                      "first_ms": first, "warm_ms": warm}))


if __name__ == "__main__":
    main()

"""JAX jit on bench/sort_scan.cpp's rows: cumsum of f32[16M] and sort of f32[1M], same inputs.

Prints one line per row, "name median_ms", and writes them as JSON to the path given (default
bench/results/sort_scan_jax.json). The median of 15 timed calls after 3 warm ones, each call
waited for with block_until_ready.
"""
import json
import os
import sys
import time

import numpy as np

os.environ.setdefault("XLA_FLAGS", "")
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402


def inputs(n):
    # The same LCG as bench/sort_scan.cpp: the top 24 bits as a float in [-1, 1).
    mask = (1 << 64) - 1
    s = 12345
    out = np.empty(n, dtype=np.float32)
    a, c = 6364136223846793005, 1442695040888963407
    for i in range(n):
        s = (s * a + c) & mask
        out[i] = np.float32(s >> 40) * np.float32(2.0**-23) - np.float32(1.0)
    return out


def fast_inputs(n):
    # Vectorized form of inputs(): the LCG stepped in uint64 numpy arithmetic (wrapping).
    a, c = np.uint64(6364136223846793005), np.uint64(1442695040888963407)
    s = np.empty(n, dtype=np.uint64)
    x = np.uint64(12345)
    # jump-ahead in blocks keeps this O(n) in numpy without a Python loop per element
    block = 1 << 12
    mult = np.empty(block, dtype=np.uint64)
    add = np.empty(block, dtype=np.uint64)
    m, k = np.uint64(1), np.uint64(0)
    with np.errstate(over="ignore"):
        for i in range(block):
            m, k = m * a, k * a + c
            mult[i], add[i] = m, k
        for start in range(0, n, block):
            cnt = min(block, n - start)
            s[start:start + cnt] = mult[:cnt] * x + add[:cnt]
            x = s[start + cnt - 1]
    return ((s >> np.uint64(40)).astype(np.float32) * np.float32(2.0**-23)) - np.float32(1.0)


def median_ms(f, x):
    for _ in range(3):
        f(x).block_until_ready()
    t = []
    for _ in range(15):
        t0 = time.perf_counter()
        f(x).block_until_ready()
        t.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(t))


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else "bench/results/sort_scan_jax.json"
    assert np.array_equal(fast_inputs(1000), inputs(1000))
    rows = {}
    c = jnp.asarray(fast_inputs(1 << 24))
    rows["sort_scan/cumsum_16M/jax_jit"] = median_ms(jax.jit(jnp.cumsum), c)
    s = jnp.asarray(fast_inputs(1 << 20))
    rows["sort_scan/sort_1M/jax_jit"] = median_ms(jax.jit(jnp.sort), s)
    for k, v in rows.items():
        print(f"{k} {v:.3f}")
    meta = {"jax": jax.__version__, "devices": str(jax.devices())}
    with open(out_path, "w") as fh:
        json.dump({"rows_ms": rows, "meta": meta}, fh, indent=1)


if __name__ == "__main__":
    main()

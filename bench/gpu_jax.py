"""JAX jit on the GPU, on bench/gpu.cpp's rows with the same inputs (x = arange(n)/n - 0.5, f32):
selu and sum(x**2 + sin x) at 64M, matmul 4096, and a warm call on 1024 floats with and without
the wait. Run it on the same GPU in the same session as bench_gpu, and compare as ratios.

Prints one line per row, "name median_us", and writes them as JSON to the path given (default
bench/results/gpu_jax.json). Kernel rows are waited for, so they include one dispatch (a few
microseconds against milliseconds of kernel).
"""
import json
import sys
import time

import numpy as np

import jax
import jax.numpy as jnp


def median_us(f, *args, reps=30, wait=True):
    for _ in range(3):
        jax.block_until_ready(f(*args))
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        y = f(*args)
        if wait:
            jax.block_until_ready(y)
        t.append((time.perf_counter() - t0) * 1e6)
    jax.block_until_ready(y)
    return float(np.median(t))


def iota(n):
    return jnp.arange(n, dtype=jnp.float32) * np.float32(1.0 / n) - np.float32(0.5)


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else "bench/results/gpu_jax.json"
    rows = {"device": str(jax.devices()[0])}
    x = iota(64 << 20)
    rows["copy_64m"] = median_us(jax.jit(lambda t: t + 0.0), x)  # XLA keeps one pass: the floor
    rows["selu_64m"] = median_us(
        jax.jit(lambda t: 1.05 * jnp.where(t > 0, t, 1.67 * jnp.exp(t) - 1.67)), x)
    rows["sum_sq_sin_64m"] = median_us(jax.jit(lambda t: jnp.sum(t * t + jnp.sin(t))), x)
    n = 4096
    a = iota(n * n).reshape(n, n)
    rows["matmul_4096"] = median_us(jax.jit(jnp.matmul), a, a)
    small = iota(1024)
    f = jax.jit(lambda t: t * 2.0 + 1.0)
    rows["warm_launch_nowait"] = median_us(f, small, reps=2000, wait=False)
    rows["warm_launch_wait"] = median_us(f, small, reps=2000)
    for k, v in rows.items():
        print(k, v)
    with open(out_path, "w") as fh:
        json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()

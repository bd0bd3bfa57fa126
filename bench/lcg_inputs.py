"""What the JAX benchmark scripts share with their C++ rows: the LCG the C++ side draws its
inputs from (bench/sort_scan.cpp, bench/index_linalg.cpp), vectorized, and a median timer."""
import time

import numpy as np

import jax

A, C, MASK = 6364136223846793005, 1442695040888963407, (1 << 64) - 1


def lcg(n, seed):
    """The states x_1..x_n of x_{k+1} = A x_k + C mod 2^64, x_0 = seed, stepped in uint64 numpy
    arithmetic (wrapping) by jumping ahead in blocks: O(n) without a Python loop per element."""
    a, c = np.uint64(A), np.uint64(C)
    out = np.empty(n, dtype=np.uint64)
    block = 1 << 12
    mult = np.empty(block, dtype=np.uint64)
    add = np.empty(block, dtype=np.uint64)
    m, k = np.uint64(1), np.uint64(0)
    with np.errstate(over="ignore"):
        for i in range(block):
            m, k = m * a, k * a + c
            mult[i], add[i] = m, k
        x = np.uint64(seed)
        for start in range(0, n, block):
            cnt = min(block, n - start)
            out[start:start + cnt] = mult[:cnt] * x + add[:cnt]
            x = out[start + cnt - 1]
    return out


def check_lcg():
    """lcg() against the plain loop, as the C++ side runs it."""
    s, want = 7, []
    for _ in range(5000):
        s = (s * A + C) & MASK
        want.append(s)
    assert np.array_equal(lcg(5000, 7), np.array(want, dtype=np.uint64))


def uniform(shape, seed):
    """f32 in [-1, 1) from each state's top 24 bits, as the C++ rows make them."""
    x = lcg(int(np.prod(shape)), seed)
    return ((x >> np.uint64(40)).astype(np.float32) * np.float32(2.0**-23)
            - np.float32(1)).reshape(shape)


def median_ms(f, *args):
    """The median of 15 timed calls after 3 warm ones, each waited for."""
    for _ in range(3):
        jax.block_until_ready(f(*args))
    t = []
    for _ in range(15):
        t0 = time.perf_counter()
        jax.block_until_ready(f(*args))
        t.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(t))

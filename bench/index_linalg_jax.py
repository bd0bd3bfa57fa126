"""JAX jit on bench/index_linalg.cpp's rows, same inputs: a scatter-add histogram (1M i32
indices into 65536 f32 bins), an einsum attention block (q, k, v f32[8,512,64]) and cho_solve of
cho_factor (an SPD f64[512,512], b f64[512]).

Prints one line per row, "name median_ms", and writes them as JSON to the path given (default
bench/results/index_linalg_jax.json). The median of 15 timed calls after 3 warm ones.
"""
import json
import sys
import time

import numpy as np

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl

jax.config.update("jax_enable_x64", True)
A, C, MASK = 6364136223846793005, 1442695040888963407, (1 << 64) - 1


def lcg(n, seed):
    """bench/index_linalg.cpp's LCG, vectorized by jumping ahead in blocks (uint64 wraps)."""
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


def lcg_slow(n, seed):
    s, out = seed, []
    for _ in range(n):
        s = (s * A + C) & MASK
        out.append(s)
    return np.array(out, dtype=np.uint64)


def median_ms(f, *args):
    for _ in range(3):
        jax.block_until_ready(f(*args))
    t = []
    for _ in range(15):
        t0 = time.perf_counter()
        jax.block_until_ready(f(*args))
        t.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(t))


def uniform(shape, seed):
    x = lcg(int(np.prod(shape)), seed)
    return ((x >> np.uint64(40)).astype(np.float32) * np.float32(2.0**-23) - np.float32(1)).reshape(shape)


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else "bench/results/index_linalg_jax.json"
    assert np.array_equal(lcg(100, 7), lcg_slow(100, 7))
    rows = {}
    idx = jnp.asarray(((lcg(1 << 20, 7) >> np.uint64(33)) % np.uint64(65536)).astype(np.int32))
    zeros = jnp.zeros(65536, jnp.float32)
    rows["index_linalg/scatter_add_1M_64k/jax_jit"] = median_ms(
        jax.jit(lambda z, i: z.at[i].add(1.0)), zeros, idx)

    def attention(q, k, v):
        s = jnp.einsum("bqd,bkd->bqk", q, k) / 8.0
        e = jnp.exp(s - jnp.max(s, axis=2, keepdims=True))
        return jnp.einsum("bqk,bkd->bqd", e / jnp.sum(e, axis=2, keepdims=True), v)

    q, k, v = (jnp.asarray(uniform((8, 512, 64), s)) for s in (1, 2, 3))
    rows["index_linalg/einsum_attention/jax_jit"] = median_ms(jax.jit(attention), q, k, v)
    n = 512
    m = ((lcg(n * n, 11) >> np.uint64(11)).astype(np.float64) * 2.0**-53 - 0.5).reshape(n, n)
    a = m @ m.T / n + np.eye(n)
    b = m[:, 0].copy()
    solve = jax.jit(lambda a, b: jsl.cho_solve(jsl.cho_factor(a), b))
    x = solve(a, b)
    assert np.linalg.norm(a @ np.asarray(x) - b) < 1e-10 * np.linalg.norm(b)
    rows["index_linalg/cholesky_solve_512/jax_jit"] = median_ms(solve, jnp.asarray(a), jnp.asarray(b))
    for name, ms in rows.items():
        print(f"{name} {ms:.3f}")
    with open(out_path, "w") as fh:
        json.dump({"rows_ms": rows, "meta": {"jax": jax.__version__}}, fh, indent=1)


if __name__ == "__main__":
    main()

"""JAX jit on bench/index_linalg.cpp's rows, same inputs: a scatter-add histogram (1M i32
indices into 65536 f32 bins), an einsum attention block (q, k, v f32[8,512,64]) and cho_solve of
cho_factor (an SPD f64[512,512], b f64[512]), and jnp.linalg.solve of the same a against
b f64[16,512,4].

Prints one line per row, "name median_ms", and writes them as JSON to the path given (default
bench/results/index_linalg_jax.json). Timing and inputs: bench/lcg_inputs.py.
"""
import json
import sys

import numpy as np

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl

from lcg_inputs import check_lcg, lcg, median_ms, uniform

jax.config.update("jax_enable_x64", True)


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else "bench/results/index_linalg_jax.json"
    check_lcg()
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
    bs = jnp.asarray(uniform((16, n, 4), 5), jnp.float64)
    rows["index_linalg/solve_shared_a_512/jax_jit"] = median_ms(
        jax.jit(jnp.linalg.solve), jnp.asarray(a), bs)
    for name, ms in rows.items():
        print(f"{name} {ms:.3f}")
    with open(out_path, "w") as fh:
        json.dump({"rows_ms": rows, "meta": {"jax": jax.__version__}}, fh, indent=1)


if __name__ == "__main__":
    main()

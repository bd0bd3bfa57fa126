"""JAX jit on bench/sort_scan.cpp's rows: cumsum of f32[16M] and sort of f32[1M], same inputs.

Prints one line per row, "name median_ms", and writes them as JSON to the path given (default
bench/results/sort_scan_jax.json). Timing and inputs: bench/lcg_inputs.py.
"""
import json
import sys

import jax
import jax.numpy as jnp

from lcg_inputs import check_lcg, median_ms, uniform


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else "bench/results/sort_scan_jax.json"
    check_lcg()
    rows = {}
    c = jnp.asarray(uniform((1 << 24,), 12345))
    rows["sort_scan/cumsum_16M/jax_jit"] = median_ms(jax.jit(jnp.cumsum), c)
    s = jnp.asarray(uniform((1 << 20,), 12345))
    rows["sort_scan/sort_1M/jax_jit"] = median_ms(jax.jit(jnp.sort), s)
    for k, v in rows.items():
        print(f"{k} {v:.3f}")
    meta = {"jax": jax.__version__, "devices": str(jax.devices())}
    with open(out_path, "w") as fh:
        json.dump({"rows_ms": rows, "meta": meta}, fh, indent=1)


if __name__ == "__main__":
    main()

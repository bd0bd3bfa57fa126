# The JAX twin of bench/checkpoint_memory.cpp: the same 64-layer tanh MLP gradient, with and
# without jax.checkpoint, and XLA's own account of the compiled gradient's memory
# (memory_analysis: temporaries, and the arguments and outputs), beside the warm time.
#   python bench/checkpoint_memory_jax.py [depth] [width] [batch]
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np

depth, width, batch = (int(a) for a in (sys.argv[1:] + ["64", "256", "1024"][len(sys.argv) - 1:]))
rng = np.random.default_rng(42)
ws = [jnp.asarray(rng.normal(0, 1 / np.sqrt(width), (width, width)), jnp.float32)
      for _ in range(depth)]
x = jnp.asarray(np.cos(0.11 * np.arange(batch * width)).reshape(batch, width), jnp.float32)


def segment(part, h):
    for w in part:
        h = jnp.tanh(h @ w)
    return h


def make_loss(every):
    def loss(w, h):
        if every == 0:
            h = segment(w, h)
        else:
            for s in range(0, len(w), every):
                h = jax.checkpoint(segment)(w[s:s + every], h)
        return jnp.sum(h * h)
    return loss


print(f"grad of a {depth}-layer tanh MLP, width {width}, batch {batch}, f32 (JAX {jax.__version__})")
print(f"{'checkpoint':20} {'XLA temp MiB':>14} {'args+out MiB':>14} {'warm ms':>10}")
for every in (0, 1, round(depth ** 0.5)):
    g = jax.jit(jax.grad(make_loss(every)))
    compiled = g.lower(ws, x).compile()
    m = compiled.memory_analysis()
    jax.block_until_ready(g(ws, x))
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        jax.block_until_ready(g(ws, x))
        times.append(time.perf_counter() - t0)
    name = "none" if every == 0 else ("every layer" if every == 1 else f"every {every} layers")
    io = (m.argument_size_in_bytes + m.output_size_in_bytes) / 2**20
    print(f"{name:20} {m.temp_size_in_bytes / 2**20:14.1f} {io:14.1f} {sorted(times)[2] * 1e3:10.3f}")

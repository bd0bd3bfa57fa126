# Prints the JAX jaxprs of vmap over jits that tests/test_vmap_golden.cpp checks fusejit's text
# against: JAX batches a jit into one jit of the same name over its batched graph (unbatched
# operands, literals among them, stay as they are). From JAX 0.10.2:
#   python tests/golden/vmap_goldens.py > tests/golden/vmap_goldens.txt
import jax
import jax.numpy as jnp

x23 = jnp.ones((2, 3), jnp.float32)
sin_times = jax.jit(lambda v, w: jnp.sin(v) * w)
twice = jax.jit(lambda v: v * 2.0)
nested = jax.jit(lambda v: twice(jnp.cos(v)) + 1.0)
cases = {
    "vmap_jit_unbatched_operand": (jax.vmap(sin_times, in_axes=(0, None)), (x23, jnp.float32(2.0))),
    "vmap_jit_nested": (jax.vmap(nested), (x23,)),
    "vmap_clip": (jax.vmap(lambda v: jnp.clip(v, 0.0, 1.0)), (x23,)),
    "vmap_pad": (jax.vmap(lambda v: jnp.pad(v, (1, 2))), (x23,)),
    "vmap_pad_edge": (jax.vmap(lambda v: jnp.pad(v, (1, 2), mode="edge")), (x23,)),
    "vmap_broadcast_to": (jax.vmap(lambda v: jnp.broadcast_to(v, (4, 3))), (x23,)),
    # JAX's reducer batching shifts the axes with np.where/np.add: NumPy ints in the text.
    "vmap_reductions": (jax.vmap(lambda v: (jnp.sum(v, axis=0), jnp.max(v, axis=1),
                                            jnp.prod(v, axis=(0, 1)), jnp.any(v > 0, axis=1),
                                            jnp.argmax(v, axis=1), jnp.argmin(v, axis=0))),
                        (jnp.ones((2, 3, 4), jnp.float32),)),
}
for name, (f, args) in cases.items():
    print(f"=== {name}")
    print(jax.make_jaxpr(f)(*args))

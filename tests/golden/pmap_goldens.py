# Prints the JAX jaxprs of pmaps (a jit[name=_fun] around a shard_map, the body one device's
# view) that tests/test_pmap_jaxpr.cpp checks fusejit's text against, on 4 CPU devices. Run with
# JAX installed (pip install jax); the expected strings came from JAX 0.10.2:
#   python tests/golden/pmap_goldens.py > tests/golden/pmap_goldens.txt
import jax
import jax.numpy as jnp
from jax import lax

jax.config.update("jax_num_cpu_devices", 4)


def chain(a, b):  # 13 equations in the body: printed once on top, as `let jaxpr = ...`
    y = a * b
    for k in range(1, 11):
        y = y + float(k)
    return y


def collectives(v):
    d = lax.all_gather(v, "i", axis=1, tiled=True)
    g = lax.ppermute(v, "i", perm=[(0, 1), (1, 2)])
    return lax.pmax(v, "i"), d, g


x4 = jnp.arange(4.0)
x43 = jnp.arange(12.0).reshape(4, 3)
cases = {
    "normalize": (jax.pmap(lambda x: x / lax.psum(x, "i"), axis_name="i"), (x4,)),
    "grad_psum": (jax.pmap(jax.grad(lambda v: lax.psum(v * v, "i")), axis_name="i"), (x4,)),
    "axes_1": (jax.pmap(lambda a: a * 2, in_axes=1, out_axes=1), (x43.T,)),
    "out_none": (
        jax.pmap(lambda a: (a * 2, lax.psum(a, "i")), axis_name="i", out_axes=(0, None)),
        (x43,),
    ),
    "inside": (lambda z: jax.pmap(lambda a: a + 1)(z) * 2, (x43,)),
    "axis_index": (jax.pmap(lambda a: lax.axis_index("i"), axis_name="i"), (x43,)),
    "chain": (jax.pmap(chain, in_axes=(0, None)), (x43, jnp.array([2.0, 3.0, 4.0]))),
    "collectives": (jax.pmap(collectives, axis_name="i"), (jnp.arange(24.0).reshape(4, 2, 3),)),
    "grad_sin_square": (jax.grad(lambda v: jnp.sin(v * v)), (1.0,)),
}
for name, (f, args) in cases.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(*args))

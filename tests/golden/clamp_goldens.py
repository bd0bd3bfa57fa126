# Prints what tests/test_clamp_golden.cpp checks fj::lax::clamp against: JAX 0.10.2's values
# (f64 and f32, exact: clamp selects one of its operands), gradients, and jaxpr text (f32) of
# the primitive, its JVP, its transpose and its batching rule.
#   python tests/golden/clamp_goldens.py > tests/golden/clamp_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np

from golden_print import print_inputs, shape_and_values

jax.config.update("jax_enable_x64", True)
nan, inf = float("nan"), float("inf")
inputs = {
    "x": np.array([[-3.0, -0.0, 0.0, 0.25, 1.0, 7.5], [nan, inf, -inf, 0.5, 2.0, -1e-300]]),
    "lo": np.array([[-1.0, 0.0, -0.0, 0.5, nan, 0.0], [0.0, 0.0, 0.0, 0.5, 3.0, 0.0]]),
    "hi": np.array([[1.0, 1.0, 1.0, 0.75, 2.0, nan], [1.0, 5.0, 5.0, 0.5, 1.0, 1.0]]),
    "xi": np.array([-5, 0, 3, 9, 2147483647, -2147483648], dtype=np.int32),
}
print_inputs(inputs)
x, lo, hi = (jnp.asarray(inputs[k]) for k in ("x", "lo", "hi"))
xi = jnp.asarray(inputs["xi"])
values = {
    "scalar_bounds": jax.lax.clamp(0.0, x, 1.0),
    "array_bounds": jax.lax.clamp(lo, x, hi),
    "mixed_bounds": jax.lax.clamp(lo, x, 0.6),
    "f32": jax.lax.clamp(lo.astype(jnp.float32), x.astype(jnp.float32), hi.astype(jnp.float32)),
    "int": jax.lax.clamp(np.int32(-2), xi, np.int32(4)),
}
for name, r in values.items():
    print(f"=== values {name}")
    print(shape_and_values(r, float).replace(" : ", "\n"))

# Gradients of sum(w * clamp(lo, x, hi)) with respect to all three (ties excluded: at x == lo
# or x == hi no operand's mask holds, so all three cotangents are 0 there).
g = np.array([[-3.0, 0.5, 0.2, 0.6, 1.5, 7.5], [0.1, 4.0, -2.0, 0.9, 2.0, -1.0]])
glo = np.array([[-1.0, 1.0, -0.5, 0.5, -1.0, 0.0], [0.0, 0.5, 0.0, 0.1, 3.0, 0.0]])
ghi = np.array([[1.0, 2.0, 1.0, 0.75, 2.0, -0.5], [1.0, 5.0, 5.0, 0.5, 2.5, 1.0]])
w = np.arange(1.0, 13.0).reshape(2, 6)
print_inputs({"g": g, "glo": glo, "ghi": ghi, "w": w})
grads = jax.grad(lambda a, b, c: jnp.sum(w * jax.lax.clamp(a, b, c)), argnums=(0, 1, 2))(
    jnp.asarray(glo), jnp.asarray(g), jnp.asarray(ghi))
for name, r in zip(("lo", "x", "hi"), grads):
    print(f"=== grad {name}")
    print(shape_and_values(r, float).replace(" : ", "\n"))

jax.config.update("jax_enable_x64", False)
f32 = jnp.float32
m = jnp.ones((2, 3), f32)
v3 = jnp.ones(3, f32)
v2 = jnp.ones(2, f32)
clamp = jax.lax.clamp
texts = {
    "clamp": (lambda x: clamp(0.0, x, 1.0), (m,)),
    "clamp_arrays": (lambda a, x, c: clamp(a, x, c), (m, m, m)),
    "grad_x": (jax.grad(lambda x: clamp(0.0, x, 1.0).sum()), (m,)),
    "grad_all": (jax.grad(lambda a, x, c: clamp(a, x, c).sum(), argnums=(0, 1, 2)), (m, m, m)),
    "grad_lo_hi": (jax.grad(lambda a, x, c: clamp(a, x, c).sum(), argnums=(0, 2)), (m, m, m)),
    "jvp": (lambda a, x, c: jax.jvp(clamp, (a, x, c), (a, x, c)), (m, m, m)),
    "jvp_x": (lambda x, t: jax.jvp(lambda y: clamp(0.0, y, 1.0), (x,), (t,)), (m, m)),
    "vmap_x": (jax.vmap(lambda x: clamp(0.0, x, 1.0)), (m,)),
    "vmap_x_unbatched_bounds": (jax.vmap(lambda a, x, c: clamp(a, x, c), in_axes=(None, 0, None)),
                                (v3, m, v3)),
    "vmap_all": (jax.vmap(lambda a, x, c: clamp(a, x, c)), (m, m, m)),
    "vmap_scalar_bounds_batched": (jax.vmap(lambda a, x, c: clamp(a, x, c)), (v2, m, v2)),
    "vmap_lo_only": (jax.vmap(lambda a, x, c: clamp(a, x, c), in_axes=(0, None, None)),
                     (v2, v3, jnp.float32(2.0))),
    "vmap_lo_scalar_x_scalar": (jax.vmap(lambda a, x, c: clamp(a, x, c), in_axes=(0, None, None)),
                                (v2, jnp.float32(1.0), jnp.float32(2.0))),
    "vmap_hi_batched_x": (jax.vmap(lambda a, x, c: clamp(a, x, c), in_axes=(None, 0, 0)),
                          (jnp.float32(0.0), m, m)),
}
for name, (f, args) in texts.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(*args))

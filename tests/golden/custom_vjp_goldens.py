# Prints what tests/test_custom_vjp.cpp checks fj::custom_vjp against: JAX 0.10.2's jaxpr text of
# a custom_vjp call, and values (f64) of its gradients under grad, vmap and jit, with a bwd that
# deliberately differs from the true derivative (so using the true one fails the test), pytree
# outputs and residuals, and nondiff_argnums.
#   python tests/golden/custom_vjp_goldens.py > tests/golden/custom_vjp_goldens.txt
import functools

import jax
import jax.numpy as jnp
import numpy as np

from golden_print import print_inputs, shape_and_values


@jax.custom_vjp
def f(x, y):
    return jnp.sin(x) * y


def f_fwd(x, y):
    return f(x, y), (jnp.cos(x), jnp.sin(x), y)


def f_bwd(res, g):
    cos_x, sin_x, y = res
    return (2.0 * cos_x * g * y, sin_x * g)  # twice the true d/dx


f.defvjp(f_fwd, f_bwd)


@jax.custom_vjp
def pair(x):
    return x * x, jnp.sum(x)


def pair_fwd(x):
    return pair(x), {"x": x}


def pair_bwd(res, g):
    gsq, gsum = g
    return (3.0 * res["x"] * gsq + gsum,)  # 3x where the true derivative has 2x


pair.defvjp(pair_fwd, pair_bwd)


@functools.partial(jax.custom_vjp, nondiff_argnums=(0,))
def clip_gradient(hi, x):
    return x


def clip_fwd(hi, x):
    return x, None


def clip_bwd(hi, _, g):
    return (jnp.clip(g, -hi, hi),)


clip_gradient.defvjp(clip_fwd, clip_bwd)

jax.config.update("jax_enable_x64", False)
m = jnp.ones(3, jnp.float32)
print("=== jaxpr call")
print(jax.make_jaxpr(f)(m, m))
print("=== jaxpr grad")
print(jax.make_jaxpr(jax.grad(lambda x, y: jnp.sum(f(x, y)), argnums=(0, 1)))(m, m))

jax.config.update("jax_enable_x64", True)
inputs = {
    "x": np.array([0.3, -1.2, 2.0]),
    "y": np.array([0.7, 0.1, -0.4]),
    "b": np.array([[0.3, -1.2, 2.0], [1.5, 0.25, -0.5]]),
}
print_inputs(inputs)
x, y, b = (jnp.asarray(inputs[k]) for k in ("x", "y", "b"))


def emit(name, tree):
    for k, leaf in enumerate(jax.tree_util.tree_leaves(tree)):
        print(f"=== {name} {k}")
        print(shape_and_values(leaf, float).replace(" : ", "\n"))


loss = lambda x, y: jnp.sum(f(x, y) ** 2)
emit("value", f(x, y))
emit("grad", jax.grad(loss, argnums=(0, 1))(x, y))
emit("grad_jit", jax.jit(jax.grad(loss))(x, y))
emit("vmap", jax.vmap(f, in_axes=(0, None))(b, y))
emit("vmap_grad", jax.vmap(jax.grad(loss), in_axes=(0, None))(b, y))
emit("grad_vmap", jax.grad(lambda b, y: jnp.sum(jax.vmap(f, in_axes=(0, None))(b, y)), argnums=(0, 1))(b, y))
emit("pair_grad", jax.grad(lambda x: jnp.sum(pair(x)[0] * y) + pair(x)[1] * 2.0)(x))
emit("clip_grad", jax.grad(lambda x: jnp.sum(clip_gradient(0.5, x) * jnp.array([3.0, -0.2, -4.0])))(x))
emit("jacrev", jax.jacrev(f)(x, y))

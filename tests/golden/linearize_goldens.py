# Prints what tests/test_linearize.cpp checks fj::linearize, fj::linear_transpose and
# fj::eval_shape against: JAX 0.10.2's values in f64.
#   python tests/golden/linearize_goldens.py > tests/golden/linearize_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np

from golden_print import print_inputs, shape_and_values

jax.config.update("jax_enable_x64", True)
inputs = {
    "x": np.array([0.3, -1.2, 2.0]),
    "t": np.array([1.0, 0.5, -2.0]),
    "a": np.array([[0.5, -0.25, 1.5], [2.0, 0.75, -1.0]]),
    "ct": np.array([0.25, -3.0]),
}
print_inputs(inputs)
x, t, a, ct = (jnp.asarray(inputs[k]) for k in ("x", "t", "a", "ct"))


def emit(name, tree):
    for k, leaf in enumerate(jax.tree_util.tree_leaves(tree)):
        print(f"=== {name} {k}")
        print(shape_and_values(leaf, float).replace(" : ", "\n"))


def f(x):
    return jnp.sin(x) * jnp.sum(x * x), jnp.exp(x[0])


y, f_jvp = jax.linearize(f, x)
emit("linearize primal", y)
emit("linearize tangent", f_jvp(t))
emit("linearize tangent2", f_jvp(2.0 * t))


def g(x, b):
    return a @ x + 3.0 * b[:2] - jnp.sum(x)


(ct_x, ct_b) = jax.linear_transpose(g, x, x)(ct)
emit("transpose x", ct_x)
emit("transpose b", ct_b)

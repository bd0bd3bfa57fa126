# Prints what tests/test_jacobian.cpp checks fj::jacfwd, jacrev, jacobian and hessian against:
# JAX 0.10.2's values in f64 (shapes and structures included) for small functions with pytrees,
# several argnums and has_aux.
#   python tests/golden/jacobian_goldens.py > tests/golden/jacobian_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np

from golden_print import print_inputs, shape_and_values

jax.config.update("jax_enable_x64", True)
inputs = {
    "x": np.array([0.3, -1.2, 2.0]),
    "y": np.array([0.7, 0.1]),
    "w": np.array([[0.5, -0.25, 1.5], [2.0, 0.75, -1.0]]),
}
print_inputs(inputs)
x, y, w = (jnp.asarray(inputs[k]) for k in ("x", "y", "w"))


def f_vec(x):  # R^3 -> R^3
    return jnp.sin(x) * jnp.sum(x * x)


def f_mat(w):  # R^{2x3} -> R^2
    return jnp.tanh(w @ x)


def f_two(x, y):  # (R^3, R^2) -> R^{2x3}
    return jnp.outer(jnp.cos(y), x) * jnp.sum(y)


def f_tree_out(x):  # R^3 -> (R^3, R)
    return (x * x, jnp.sum(jnp.exp(x)))


def f_tree_in(d):  # {'a': R^3, 'b': R^2} -> R^2
    return jnp.sum(d["a"] ** 2) * d["b"] + jnp.log1p(d["b"] ** 2)


def f_aux(x):
    return jnp.sin(x) * 2.0, jnp.sum(x)


def f_scalar(x):
    return jnp.sum(x ** 3 * jnp.sin(x))


def f_scalar2(x, y):
    return jnp.sum(jnp.exp(x)) * jnp.sum(y * y) + jnp.dot(x[:2], y)


def emit(name, tree):
    for k, leaf in enumerate(jax.tree_util.tree_leaves(tree)):
        print(f"=== {name} {k}")
        print(shape_and_values(leaf, float).replace(" : ", "\n"))


for mode, jac in (("fwd", jax.jacfwd), ("rev", jax.jacrev)):
    emit(f"{mode} vec", jac(f_vec)(x))
    emit(f"{mode} mat", jac(f_mat)(w))
    emit(f"{mode} two", jac(f_two, argnums=(0, 1))(x, y))
    emit(f"{mode} two1", jac(f_two, argnums=1)(x, y))
    emit(f"{mode} tree_out", jac(f_tree_out)(x))
    emit(f"{mode} tree_in", jac(f_tree_in)({"a": x, "b": y}))
    emit(f"{mode} aux", jac(f_aux, has_aux=True)(x))
emit("hessian scalar", jax.hessian(f_scalar)(x))
emit("hessian two", jax.hessian(f_scalar2, argnums=(0, 1))(x, y))
emit("hessian aux", jax.hessian(lambda x: (f_scalar(x), x * 2.0), has_aux=True)(x))

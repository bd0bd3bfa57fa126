# Prints what tests/test_linalg_solve.cpp checks lax.linalg.lu (and the functions staged on it)
# against: JAX 0.10.2's values and gradients (f64) and jaxpr text (f32):
#   python tests/golden/solve_goldens.py > tests/golden/solve_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

jax.config.update("jax_enable_x64", True)
rng = np.random.default_rng(19)


def text(v):
    v = np.asarray(v)
    return " ".join("nan" if np.isnan(x) else float(x).hex() for x in v.ravel())


# Random normal matrices: distinct magnitudes in every column, so each pivot is unambiguous.
# singular: a rank-2 3x3 matrix whose second column is exactly twice the first (zero on U's
# diagonal, as getrf leaves it); big: blocked factorization (Eigen blocks panels above 16).
inputs = {
    "a4": rng.standard_normal((4, 4)),
    "ab": rng.standard_normal((2, 3, 3)),
    "tall": rng.standard_normal((5, 3)),
    "wide": rng.standard_normal((3, 5)),
    "singular": np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 1.0], [-1.0, -2.0, 5.0]]),
    "zeros": np.zeros((3, 3)),
    "big": rng.standard_normal((40, 40)),
    "b4": rng.standard_normal(4),
    "b42": rng.standard_normal((4, 2)),
}
for name, v in inputs.items():
    print(f"=== input {name}")
    print(" ".join(str(d) for d in v.shape))
    print(text(v))

for name in ["a4", "ab", "tall", "wide", "singular", "zeros", "big"]:
    lu, piv, perm = lax.linalg.lu(inputs[name])
    print(f"=== lu {name}")
    print(text(lu))
    print(" ".join(str(int(i)) for i in np.ravel(piv)))
    print(" ".join(str(int(i)) for i in np.ravel(perm)))

print("=== lu vmap_ab")
print(text(jax.vmap(lambda x: lax.linalg.lu(x)[0])(inputs["ab"])))

# Gradients of sum(w * f(x)), w = 1, 2, ... over f's output (as tests/weighted_grad.hpp).
def wgrad(f, x):
    y = f(x)
    w = np.arange(1.0, 1.0 + np.size(y)).reshape(np.shape(y))
    return jax.grad(lambda v: jnp.sum(w * f(v)))(x)


grads = {
    "lu_a4": (lambda a: lax.linalg.lu(a)[0], "a4"),
    "lu_ab": (lambda a: lax.linalg.lu(a)[0], "ab"),
    "lu_tall": (lambda a: lax.linalg.lu(a)[0], "tall"),
    "lu_wide": (lambda a: lax.linalg.lu(a)[0], "wide"),
}
for name, (f, x) in grads.items():
    print(f"=== grad {name}")
    print(text(wgrad(f, inputs[x])))

# Forward mode: the tangent of lu's factors along t = (1, 2, ...) / 10 in x's shape.
def tangent(x):
    return np.arange(1.0, 1.0 + np.size(x)).reshape(np.shape(x)) / 10


for name in ["a4", "tall", "wide"]:
    x = inputs[name]
    print(f"=== jvp lu_{name}")
    print(text(jax.jvp(lambda a: lax.linalg.lu(a)[0], (x,), (tangent(x),))[1]))

jax.config.update("jax_enable_x64", False)
o = jnp.ones((3, 3), jnp.float32)
ob = jnp.ones((2, 3, 4), jnp.float32)
jaxprs = {
    "lu": (lax.linalg.lu, (o,)),
    "lu_batched_wide": (lax.linalg.lu, (ob,)),
}
for name, (f, args) in jaxprs.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(*args))

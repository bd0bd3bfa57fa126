# Prints what tests/test_lax_switch_map.cpp checks fj::lax::switch_, fj::lax::map and
# fj::lax::associative_scan against: JAX 0.10.2's values and gradients, in f64, and the jaxpr
# text (f32) of associative_scan and map. Every input holds small integers or dyadic fractions,
# so each case's arithmetic is exact in f64 whatever order the additions and products are done
# in (JAX's odd/even tree, a sequential scan, either backend's kernels): the C++ test compares
# bit for bit.
#   python tests/golden/lax_switch_map_goldens.py > tests/golden/lax_switch_map_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from golden_print import print_inputs, shape_and_values

jax.config.update("jax_enable_x64", True)


def show(name, r):
    print(f"=== {name}")
    print(shape_and_values(r, float).replace(" : ", "\n"))


inputs = {
    "x": np.array([-1.5, 0.0, 2.0, 3.25]),
    "y": np.array([0.5, -2.0, 1.0, 4.0]),
    "w": np.array([1.0, -2.0, 0.5, 3.0]),
    # lax.map: 10 rows of 3 (batch_size 4 leaves a remainder of 2), and a pytree partner.
    "rows": np.arange(30.0).reshape(10, 3) / 4 - 3,
    "col": np.arange(10.0) - 4.5,
    # associative_scan: 11 and 8 elements (odd and even lengths), 3 x 7 for axis=1, 2 x 2
    # integer matrices (products stay exact integers), affine maps x -> a x + b.
    "v11": np.array([3.0, -1.0, 4.0, 1.0, -5.0, 9.0, 2.0, -6.0, 5.0, 3.0, -5.0]),
    "v8": np.array([2.0, 7.0, -1.0, 8.0, 2.0, -8.0, 1.0, 8.0]),
    "m37": np.arange(21.0).reshape(3, 7) % 5 - 2,
    "mats": (np.arange(36.0).reshape(9, 2, 2) * 7 % 5 - 2),
    "aff_a": np.array([0.5, 2.0, -1.0, 1.5, 0.25, -2.0, 1.0]),
    "aff_b": np.array([1.0, -0.5, 3.0, 0.0, 2.0, 1.25, -4.0]),
    "flags": np.array([0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]),
}
print_inputs(inputs)
x, y, w = (jnp.asarray(inputs[k]) for k in ("x", "y", "w"))

# --- lax.switch: three branches of two operands; out-of-range indices are clamped.
branches = [lambda a, b: a + b, lambda a, b: a * b, lambda a, b: a - 2 * b]
for i in (-5, 0, 1, 2, 7):
    show(f"switch {i}", lax.switch(i, branches, x, y))
# A pytree result: (vector, scalar) from each branch.
tree_branches = [lambda a: (a + 1, jnp.sum(a)), lambda a: (a * a, jnp.max(a)),
                 lambda a: (-a, jnp.min(a))]
for i in (-1, 1, 9):
    r = lax.switch(i, tree_branches, x)
    show(f"switch_tree {i} 0", r[0])
    show(f"switch_tree {i} 1", r[1])
# Gradients of sum(w * switch(i, [x^2, 3x, x^3], x)) with respect to x.
grad_branches = [lambda a: a * a, lambda a: 3 * a, lambda a: a * a * a]
for i in (-5, 0, 1, 2, 7):
    show(f"switch_grad {i}",
         jax.grad(lambda a: jnp.sum(w * lax.switch(i, grad_branches, a)))(x))

# --- lax.map: rows -> rows * rows + sum(rows); with and without batch_size.
rows, col = jnp.asarray(inputs["rows"]), jnp.asarray(inputs["col"])
f = lambda r: r * r + jnp.sum(r)
show("map", lax.map(f, rows))
for b in (1, 3, 4, 5, 10, 20, 0):
    show(f"map batch {b}", lax.map(f, rows, batch_size=b))
# A pytree xs (rows, col) mapped to a pytree (rows * col, sum(rows) - col).
g = lambda t: (t[0] * t[1], jnp.sum(t[0]) - t[1])
for b in (None, 4):
    r = lax.map(g, (rows, col), batch_size=b)
    show(f"map_tree {b} 0", r[0])
    show(f"map_tree {b} 1", r[1])
# d/drows of sum(map(r -> r * r * r, rows) * rows).
show("map_grad", jax.grad(lambda a: jnp.sum(lax.map(lambda r: r * r * r, a) * a))(rows))
show("map_grad batch 4",
     jax.grad(lambda a: jnp.sum(lax.map(lambda r: r * r * r, a, batch_size=4) * a))(rows))

# --- lax.associative_scan.
v11, v8, m37 = (jnp.asarray(inputs[k]) for k in ("v11", "v8", "m37"))
mats = jnp.asarray(inputs["mats"])
aff = (jnp.asarray(inputs["aff_a"]), jnp.asarray(inputs["aff_b"]))
show("ascan add 11", lax.associative_scan(jnp.add, v11))
show("ascan add 8", lax.associative_scan(jnp.add, v8))
show("ascan add 11 reverse", lax.associative_scan(jnp.add, v11, reverse=True))
show("ascan max 11", lax.associative_scan(jnp.maximum, v11))
show("ascan add axis 1", lax.associative_scan(jnp.add, m37, axis=1))
# (JAX 0.10.2 rejects reverse=True with a negative axis: it reverses before normalizing the axis;
# the C++ test checks axis=-1 against this axis=1 result.)
show("ascan add axis 1 reverse", lax.associative_scan(jnp.add, m37, reverse=True, axis=1))
show("ascan add axis 0", lax.associative_scan(jnp.add, m37, axis=0))
show("ascan int32", lax.associative_scan(jnp.add, v11.astype(jnp.int32)))
flags = jnp.asarray(inputs["flags"]) > 0
show("ascan or", lax.associative_scan(jnp.logical_or, flags))
# Non-commutative: 2 x 2 matrix products a @ b (the k-th result is mats[0] @ ... @ mats[k]).
show("ascan matmul", lax.associative_scan(jnp.matmul, mats))
show("ascan matmul reverse", lax.associative_scan(jnp.matmul, mats, reverse=True))
# Affine maps composed: apply (a1, b1) then (a2, b2): x -> a2 (a1 x + b1) + b2.
compose = lambda p, q: (p[0] * q[0], q[0] * p[1] + q[1])
for rev in (False, True):
    r = lax.associative_scan(compose, aff, reverse=rev)
    show(f"ascan affine {rev} a", r[0])
    show(f"ascan affine {rev} b", r[1])
# A dict pytree (keys sorted): a running sum and a running product.
d = {"s": v8, "p": v8 / 2}
r = lax.associative_scan(lambda a, b: {"s": a["s"] + b["s"], "p": a["p"] * b["p"]}, d)
show("ascan dict p", r["p"])
show("ascan dict s", r["s"])
show("ascan grad",
     jax.grad(lambda a: jnp.sum(w[0] * lax.associative_scan(jnp.multiply, a)))(v8 / 2))

# --- jaxpr text (f32): associative_scan and map stage what JAX stages, equation for equation.
# (switch is a tree of binary conds here, one n-way cond in JAX: the C++ test checks its
# shape instead.)
jax.config.update("jax_enable_x64", False)
f32 = jnp.float32
v5, m23 = jnp.ones(5, f32), jnp.ones((2, 3), f32)
rows32 = jnp.ones((10, 3), f32)
texts = {
    "ascan add 5": (lambda a: lax.associative_scan(jnp.add, a), (v5,)),
    "ascan add 6": (lambda a: lax.associative_scan(jnp.add, a), (jnp.ones(6, f32),)),
    "ascan add reverse axis 1": (lambda a: lax.associative_scan(jnp.add, a, reverse=True, axis=1),
                                 (m23,)),
    "ascan affine": (lambda a, b: lax.associative_scan(compose, (a, b)), (v5, v5)),
    "ascan or": (lambda a: lax.associative_scan(jnp.logical_or, a > 0), (v5,)),
    "map": (lambda a: lax.map(lambda r: r * 2, a), (rows32,)),
    "map batch 4": (lambda a: lax.map(lambda r: r * 2, a, batch_size=4), (rows32,)),
    "map batch 5": (lambda a: lax.map(lambda r: r * 2, a, batch_size=5), (rows32,)),
    "map batch 0": (lambda a: lax.map(lambda r: r * 2, a, batch_size=0), (rows32,)),
}
for name, (fn, args) in texts.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(fn)(*args))

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
    "a2": rng.standard_normal((2, 2)),
    "a1": rng.standard_normal((1, 1)),
    "a4b": rng.standard_normal((2, 4, 4)),
    "zeros4": np.zeros((4, 4)),
    "rank3": np.array([[2.0, 1.0, 0.0, 3.0], [1.0, 3.0, 1.0, 5.0], [0.0, 1.0, 4.0, 5.0],
                       [1.0, 0.0, 1.0, 2.0]]),
    "singular4": np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 1.0, 0.5], [-1.0, -2.0, 5.0, 1.0],
                           [0.5, 1.0, 2.0, -3.0]]),
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

dets = {"a1": "a1", "a2": "a2", "a3": "singular", "ab": "ab", "a4": "a4", "a4b": "a4b",
        "big": "big", "singular4": "singular4", "zeros": "zeros"}
for name, x in dets.items():
    print(f"=== det {name}")
    print(text(jnp.linalg.det(inputs[x])))
    sign, logdet = jnp.linalg.slogdet(inputs[x])
    print(f"=== slogdet {name}")
    print(text(sign))
    print(text(logdet))


# solve: a vector b, a matrix b, b broadcast against a's batch, batch axes broadcast; inv.
solves = {
    "solve_vec": lambda: jnp.linalg.solve(inputs["a4"], inputs["b4"]),
    "solve_mat": lambda: jnp.linalg.solve(inputs["a4"], inputs["b42"]),
    "solve_batched_vec": lambda: jnp.linalg.solve(inputs["a4b"], inputs["b4"]),
    "solve_broadcast": lambda: jnp.linalg.solve(inputs["a4b"], inputs["b42"][None]),
    "inv": lambda: jnp.linalg.inv(inputs["a4"]),
    "inv_batched": lambda: jnp.linalg.inv(inputs["ab"]),
    "inv_big": lambda: jnp.linalg.inv(inputs["big"]),
}
for name, f in solves.items():
    out = f()
    print(f"=== values {name}")
    print(" ".join(str(d) for d in np.shape(out)))
    print(text(out))


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
    "det_a1": (jnp.linalg.det, "a1"),
    "det_a2": (jnp.linalg.det, "a2"),
    "det_ab": (jnp.linalg.det, "ab"),
    "det_a4": (jnp.linalg.det, "a4"),
    "det_a4b": (jnp.linalg.det, "a4b"),
    "slogdet_a1": (lambda a: jnp.linalg.slogdet(a)[1], "a1"),
    "slogdet_a2": (lambda a: jnp.linalg.slogdet(a)[1], "a2"),
    "slogdet_ab": (lambda a: jnp.linalg.slogdet(a)[1], "ab"),
    "slogdet_a4": (lambda a: jnp.linalg.slogdet(a)[1], "a4"),
    "slogdet_a4b": (lambda a: jnp.linalg.slogdet(a)[1], "a4b"),
    "solve_a": (lambda a: jnp.linalg.solve(a, inputs["b42"]), "a4"),
    "solve_b": (lambda b: jnp.linalg.solve(inputs["a4"], b), "b42"),
    "solve_batched_a": (lambda a: jnp.linalg.solve(a, inputs["b4"]), "a4b"),
    "det_singular4": (jnp.linalg.det, "singular4"),
    "det_zeros4": (jnp.linalg.det, "zeros4"),
    "det_rank3": (jnp.linalg.det, "rank3"),
    "inv_a4": (jnp.linalg.inv, "a4"),
    "inv_ab": (jnp.linalg.inv, "ab"),
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
    "det_1x1": (jnp.linalg.det, (jnp.ones((1, 1), jnp.float32),)),
    "det_2x2": (jnp.linalg.det, (jnp.ones((2, 2), jnp.float32),)),
    "det_3x3": (jnp.linalg.det, (o,)),
    "det_3x3_batched": (jnp.linalg.det, (jnp.ones((2, 3, 3), jnp.float32),)),
    "det_int_2x2": (jnp.linalg.det, (jnp.ones((2, 2), jnp.int32),)),
    "slogdet_1x1": (jnp.linalg.slogdet, (jnp.ones((1, 1), jnp.float32),)),
    "slogdet_2x2": (jnp.linalg.slogdet, (jnp.ones((2, 2), jnp.float32),)),
    "slogdet_2x2_batched": (jnp.linalg.slogdet, (jnp.ones((3, 2, 2), jnp.float32),)),
    # lu's diagonal: jnp.diagonal, platform_dependent (platform_index and a cond whose mosaic
    # branch is sum(eye * lu) and whose default a gather) for one matrix, the gather alone for
    # a batch; then count_nonzero, %, copy and where.
    "det_4x4": (jnp.linalg.det, (jnp.ones((4, 4), jnp.float32),)),
    "det_5x5_batched": (jnp.linalg.det, (jnp.ones((2, 5, 5), jnp.float32),)),
    "slogdet_3x3": (jnp.linalg.slogdet, (o,)),
    "slogdet_6x6": (jnp.linalg.slogdet, (jnp.ones((6, 6), jnp.float32),)),
    "slogdet_int_3x3": (jnp.linalg.slogdet, (jnp.ones((3, 3), jnp.int32),)),
    # float64 text is only printed with x64 on, where JAX's default ints (eye's and arange's
    # iotas, count_nonzero's sums) are int64; fusejit's are int32 (x64 off) with any float, so
    # its float64 text is checked against these float32 ones with float32 read as float64.
    "slogdet_4x4": (jnp.linalg.slogdet, (jnp.ones((4, 4), jnp.float32),)),
    "slogdet_3x4x4_batched": (jnp.linalg.slogdet, (jnp.ones((2, 3, 4, 4), jnp.float32),)),
    # solve and inv: lu of stop_gradient(a), then custom_linear_solve (its four jaxprs printed
    # as str(ClosedJaxpr) inside the _LinearSolveTuple); a matrix b vmapped over its columns.
    "solve_vec": (jnp.linalg.solve, (o, jnp.ones(3, jnp.float32))),
    "solve_mat": (jnp.linalg.solve, (o, jnp.ones((3, 2), jnp.float32))),
    "solve_batched": (jnp.linalg.solve, (jnp.ones((2, 3, 3), jnp.float32), jnp.ones((3, 2), jnp.float32))),
    "inv": (jnp.linalg.inv, (o,)),
    "solve_mat_4x5": (jnp.linalg.solve, (jnp.ones((4, 4), jnp.float32), jnp.ones((4, 5), jnp.float32))),
    "solve_mat_1x1": (jnp.linalg.solve, (jnp.ones((1, 1), jnp.float32), jnp.ones((1, 1), jnp.float32))),
    # 1x1 a: vecmat (matvec's transpose) sums over the size-1 axis and broadcasts back.
    "solve_vec_1x1": (jnp.linalg.solve, (jnp.ones((1, 1), jnp.float32), jnp.ones(1, jnp.float32))),
    "solve_mat_1x3": (jnp.linalg.solve, (jnp.ones((1, 1), jnp.float32), jnp.ones((1, 3), jnp.float32))),
    "solve_batched_1x1": (jnp.linalg.solve, (jnp.ones((2, 1, 1), jnp.float32), jnp.ones((2, 1, 3), jnp.float32))),
    "inv_5x5": (jnp.linalg.inv, (jnp.ones((5, 5), jnp.float32),)),
    "solve_batched_both": (jnp.linalg.solve, (jnp.ones((2, 3, 3), jnp.float32), jnp.ones((2, 3, 2), jnp.float32))),
    "inv_batched": (jnp.linalg.inv, (jnp.ones((2, 3, 3), jnp.float32),)),
    # det's gradient: its custom_jvp rule (_det_jvp: the cofactor solve, then jnp.trace)
    # linearized inside det's jit, split into a forward jit and a backward one.
    "grad_det_4x4": (jax.grad(jnp.linalg.det), (jnp.ones((4, 4), jnp.float32),)),
    "grad_det_1x1": (jax.grad(jnp.linalg.det), (jnp.ones((1, 1), jnp.float32),)),
    "grad_det_5x5_batched": (jax.grad(lambda a: jnp.sum(jnp.linalg.det(a))), (jnp.ones((2, 5, 5), jnp.float32),)),
    # slogdet's: _slogdet_small_jvp (1x1, 2x2) and _slogdet_jvp (jnp.linalg.slogdet and solve
    # inside the rule) linearized the same way.
    "grad_slogdet_1x1": (jax.grad(lambda a: jnp.linalg.slogdet(a)[1]), (jnp.ones((1, 1), jnp.float32),)),
    "grad_slogdet_2x2": (jax.grad(lambda a: jnp.linalg.slogdet(a)[1]), (jnp.ones((2, 2), jnp.float32),)),
    "grad_slogdet_4x4": (jax.grad(lambda a: jnp.linalg.slogdet(a)[1]), (jnp.ones((4, 4), jnp.float32),)),
    "grad_slogdet_2x2_batched": (jax.grad(lambda a: jnp.sum(jnp.linalg.slogdet(a)[1])), (jnp.ones((3, 2, 2), jnp.float32),)),
    "grad_slogdet_4x4_batched": (jax.grad(lambda a: jnp.sum(jnp.linalg.slogdet(a)[1])), (jnp.ones((2, 4, 4), jnp.float32),)),
    # sign's tangent is zeros_like(sign), a symbolic zero: no cotangent flows into it.
    "grad_sign_times_logdet": (jax.grad(lambda a: (lambda s, l: jnp.sum(s * l))(*jnp.linalg.slogdet(a))), (jnp.ones((4, 4), jnp.float32),)),
}
for name, (f, args) in jaxprs.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(*args))

# The same in float64 (x64 on, as fusejit's f64 arrays).
jax.config.update("jax_enable_x64", True)
jaxprs64 = {
    "solve_mat_f64": (jnp.linalg.solve, (np.ones((3, 3)), np.ones((3, 2)))),
}
for name, (f, args) in jaxprs64.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(*args))

# Two batch axes (jnp.vectorize's nested vmaps, innermost first) and a vector b under a's batch:
# a's batch (2, 4) against b unbatched, b batched along the inner axis only, and b batched
# along both. Drawn from their own generator, so the sections above keep their numbers.
jax.config.update("jax_enable_x64", True)
rng2 = np.random.default_rng(1919)
more = {"a243": rng2.standard_normal((2, 4, 3, 3)), "b3": rng2.standard_normal(3),
        "b32": rng2.standard_normal((3, 2)), "b432": rng2.standard_normal((4, 3, 2)),
        "b2432": rng2.standard_normal((2, 4, 3, 2))}
for name, v in more.items():
    print(f"=== input {name}")
    print(" ".join(str(d) for d in v.shape))
    print(text(v))
for b in ["b3", "b32", "b432", "b2432"]:
    print(f"=== values solve_a243_{b}")
    out = jnp.linalg.solve(more["a243"], more[b])
    print(" ".join(str(d) for d in np.shape(out)))
    print(text(out))
    print(f"=== grad solve_a243_{b}_a")
    print(text(wgrad(lambda a: jnp.linalg.solve(a, more[b]), more["a243"])))
    print(f"=== grad solve_a243_{b}_b")
    print(text(wgrad(lambda x: jnp.linalg.solve(more["a243"], x), more[b])))
print("=== values inv_a243")
print("2 4 3 3")
print(text(jnp.linalg.inv(more["a243"])))

jax.config.update("jax_enable_x64", False)
o4 = jnp.ones((2, 4, 3, 3), jnp.float32)
jaxprs2 = {
    "solve_batched_vec": (jnp.linalg.solve, (jnp.ones((2, 3, 3), jnp.float32), jnp.ones(3, jnp.float32))),
    "solve_batch2_vec": (jnp.linalg.solve, (o4, jnp.ones(3, jnp.float32))),
    "solve_batch2_unbatched_b": (jnp.linalg.solve, (o4, jnp.ones((3, 2), jnp.float32))),
    "solve_batch2_inner_b": (jnp.linalg.solve, (o4, jnp.ones((4, 3, 2), jnp.float32))),
    "solve_batch2_full_b": (jnp.linalg.solve, (o4, jnp.ones((2, 4, 3, 2), jnp.float32))),
    "inv_batch2": (jnp.linalg.inv, (o4,)),
}
for name, (f, args) in jaxprs2.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(*args))

# Forward mode through det's and slogdet's custom_jvp rules: only the rule runs (its results are
# the primal outputs, its jits kept, its dead jnp.ix_ iota kept too): 1x1, the closed forms (2x2,
# 3x3), past them, and a batch.
jvps = {}
for shape in [(1, 1), (2, 2), (3, 3), (4, 4), (2, 5, 5)]:
    n = "x".join(map(str, shape))
    jvps[f"jvp_det_{n}"] = (lambda a, t: jax.jvp(jnp.linalg.det, (a,), (t,)), shape)
    jvps[f"jvp_slogdet_{n}"] = (lambda a, t: jax.jvp(jnp.linalg.slogdet, (a,), (t,)), shape)
for name, (f, shape) in jvps.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(jnp.ones(shape, jnp.float32), jnp.ones(shape, jnp.float32)))

# a less batched than b (jnp.vectorize keeps a unbatched where it has no axis, or a size-1 one;
# triangular_solve's batching rule folds b's batch into its columns there), and b less batched
# than a with size-1 axes (squeezed, then broadcast by custom_linear_solve's batching rule).
# Drawn from their own generator, so the sections above keep their numbers.
jax.config.update("jax_enable_x64", True)
rng3 = np.random.default_rng(1920)
fewer = {"a33": (3, 3), "a133": (1, 3, 3), "a233": (2, 3, 3), "a433": (4, 3, 3),
         "a4133": (4, 1, 3, 3), "a2133": (2, 1, 3, 3), "a11": (1, 1), "r232": (2, 3, 2),
         "r132": (1, 3, 2), "r2432": (2, 4, 3, 2), "r2132": (2, 1, 3, 2), "r1432": (1, 4, 3, 2),
         "r213": (2, 1, 3)}
fewer = {k: rng3.standard_normal(s) for k, s in fewer.items()}
for name, v in fewer.items():
    print(f"=== input {name}")
    print(" ".join(str(d) for d in v.shape))
    print(text(v))
fewer_cases = [("a33", "r232"), ("a133", "r232"), ("a233", "r132"), ("a4133", "r232"),
               ("a433", "r2432"), ("a233", "r2132"), ("a2133", "r1432"), ("a33", "r2432"),
               ("a11", "r213")]
for a, b in fewer_cases:
    name = f"solve_{a}_{b}"
    print(f"=== values {name}")
    out = jnp.linalg.solve(fewer[a], fewer[b])
    print(" ".join(str(d) for d in np.shape(out)))
    print(text(out))
    print(f"=== grad {name}_a")
    print(text(wgrad(lambda x: jnp.linalg.solve(x, fewer[b]), fewer[a])))
    print(f"=== grad {name}_b")
    print(text(wgrad(lambda x: jnp.linalg.solve(fewer[a], x), fewer[b])))
jax.config.update("jax_enable_x64", False)
for a, b in fewer_cases:
    print(f"=== jaxpr solve_{a}_{b}")
    print(jax.make_jaxpr(jnp.linalg.solve)(jnp.ones(fewer[a].shape, jnp.float32),
                                           jnp.ones(fewer[b].shape, jnp.float32)))

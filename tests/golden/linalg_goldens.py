# Prints what tests/test_linalg_golden.cpp checks cholesky, triangular_solve, cho_factor /
# cho_solve / solve_triangular and a Gaussian-process log-likelihood against: JAX 0.10.2's
# values and gradients (f64) and jaxpr text (f32):
#   python tests/golden/linalg_goldens.py > tests/golden/linalg_goldens.txt
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np
from jax import lax

jax.config.update("jax_enable_x64", True)
rng = np.random.default_rng(0)


def text(v):
    v = np.asarray(v)
    return " ".join("nan" if np.isnan(x) else float(x).hex() for x in v.ravel())


def spd(n, batch=()):
    m = rng.standard_normal(batch + (n, n))
    return m @ np.swapaxes(m, -1, -2) + n * np.eye(n)


a4 = spd(4)
ab = spd(3, (2,))
lower4 = np.linalg.cholesky(a4)
upper4 = lower4.T.copy()
b42 = rng.standard_normal((4, 2))
b24 = rng.standard_normal((2, 4))
b4 = rng.standard_normal(4)
bb = rng.standard_normal((2, 3, 2))
inputs = {"a4": a4, "ab": ab, "lower4": lower4, "upper4": upper4, "b42": b42, "b24": b24,
          "b4": b4, "bb": bb}
for name, v in inputs.items():
    print(f"=== input {name}")
    print(" ".join(str(d) for d in v.shape))
    print(text(v))

ts = lax.linalg.triangular_solve
values = {
    "cholesky": lambda: jnp.linalg.cholesky(a4),
    "cholesky_batched": lambda: jnp.linalg.cholesky(ab),
    "cholesky_upper": lambda: jnp.linalg.cholesky(a4, upper=True),
    "cholesky_not_pd": lambda: jnp.linalg.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]])),
    "lax_cholesky_nosym": lambda: lax.linalg.cholesky(np.tril(a4), symmetrize_input=False),
    "ts_left_lower": lambda: ts(lower4, b42, left_side=True, lower=True),
    "ts_left_lower_t": lambda: ts(lower4, b42, left_side=True, lower=True, transpose_a=True),
    "ts_right_upper": lambda: ts(upper4, b24, left_side=False, lower=False),
    "ts_right_upper_unit_t": lambda: ts(upper4, b24, left_side=False, lower=False,
                                        transpose_a=True, unit_diagonal=True),
    "ts_vector": lambda: ts(lower4, b4, left_side=True, lower=True),
    "ts_batched": lambda: ts(np.linalg.cholesky(ab), bb, left_side=True, lower=True),
    "cho_solve": lambda: jsl.cho_solve(jsl.cho_factor(a4, lower=True), b42),
    "cho_solve_upper_vec": lambda: jsl.cho_solve(jsl.cho_factor(a4), b4),
    "solve_triangular_t": lambda: jsl.solve_triangular(lower4, b42, trans=1, lower=True),
}
for name, f in values.items():
    out = f()
    print(f"=== values {name}")
    print(" ".join(str(d) for d in np.shape(out)))
    print(text(out))

# vmap over b only (a shared): JAX's batching rule folds the batch into b's columns.
print("=== values vmap_ts_b")
print(text(jax.vmap(lambda b: ts(lower4, b, left_side=True, lower=True))(bb.reshape(3, 4, 1))))
print("=== values vmap_cholesky")
print(text(jax.vmap(jnp.linalg.cholesky)(ab)))

# Gradients of sum(w * f(x)) with fixed weights, so that each output element's cotangent
# differs.
grads = {
    "cholesky": (lambda a: jnp.linalg.cholesky(a), a4),
    "ts_a": (lambda a: ts(a, b42, left_side=True, lower=True), lower4),
    "ts_b": (lambda b: ts(lower4, b, left_side=True, lower=True, transpose_a=True), b42),
    "ts_right_a": (lambda a: ts(a, b24, left_side=False, lower=False, unit_diagonal=True),
                   upper4),
    "cho_solve_a": (lambda a: jsl.cho_solve(jsl.cho_factor(a, lower=True), b42), a4),
}
for name, (f, x) in grads.items():
    w = np.arange(1.0, 1.0 + np.size(f(x))).reshape(np.shape(f(x))) / 10
    print(f"=== grad {name}")
    print(text(jax.grad(lambda v: jnp.sum(w * f(v)))(x)))


# A Gaussian process's log marginal likelihood, RBF kernel plus noise, and its gradient with
# respect to the log hyperparameters (length scale, signal variance, noise variance).
def gp_nll(theta, x, y):
    ell, sf2, sn2 = jnp.exp(theta[0]), jnp.exp(theta[1]), jnp.exp(theta[2])
    d2 = (x[:, None] - x[None, :]) ** 2
    k = sf2 * jnp.exp(-0.5 * d2 / ell**2) + sn2 * jnp.eye(x.shape[0])
    l = jnp.linalg.cholesky(k)
    z = ts(l, y[:, None], left_side=True, lower=True)
    alpha = ts(l, z, left_side=True, lower=True, transpose_a=True)
    n = x.shape[0]
    logdet = 2.0 * jnp.sum(jnp.log(jnp.diagonal(l)))
    return 0.5 * jnp.sum(y[:, None] * alpha) + 0.5 * logdet + 0.5 * n * jnp.log(2 * jnp.pi)


gx = np.linspace(-2.0, 2.0, 12)
gy = np.sin(2.0 * gx) + 0.1 * rng.standard_normal(12)
theta = np.array([np.log(0.7), np.log(1.3), np.log(0.05)])
print("=== gp x")
print(text(gx))
print("=== gp y")
print(text(gy))
print("=== gp theta")
print(text(theta))
print("=== gp nll")
print(text(gp_nll(theta, gx, gy)))
print("=== gp grad")
print(text(jax.grad(gp_nll)(theta, gx, gy)))

jax.config.update("jax_enable_x64", False)
o = jnp.ones((3, 3), jnp.float32)
ob = jnp.ones((2, 3, 3), jnp.float32)
r = jnp.ones((3, 2), jnp.float32)
v = jnp.ones((3,), jnp.float32)
jaxprs = {
    "cholesky": (jnp.linalg.cholesky, (o,)),
    "cholesky_batched": (jnp.linalg.cholesky, (ob,)),
    "cholesky_upper": (lambda a: jnp.linalg.cholesky(a, upper=True), (o,)),
    "lax_cholesky": (lax.linalg.cholesky, (o,)),
    "ts": (lambda a, b: ts(a, b, left_side=True, lower=True), (o, r)),
    "ts_right_unit_t": (lambda a, b: ts(a, b, transpose_a=True, unit_diagonal=True), (o, r.T)),
    "ts_vector": (lambda a, b: ts(a, b, left_side=True, lower=True), (o, v)),
    "cho_factor": (lambda a: jsl.cho_factor(a, lower=True)[0], (o,)),
    "cho_factor_upper": (lambda a: jsl.cho_factor(a)[0], (o,)),
    "cho_solve": (lambda a, b: jsl.cho_solve((a, True), b), (o, r)),
    "cho_solve_vector_upper": (lambda a, b: jsl.cho_solve((a, False), b), (o, v)),
    "solve_triangular": (lambda a, b: jsl.solve_triangular(a, b, lower=True, trans=1), (o, r)),
}
for name, (f, args) in jaxprs.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(*args))

# The scipy wrappers over a batch: jnp.vectorize's vmaps of lax.linalg.triangular_solve (one per
# batch axis, innermost first; size-1 axes squeezed and expanded back). Values and gradients in
# f64 from their own generator, so the sections above keep their numbers; text in f32.
jax.config.update("jax_enable_x64", True)
rng3 = np.random.default_rng(1920)


def spd(shape):
    m = rng3.standard_normal(shape)
    return m @ np.swapaxes(m, -1, -2) + shape[-1] * np.eye(shape[-1])


more = {"c243": np.linalg.cholesky(spd((2, 4, 3, 3))), "t43": np.tril(rng3.standard_normal((4, 3, 3))) + 3 * np.eye(3),
        "v3": rng3.standard_normal(3), "m32": rng3.standard_normal((3, 2)),
        "m432": rng3.standard_normal((4, 3, 2)), "m2432": rng3.standard_normal((2, 4, 3, 2)),
        "v243": rng3.standard_normal((2, 4, 3)), "m1432": rng3.standard_normal((1, 4, 3, 2))}
for name, v in more.items():
    print(f"=== input {name}")
    print(" ".join(str(d) for d in v.shape))
    print(text(v))
batched = {
    "cho_solve_c243_v3": (lambda c, b: jsl.cho_solve((c, True), b), "c243", "v3"),
    "cho_solve_c243_m32": (lambda c, b: jsl.cho_solve((c, True), b), "c243", "m32"),
    "cho_solve_c243_m432": (lambda c, b: jsl.cho_solve((c, True), b), "c243", "m432"),
    "cho_solve_c243_m2432": (lambda c, b: jsl.cho_solve((c, True), b), "c243", "m2432"),
    "cho_solve_c243_v243": (lambda c, b: jsl.cho_solve((c, True), b), "c243", "v243"),
    "solve_triangular_t43_m2432": (lambda a, b: jsl.solve_triangular(a, b, lower=True), "t43", "m2432"),
    "solve_triangular_t43_m1432": (lambda a, b: jsl.solve_triangular(a, b, trans=1, lower=True), "t43", "m1432"),
}
for name, (f, a, b) in batched.items():
    x, y = more[a], more[b]
    out = f(x, y)
    print(f"=== values {name}")
    print(" ".join(str(d) for d in np.shape(out)))
    print(text(out))
    w = np.arange(1.0, 1.0 + np.size(out)).reshape(np.shape(out))
    print(f"=== grad {name}_a")
    print(text(jax.grad(lambda u: jnp.sum(w * f(u, y)))(x)))
    print(f"=== grad {name}_b")
    print(text(jax.grad(lambda u: jnp.sum(w * f(x, u)))(y)))

jax.config.update("jax_enable_x64", False)
f32 = lambda *s: jnp.ones(s, jnp.float32)
jaxprs2 = {
    "cho_solve_batched": (lambda a, b: jsl.cho_solve((a, True), b), (f32(2, 3, 3), f32(2, 3, 2))),
    "cho_solve_batched_shared_vector": (lambda a, b: jsl.cho_solve((a, True), b), (f32(2, 3, 3), f32(3))),
    "cho_solve_batched_shared_b": (lambda a, b: jsl.cho_solve((a, True), b), (f32(2, 3, 3), f32(3, 2))),
    "cho_solve_batched_vectors_upper": (lambda a, b: jsl.cho_solve((a, False), b), (f32(2, 3, 3), f32(2, 3))),
    "cho_solve_batch2_inner_b": (lambda a, b: jsl.cho_solve((a, True), b), (f32(2, 4, 3, 3), f32(4, 3, 2))),
    "solve_triangular_shared_a": (lambda a, b: jsl.solve_triangular(a, b, lower=True), (f32(3, 3), f32(2, 3, 2))),
    "solve_triangular_batched_vectors": (lambda a, b: jsl.solve_triangular(a, b, trans=1), (f32(2, 3, 3), f32(2, 3))),
    "solve_triangular_batch2_shared_outer": (lambda a, b: jsl.solve_triangular(a, b, lower=True, unit_diagonal=True), (f32(4, 3, 3), f32(2, 4, 3, 2))),
    "solve_triangular_size1": (lambda a, b: jsl.solve_triangular(a, b, trans=1, lower=True), (f32(4, 3, 3), f32(1, 4, 3, 2))),
    "solve_triangular_size1_both": (lambda a, b: jsl.solve_triangular(a, b), (f32(1, 3, 3), f32(1, 3, 2))),
}
for name, (f, args) in jaxprs2.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(*args))

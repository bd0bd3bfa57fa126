# Prints what tests/test_linalg_spectral.cpp checks eigh (and eigvalsh), qr, svd and the matrix
# norms of orders 2, -2 and nuc against: JAX 0.10.2's values and gradients (f64) and jaxpr text
# (f32):
#   python tests/golden/spectral_goldens.py > tests/golden/spectral_goldens.txt
# Eigenvectors (and singular vectors) are defined up to their signs; the test compares them
# sign-invariantly, and the gradients are of functions that do not depend on the signs.
import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)
rng = np.random.default_rng(19)


def text(v):
    v = np.asarray(v)
    return " ".join("nan" if np.isnan(x) else float(x).hex() for x in v.ravel())


def sym(n, batch=()):
    m = rng.standard_normal(batch + (n, n))
    return (m + np.swapaxes(m, -1, -2)) / 2


s4 = sym(4)
sb = sym(3, (2,))
g4 = rng.standard_normal((4, 4))  # not symmetric: eigh symmetrizes it
a43 = rng.standard_normal((4, 3))
a34 = rng.standard_normal((3, 4))
ab = rng.standard_normal((2, 4, 3))
inputs = {"s4": s4, "sb": sb, "g4": g4, "a43": a43, "a34": a34, "ab": ab}
for name, v in inputs.items():
    print(f"=== input {name}")
    print(" ".join(str(d) for d in v.shape))
    print(text(v))


def both(name, wv):
    w, v = wv
    print(f"=== values {name} w")
    print(" ".join(str(d) for d in np.shape(w)))
    print(text(w))
    print(f"=== values {name} v")
    print(" ".join(str(d) for d in np.shape(v)))
    print(text(v))


both("eigh", jnp.linalg.eigh(s4))
both("eigh_batched", jnp.linalg.eigh(sb))
both("eigh_nonsymmetric", jnp.linalg.eigh(g4))
both("eigh_upper_nosym", jnp.linalg.eigh(np.triu(g4), UPLO="U", symmetrize_input=False))
both("eigh_lower_nosym", jnp.linalg.eigh(np.tril(g4), symmetrize_input=False))
both("vmap_eigh", jax.vmap(jnp.linalg.eigh)(sb))
print("=== values eigvalsh")
print(text(jnp.linalg.eigvalsh(g4)))
print("=== values eigh_nan w")
print(text(jnp.linalg.eigh(np.array([[1.0, np.nan], [np.nan, 2.0]]))[0]))

def values(name, arrays, parts="qr"):
    for part, v in zip(parts, arrays):
        if v is None:
            continue
        print(f"=== values {name} {part}")
        print(" ".join(str(d) for d in np.shape(v)))
        print(text(v))


values("qr", jnp.linalg.qr(a43))
values("qr_complete", jnp.linalg.qr(a43, mode="complete"))
values("qr_wide", jnp.linalg.qr(a34))
values("qr_wide_complete", jnp.linalg.qr(a34, mode="complete"))
values("qr_batched", jnp.linalg.qr(ab))
values("qr_square", jnp.linalg.qr(g4))
values("qr_r", [None, jnp.linalg.qr(a43, mode="r")])
values("lax_qr", jax.lax.linalg.qr(a43))
values("vmap_qr", jax.vmap(jnp.linalg.qr)(ab))


def svd_values(name, usv):
    values(name, usv, ("u", "s", "vh"))


svd_values("svd_full", jnp.linalg.svd(a43))
svd_values("svd_thin_wide", jnp.linalg.svd(a34, full_matrices=False))
svd_values("svd_full_wide_batched", jnp.linalg.svd(np.swapaxes(ab, -1, -2)))
svd_values("svd_s_batched", [None, jnp.linalg.svd(ab, compute_uv=False)])
norms = {
    "norm_2": lambda: jnp.linalg.norm(a43, 2),
    "norm_minus_2": lambda: jnp.linalg.norm(a34, -2),
    "norm_nuc": lambda: jnp.linalg.norm(a43, "nuc"),
    "norm_nuc_axes_02": lambda: jnp.linalg.norm(ab, "nuc", axis=(0, 2)),
    "norm_2_axes_21_keepdims": lambda: jnp.linalg.norm(ab, 2, axis=(2, 1), keepdims=True),
}
for name, f in norms.items():
    print(f"=== values {name}")
    print(text(f()))

# Gradients of sum(w * f(x)), w = 1, 2, ... (tests/weighted_grad.hpp), f independent of the
# eigenvectors' signs.
grads = {
    "eigh_w": (lambda a: jnp.linalg.eigh(a)[0], g4),
    "eigh_v_squared": (lambda a: jnp.linalg.eigh(a)[1] ** 2, g4),
    "eigh_expm": (lambda a: (lambda w, v: (v * jnp.exp(w)) @ v.T)(*jnp.linalg.eigh(a)), s4),
    "eigvalsh_batched": (lambda a: jnp.linalg.eigvalsh(a), sb),
    "qr_q": (lambda a: jnp.linalg.qr(a)[0], a43),
    "qr_r": (lambda a: jnp.linalg.qr(a)[1], a43),
    "qr_square_both": (lambda a: (lambda q, r: q @ jnp.tanh(r))(*jnp.linalg.qr(a)), g4),
    "qr_batched_r": (lambda a: jnp.linalg.qr(a, mode="r"), ab),
    "svd_s": (lambda a: jnp.linalg.svd(a, compute_uv=False), a43),
    "svd_thin_tanh": (lambda a: (lambda u, s, vh: (u * jnp.tanh(s)) @ vh)(
        *jnp.linalg.svd(a, full_matrices=False)), a43),
    "svd_thin_wide_tanh": (lambda a: (lambda u, s, vh: (u * jnp.tanh(s)) @ vh)(
        *jnp.linalg.svd(a, full_matrices=False)), a34),
    "svd_u_squared": (lambda a: jnp.linalg.svd(a, full_matrices=False)[0] ** 2, a43),
    "svd_vh_squared": (lambda a: jnp.linalg.svd(a, full_matrices=False)[2] ** 2, a34),
    "svd_square_full_u_squared": (lambda a: jnp.linalg.svd(a)[0] ** 2, g4),
    "norm_2": (lambda a: jnp.linalg.norm(a, 2), a43),
    "norm_minus_2": (lambda a: jnp.linalg.norm(a, -2), a34),
    "norm_nuc_batched": (lambda a: jnp.linalg.norm(a, "nuc", axis=(1, 2)), ab),
}
for name, (f, x) in grads.items():
    y = f(x)
    w = jnp.arange(1, y.size + 1, dtype=jnp.float64).reshape(y.shape)
    g = jax.grad(lambda v: jnp.sum(w * f(v)))(x)
    print(f"=== grad {name}")
    print(text(g))

jax.config.update("jax_enable_x64", False)
o = jnp.ones((3, 3))
texts = {
    "eigh": lambda: jax.make_jaxpr(jnp.linalg.eigh)(o),
    "eigh_batched": lambda: jax.make_jaxpr(jnp.linalg.eigh)(jnp.ones((2, 3, 3))),
    "eigh_upper_nosym_int": lambda: jax.make_jaxpr(
        lambda a: jnp.linalg.eigh(a, UPLO="U", symmetrize_input=False))(
            jnp.ones((3, 3), jnp.int32)),
    "eigvalsh": lambda: jax.make_jaxpr(jnp.linalg.eigvalsh)(o),
    "lax_eigh": lambda: jax.make_jaxpr(jax.lax.linalg.eigh)(o),
    "qr": lambda: jax.make_jaxpr(jnp.linalg.qr)(o),
    "qr_complete_batched": lambda: jax.make_jaxpr(
        lambda a: jnp.linalg.qr(a, mode="complete"))(jnp.ones((2, 4, 3))),
    "qr_r_int": lambda: jax.make_jaxpr(lambda a: jnp.linalg.qr(a, mode="r"))(
        jnp.ones((3, 2), jnp.int32)),
    "lax_qr": lambda: jax.make_jaxpr(jax.lax.linalg.qr)(jnp.ones((4, 3))),
    "lax_svd": lambda: jax.make_jaxpr(jax.lax.linalg.svd)(jnp.ones((3, 2))),
    "lax_svd_s": lambda: jax.make_jaxpr(
        lambda a: jax.lax.linalg.svd(a, full_matrices=False, compute_uv=False))(
            jnp.ones((3, 2))),
    "svd": lambda: jax.make_jaxpr(jnp.linalg.svd)(jnp.ones((3, 2))),
    "svd_thin_batched": lambda: jax.make_jaxpr(
        lambda a: jnp.linalg.svd(a, full_matrices=False))(jnp.ones((2, 3, 4))),
    "svd_s_int": lambda: jax.make_jaxpr(lambda a: jnp.linalg.svd(a, compute_uv=False))(
        jnp.ones((3, 2), jnp.int32)),
    "norm_2": lambda: jax.make_jaxpr(lambda a: jnp.linalg.norm(a, 2))(jnp.ones((3, 2))),
    "norm_minus_2": lambda: jax.make_jaxpr(lambda a: jnp.linalg.norm(a, -2))(jnp.ones((3, 2))),
    "norm_nuc_axes_02_keepdims": lambda: jax.make_jaxpr(
        lambda a: jnp.linalg.norm(a, "nuc", axis=(0, 2), keepdims=True))(jnp.ones((3, 2, 4))),
}
for name, f in texts.items():
    print(f"=== jaxpr {name}")
    print(f())

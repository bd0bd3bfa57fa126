# Prints what tests/test_sort_golden.cpp checks the cumulative reductions, sort, argsort and
# top_k against: JAX 0.10.2's jaxpr text, values on inputs with NaNs, signed zeros and ties, and
# gradients (f64; cumprod, cummax and cummin also f32, their JVPs and second order):
#   python tests/golden/sort_goldens.py > tests/golden/sort_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

jax.config.update("jax_enable_x64", True)
nan, inf = float("nan"), float("inf")

# Integer-valued floats keep every running sum and product exact, so any summation order gives
# the same bits: the values check the semantics (axis, reverse, NaN, order), not rounding.
m = np.array([[3, -1, 2, 0, 5], [1, 4, -2, 7, 1], [0, 2, 2, -3, 6]], np.float64)
special = np.array([[0.0, -0.0, nan, -nan, 1, -1, -0.0, 0.0], [2, 2, -inf, inf, nan, 2, -2, 2]])
ints = np.array([[3, -1, 2, 0], [1, 4, -2, 7]], np.int32)

cases = {
    # name: (function, input)
    "cumsum_axis1": (lambda v: jnp.cumsum(v, axis=1), m),
    "cumsum_flat": (jnp.cumsum, m),
    "cumsum_int": (lambda v: jnp.cumsum(v, axis=0), ints),
    "cumsum_bool": (lambda v: jnp.cumsum(v > 0, axis=1), m),
    "lax_cumsum_rev": (lambda v: lax.cumsum(v, axis=0, reverse=True), m),
    "cumprod_axis0": (lambda v: jnp.cumprod(v, axis=0), m),
    "lax_cummax": (lambda v: lax.cummax(v, axis=1), special),
    "lax_cummin_rev": (lambda v: lax.cummin(v, axis=1, reverse=True), special),
    "lax_cumprod_int_rev": (lambda v: lax.cumprod(v, axis=1, reverse=True), ints),
    "sort": (jnp.sort, special),
    "sort_axis0": (lambda v: jnp.sort(v, axis=0), m),
    "sort_desc": (lambda v: jnp.sort(v, descending=True), special),
    "sort_flat": (lambda v: jnp.sort(v, axis=None), m),
    "sort_int": (jnp.sort, ints),
    "argsort": (jnp.argsort, special),
    "argsort_desc": (lambda v: jnp.argsort(v, descending=True), special),
    "argsort_axis0": (lambda v: jnp.argsort(v, axis=0), m),
    "top_k_values": (lambda v: lax.top_k(v, 5)[0], special),
    "top_k_indices": (lambda v: lax.top_k(v, 5)[1], special),
}


def text(v):
    v = np.asarray(v)
    if v.dtype.kind == "f":
        return " ".join(("-nan" if np.signbit(x) else "nan") if np.isnan(x) else float(x).hex()
                        for x in v.ravel())
    return " ".join(str(int(x)) for x in v.ravel())


for name, (f, x) in cases.items():
    out = jax.jit(f)(x)
    print(f"=== values {name}")
    print(" ".join(str(d) for d in np.shape(out)))
    print(text(out))

# Gradients of sum(w * f(x)) with fixed weights w, so that each output element's cotangent
# differs and a wrong permutation shows.
rng = np.random.default_rng(0)
x = rng.standard_normal((3, 5))
x[0, 1] = x[0, 3]  # a tie
grads = {
    "sort": lambda v: jnp.sort(v, axis=1),
    "sort_axis0_desc": lambda v: jnp.sort(v, axis=0, descending=True),
    "cumsum": lambda v: jnp.cumsum(v, axis=1),
    "lax_cumsum_rev": lambda v: lax.cumsum(v, axis=0, reverse=True),
    "top_k": lambda v: lax.top_k(v, 3)[0],
}
print("=== grad_input")
print(" ".join(str(d) for d in x.shape))
print(text(x))
for name, f in grads.items():
    w = np.arange(1.0, 1.0 + np.prod(np.shape(f(x)))).reshape(np.shape(f(x)))
    g = jax.grad(lambda v: jnp.sum(w * f(v)))(x)
    print(f"=== grad {name}")
    print(text(g))

# cumprod, cummax and cummin differentiated as JAX does (the JVP of their associative scan):
# lengths 1, 2, 5, 8 and 13 along the axis (each parity at each level of the recursion), axis 0
# and 1, reverse, f32 and f64; cumprod's inputs hold a zero, cummax's and cummin's ties (a pair
# of equal neighbours and an element equal to the running extremum before it, where the 0.5
# split shows). Printed: the input, a tangent, the JVP's tangent out, and the gradient of
# sum(w * f(x)) with w = 1, 2, ... in x's dtype (for the (2, 13) cases also the gradient of
# that gradient's inner product with the tangent: second order).
cum_fns = {"cumprod": lax.cumprod, "cummax": lax.cummax, "cummin": lax.cummin}
cum_shapes = [  # (shape, axis, reverse, dtype)
    ((1, 3), 0, False, np.float64),
    ((3, 2), 1, True, np.float64),
    ((5, 3), 0, False, np.float64),
    ((2, 8), 1, True, np.float64),
    ((2, 13), 1, False, np.float64),
    ((13, 2), 0, True, np.float32),
    ((3, 8), 1, False, np.float32),
    ((5, 2), 0, True, np.float32),
]
crng = np.random.default_rng(19)
for prim, f in cum_fns.items():
    for shape, axis, rev, dt in cum_shapes:
        n = shape[axis]
        name = f"{prim}_n{n}_axis{axis}{'_rev' if rev else ''}_{np.dtype(dt).name}"
        # Lines along the axis as rows of v, written back at the end.
        v = np.moveaxis(crng.standard_normal(shape), axis, -1)
        if prim == "cumprod":
            v = np.sign(v) * (0.6 + 0.8 * np.abs(np.tanh(v)))  # magnitudes in [0.6, 1.4)
            if n >= 2:
                v[0, n // 2] = 0.0
        else:
            v = np.round(v * 4) / 4  # quarter steps: ties in the arithmetic too are exact
            pick = np.maximum if prim == "cummax" else np.minimum
            if n >= 2:
                v[:, 1] = v[:, 0]  # a tie inside the first pair
            if n >= 4:
                j = n - 2 if not rev else 1
                # the running extremum in the scan's direction, reached again at j
                seen = v[:, :j] if not rev else v[:, j + 1:]
                v[:, j] = pick.reduce(seen, axis=1)
        x = np.moveaxis(v, -1, axis).astype(dt)
        t = crng.standard_normal(shape).astype(dt)
        g_fn = lambda u, f=f, axis=axis, rev=rev: f(u, axis=axis, reverse=rev)
        _, ty = jax.jvp(g_fn, (x,), (t,))
        w = np.arange(1.0, 1.0 + x.size).reshape(shape).astype(dt)
        g = jax.grad(lambda u: jnp.sum(w * g_fn(u)))(x)
        print(f"=== input {name}")
        print(" ".join(str(d) for d in shape))
        print(text(x))
        print(f"=== tangent {name}")
        print(text(t))
        print(f"=== cumjvp {name}")
        print(text(ty))
        print(f"=== cumgrad {name}")
        print(text(g))
        if n == 13 and axis == 1:  # second order: d/dx <grad(sum(w * f))(x), t>
            loss = lambda u: jnp.sum(w * g_fn(u))
            print(f"=== cumgrad2 {name}")
            print(text(jax.grad(lambda u: jnp.vdot(jax.grad(loss)(u), t))(x)))

# A realistic program: top-5 accuracy of f32 logits (64 examples, 100 classes) against labels,
# and the mean of the top-5 softmax probabilities' sum, both as JAX computes them.
n, c = 64, 100
i, j = np.meshgrid(np.arange(n), np.arange(c), indexing="ij")
# Integer arithmetic, then one correctly rounded division: the C++ test makes the same floats.
logits = (((i * 7919 + j * 104729 + i * j * 31) % 1009) / 100.0 - 5.0).astype(np.float32)
# Example k's label is its class of rank k % 8 (0: the largest logit): ranks 0-4 are top-5 hits.
labels = np.array([np.argsort(-logits[k], kind="stable")[k % 8] for k in range(n)], np.int32)


def topk_accuracy(lg, lb):
    _, idx = lax.top_k(lg, 5)
    hit = jnp.any(idx == lb[:, None], axis=1)
    p = jax.nn.softmax(lg, axis=1)
    top_p, _ = lax.top_k(p, 5)
    return jnp.mean(hit.astype(jnp.float32)), jnp.mean(jnp.sum(top_p, axis=1))


acc, mass = jax.jit(topk_accuracy)(logits, labels)
print("=== topk_accuracy")
print(text(np.float32(acc)), text(np.float32(mass)))

jax.config.update("jax_enable_x64", False)
o = jnp.ones((2, 3), jnp.float32)
jaxprs = {
    "cumsum": (lambda v: jnp.cumsum(v, axis=1), o),
    "cumsum_flat": (jnp.cumsum, o),
    "cumsum_bool": (lambda v: jnp.cumsum(v, axis=1), o > 0),
    "lax_cumsum_rev": (lambda v: lax.cumsum(v, axis=0, reverse=True), o),
    "cumprod": (lambda v: jnp.cumprod(v, axis=0), o),
    "lax_cummax": (lambda v: lax.cummax(v, axis=1), o),
    "lax_cummin_rev": (lambda v: lax.cummin(v, axis=1, reverse=True), o),
    "sort": (jnp.sort, o),
    "sort_axis0": (lambda v: jnp.sort(v, axis=0), o),
    "sort_desc": (lambda v: jnp.sort(v, descending=True), o),
    "sort_unstable": (lambda v: jnp.sort(v, stable=False), o),
    "argsort": (jnp.argsort, o),
    "argsort_desc": (lambda v: jnp.argsort(v, descending=True), o),
    "argsort_axis0": (lambda v: jnp.argsort(v, axis=0), o),
    "top_k": (lambda v: lax.top_k(v, 2), o),
    "lax_sort_2": (lambda v: lax.sort((v, v * 2), dimension=0, num_keys=1), o),
}
for name, (f, v) in jaxprs.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(v))

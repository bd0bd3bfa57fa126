# Prints tests/golden/nn_goldens.txt: JAX 0.10.2's jaxprs (f32[2,3]), f64 values and gradients
# of jax.nn's functions, jnp.var/std and jnp.linalg.norm, which tests/test_nn_golden.cpp reads.
# Run: /tmp/jaxenv/bin/python tests/golden/nn_goldens.py > tests/golden/nn_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)
inf = np.inf


def hexs(v):
    return " ".join(float(x).hex() for x in np.asarray(v, np.float64).ravel())


# Each case: a function of one f64/f32 array x (its other arguments fixed).
cases = {
    "relu": jax.nn.relu,
    "softplus": jax.nn.softplus,
    "gelu": jax.nn.gelu,
    "gelu_exact": lambda x: jax.nn.gelu(x, approximate=False),
    "silu": jax.nn.silu,
    "sigmoid": jax.nn.sigmoid,
    "log_softmax": jax.nn.log_softmax,
    "log_softmax_axis0": lambda x: jax.nn.log_softmax(x, axis=0),
    "softmax": jax.nn.softmax,
    "softmax_axis0": lambda x: jax.nn.softmax(x, axis=0),
    "softmax_all": lambda x: jax.nn.softmax(x, axis=None),
    "logsumexp": jax.nn.logsumexp,
    "logsumexp_axis1_keepdims": lambda x: jax.nn.logsumexp(x, axis=1, keepdims=True),
    "logsumexp_b": lambda x: jax.nn.logsumexp(x, axis=1, b=x + 2),
    "logsumexp_b_sign": lambda x: jax.nn.logsumexp(x, b=x, return_sign=True),
    "logaddexp": lambda x: jnp.logaddexp(x, 1.0),
    "logaddexp2": lambda x: jnp.logaddexp2(x, x[0]),
    "var": jnp.var,
    "var_axis1_ddof1": lambda x: jnp.var(x, axis=1, ddof=1),
    "std": jnp.std,
    "std_axis1_ddof1_keepdims": lambda x: jnp.std(x, axis=1, ddof=1, keepdims=True),
    "norm": jnp.linalg.norm,
    "norm_axis1": lambda x: jnp.linalg.norm(x, axis=1),
    "norm_ord1_axis1": lambda x: jnp.linalg.norm(x, 1, axis=1),
    "norm_inf_axis1": lambda x: jnp.linalg.norm(x, inf, axis=1),
    "norm_neginf_axis1": lambda x: jnp.linalg.norm(x, -inf, axis=1),
    "norm_ord0_axis1": lambda x: jnp.linalg.norm(x, 0, axis=1),
    "norm_ord3_axis0_keepdims": lambda x: jnp.linalg.norm(x, 3, axis=0, keepdims=True),
    "norm_fro": lambda x: jnp.linalg.norm(x, "fro", axis=(0, 1)),
    "norm_mat1": lambda x: jnp.linalg.norm(x, 1, axis=(0, 1)),
    "norm_matinf": lambda x: jnp.linalg.norm(x, inf, axis=(0, 1)),
    "norm_matneg1": lambda x: jnp.linalg.norm(x, -1, axis=(0, 1)),
    "norm_matneginf": lambda x: jnp.linalg.norm(x, -inf, axis=(0, 1)),
}
# No derivative to compare (integer-valued) or not differentiable at the test points.
no_grad = {"norm_ord0_axis1"}

x = np.array([[-1.5, 0.0, 2.0], [0.5, -3.0, 1.0]], np.float64)
w = np.array([[0.3, -1.2, 0.7], [1.1, 0.4, -0.5]], np.float64)
x_inf = np.array([[-inf, 0.0, 1.0], [2.0, -inf, -inf]], np.float64)


def weighted(f, x):
    out = f(x)
    outs = out if isinstance(out, tuple) else (out,)
    r = outs[0]
    return jnp.sum(r * w.ravel()[: r.size].reshape(r.shape))


print("=== input x")
print(hexs(x))
print("=== input w")
print(hexs(w))
print("=== input x_inf")
print(hexs(x_inf))
for name, f in cases.items():
    out = jax.jit(f)(x)
    print(f"=== values {name}")
    for o in out if isinstance(out, tuple) else (out,):
        print(hexs(o))
    if name not in no_grad:
        print(f"=== grad {name}")
        print(hexs(jax.grad(lambda v: weighted(f, v))(x)))

# -inf inputs: softmax and logsumexp stay finite where JAX's do.
for name in ["softmax", "log_softmax", "logsumexp", "softplus", "logaddexp", "relu"]:
    f = cases[name]
    print(f"=== values_inf {name}")
    print(hexs(jax.jit(f)(x_inf)))
    print(f"=== grad_inf {name}")
    print(hexs(jax.grad(lambda v: weighted(f, v))(x_inf)))

# +inf inputs: logaddexp's rule replaces +inf by 0 on both sides (derivative 1, not NaN).
x_pinf = x.copy()
x_pinf[0, 0] = inf
print("=== input x_pinf")
print(hexs(x_pinf))
for name in ["logaddexp", "softplus"]:
    f = cases[name]
    print(f"=== values_pinf {name}")
    print(hexs(jax.jit(f)(x_pinf)))
    print(f"=== grad_pinf {name}")
    print(hexs(jax.grad(lambda v: weighted(f, v))(x_pinf)))

# The norm's gradient at 0 (NaN for the 2-norm: sqrt's derivative at 0 times 0).
z = np.zeros((2, 3))
for name in ["norm", "norm_ord1_axis1", "norm_inf_axis1"]:
    print(f"=== grad_zero {name}")
    print(hexs(jax.grad(lambda v: weighted(cases[name], v))(z)))

# one_hot of int32 indices (not differentiable).
idx = np.array([0, 2, -1, 3], np.int32)
print("=== values one_hot")
print(hexs(jax.nn.one_hot(idx, 3)))
print("=== values one_hot_axis0")
print(hexs(jax.nn.one_hot(idx, 3, axis=0)))

jax.config.update("jax_enable_x64", False)
x32 = jnp.zeros((2, 3), jnp.float32)
for name, f in cases.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(x32))
i32 = jnp.zeros((4,), jnp.int32)
print("=== jaxpr one_hot")
print(jax.make_jaxpr(lambda i: jax.nn.one_hot(i, 3))(i32))
print("=== jaxpr one_hot_axis0")
print(jax.make_jaxpr(lambda i: jax.nn.one_hot(i, 3, axis=0))(i32))
print("=== jaxpr relu_int")
print(jax.make_jaxpr(jax.nn.relu)(i32))
print("=== jaxpr softplus_int")
print(jax.make_jaxpr(jax.nn.softplus)(i32))

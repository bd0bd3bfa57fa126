"""Goldens for tests/test_repeat_golden.cpp from JAX 0.10.2: jnp.repeat with an array of counts
(a NumPy array, a closed-over jnp array, a traced argument with total_repeat_length): values and
gradients in f64, jaxpr text at f32.
Run: python tests/golden/repeat_goldens.py > tests/golden/repeat_goldens.txt

Operand k of a case holds sin(0.37 i + 1.3 k + 0.1), i = 0, 1, ... in row-major order.
"""
import numpy as np
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)

cases = {
    "counts": (lambda a: jnp.repeat(a, np.array([1, 2, 0]), axis=0), (3, 4)),
    "counts_flat": (lambda a: jnp.repeat(a, np.array([2, 0, 1, 1, 3, 0])), (2, 3)),
    "one_count": (lambda a: jnp.repeat(a, np.array([2]), axis=-1), (3, 2)),
    # total_repeat_length below and above the counts' sum: counts past it are dropped, and the
    # last element fills the rest.
    "counts_short": (lambda a: jnp.repeat(a, jnp.array([2, 0, 1, 3]), axis=1,
                                          total_repeat_length=4), (3, 4)),
    "counts_long": (lambda a: jnp.repeat(a, np.array([1, 2, 0]), axis=0, total_repeat_length=5),
                    (3, 4)),
    "one_count_total": (lambda a: jnp.repeat(a, np.array([2]), axis=0, total_repeat_length=5),
                        (3, 4)),
    "scalar": (lambda a: jnp.repeat(a, np.array([3]), axis=0), ()),
}

# Empty results: the result's shape and values, and the jaxpr.
empty_cases = {
    "counts_zero": (lambda a: jnp.repeat(a, np.array([0, 0, 0]), axis=0), (3, 4)),
    "empty_axis": (lambda a: jnp.repeat(a, jnp.array([2]), axis=0, total_repeat_length=3),
                   (0, 3)),
}

# Traced counts, an argument of the function: (f, x's shape, the counts).
arg_cases = {
    "arg": (lambda a, r: jnp.repeat(a, r, axis=1, total_repeat_length=5), (3, 4), [2, 0, 1, 3]),
    "arg_one": (lambda a, r: jnp.repeat(a, r, total_repeat_length=5), (3,), [2]),
    "arg_2d": (lambda a, r: jnp.repeat(a, r, axis=0, total_repeat_length=6), (4, 3),
               [[1, 0], [3, 2]]),
    "arg_flat": (lambda a, r: jnp.repeat(a, r, total_repeat_length=7), (2, 3), [1, 1, 0, 2, 1, 3]),
    "arg_scalar": (lambda a, r: jnp.repeat(a, r, axis=0, total_repeat_length=4), (), [5]),
}


def operand(shape, k):
    n = int(np.prod(shape))
    return np.sin(0.37 * np.arange(n) + 1.3 * k + 0.1).reshape(shape)


def text(v):
    return " ".join(float(x).hex() for x in np.asarray(v, dtype=np.float64).ravel())


def values_and_grad(name, f, x):
    out = f(x)
    print(f"=== values {name}")
    print(" ".join(str(d) for d in np.shape(out)))
    print(text(out))
    w = np.arange(1.0, 1.0 + out.size).reshape(np.shape(out))
    g = jax.grad(lambda v: jnp.sum(w * f(v)))(x)
    print(f"=== grad {name}")
    print(text(g))


for name, (f, shape) in cases.items():
    values_and_grad(name, f, operand(shape, 0))
for name, (f, shape, r) in arg_cases.items():
    counts = jnp.array(r, jnp.int32)
    values_and_grad(name, jax.jit(lambda v, f=f, counts=counts: f(v, counts)), operand(shape, 0))
for name, (f, shape) in empty_cases.items():
    out = f(operand(shape, 0))
    print(f"=== shape {name}")
    print(" ".join(str(d) for d in np.shape(out)) + " : " + text(out))

jax.config.update("jax_enable_x64", False)
for name, (f, shape) in (cases | empty_cases).items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(jnp.ones(shape, jnp.float32)))
for name, (f, shape, r) in arg_cases.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(jnp.ones(shape, jnp.float32), jnp.ones(np.shape(r), jnp.int32)))
print("=== jaxpr grad_arg")
print(jax.make_jaxpr(jax.grad(lambda a, r: jnp.sum(jnp.repeat(a, r, axis=1,
                                                               total_repeat_length=5))))(
    jnp.ones((3, 4), jnp.float32), jnp.ones(4, jnp.int32)))

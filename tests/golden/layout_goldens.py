"""Goldens for tests/test_layout_golden.cpp from JAX 0.10.2: jnp.tril, jnp.triu and jnp.outer,
their jaxpr text at f32 and values and gradients in f64.
Run: python tests/golden/layout_goldens.py > tests/golden/layout_goldens.txt

Operand k of a case holds sin(0.37 i + 1.3 k + 0.1), i = 0, 1, ... in row-major order.
"""
import numpy as np
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)

cases = {
    "tril": (lambda a: jnp.tril(a), [(3, 4)]),
    "tril_k1": (lambda a: jnp.tril(a, 1), [(3, 4)]),
    "tril_km1": (lambda a: jnp.tril(a, -1), [(4, 3)]),
    "triu": (lambda a: jnp.triu(a), [(3, 4)]),
    "triu_k2": (lambda a: jnp.triu(a, 2), [(3, 4)]),
    "triu_batched": (lambda a: jnp.triu(a, -1), [(2, 3, 3)]),
    "outer": (lambda a, b: jnp.outer(a, b), [(3,), (4,)]),
    "outer_flattens": (lambda a, b: jnp.outer(a, b), [(2, 2), (3,)]),
}


def operand(shape, k):
    n = int(np.prod(shape))
    return np.sin(0.37 * np.arange(n) + 1.3 * k + 0.1).reshape(shape)


def text(v):
    return " ".join(float(x).hex() for x in np.asarray(v, dtype=np.float64).ravel())


for name, (f, shapes) in cases.items():
    xs = [operand(s, k) for k, s in enumerate(shapes)]
    out = f(*xs)
    print(f"=== values {name}")
    print(" ".join(str(d) for d in np.shape(out)))
    print(text(out))
    w = np.arange(1.0, 1.0 + out.size).reshape(np.shape(out))
    g = jax.grad(lambda v: jnp.sum(w * f(v, *xs[1:])))(xs[0])
    print(f"=== grad {name}")
    print(text(g))

jax.config.update("jax_enable_x64", False)
for name, (f, shapes) in cases.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(*[jnp.ones(s, jnp.float32) for s in shapes]))
print("=== jaxpr tril_int")
print(jax.make_jaxpr(jnp.tril)(jnp.ones((2, 2), jnp.int32)))
print("=== jaxpr outer_mixed")
print(jax.make_jaxpr(jnp.outer)(jnp.ones(2, jnp.int32), jnp.ones(3, jnp.float32)))

# Prints the JAX jaxprs that tests/test_lax_golden.cpp checks fusejit's text against: lax.cond,
# while_loop, fori_loop, scan (with captured values, JAX's forwarding rewrites, nesting) and
# nested jit. Run with JAX installed (pip install jax); the expected strings came from JAX 0.10.2:
#   python tests/golden/lax_goldens.py > tests/golden/lax_goldens.txt
import jax
import jax.numpy as jnp
from jax import lax

y3 = jnp.arange(3.0)  # a concrete array the functions close over
o3 = jnp.ones(3)


def while_seed(x, n):  # the g(x, n): i counts up to n
    i = lax.while_loop(lambda i: i < n, lambda i: i + 1, 0)
    return x + i


def while_forwarded(x, n):  # x is carried unchanged: JAX moves it to a body const
    i, x2 = lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1]), (0, x))
    return x2 + i


def long_body(c, x):  # more than 10 equations: the printer hoists the body as `let jaxpr = ...`
    for _ in range(6):
        x = x * 2.0 + 1.0
    return c + x, x


@jax.jit
def times_y3(y):
    return y * y3


@jax.jit
def dot_y3(y):
    return jnp.dot(y, y3)


def consts_body(x):
    return times_y3(x) + 1.0


def g(x):
    return x * 3


cases = {
    "cond": (lambda x: lax.cond(x > 0, lambda x: x, lambda x: 2 * x, x), (1.0,)),
    "cond_capture": (lambda x, z: lax.cond(x[0] > 0, lambda x: x + z, lambda x: x * y3, x),
                     (o3, 2.0)),
    "cond_int_pred": (lambda n, x: lax.cond(n, lambda x: x + 1.0, lambda x: x - 1.0, x),
                      (jnp.int32(3), jnp.float32(1.0))),
    "cond_concrete_pred": (lambda x: lax.cond(3, lambda x: x, lambda x: 2 * x, x), (1.0,)),
    "cond_two_operands": (lambda a, b: lax.cond(a > b, lambda a, b: (a - b, b), lambda a, b: (b - a, a), a, b),
                          (jnp.float32(1.0), jnp.float32(2.0))),
    "cond_passthrough": (lambda a, b: lax.cond(a > 0, lambda a, b: (a, b * 2), lambda a, b: (a, b), a, b),
                         (jnp.float32(1.0), jnp.float32(2.0))),
    "while_seed": (while_seed, (10, 20)),
    "while_forwarded": (while_forwarded, (10, 20)),
    "while_capture": (lambda x, n: lax.while_loop(lambda c: c < n, lambda c: c * x, jnp.float32(1.0)),
                      (jnp.float32(2.0), jnp.float32(100.0))),
    "fori_static": (lambda x: lax.fori_loop(0, 3, lambda i, c: c * 2.0, x), (1.0,)),
    "fori_static_uses_i": (lambda x: lax.fori_loop(2, 5, lambda i, c: c + i, x), (1.0,)),
    "fori_traced": (lambda x, n: lax.fori_loop(0, n, lambda i, c: c * 2.0, x), (1.0, 3)),
    # Bodies of several equations: JAX stages the counter's `i + 1` before them.
    "fori_static_body_eqns": (lambda x: lax.fori_loop(0, 3, lambda i, c: c * 2.0 + jnp.sin(c), x),
                              (1.0,)),
    "fori_traced_body_eqns": (lambda x, n: lax.fori_loop(0, n, lambda i, c: c * 2.0 + i, x),
                              (1.0, 3)),
    "scan_cumsum": (lambda x: lax.scan(lambda c, x: (c + x, c * x), 0.0, x), (o3,)),
    "scan_reverse": (lambda x: lax.scan(lambda c, x: (c + x, c), 0.0, x, reverse=True), (o3,)),
    "scan_tuple": (lambda a, b: lax.scan(lambda c, x: ((c[0] + x[0], c[1] * x[1]), x[0] * x[1]),
                                         (0.0, 1.0), (a, b)), (o3, o3)),
    "scan_forwarding": (lambda x: lax.scan(lambda c, x: (c, x), 0.0, x), (o3,)),
    "scan_capture": (lambda x, s: lax.scan(lambda c, x: (c + x * s, c * y3[0]), jnp.float32(0.0), x),
                     (o3, 2.0)),
    "scan_int_carry": (lambda x: lax.scan(lambda c, x: (c + 1, x * 2), 0, x), (o3,)),
    "scan_long_body": (lambda x: lax.scan(long_body, jnp.float32(0.0), x), (o3,)),
    "cond_in_scan": (lambda x: lax.scan(
        lambda c, x: (lax.cond(x > 0, lambda: c + x, lambda: c - x), c), 0.0, x), (o3,)),
    "nested_jit": (lambda x: jax.jit(jnp.sin)(x) + 1, (1.0,)),
    "nested_jit_shared": (lambda x: jax.jit(g)(x) + jax.jit(g)(x), (1.0,)),
    "nested_jit_capture": (lambda x: jax.jit(lambda y: y * y3 + x)(x) + 1, (o3,)),
    # A jit closing over concrete arrays only keeps them as constvars of its jaxpr, also once
    # transformed (jvp, vmap, grad's forward part; grad's backward part takes them as operands).
    "nested_jit_consts": (consts_body, (o3,)),
    "nested_jit_consts_jvp": (lambda x, t: jax.jvp(consts_body, (x,), (t,)), (o3, o3)),
    "nested_jit_consts_vmap": (jax.vmap(lambda x: dot_y3(x) + 1.0), (jnp.ones((2, 3)),)),
    "nested_jit_consts_grad": (jax.grad(lambda x: consts_body(x).sum()), (o3,)),
    "nested_jit_consts_twice": (lambda x: times_y3(x) + times_y3(x * 2), (o3,)),
}
for name, (f, args) in cases.items():
    print(f"=== {name}")
    print(jax.make_jaxpr(f)(*args))

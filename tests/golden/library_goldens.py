# Prints the JAX jaxprs that tests/test_library_ops.cpp checks fusejit's text against
# (dot_general, argmax/argmin, concatenate, stack, dynamic slices, the seeds' array programs).
# Run with JAX installed (pip install jax); the expected strings came from JAX 0.10.2.
import jax
import jax.numpy as jnp
from jax import lax

o = jnp.ones
x5 = jnp.arange(5.0)
w3 = jnp.array([2.0, 3.0, 4.0])


def convolve(x, w):
    return jnp.stack([jnp.dot(x[i - 1:i + 2], w) for i in range(1, len(x) - 1)])


def manually_vectorized_convolve(xs, ws):
    output = []
    for i in range(1, xs.shape[-1] - 1):
        output.append(jnp.sum(xs[:, i - 1:i + 2] * ws, axis=1))
    return jnp.stack(output, axis=1)


cases = {
    "dot": (lambda a, b: jnp.dot(a, b), (o((2, 3)), o((3, 4)))),
    "dot_vec": (lambda a, b: jnp.dot(a, b), (o(3), o(3))),
    "dot_nd_md": (lambda a, b: jnp.dot(a, b), (o((2, 2, 3)), o((4, 3, 5)))),
    "dot_mixed": (lambda a, b: jnp.dot(a, b), (o((2, 3)), o((3, 4), jnp.int32))),
    "matmul_batched": (lambda a, b: a @ b, (o((5, 2, 3)), o((5, 3, 4)))),
    "matmul_bcast_rhs": (lambda a, b: a @ b, (o((5, 2, 3)), o((3, 4)))),
    "matmul_squeeze_b1": (lambda a, b: a @ b, (o((5, 2, 3)), o((1, 3, 4)))),
    "matmul_broadcast_batch": (lambda a, b: a @ b, (o((2, 1, 2, 3)), o((5, 3, 4)))),
    "matmul_vec_mat": (lambda a, b: a @ b, (o(3), o((5, 3, 4)))),
    "matmul_int": (lambda a, b: a @ b, (o((2, 3), jnp.int32), o((3, 4), jnp.int32))),
    "xT_x": (lambda a: a.T @ a, (o((3, 2)),)),
    "lax_dot_general": (lambda a, b: lax.dot_general(a, b, (((0,), (1,)), ((2,), (0,)))),
                        (o((3, 2, 4)), o((4, 3, 5)))),
    "linear_relu": (lambda a, w, b: jnp.maximum(a @ w + b, 0), (o((2, 3)), o((3, 4)), o(4))),
    "argmax": (lambda a: jnp.argmax(a), (o((2, 3)),)),
    "argmax_axis": (lambda a: jnp.argmax(a, axis=1), (o((2, 3)),)),
    "argmin_keepdims": (lambda a: jnp.argmin(a, axis=0, keepdims=True), (o((2, 3)),)),
    "concatenate": (lambda a, b: jnp.concatenate([a, b]), (x5, w3)),
    "concatenate_promote": (lambda a, b: jnp.concatenate([a, b], axis=-1),
                            (o((2, 2), jnp.int32), o((2, 3)))),
    "stack": (lambda a, b: jnp.stack([a, b]), (w3, w3)),
    "stack_axis1": (lambda a, b: jnp.stack([a, b], axis=1), (w3, w3)),
    "dynamic_slice": (lambda a, i: lax.dynamic_slice(a, (i,), (2,)), (x5, jnp.int32(1))),
    "dynamic_slice_2d": (lambda a, i, j: lax.dynamic_slice(a, (i, j), (1, 2)),
                         (o((2, 3)), jnp.int32(1), jnp.int32(0))),
    "dynamic_update_slice": (lambda a, u, i: lax.dynamic_update_slice(a, u, (i,)),
                             (x5, w3[:2], jnp.int32(1))),
    "mean_int": (lambda a: jnp.mean(a), (jnp.arange(4),)),
    "convolve": (convolve, (x5, w3)),
    "sum_of_squares_plus_sin": (lambda x: jnp.sum(x ** 2 + jnp.sin(x)), (x5,)),
    "manually_vectorized_convolve": (manually_vectorized_convolve,
                                     (jnp.stack([x5, x5]), jnp.stack([w3, w3]))),
}
for name, (f, args) in cases.items():
    print(f"=== {name}")
    print(jax.make_jaxpr(f)(*args))

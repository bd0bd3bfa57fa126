# Prints the JAX jaxprs that tests/test_jaxpr_golden.cpp checks fusejit's text against.
# Run with JAX installed (pip install jax); the expected strings in the test came from JAX 0.10.2.
import jax
import jax.numpy as jnp


def log2(x):
    ln_x = jnp.log(x)
    ln_2 = jnp.log(2.0)
    return ln_x / ln_2


def log2_if_rank_2(x):
    if x.ndim == 2:
        return jnp.log(x) / jnp.log(2.0)
    return x


def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


def many_adds(x):
    for _ in range(30):
        x = x + 1.0
    return x


c = jnp.arange(3.0)
cases = {
    "log2": (log2, (3.0,)),
    "log2_strong_arg": (log2, (jnp.float32(3.0),)),
    "log2_if_rank_2": (log2_if_rank_2, (jnp.array([1, 2, 3]),)),
    "x_times_y_plus_2": (lambda x, y: x * y + 2, (jnp.ones(3), jnp.ones(3))),
    "selu": (selu, (jnp.arange(5.0),)),
    "int_plus_float": (lambda x: x + 1.5, (jnp.arange(3),)),
    "rank_promotion": (lambda x, y: x + y, (jnp.ones((2, 3)), jnp.ones(3))),
    "weak_scalar_arg": (lambda x, y: x + y, (jnp.ones((2, 3)), 1.0)),
    "exp_of_int": (lambda x: jnp.exp(x), (jnp.arange(3),)),
    "remainder_float": (lambda x: x % 2.0, (jnp.arange(3.0),)),
    "remainder_int": (lambda x: x % 2, (jnp.arange(3),)),
    "clip": (lambda x: jnp.clip(x, 0.0, 1.0), (jnp.arange(3.0),)),
    "shared_where": (lambda x: jnp.where(x > 1, x, -x) + jnp.where(x < 0, x, 2 * x), (jnp.arange(3.0),)),
    "where_literals": (lambda x: jnp.where(x > 1, 1.0, 0.0), (jnp.arange(3.0),)),
    "many_adds": (many_adds, (1.0,)),
    "captured_constant": (lambda x: (x + c, x), (jnp.arange(3.0),)),
    "dropped_output": (lambda x: (jnp.exp(x), x + 1.0)[1], (jnp.float32(3.0),)),
    "astype": (lambda x: x.astype(jnp.int32), (jnp.arange(3.0),)),
    "unary_chain": (lambda x: jnp.sqrt(x) + jax.lax.rsqrt(x) + jnp.tanh(x) + jax.nn.sigmoid(x)
                    + jax.scipy.special.erf(x) + jnp.floor(x) + jnp.abs(x), (jnp.arange(3.0),)),
    "logic": (lambda x: jnp.logical_and(x > 1, x < 2) | jnp.logical_not(x == 0), (jnp.arange(3.0),)),
}
for name, (f, args) in cases.items():
    print(f"=== {name}")
    print(jax.make_jaxpr(f)(*args))

# Shape ops, static indexing, iota and creation functions (tests/test_shape_golden.cpp).
from jax import lax

x23 = jnp.ones((2, 3))
x56 = jnp.ones((5, 6))
shape_cases = {
    "flip_all": (jnp.flip, (x23,)),
    "flip_axes": (lambda x: jnp.flip(x, (1, 0)), (x23,)),
    "flip_negative_axis": (lambda x: jnp.flip(x, -1), (jnp.arange(3),)),
    "flip_twice_shared": (lambda x: jnp.flip(x) + jnp.flip(x * 2), (x23,)),
    "squeeze_all": (jnp.squeeze, (jnp.ones((1, 3, 1)),)),
    "squeeze_axes": (lambda x: jnp.squeeze(x, (-1, 0)), (jnp.ones((1, 3, 1)),)),
    "squeeze_nothing": (jnp.squeeze, (x23,)),
    "expand_dims": (lambda x: jnp.expand_dims(x, (0, 3)), (x23,)),
    "expand_dims_negative": (lambda x: jnp.expand_dims(x, -1), (x23,)),
    "broadcast_to": (lambda x: jnp.broadcast_to(x, (5, 2, 3)), (jnp.ones((1, 3)),)),
    "broadcast_to_scalar": (lambda x: jnp.broadcast_to(x, (3,)), (jnp.float32(2),)),
    "transpose_3d": (lambda x: x.T, (jnp.ones((2, 3, 4)),)),
    "transpose_1d": (lambda x: x.T, (jnp.ones(4),)),
    "index_range_int": (lambda x: x[1:4, 2], (x56,)),
    "index_negative_int": (lambda x: x[-1], (x56,)),
    "index_two_ints": (lambda x: x[0, 1], (x56,)),
    "index_negative_step": (lambda x: x[4:0:-2], (x56,)),
    "index_reverse": (lambda x: x[::-1], (x56,)),
    "index_clamped": (lambda x: x[1:100, ::2], (x56,)),
    "index_whole": (lambda x: x[:, :], (x56,)),
    "index_empty": (lambda x: x[3:1], (x56,)),
    "index_reverse_stride": (lambda x: x[:, ::-4], (x56,)),
    "iota": (lambda: lax.iota(jnp.int32, 5), ()),
    "iota_where": (lambda x: jnp.where(lax.broadcasted_iota(jnp.int32, (2, 3), 1) > 0, x, 0.0), (x23,)),
    "sum_flip_iota": (lambda x: jnp.sum(jnp.flip(x) * lax.iota(jnp.float32, 6)), (jnp.ones(6),)),
    "eye": (lambda: jnp.eye(3), ()),
    "eye_rect_k": (lambda: jnp.eye(3, 4, k=1), ()),
    "eye_bool": (lambda: jnp.eye(2, dtype=bool), ()),
    "zeros_like": (jnp.zeros_like, (x23,)),
    "ones_like_bool": (jnp.ones_like, (jnp.ones(3, bool),)),
    "full_like_int": (lambda x: jnp.full_like(x, 3.5), (jnp.arange(3),)),
    "full_like_dtype": (lambda x: jnp.full_like(x, 2, dtype=jnp.int32), (x23,)),
    "zeros_like_scalar": (jnp.zeros_like, (jnp.float32(1),)),
    "linspace_one": (lambda: jnp.linspace(0, 1, 1), ()),
    "linspace_zero": (lambda: jnp.linspace(0, 1, 0), ()),
    "astype": (lambda x: x.astype(jnp.int32), (x23,)),
    "reshape_method": (lambda x: x.reshape(-1), (x23,)),
}
for name, (f, args) in shape_cases.items():
    print(f"=== {name}")
    print(jax.make_jaxpr(f)(*args))

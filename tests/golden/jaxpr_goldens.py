# Prints the JAX jaxprs that tests/test_jaxpr_golden.cpp, test_int_ops_golden.cpp,
# test_floor_divide_golden.cpp and test_shape_golden.cpp check fusejit's text against (JAX 0.10.2):
#   python tests/golden/jaxpr_goldens.py > tests/golden/jaxpr_goldens.txt
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
    # Issue 50: on f32[3] the weak log(2.0) is converted to strong f32 before the div, as on f32[].
    "log2_vector": (log2, (jnp.ones(3),)),
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
# Integer and bit operations, integer powers, floor division (tests/test_int_ops_golden.cpp,
# tests/test_floor_divide_golden.cpp).
i3 = jnp.arange(3)
u3 = jnp.arange(3, dtype=jnp.uint32)
b3 = jnp.array([True, False, True])
cases.update({
    "bitwise_and_scalar": (lambda x: x & 3, (i3,)),
    "bitwise_xor_bool": (lambda x, y: x ^ y, (b3, b3)),
    "bitwise_not_int": (lambda x: ~x, (i3,)),
    "bitwise_not_bool": (lambda x: ~x, (b3,)),
    "bitwise_rank_promotion": (lambda x, y: (x & y) | (x ^ ~y), (jnp.ones((2, 3), jnp.int32), i3)),
    "bool_and_int_scalar": (lambda x: x & 1, (b3,)),
    "shift_left": (lambda x: x << 2, (i3,)),
    "right_shift_signed": (lambda x: x >> 2, (i3,)),
    "right_shift_unsigned": (lambda x: x >> 2, (u3,)),
    "shifts_unsigned": (lambda x: (x << 3) >> 1, (u3,)),
    "shift_bool": (lambda x: x << 1, (b3,)),
    "left_shift_arrays": (lambda x, y: jnp.left_shift(x, y), (i3, i3)),
    "integer_pow_2": (lambda x: x ** 2, (jnp.arange(3.0),)),
    "integer_pow_neg": (lambda x: x ** -2, (jnp.arange(3.0),)),
    "power_int": (lambda x: jnp.power(x, 3), (i3,)),
    "integer_pow_bool": (lambda x: x ** 2, (b3,)),
    "lax_integer_pow": (lambda x: jax.lax.integer_pow(x, 5) + 1.0, (jnp.arange(3.0),)),
    "floor_divide_int": (lambda x, y: x // y, (i3, i3)),
    "floor_divide_int_scalar": (lambda x: x // 2, (i3,)),
    "floor_divide_float_scalar": (lambda x: x // 2.0, (jnp.arange(3.0),)),
    "floor_divide_unsigned": (lambda x, y: x // y, (u3, u3)),
    "floor_divide_float": (lambda x, y: jnp.floor_divide(x, y), (jnp.arange(3.0), jnp.arange(3.0))),
    "floor_divide_rank": (lambda x, y: x // y, (jnp.ones((2, 3), jnp.int32), i3)),
    "floor_divide_rank_float": (lambda x, y: x // y, (jnp.ones((2, 3)), jnp.ones((1, 3)))),
    "floor_divide_scalar_left": (lambda x: 7 // x, (i3,)),
    "floor_divide_bool": (lambda x, y: x // y, (b3, b3)),
    "floor_divide_mixed": (lambda x, y: x // y, (i3, jnp.arange(3.0))),
    "remainder_arrays": (lambda x, y: x % y, (i3, i3)),
    "remainder_rank": (lambda x, y: x % y, (jnp.ones((2, 3), jnp.int32), i3)),
    "power_int_arrays": (lambda x, y: jnp.power(x, y), (i3, i3)),
    "power_int_rank": (lambda x, y: x ** y, (jnp.ones((2, 3), jnp.int32), i3)),
    "power_scalar_base": (lambda x: 2 ** x, (i3,)),
    "where_scalar_cond": (lambda c, x, y: jnp.where(c, x, y), (True, jnp.ones(3), jnp.ones(3))),
    # A Python float passed to the _where jit prints as itself (0.1), not rounded to f32.
    "where_python_float": (lambda x: jnp.where(x > 0, x, 0.1), (jnp.ones(3),)),
})
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
    "astype_method": (lambda x: x.astype(jnp.int32), (x23,)),
    "reshape_method": (lambda x: x.reshape(-1), (x23,)),
    # A reduction over no axes (a scalar, or axis=()) is still staged.
    "sum_mean_scalar": (lambda x: (jnp.sum(x), jnp.mean(x)), (jnp.ones(()),)),
    "max_no_axes": (lambda x: jnp.max(x, axis=()), (jnp.ones(3),)),
}
for name, (f, args) in shape_cases.items():
    print(f"=== {name}")
    print(jax.make_jaxpr(f)(*args))

# Prints what tests/test_lax_table_golden.cpp checks fusejit's jax.lax functions
# (include/fusejit/api/lax_functions.hpp) against: for each row of its table, JAX 0.10.2's
# result (dtype, shape, values) on the named inputs, x64 off as by default, and for the rows
# that are one primitive the make_jaxpr text.
#   cd tests/golden && python lax_table_goldens.py > lax_table_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from golden_print import print_inputs, shape_and_values

f32, i32 = np.float32, np.int32
inputs = {
    "x": np.array([[2.5, -1.5, 0.5, -0.5], [3.0, -7.25, 1e30, -0.0], [np.nan, np.inf, -np.inf, 6.5]],
                  f32),
    "y": np.array([[1.5, -1.5, 2.0, 0.25], [-3.0, 2.0, 1e30, 0.0], [1.0, np.inf, 4.0, -6.5]], f32),
    "i": np.array([[7, -7, 7, -7], [0, 5, -9, 100], [1, -1, 2147483647, -2147483648]], i32),
    "j": np.array([[3, 3, -3, -3], [5, 2, 4, 7], [1, 3, 1, 1]], i32),
    "s": np.array([[0, 1, 31, 3], [4, 0, 1, 2], [1, 5, 1, 32]], i32),
    "c": (np.arange(24, dtype=f32).reshape(2, 3, 4) - 7.0),
    "v": np.array([3.0, 1.0, 4.0, 1.0, 5.0], f32),
    "b": np.array([[True, False, True, True], [False, False, True, False],
                   [True, True, True, True]]),
    "a": np.arange(12, dtype=f32).reshape(2, 2, 3) * 0.5 - 1.0,
    "w": np.arange(18, dtype=f32).reshape(2, 3, 3) * 0.25 - 2.0,
}
print_inputs(inputs)
x, y, i, j, s, c, v, b, a, w = (jnp.asarray(inputs[q]) for q in "x y i j s c v b a w".split())

# name -> (function, argument names, whether its jaxpr text is checked: one primitive).
rows = {
    "sub": (lambda p, q: lax.sub(p, q), "xy", True),
    "mul": (lambda p, q: lax.mul(p, q), "xy", True),
    "div": (lambda p, q: lax.div(p, q), "xy", True),
    "div_int": (lambda p, q: lax.div(p, q), "ij", True),
    "max": (lambda p, q: lax.max(p, q), "xy", True),
    "min": (lambda p, q: lax.min(p, q), "xy", True),
    "eq": (lambda p, q: lax.eq(p, q), "xy", True),
    "ne": (lambda p, q: lax.ne(p, q), "xy", True),
    "lt": (lambda p, q: lax.lt(p, q), "xy", True),
    "le": (lambda p, q: lax.le(p, q), "ij", True),
    "gt": (lambda p, q: lax.gt(p, q), "ij", True),
    "ge": (lambda p, q: lax.ge(p, q), "xy", True),
    "shift_left": (lambda p, q: lax.shift_left(p, q), "is", True),
    "shift_right_arithmetic": (lambda p, q: lax.shift_right_arithmetic(p, q), "is", True),
    "shift_right_logical": (lambda p, q: lax.shift_right_logical(p, q), "is", True),
    "neg": (lambda p: lax.neg(p), "x", True),
    "neg_int": (lambda p: lax.neg(p), "i", True),
    "round": (lambda p: lax.round(p), "x", True),
    "round_even": (lambda p: lax.round(p, lax.RoundingMethod.TO_NEAREST_EVEN), "x", True),
    "select": (lambda p, q, r: lax.select(p, q, r), "bxy", True),
    "select_n": (lambda p, q, r: lax.select_n(p, q, r), "bxy", True),
    "reduce_sum": (lambda p: lax.reduce_sum(p, (0, 2)), "c", True),
    "reduce_prod": (lambda p: lax.reduce_prod(p, (1,)), "c", True),
    "reduce_max": (lambda p: lax.reduce_max(p, (1,)), "x", True),
    "reduce_min": (lambda p: lax.reduce_min(p, (0, 1)), "x", True),
    "reduce_and": (lambda p: lax.reduce_and(p, (1,)), "b", True),
    "reduce_or": (lambda p: lax.reduce_or(p, (0,)), "b", True),
    "rev": (lambda p: lax.rev(p, (0, 2)), "c", True),
    "broadcast_in_dim": (lambda p: lax.broadcast_in_dim(p, (2, 5, 3), (1,)), "v", True),
    "broadcast": (lambda p: lax.broadcast(p, (2, 1)), "v", True),
    "broadcast_to_rank": (lambda p: lax.broadcast_to_rank(p, 3), "v", True),
    "broadcasted_iota": (lambda: lax.broadcasted_iota(jnp.int32, (2, 3), 1), "", True),
    "collapse": (lambda p: lax.collapse(p, 1, 3), "c", True),
    "collapse_to_end": (lambda p: lax.collapse(p, 0), "c", True),
    "convert_element_type": (lambda p: lax.convert_element_type(p, jnp.int32), "v", True),
    "slice_in_dim": (lambda p: lax.slice_in_dim(p, 1, None, 2, axis=2), "c", True),
    "slice_in_dim_negative": (lambda p: lax.slice_in_dim(p, -3, -1, 1, axis=1), "c", True),
    "index_in_dim": (lambda p: lax.index_in_dim(p, -1, axis=1), "c", False),
    "index_in_dim_squeezed": (lambda p: lax.index_in_dim(p, 1, axis=2, keepdims=False), "c",
                              False),
    "dynamic_slice_in_dim": (lambda p: lax.dynamic_slice_in_dim(p, 2, 2, axis=2), "c", False),
    "dynamic_slice_in_dim_clamped": (lambda p: lax.dynamic_slice_in_dim(p, 3, 3, axis=2), "c",
                                     False),
    "dynamic_index_in_dim": (lambda p: lax.dynamic_index_in_dim(p, 1, axis=1, keepdims=False),
                             "c", False),
    "dynamic_update_slice_in_dim": (
        lambda p, q: lax.dynamic_update_slice_in_dim(p, q[:, :2], 1, axis=1), "xy", False),
    "dynamic_update_index_in_dim": (
        lambda p, q: lax.dynamic_update_index_in_dim(p, q[0], 2, axis=0), "xy", False),
    "full": (lambda: lax.full((2, 3), 1.5), "", False),
    "full_int": (lambda: lax.full((3,), 7), "", False),
    "full_like": (lambda p: lax.full_like(p, 2), "v", False),
    "full_like_dtype": (lambda p: lax.full_like(p, 2, jnp.int32, (2, 2)), "v", False),
    "sort_key_val_keys": (lambda p, q: lax.sort_key_val(p, q)[0], "xy", False),
    "sort_key_val_values": (lambda p, q: lax.sort_key_val(p, q, dimension=0)[1], "xy", False),
    "unstack_1": (lambda p: lax.unstack(p, axis=1)[1], "c", False),
    "batch_matmul": (lambda p, q: lax.batch_matmul(p, q), "aw", True),
}
texts = {}
for name, (f, args, text) in rows.items():
    ops = [jnp.asarray(inputs[q]) for q in args]
    r = f(*ops)
    print(f"=== values {name}")
    print(r.dtype.name)
    print(shape_and_values(r, float))
    if text:
        texts[name] = jax.make_jaxpr(f)(*ops)
for name, t in texts.items():
    print(f"=== jaxpr {name}")
    print(t)

# Prints what tests/test_jnp_table_golden.cpp checks fusejit's jax.numpy compositions against:
# one `values` section per row of its table, JAX 0.10.2's result for the call the row names
# (f64 inputs, x64 on), so that adding a function is a row here and a row there.
#   python tests/golden/jnp_table_goldens.py > tests/golden/jnp_table_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np

from golden_print import print_inputs, shape_and_values

jax.config.update("jax_enable_x64", True)
nan, inf = float("nan"), float("inf")
inputs = {
    "m": np.array([[3.0, -1.0, 4.0, 1.0], [5.0, 9.0, -2.0, 6.0], [5.0, 3.0, 5.0, -8.0]]),
    "n": np.array([[3.0, nan, 4.0, 1.0], [nan, nan, nan, nan], [5.0, 3.0, nan, -8.0]]),
    "c": np.arange(24.0).reshape(2, 3, 4) - 7.0,
    "v": np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0]),
    "u": np.array([2.0, 7.0, 1.0, 8.0, 2.0, 8.0, 1.0]),
    "a3": np.array([[1.0, 2.0, 3.0], [-4.0, 0.5, 2.0]]),
    "b3": np.array([[0.5, -1.0, 2.0], [3.0, 1.0, -2.0]]),
    "e": np.array([-2.5, -1.0, 0.0, 0.5, 1.0, 2.75, nan, inf, -inf]),
    "p": np.array([2.0, -3.0, 0.5, 1.0]),
    "k": np.array([[1.0, 2.0], [3.0, 4.0]]),
    "s": np.array([0.0, 1.0, 2.5, 4.0]),
}
print_inputs(inputs)
m, n, c, v, u, a3, b3, e, p, k, s = (jnp.asarray(inputs[q]) for q in
                                      ["m", "n", "c", "v", "u", "a3", "b3", "e", "p", "k", "s"])

values = {
    # NaN-ignoring reductions.
    "nansum": jnp.nansum(n),
    "nansum_axis1": jnp.nansum(n, axis=1),
    "nanprod_axis0_keepdims": jnp.nanprod(n, axis=0, keepdims=True),
    "nanmax_axis1": jnp.nanmax(n, axis=1),
    "nanmin_axis0": jnp.nanmin(n, axis=0),
    "nanmean_axis1": jnp.nanmean(n, axis=1),
    "nanmean": jnp.nanmean(n),
    "nanvar_axis1_ddof1": jnp.nanvar(n, axis=1, ddof=1),
    "nanstd_axis0": jnp.nanstd(n, axis=0),
    "nanargmax_axis1": jnp.nanargmax(n, axis=1),
    "nanargmin": jnp.nanargmin(n),
    "nancumsum_axis1": jnp.nancumsum(n, axis=1),
    "nancumprod": jnp.nancumprod(n),
    "nansum_int": jnp.nansum(m.astype(jnp.int32), axis=0),
    # Stacking, splitting and moving axes.
    "hstack_1d": jnp.hstack([v, u]),
    "hstack_2d": jnp.hstack([m, k[:, :1].repeat(3, 0)[:3]]),
    "vstack": jnp.vstack([v, u]),
    "dstack": jnp.dstack([m, m]),
    "column_stack": jnp.column_stack([v, u, v]),
    "atleast_2d": jnp.atleast_2d(v),
    "atleast_3d": jnp.atleast_3d(m),
    "atleast_1d_scalar": jnp.atleast_1d(jnp.float64(2.5)),
    "moveaxis": jnp.moveaxis(c, 0, -1),
    "moveaxis_two": jnp.moveaxis(c, (0, 2), (2, 0)),
    "swapaxes": jnp.swapaxes(c, 0, 2),
    "permute_dims": jnp.permute_dims(c, (1, 2, 0)),
    "matrix_transpose": jnp.matrix_transpose(c),
    "fliplr": jnp.fliplr(m),
    "flipud": jnp.flipud(m),
    "split_sections_1": jnp.split(m, 2, axis=1)[1],
    "split_indices_0": jnp.split(v, [2, 5])[0],
    "split_indices_2": jnp.split(v, [2, 5])[2],
    "array_split_0": jnp.array_split(v, 3)[0],
    "array_split_2": jnp.array_split(v, 3)[2],
    "hsplit_1": jnp.hsplit(m, 2)[1],
    "vsplit_2": jnp.vsplit(m, 3)[2],
    # Tensor products.
    "tensordot_1": jnp.tensordot(m, m.T, axes=1),
    "tensordot_pairs": jnp.tensordot(c, m, axes=([1, 2], [0, 1])),
    "inner": jnp.inner(a3, b3),
    "vdot": jnp.vdot(m, m),
    "vecdot": jnp.vecdot(a3, b3),
    "matvec": jnp.matvec(m, m[0]),
    "vecmat": jnp.vecmat(m[:, 0], m),
    "kron": jnp.kron(k, m[:2, :3]),
    "kron_ranks": jnp.kron(v[:2], k),
    "cross": jnp.cross(a3, b3),
    "cross_2d": jnp.cross(a3[:, :2], b3[:, :2]),
    # Grids and sequences.
    "meshgrid_xy_0": jnp.meshgrid(v[:3], u[:2])[0],
    "meshgrid_xy_1": jnp.meshgrid(v[:3], u[:2])[1],
    "meshgrid_ij_1": jnp.meshgrid(v[:3], u[:2], indexing="ij")[1],
    "indices": jnp.indices((2, 3)),
    "logspace": jnp.logspace(0.0, 3.0, num=4),
    "logspace_base2": jnp.logspace(0.0, 4.0, num=5, endpoint=False, base=2.0),
    "geomspace": jnp.geomspace(1.0, 1000.0, num=4),
    "geomspace_negative": jnp.geomspace(-2.0, -32.0, num=5),
    "tri": jnp.tri(3, 4, k=1),
    "identity": jnp.identity(3),
    # Statistics and polynomials.
    "average": jnp.average(m),
    "average_weights_axis1": jnp.average(m, axis=1, weights=jnp.array([1.0, 2.0, 3.0, 4.0])),
    "average_weights_full": jnp.average(m, axis=0, weights=jnp.abs(m) + 1),
    "cov": jnp.cov(m),
    "cov_colvar_bias": jnp.cov(m, rowvar=False, bias=True),
    "corrcoef": jnp.corrcoef(m),
    "count_nonzero_axis0": jnp.count_nonzero(jnp.array([[0.0, 1.0], [2.0, 0.0], [3.0, 4.0]]), axis=0),
    "trapezoid": jnp.trapezoid(m, dx=0.5),
    "trapezoid_x_axis0": jnp.trapezoid(m, x=jnp.array([0.0, 1.0, 3.0]), axis=0),
    "polyval": jnp.polyval(p, e[:6]),
    "select": jnp.select([v > 3, v < 2], [v, -v], 100.0),
    "nan_to_num": jnp.nan_to_num(e),
    "nan_to_num_values": jnp.nan_to_num(e, nan=-1.0, posinf=7.0, neginf=-7.0),
    # ufunc names and small elementwise functions.
    "add": jnp.add(m, 2.0),
    "subtract": jnp.subtract(m, m.T[:3, :1]),
    "multiply": jnp.multiply(v, u),
    "true_divide": jnp.true_divide(v, u),
    "divide": jnp.divide(v, u),
    "power": jnp.power(k, k),
    "power_int": jnp.power(m.astype(jnp.int32), 3),
    "negative": jnp.negative(m),
    "less_equal": jnp.less_equal(v, u),
    "greater": jnp.greater(v, 3.0),
    "not_equal": jnp.not_equal(v, u),
    "absolute": jnp.absolute(m),
    "deg2rad": jnp.deg2rad(jnp.array([0.0, 90.0, 180.0, -45.0])),
    "rad2deg": jnp.rad2deg(jnp.array([0.0, 1.0, np.pi, -0.5])),
    "fmax": jnp.fmax(e, jnp.flip(e)),
    "fmin": jnp.fmin(e, jnp.flip(e)),
    "heaviside": jnp.heaviside(e, 0.5),
    "sinc": jnp.sinc(jnp.array([0.0, 0.5, 1.0, -1.5, 2.25, 1e-9])),
    "remainder": jnp.remainder(jnp.array([7.0, -7.0, 7.0, -7.0, 5.5, 0.0]),
                               jnp.array([3.0, 3.0, -3.0, -3.0, 2.0, 3.0])),
    "remainder_int": jnp.remainder(jnp.array([7, -7, 7, -7, 0], jnp.int32),
                                   jnp.array([3, 3, -3, -3, 5], jnp.int32)),
    "isposinf": jnp.isposinf(e),
    "isneginf": jnp.isneginf(e),
    "amax_axis0": jnp.amax(m, axis=0),
    "around": jnp.around(jnp.array([0.5, 1.5, 2.5, -0.5, 2.4])),
}
for name, a in values.items():
    print(f"=== values {name}")
    print(shape_and_values(a, float))

# Prints what tests/test_random_distributions_golden.cpp checks fusejit's jax.random
# distributions (include/fusejit/api/random_distributions.hpp) and jax.nn.initializers
# (include/fusejit/api/initializers.hpp) against: JAX 0.10.2's samples for fixed legacy keys
# (jax.random.PRNGKey(seed), fusejit's fj::random::key), in f32 and (with x64 on) in f64.
#   cd tests/golden && python random_distributions_goldens.py > random_distributions_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np
from jax import random
from jax.nn import initializers as init

from golden_print import shape_and_values

K = random.PRNGKey


def dist_rows(dt):
    """The distributions' rows in float dtype dt; each name gets the dtype's suffix."""
    return {
        "uniform": lambda: random.uniform(K(0), (7,), dt),
        "normal": lambda: random.normal(K(0), (7,), dt),
        "exponential": lambda: random.exponential(K(1), (7,), dt),
        "exponential_2x3": lambda: random.exponential(K(2), (2, 3), dt),
        "gumbel": lambda: random.gumbel(K(3), (7,), dt),
        "gumbel_high": lambda: random.gumbel(K(3), (2, 3), dt, mode="high"),
        "laplace": lambda: random.laplace(K(4), (7,), dt),
        "laplace_2x3": lambda: random.laplace(K(5), (2, 3), dt),
        "logistic": lambda: random.logistic(K(6), (7,), dt),
        "cauchy": lambda: random.cauchy(K(7), (7,), dt),
        "rademacher": lambda: random.rademacher(K(8), (7,), dt),
        "pareto": lambda: random.pareto(K(9), 3.0, (7,), dt),
        "pareto_array_b": lambda: random.pareto(K(9), jnp.asarray([[0.5], [2.0]], dt), (2, 3), dt),
        "rayleigh": lambda: random.rayleigh(K(10), 2.0, (7,), dt),
        "rayleigh_array": lambda: random.rayleigh(K(10), jnp.asarray([0.5, 1.0, 4.0], dt), None, dt),
        "lognormal": lambda: random.lognormal(K(11), 0.5, (7,), dt),
        "weibull_min": lambda: random.weibull_min(K(12), 2.0, 1.5, (7,), dt),
        "weibull_min_c3": lambda: random.weibull_min(K(12), 0.5, 3.0, (2, 3), dt),
        "maxwell": lambda: random.maxwell(K(13), (7,), dt),
        "double_sided_maxwell": lambda: random.double_sided_maxwell(K(14), 1.0, 2.0, (7,), dt),
        "wald": lambda: random.wald(K(42), 1.5, (7,), dt),
        "wald_array": lambda: random.wald(K(43), jnp.asarray([0.5, 3.0], dt), None, dt),
        "geometric_p_array": lambda: random.geometric(
            K(44), jnp.asarray([0.3, 0.05, 0.9], dt), None, jnp.int32),
        "triangular": lambda: random.triangular(K(15), -1.0, 0.5, 2.0, (7,), dt),
        "truncated_normal": lambda: random.truncated_normal(K(16), -1.5, 2.0, (7,), dt),
        "truncated_normal_array": lambda: random.truncated_normal(
            K(17), jnp.asarray([-3.0, 0.0, 1.0], dt), jnp.asarray([3.0, 0.5, 4.0], dt), (2, 3), dt),
        "multivariate_normal": lambda: random.multivariate_normal(
            K(18), jnp.asarray([1.0, -2.0, 0.5], dt),
            jnp.asarray([[4.0, 1.0, 0.5], [1.0, 3.0, -0.5], [0.5, -0.5, 2.0]], dt), (4,), dt),
        # eigh and svd on a diagonal cov: each eigenvector or singular vector is defined up to
        # its sign, which LAPACK (JAX) and fusejit choose each their own way for a full matrix;
        # for a diagonal one both give the unit vectors.
        "multivariate_normal_eigh": lambda: random.multivariate_normal(
            K(18), jnp.asarray([1.0, -2.0, 0.5], dt),
            jnp.diag(jnp.asarray([4.0, 1.0, 9.0], dt)), (4,), dt, method="eigh"),
        "multivariate_normal_svd": lambda: random.multivariate_normal(
            K(18), jnp.asarray([1.0, -2.0, 0.5], dt),
            jnp.diag(jnp.asarray([4.0, 1.0, 9.0], dt)), (4,), dt, method="svd"),
        "orthogonal": lambda: random.orthogonal(K(19), 3, (), dt),
        "orthogonal_2x3x4": lambda: random.orthogonal(K(20), 3, (2,), dt, m=4),
        # The initializers (nn.initializers).
        "init_zeros": lambda: init.zeros(K(0), (2, 3), dt),
        "init_ones": lambda: init.ones(K(0), (2, 3), dt),
        "init_constant": lambda: init.constant(-0.7)(K(0), (2, 3), dt),
        "init_uniform": lambda: init.uniform()(K(21), (2, 3), dt),
        "init_uniform_scale3": lambda: init.uniform(3.0)(K(21), (2, 3), dt),
        "init_normal": lambda: init.normal(0.3)(K(22), (2, 3), dt),
        "init_truncated_normal": lambda: init.truncated_normal(0.3)(K(23), (2, 3), dt),
        "init_truncated_normal_bounds": lambda: init.truncated_normal(1.5, None, -1.0, 0.5)(
            K(23), (2, 3), dt),
        "init_glorot_uniform": lambda: init.glorot_uniform()(K(24), (3, 5), dt),
        "init_glorot_normal": lambda: init.glorot_normal()(K(24), (3, 5), dt),
        "init_xavier_uniform": lambda: init.xavier_uniform()(K(24), (3, 5), dt),
        "init_he_uniform": lambda: init.he_uniform()(K(25), (4, 3), dt),
        "init_he_normal": lambda: init.he_normal()(K(25), (4, 3), dt),
        "init_kaiming_normal": lambda: init.kaiming_normal()(K(25), (4, 3), dt),
        "init_lecun_uniform": lambda: init.lecun_uniform()(K(26), (2, 3, 6), dt),
        "init_lecun_normal": lambda: init.lecun_normal()(K(26), (2, 3, 6), dt),
        "init_vs_fan_out_normal": lambda: init.variance_scaling(0.5, "fan_out", "normal")(
            K(27), (3, 2, 5), dt),
        "init_vs_fan_geo_avg": lambda: init.variance_scaling(3.0, "fan_geo_avg", "uniform")(
            K(27), (3, 7), dt),
        "init_vs_axes": lambda: init.variance_scaling(
            2.0, "fan_avg", "truncated_normal", in_axis=(0, 1), out_axis=3, batch_axis=2)(
            K(28), (2, 3, 4, 5), dt),
        "init_orthogonal": lambda: init.orthogonal()(K(29), (3, 4), dt),
        "init_orthogonal_tall": lambda: init.orthogonal(2.0)(K(29), (4, 3), dt),
        "init_orthogonal_axis0": lambda: init.orthogonal(1.0, 0)(K(30), (3, 2, 2), dt),
        "init_delta_orthogonal": lambda: init.delta_orthogonal()(K(31), (3, 2, 4), dt),
        "init_delta_orthogonal_4d": lambda: init.delta_orthogonal(0.5)(K(31), (2, 3, 2, 2), dt),
    }


def int_rows():
    """Rows without a float dtype of their own, in JAX's default (x64 off) mode."""
    p = jnp.asarray([0.1, 0.2, 0.3, 0.4], jnp.float32)
    a = jnp.arange(12.0, dtype=jnp.float32).reshape(3, 4)
    return {
        "rademacher_i32": lambda: random.rademacher(K(8), (7,), jnp.int32),
        "choice_n": lambda: random.choice(K(32), 10, (4,)),
        "choice_n_2x3": lambda: random.choice(K(33), 5, (2, 3)),
        "choice_n_noreplace": lambda: random.choice(K(34), 10, (6,), replace=False),
        "choice_p": lambda: random.choice(K(35), 4, (3, 3), p=p),
        "choice_p_noreplace": lambda: random.choice(K(36), 4, (3,), replace=False, p=p),
        "choice_a": lambda: random.choice(K(37), a, (5,)),
        "choice_a_axis1": lambda: random.choice(K(38), a, (2,), axis=1),
        "choice_a_noreplace_axis1": lambda: random.choice(K(39), a, (3,), replace=False, axis=1),
        "choice_a_p": lambda: random.choice(K(40), a, (2,), p=jnp.asarray([0.5, 0.25, 0.25])),
        "geometric": lambda: random.geometric(K(44), 0.3, (7,)),
        "clone": lambda: random.uniform(random.clone(K(41)), (3,)),
    }


for name, f in int_rows().items():
    print(f"=== values {name}")
    print(shape_and_values(f(), float))
for name, f in dist_rows(jnp.float32).items():
    print(f"=== values {name}_f32")
    print(shape_and_values(f(), float))
jax.config.update("jax_enable_x64", True)
for name, f in dist_rows(jnp.float64).items():
    print(f"=== values {name}_f64")
    print(shape_and_values(f(), float))

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

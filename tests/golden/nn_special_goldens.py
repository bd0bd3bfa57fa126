# Prints what tests/test_nn_special_golden.cpp checks fusejit's jax.nn additions
# (include/fusejit/expr/activations.hpp) and jax.scipy.special functions
# (include/fusejit/expr/special_functions.hpp) against: JAX 0.10.2's f64 values of each call, on
# inputs that reach the edge cases (0 and -0, the branch points, large |x|, +-inf, NaN).
#   cd tests/golden && python nn_special_goldens.py > nn_special_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy import special as sp

from golden_print import print_inputs, shape_and_values

jax.config.update("jax_enable_x64", True)
inf, nan = np.inf, np.nan
inputs = {
    # The activations' operand: both sides of every branch point (0, +-1, +-3, 6, log 2).
    "v": np.array([-inf, -800.0, -40.0, -20.5, -3.0, -1.0, -0.75, -0.5, -1e-10, -0.0, 0.0,
                   1e-10, 0.25, 0.6931471805599453, 0.7, 1.0, 2.5, 3.0, 6.0, 7.5, 40.0, 800.0,
                   inf, nan]),
    # log1mexp is defined for x >= 0 (NaN below); values near 0, around log 2 and large.
    "e": np.array([-1.0, 0.0, 1e-300, 1e-20, 1e-5, 0.5, 0.6931471805599453, 0.6931471805599454,
                   1.0, 5.0, 40.0, 800.0, inf, nan]),
    "m": np.array([[3.0, -1.0, 4.0, 1.0], [5.0, 9.0, -2.0, 6.0], [0.5, 0.25, 5.0, -8.0]]),
    # standardize's operands: rows whose sums are exact in any order (n = 4, a power of two,
    # and small binary fractions), a constant row; in "t", a pair whose fast variance rounds
    # below 0 (mean(x^2) - mean(x)^2 = -1.7e-18, the clip at 0).
    "s": np.array([[1.0, 2.0, 4.0, 8.5], [2.0, 2.0, 2.0, 2.0], [1.0, -3.0, 0.5, 7.0]]),
    "t": np.array([[0.10000000000000822, 0.10000000000000887], [1.0, 3.0]]),
    "mu": np.array([[1.0], [2.0], [0.0]]),
    "var": np.array([[4.0], [0.0], [9.0]]),
    # Probabilities: 0, 1, the branch points exp(-2), 1 - exp(-2) and exp(-32), out of range
    # (no subnormals: XLA flushes them to 0, fusejit keeps them, docs/jax-differences.md).
    "u": np.array([0.0, 1e-300, 1e-20, 1.2e-14, 1e-5, 0.01, 0.1353352832366127,
                   0.1353352832366128, 0.3, 0.5, 0.7, 0.8646647167633873, 0.8646647167633874,
                   0.9, 0.999, 0.9999999999999999, 1.0, -0.1, 1.5, nan]),
    # log_ndtr's operand: around -20 and 8 (its f64 segments), and far out.
    "l": np.array([-inf, -1e10, -1000.0, -40.0, -20.5, -20.0, -19.5, -10.0, -5.0, -1.0, -0.0,
                   0.0, 1.0, 5.0, 7.9, 8.0, 8.5, 30.0, inf, nan]),
    # Pairs for xlogy, xlog1py, rel_entr, kl_div: zeros, negatives, infinities and NaNs.
    "p": np.array([0.0, 0.0, 0.0, 0.0, -0.0, 0.5, 2.0, -1.0, 1.0, 3.0, nan, 0.0, 1e-300,
                   inf, 2.0, 0.0]),
    "q": np.array([0.0, 1.0, -1.0, -2.0, 3.0, 0.5, 0.25, 1.0, 0.0, nan, 1.0, nan, 2.0,
                   1.0, inf, inf]),
    # Gamma's operand: the poles, -0 and 0, the sign changes, large values, +-inf, NaN.
    "g": np.array([-inf, -3.0, -2.5, -2.0, -1.5, -0.5, -1e-300, -0.0, 0.0, 1e-300, 1e-8, 0.5,
                   1.0, 2.0, 3.5, 10.0, 30.5, 171.0, 172.0, inf, nan]),
    # Pairs for beta, betaln (both sides of max(a, b) = 8), poch.
    "a": np.array([0.5, 1.0, 2.5, 3.0, 10.0, 20.0, -1.5, 0.25, 7.0, 1e5, 2.0, 4.0]),
    "b": np.array([0.5, 2.0, 1.5, 9.0, 10.0, 30.0, 2.5, 100.0, 8.0, 3e5, 0.0, -1.5]),
    # comb's N and k: in range, k > N, negatives, non-integers, k = 0.
    "n": np.array([5.0, 10.0, 0.0, 3.0, 4.5, -1.0, 2.0, 30.0, 60.0, 7.0, 0.0, -2.0]),
    "k": np.array([2.0, 3.0, 0.0, 4.0, 2.0, 1.0, -1.0, 15.0, 30.0, 0.0, 3.0, 0.0]),
    # factorial's operand: negatives, zero, integers, a half, a large value.
    "f": np.array([-1.0, -0.5, 0.0, 1.0, 2.0, 5.0, 10.0, 2.5, 20.0, 170.0, 171.0, nan]),
    # boxcox's x (positive, 0, negative) and lmbda (0, positive, negative).
    "bx": np.array([0.5, 1.0, 2.0, 10.0, 0.0, -1.0, 1e-10, 3.0, 100.0]),
    "bl": np.array([0.0, 0.5, -1.0, 2.0, 0.5, 0.0, 1e-12, -0.0, 0.0]),
    "bx1": np.array([-0.5, 0.0, 1e-10, 1.0, 9.0, -1.0, -2.0, 3.0, 1e-20]),
    # multigammaln's operand.
    "mg": np.array([[2.5, 3.0], [10.25, 40.0]]),
    # erfinv's operand in (-1, 1) and beyond (not +-1, where JAX 0.10.2 gives +-inf and
    # fj::erf_inv +-DBL_MAX; not near +-1, where XLA's ErfInv64 is thousands of ulps off).
    "r": np.array([-0.9, -0.5, -0.0, 0.0, 1e-10, 0.3, 0.75, 1.5, -2.0, nan]),
    # polygamma's orders.
    "o": np.array([0.0, 1.0, 2.0, 3.0]),
    "ox": np.array([0.5, 2.0, 7.5, 30.0]),
    # zeta's x and q: inside the domain, x = 1, x < 1, q <= 0 (a pole, whole x, fractional x).
    "zx": np.array([2.0, 3.0, 1.5, 4.5, 1.0, 0.5, 2.0, 2.0, 3.0, 2.5]),
    "zq": np.array([1.0, 2.0, 0.25, 10.0, 1.0, 1.0, -0.5, -3.0, 0.0, -1.5]),
    # gammainc's a and x: the series (x < 1 or x <= a), the continued fraction, the edges.
    "ga": np.array([0.5, 1.0, 2.5, 10.0, 3.0, 0.1, 2.0, 2.0, -1.0]),
    "gx": np.array([0.2, 1.0, 3.0, 12.0, 0.5, 5.0, 0.0, inf, 1.0]),
}
print_inputs(inputs)
x = {k: jnp.asarray(val) for k, val in inputs.items()}
v, e, m, s, u, l = x["v"], x["e"], x["m"], x["s"], x["u"], x["l"]
p, q, g, a, b = x["p"], x["q"], x["g"], x["a"], x["b"]
nn = jax.nn

values = {
    # jax.nn.
    "identity": nn.identity(v),
    "relu6": nn.relu6(v),
    "elu": nn.elu(v),
    "elu_alpha": nn.elu(v, alpha=0.3),
    "celu": nn.celu(v),
    "celu_alpha": nn.celu(v, alpha=2.5),
    "selu": nn.selu(v),
    "leaky_relu": nn.leaky_relu(v),
    "leaky_relu_slope": nn.leaky_relu(v, negative_slope=0.2),
    "hard_tanh": nn.hard_tanh(v),
    "hard_sigmoid": nn.hard_sigmoid(v),
    "hard_silu": nn.hard_silu(v),
    "hard_swish": nn.hard_swish(v),
    "log_sigmoid": nn.log_sigmoid(v),
    "log1mexp": nn.log1mexp(e),
    "mish": nn.mish(v),
    "soft_sign": nn.soft_sign(v),
    "sparse_plus": nn.sparse_plus(v),
    "sparse_sigmoid": nn.sparse_sigmoid(v),
    "squareplus": nn.squareplus(v),
    "squareplus_b": nn.squareplus(v, b=0.5),
    "glu": nn.glu(m),
    "glu_axis0": nn.glu(m[:2], axis=0),
    "logmeanexp": nn.logmeanexp(m),
    "logmeanexp_axis1": nn.logmeanexp(m, axis=1),
    "logmeanexp_axis0_keepdims": nn.logmeanexp(m, axis=0, keepdims=True),
    "logmeanexp_axes_neg1_0": nn.logmeanexp(m, axis=(-1, 0)),
    "standardize": nn.standardize(s),
    "standardize_axis0": nn.standardize(s, axis=0),
    "standardize_all": nn.standardize(s, axis=None),
    "standardize_clip": nn.standardize(x["t"]),
    "standardize_clip_epsilon0": nn.standardize(x["t"], epsilon=0.0),
    "standardize_mean_variance": nn.standardize(m, mean=x["mu"], variance=x["var"]),
    "standardize_epsilon": nn.standardize(m, axis=1, epsilon=0.5),
    "standardize_stable": nn.standardize(s, algorithm="stable"),
    # jax.scipy.special.
    "expit": sp.expit(v),
    "logit": sp.logit(u),
    "xlogy": sp.xlogy(p, q),
    "xlog1py": sp.xlog1py(p, q - 1.0),
    "entr": sp.entr(v),
    "rel_entr": sp.rel_entr(p, q),
    "kl_div": sp.kl_div(p, q),
    "ndtr": sp.ndtr(v),
    "ndtri": sp.ndtri(u),
    "log_ndtr": sp.log_ndtr(l),
    "log_ndtr_order0": sp.log_ndtr(l, series_order=0),
    "log_ndtr_order5": sp.log_ndtr(l, series_order=5),
    "erf": sp.erf(v),
    "erfc": sp.erfc(v),
    "erfinv": sp.erfinv(x["r"]),
    "gammaln": sp.gammaln(g),
    "loggamma": sp.loggamma(g),
    "gammasgn": sp.gammasgn(g),
    "gamma": sp.gamma(g),
    "digamma": sp.digamma(g),
    "polygamma": sp.polygamma(x["o"].astype(jnp.int32), x["ox"]),
    "i0e": sp.i0e(v),
    "i1e": sp.i1e(v),
    "i0": sp.i0(g),
    "i1": sp.i1(g),
    "zeta": sp.zeta(x["zx"], x["zq"]),
    "gammainc": sp.gammainc(x["ga"], x["gx"]),
    "gammaincc": sp.gammaincc(x["ga"], x["gx"]),
    "betaln": sp.betaln(a, b),
    "beta": sp.beta(a, b),
    "poch": sp.poch(a, b),
    "factorial": sp.factorial(x["f"]),
    "comb": sp.comb(x["n"], x["k"]),
    "comb_repetition": sp.comb(x["n"], x["k"], repetition=True),
    "multigammaln_d3": sp.multigammaln(x["mg"], 3),
    "multigammaln_d1": sp.multigammaln(x["mg"], 1),
    "multigammaln_d0": sp.multigammaln(x["mg"], 0),
    "boxcox": sp.boxcox(x["bx"], x["bl"]),
    "boxcox1p": sp.boxcox1p(x["bx1"], x["bl"]),
    "logsumexp": sp.logsumexp(m),
    "logsumexp_axis1_b": sp.logsumexp(m, axis=1, b=m + 9.0),
    "softmax": sp.softmax(m),
    "softmax_axis1": sp.softmax(m, axis=1),
    "log_softmax": sp.log_softmax(m),
    "log_softmax_axis0": sp.log_softmax(m, axis=0),
}
for name, val in values.items():
    print(f"=== values {name}")
    print(shape_and_values(val, float))

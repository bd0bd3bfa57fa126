/// \file
/// The one include of fusejit. Define FUSEJIT_IMPLEMENTATION in exactly one translation unit
/// (the fusejit::fusejit CMake target does) to compile the library's implementation into it.
/// <fusejit/eigen.hpp> adds the Eigen interop (fj::view, fj::to_eigen).
///
/// \namespace fj
/// fusejit's user API under JAX's names (fj::zeros is jnp.zeros, fj::jit is jax.jit): fj::Array,
/// the jax.numpy functions, the transformations, and the errors they raise (fj::Error). The
/// operators + - * / % < <= > >= == != & | ^ << >> and unary - ~ take arrays, expressions and
/// C++ scalars (one operand an array or expression) and broadcast as jnp's do: / is true
/// division, % Python's remainder, and & | ^ ~ raise fj::DTypeError on floats.
/// \namespace fj::lax
/// jax.lax: primitives by their lax names, control flow (fj::lax::cond, fj::lax::scan) and the
/// collectives over a named axis (fj::lax::psum).
/// \namespace fj::lax::linalg
/// jax.lax.linalg: cholesky, triangular_solve, lu, eigh, qr and svd, as lax stages them.
/// \namespace fj::linalg
/// jax.numpy.linalg: cholesky, solve, inv, det, slogdet, norm, eigh, eigvalsh, svd, qr,
/// matrix_power, multi_dot, pinv, matrix_rank, cond, lstsq, svdvals, vector_norm, matrix_norm,
/// tensorinv, tensorsolve.
/// \namespace fj::scipy
/// jax.scipy.
/// \namespace fj::scipy::linalg
/// jax.scipy.linalg: solve_triangular, cho_factor, cho_solve, expm, lu, lu_factor, lu_solve, polar
/// and the special matrices (block_diag, toeplitz, hankel, circulant, companion, ...).
/// \namespace fj::random
/// jax.random: threefry keys (fj::random::key, split, fold_in) and draws, bit for bit JAX's.
/// \namespace fj::nn
/// jax.nn: activations (relu, gelu, silu, ...), softmax, log_softmax, logsumexp, one_hot.
/// \namespace fj::nn::initializers
/// jax.nn.initializers: zeros, constant, normal, variance_scaling (glorot, he, lecun), orthogonal.
/// \namespace fj::scipy::stats
/// jax.scipy.stats: each distribution's pdf, logpdf, cdf, ... (fj::scipy::stats::norm::logpdf).
/// \namespace fj::debug
/// jax.debug: fj::debug::print and fj::debug::callback, run each time compiled code runs.
/// \namespace fj::distributed
/// jax.distributed: joining the processes that mpirun started (fj::distributed::initialize).
#pragma once

#include "fusejit/version.hpp"
#include "fusejit/core/dtype.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/core/promotion.hpp"
#include "fusejit/core/shape.hpp"
#include "fusejit/core/warning.hpp"
#include "fusejit/core/x64.hpp"
#include "fusejit/ir/graph.hpp"
#include "fusejit/ir/printer.hpp"
#include "fusejit/runtime/cache_stats.hpp"
#include "fusejit/runtime/thread_pool.hpp"
#include "fusejit/backend/backend.hpp"
#include "fusejit/expr/array.hpp"
#include "fusejit/expr/operators.hpp"
#include "fusejit/expr/array_ops.hpp"
#include "fusejit/expr/math_functions.hpp"
#include "fusejit/expr/sort_scan.hpp"
#include "fusejit/expr/einsum.hpp"
#include "fusejit/expr/layout.hpp"
#include "fusejit/expr/pad_roll.hpp"
#include "fusejit/expr/linalg.hpp"
#include "fusejit/expr/shape_ops.hpp"
#include "fusejit/expr/array_methods.hpp"
#include "fusejit/expr/diagonal.hpp"
#include "fusejit/expr/indexing.hpp"
#include "fusejit/expr/materialize.hpp"
#include "fusejit/api/factories.hpp"
#include "fusejit/api/creation.hpp"
#include "fusejit/api/print.hpp"
#include "fusejit/api/static_argnums.hpp"
#include "fusejit/api/pytree.hpp"
#include "fusejit/api/pytree/tree_util_more.hpp"
#include "fusejit/api/checking_leaks.hpp"
#include "fusejit/api/jit.hpp"
#include "fusejit/api/debug_nans.hpp"
#include "fusejit/api/subtrace.hpp"
#include "fusejit/api/transforms.hpp"
#include "fusejit/api/jacobian.hpp"
#include "fusejit/api/linearize.hpp"
#include "fusejit/api/eval_shape.hpp"
#include "fusejit/api/disable_jit.hpp"
#include "fusejit/api/custom_jvp.hpp"
#include "fusejit/api/custom_vjp.hpp"
#include "fusejit/api/checkpoint.hpp"
#include "fusejit/expr/nn.hpp"
#include "fusejit/expr/activations.hpp"
#include "fusejit/expr/special_functions.hpp"
#include "fusejit/api/lax_control.hpp"
#include "fusejit/api/lax_switch_map.hpp"
#include "fusejit/api/at_apply.hpp"
#include "fusejit/api/sorting.hpp"
#include "fusejit/api/repeat.hpp"
#include "fusejit/api/nonzero.hpp"
#include "fusejit/api/numeric.hpp"
#include "fusejit/api/quantile.hpp"
#include "fusejit/api/split.hpp"
#include "fusejit/api/stacking.hpp"
#include "fusejit/api/nan_functions.hpp"
#include "fusejit/api/tensor_products.hpp"
#include "fusejit/api/grids.hpp"
#include "fusejit/api/statistics.hpp"
#include "fusejit/api/stats.hpp"
#include "fusejit/api/lax_functions.hpp"
#include "fusejit/expr/ufunc_aliases.hpp"
#include "fusejit/api/jnp_arithmetic.hpp"
#include "fusejit/api/jnp_windows.hpp"
#include "fusejit/api/jnp_polynomials.hpp"
#include "fusejit/api/jnp_editing.hpp"
#include "fusejit/api/jnp_index_helpers.hpp"
#include "fusejit/api/jnp_search.hpp"
#include "fusejit/api/jnp_sets.hpp"
#include "fusejit/api/lu.hpp"
#include "fusejit/api/spectral.hpp"
#include "fusejit/api/linalg_extras.hpp"
#include "fusejit/api/scipy_linalg.hpp"
#include "fusejit/api/make_jaxpr.hpp"
#include "fusejit/api/random.hpp"
#include "fusejit/api/random_distributions.hpp"
#include "fusejit/api/initializers.hpp"
#include "fusejit/api/debug.hpp"
#include "fusejit/api/pure_callback.hpp"
#include "fusejit/api/device.hpp"
#include "fusejit/api/device_put.hpp"
#include "fusejit/api/cpu_target.hpp"
#include "fusejit/distributed/devices.hpp"
#include "fusejit/distributed/collectives.hpp"
#include "fusejit/distributed/pmap.hpp"
#include "fusejit/distributed/initialize.hpp"

#ifdef FUSEJIT_IMPLEMENTATION
#include "fusejit/implementation.hpp"
#endif

// Linear algebra (group 5 of issue 19): fj::linalg::cholesky (jnp.linalg),
// fj::lax::linalg::cholesky / triangular_solve (lax.linalg) and fj::scipy::linalg::cho_factor /
// cho_solve / solve_triangular (jax.scipy.linalg), each staged as JAX stages it.
#pragma once
#include <utility>

#include "fusejit/expr/array.hpp"
#include "fusejit/expr/lowering_linalg.hpp"
#include "fusejit/expr/node.hpp"

namespace fj {
namespace detail {

// Which wrapper a one-operand linalg node lowers through.
enum class CholeskyKind : std::uint8_t { jnp, lax, scipy };
struct CholeskyOp {
  CholeskyKind kind;
  bool flag_a, flag_b;  // jnp: upper, symmetrize; lax: symmetrize; scipy: lower
  void key(std::vector<std::int64_t>& k) const {
    for (std::int64_t v : {std::int64_t{static_cast<std::int64_t>(kind)}, std::int64_t{flag_a},
                           std::int64_t{flag_b}})
      k.push_back(v);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    switch (kind) {
      case CholeskyKind::jnp:
        return lower_cholesky(b, x, flag_a, flag_b);
      case CholeskyKind::lax:
        return lower_lax_cholesky(b, x, flag_a, "fj::lax::linalg::cholesky");
      default:
        return lower_cho_factor(b, x, flag_a);
    }
  }
};
// Which two-operand solve a node lowers through, with its options.
enum class SolveKind : std::uint8_t { lax, cho_solve, solve_triangular };
struct TriangularSolveOp {
  SolveKind kind;
  TriangularSolveOptions o;
  int trans = 0;
  void key(std::vector<std::int64_t>& k) const {
    for (std::int64_t v :
         {std::int64_t{static_cast<std::int64_t>(kind)}, std::int64_t{o.left_side},
          std::int64_t{o.lower}, std::int64_t{o.transpose_a}, std::int64_t{o.conjugate_a},
          std::int64_t{o.unit_diagonal}, std::int64_t{trans}})
      k.push_back(v);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom a, ir::Atom rhs) const {
    switch (kind) {
      case SolveKind::lax:
        return lower_triangular_solve(b, a, rhs, o);
      case SolveKind::cho_solve:
        return lower_cho_solve(b, a, rhs, o.lower);
      default:
        return lower_solve_triangular(b, a, rhs, trans, o.lower, o.unit_diagonal);
    }
  }
};

}  // namespace detail

namespace linalg {
/// The Cholesky factor L of each matrix in a's last two axes (jnp.linalg.cholesky): a = L L^T,
/// L lower triangular (or U = L^T when `upper`). The input is symmetrized ((a + a^T) / 2)
/// unless `symmetrize_input` is false; a matrix that is not positive definite gives NaNs.
template <detail::Operand A>
auto cholesky(A&& a, bool upper = false, bool symmetrize_input = true) {
  return detail::make_node(detail::CholeskyOp{detail::CholeskyKind::jnp, upper, symmetrize_input},
                           std::forward<A>(a));
}
/// jnp.linalg.cholesky's keyword arguments: fj::linalg::cholesky(a, {.upper = true}).
struct CholeskyOptions {
  bool upper = false;            ///< return U = L^T instead of L
  bool symmetrize_input = true;  ///< factor (a + a^T) / 2, not a's lower triangle alone
};
/// jnp.linalg.cholesky(a, upper=..., symmetrize_input=...) with keyword-style options.
template <detail::Operand A>
auto cholesky(A&& a, const CholeskyOptions& o) {
  return cholesky(std::forward<A>(a), o.upper, o.symmetrize_input);
}
}  // namespace linalg

namespace lax::linalg {
/// lax.linalg.cholesky: the lower factor, the input symmetrized first unless told otherwise
/// (then only its lower triangle is read).
template <detail::Operand A>
auto cholesky(A&& a, bool symmetrize_input = true) {
  return detail::make_node(detail::CholeskyOp{detail::CholeskyKind::lax, symmetrize_input, false},
                           std::forward<A>(a));
}
/// lax.linalg.triangular_solve: x with op(a) x = b (left_side) or x op(a) = b, op(a) = a^T when
/// transpose_a; only the `lower` (or upper) triangle of a is read, and not its diagonal when
/// unit_diagonal. a is (..., m, m); b (..., m, n) or (..., n, m), or one vector (rank a - 1).
template <detail::Operand A, detail::Operand B>
auto triangular_solve(A&& a, B&& b, bool left_side = false, bool lower = false,
                      bool transpose_a = false, bool conjugate_a = false,
                      bool unit_diagonal = false) {
  return detail::make_node(
      detail::TriangularSolveOp{detail::SolveKind::lax,
                                {left_side, lower, transpose_a, conjugate_a, unit_diagonal}},
      std::forward<A>(a), std::forward<B>(b));
}
/// lax.linalg.triangular_solve's keyword arguments: fj::lax::linalg::triangular_solve(a, b,
/// {.left_side = true, .lower = true}).
using TriangularSolveOptions = detail::TriangularSolveOptions;
/// lax.linalg.triangular_solve(a, b, left_side=..., lower=..., ...) with keyword-style options.
template <detail::Operand A, detail::Operand B>
auto triangular_solve(A&& a, B&& b, const TriangularSolveOptions& o) {
  return detail::make_node(detail::TriangularSolveOp{detail::SolveKind::lax, o}, std::forward<A>(a),
                           std::forward<B>(b));
}
}  // namespace lax::linalg

namespace scipy::linalg {
/// jax.scipy.linalg.cho_factor: the factor (lower when `lower`, else upper) and the flag, for
/// cho_solve. Only that triangle of a is read.
template <detail::Operand A>
auto cho_factor(A&& a, bool lower = false) {
  return std::pair{
      Array(detail::make_node(detail::CholeskyOp{detail::CholeskyKind::scipy, lower, false},
                              std::forward<A>(a))),
      lower};
}
/// jax.scipy.linalg.cho_solve: x with a x = b, from cho_factor's (c, lower); c (..., n, n), b
/// (n,), (..., n, k) or a batch of vectors (..., n); the batch axes broadcast.
template <detail::Operand B>
auto cho_solve(const std::pair<Array, bool>& c_and_lower, B&& b) {
  return detail::make_node(
      detail::TriangularSolveOp{detail::SolveKind::cho_solve, {true, c_and_lower.second}},
      c_and_lower.first, std::forward<B>(b));
}
/// jax.scipy.linalg.solve_triangular: x with op(a) x = b, op(a) = a (trans 0) or a^T (1).
template <detail::Operand A, detail::Operand B>
auto solve_triangular(A&& a, B&& b, int trans = 0, bool lower = false, bool unit_diagonal = false) {
  return detail::make_node(
      detail::TriangularSolveOp{
          detail::SolveKind::solve_triangular, {true, lower, false, false, unit_diagonal}, trans},
      std::forward<A>(a), std::forward<B>(b));
}
/// jax.scipy.linalg.solve_triangular's keyword arguments:
/// fj::scipy::linalg::solve_triangular(l, b, {.lower = true}).
struct SolveTriangularOptions {
  int trans = 0;               ///< 0: solve a x = b; 1 (or 2): a^T x = b
  bool lower = false;          ///< read a's lower triangle (else the upper)
  bool unit_diagonal = false;  ///< take a's diagonal as ones, without reading it
};
/// jax.scipy.linalg.solve_triangular(a, b, trans=..., lower=..., unit_diagonal=...) with
/// keyword-style options.
template <detail::Operand A, detail::Operand B>
auto solve_triangular(A&& a, B&& b, const SolveTriangularOptions& o) {
  return solve_triangular(std::forward<A>(a), std::forward<B>(b), o.trans, o.lower,
                          o.unit_diagonal);
}
}  // namespace scipy::linalg

}  // namespace fj

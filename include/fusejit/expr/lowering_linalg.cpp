// Definitions of the Cholesky factorization's and the triangular solves' lowerings, staged as
// JAX 0.10.2 stages them (implementation unit only).
#include "fusejit/expr/lowering_linalg.hpp"

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_vectorize_solve.hpp"

namespace fj::detail {

namespace {

// Errors name the caller, the argument and its shape before any equation is staged, as the
// primitives' own shape rules only know the primitive's name.
void check_matrix(const GraphBuilder& b, Atom x, const char* fn, const char* arg, bool square,
                  int min_rank = 2) {
  const Shape s = b.aval(x).shape;
  const int r = s.rank();
  if (r < min_rank || (square && (r < 2 || s[r - 1] != s[r - 2])))
    throw ShapeError(std::string(fn) + ": argument " + arg + " must be " +
                     (square ? "a (batch of) square matrices"
                             : "an array of rank >= " + std::to_string(min_rank)) +
                     ", got an array of shape " + s.str());
}

// lax._tri(bool, (n, m), k): row + k >= column, from iotas of the default int dtype (JAX's
// int_dtype_for_shape is i32, widened to the offset's: a Python int, i64 in x64 mode).
Atom tri_mask(GraphBuilder& b, std::int64_t n, std::int64_t m, std::int64_t k) {
  const Shape s{n, m};
  const DType d = default_int_dtype();
  const Atom rows = lower_iota(b, d, s, 0);
  const Atom shifted =
      b.emit1(Prim::add, {rows, Atom::of_literal(ir::Literal::of(k, false).cast(d, false))});
  return b.emit1(Prim::ge, {shifted, lower_iota(b, d, s, 1)});
}

// lax.select(broadcast(mask, batch), on_true, on_false) with the zeros of lax.full_like(m, 0)
// on the side `zeros_when_true` names.
Atom select_triangle(GraphBuilder& b, Atom m, std::int64_t k, bool zeros_when_true) {
  const Shape s = b.aval(m).shape;
  const int r = s.rank();
  Atom mask = tri_mask(b, s[r - 2], s[r - 1], k);
  if (r > 2) {
    ir::Params p;
    p.items.push_back({"shape", s.to_vector(), false});
    p.items.push_back({"broadcast_dimensions", std::vector<std::int64_t>{r - 2, r - 1}, true});
    mask = b.emit1(Prim::broadcast_in_dim, {mask}, std::move(p));
  }
  const Atom zeros = full_like(b, m, 0);
  return zeros_when_true ? b.emit1(Prim::select_n, {mask, m, zeros})
                         : b.emit1(Prim::select_n, {mask, zeros, m});
}

Atom to_inexact_operand(GraphBuilder& b, Atom x) {
  const TypedDType t = typed(b, x);
  return is_float(t.dtype) ? x : convert(b, x, to_inexact(t));
}

// JAX's choice of jnp.vectorize signature in cho_solve and solve_triangular: b one vector
// "(n,n),(n)->(n)" when it is rank 1, or (deprecated in JAX, kept as it behaves) a batch of
// vectors of rank one less than a's whose last extent is n; otherwise "(n,n),(n,k)->(n,k)".
bool vector_rhs(const GraphBuilder& b, Atom a, Atom rhs, const char* fn) {
  check_matrix(b, a, fn, "a", true);
  check_matrix(b, rhs, fn, "b", false, 1);
  const Shape sa = b.aval(a).shape, sb = b.aval(rhs).shape;
  return sb.rank() == 1 || (sa.rank() == sb.rank() + 1 && sa[sa.rank() - 1] == sb[sb.rank() - 1]);
}

}  // namespace

Atom matrix_transpose(GraphBuilder& b, Atom x) {
  const int r = b.aval(x).shape.rank();
  std::vector<std::int64_t> perm;
  for (int d = 0; d < r - 2; ++d) perm.push_back(d);
  perm.push_back(r - 1);
  perm.push_back(r - 2);
  return lower_transpose(b, x, perm);
}

Atom lower_tril(GraphBuilder& b, Atom m, std::int64_t k) { return select_triangle(b, m, k, false); }
Atom lower_triu(GraphBuilder& b, Atom m, std::int64_t k) {
  return select_triangle(b, m, k - 1, true);
}

Atom lower_lax_cholesky(GraphBuilder& b, Atom x, bool symmetrize_input, const char* fn) {
  check_matrix(b, x, fn, "a", true);
  if (symmetrize_input) {
    const ir::Aval av = b.aval(x);
    const Atom sum = b.emit1(Prim::add, {x, matrix_transpose(b, x)});
    x = b.emit1(Prim::div,
                {sum, Atom::of_literal(ir::Literal::of(2.0, true).cast(av.dtype, false))});
  }
  return lower_tril(b, b.emit1(Prim::cholesky, {x}), 0);
}

Atom lower_cholesky(GraphBuilder& b, Atom x, bool upper, bool symmetrize_input) {
  const char* fn = "fj::linalg::cholesky";
  check_matrix(b, x, fn, "a", true);
  return call_named(
      b, "cholesky", {x},
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        const Atom l = lower_lax_cholesky(g, to_inexact_operand(g, in[0]), symmetrize_input, fn);
        return upper ? matrix_transpose(g, l) : l;
      },
      std::string(upper ? "u" : "l") + (symmetrize_input ? "s" : ""));
}

Atom lower_triangular_solve(GraphBuilder& b, Atom a, Atom rhs, const TriangularSolveOptions& o,
                            const char* fn) {
  check_matrix(b, a, fn, "a", true);
  check_matrix(b, rhs, fn, "b", false, 1);
  const int ra = b.aval(a).shape.rank();
  const bool singleton = b.aval(rhs).shape.rank() == ra - 1;
  if (singleton) rhs = lower_expand_dims(b, rhs, {o.left_side ? -1 : -2});
  ir::Params p;
  p.items.push_back({"conjugate_a", false, true});  // JAX drops it for real dtypes
  p.items.push_back({"left_side", o.left_side, true});
  p.items.push_back({"lower", o.lower, true});
  p.items.push_back({"transpose_a", o.transpose_a, true});
  p.items.push_back({"unit_diagonal", o.unit_diagonal, true});
  Atom out;
  try {
    out = b.emit1(Prim::triangular_solve, {a, rhs}, std::move(p));
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(fn) + ": " + e.what());
  } catch (const DTypeError& e) {
    throw DTypeError(std::string(fn) + ": " + e.what());
  }
  if (!singleton) return out;
  return lower_squeeze(b, out, {o.left_side ? ra - 1 : ra - 2}, false);
}

Atom lower_cho_factor(GraphBuilder& b, Atom a, bool lower) {
  const char* fn = "fj::scipy::linalg::cho_factor";
  check_matrix(b, a, fn, "a", true);
  return call_named(
      b, "_cholesky", {a},
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        const Atom x = to_inexact_operand(g, in[0]);
        const Atom l = lower_lax_cholesky(g, lower ? x : matrix_transpose(g, x), false, fn);
        return lower ? l : matrix_transpose(g, l);
      },
      lower ? "l" : "u");
}

Atom lower_cho_solve(GraphBuilder& b, Atom c, Atom rhs, bool lower) {
  const char* fn = "fj::scipy::linalg::cho_solve";
  const bool vector = vector_rhs(b, c, rhs, fn);
  return call_named(
      b, "_cho_solve", {c, rhs},
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        const Atom y =
            vectorized_triangular_solve(g, in[0], in[1], vector, {true, lower, !lower}, fn);
        return vectorized_triangular_solve(g, in[0], y, vector, {true, lower, lower}, fn);
      },
      lower ? "l" : "u");
}

Atom lower_solve_triangular(GraphBuilder& b, Atom a, Atom rhs, int trans, bool lower,
                            bool unit_diagonal) {
  const char* fn = "fj::scipy::linalg::solve_triangular";
  const bool vector = vector_rhs(b, a, rhs, fn);
  if (trans != 0 && trans != 1)
    throw ValueError(std::string(fn) + ": trans must be 0 or 1 for real matrices, got " +
                     std::to_string(trans));
  return call_named(
      b, "_solve_triangular", {a, rhs},
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        return vectorized_triangular_solve(g, in[0], in[1], vector,
                                           {true, lower, trans == 1, false, unit_diagonal}, fn);
      },
      std::to_string(trans) + (lower ? "l" : "u") + (unit_diagonal ? "1" : ""));
}

}  // namespace fj::detail

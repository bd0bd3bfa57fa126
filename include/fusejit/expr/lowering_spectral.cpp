// Definitions of the spectral decompositions' lowerings (implementation unit only).
#include "fusejit/expr/lowering_spectral.hpp"

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_linalg.hpp"

namespace fj::detail {

namespace {

// Errors name the caller, the argument and its shape before any equation is staged (the
// primitives' shape rules, which refuse integers, know only the primitive's name).
void check_spectral_operand(const GraphBuilder& b, Atom x, const char* fn, bool square) {
  const Shape s = b.aval(x).shape;
  const int r = s.rank();
  if (r < 2 || (square && s[r - 1] != s[r - 2]))
    throw ShapeError(std::string(fn) + ": argument a must be " +
                     (square ? "a (batch of) square matrices" : "a (batch of) matrices") +
                     " (rank >= 2), got an array of shape " + s.str());
}

// jnp's promote_dtypes_inexact on one operand.
Atom promote_inexact(GraphBuilder& b, Atom x) {
  const TypedDType t = typed(b, x);
  return is_float(t.dtype) ? x : convert(b, x, to_inexact(t));
}

// The primitive's own errors (dtype, shape) prefixed with the caller's name.
std::vector<Atom> emit_named(GraphBuilder& b, Prim p, Atom x, ir::Params params, const char* fn) {
  try {
    return b.emit(p, {x}, std::move(params));
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(fn) + ": " + e.what());
  } catch (const DTypeError& e) {
    throw DTypeError(std::string(fn) + ": " + e.what());
  }
}

// eigh's and svd's params as they print: algorithm=None, two flags, subset_by_index=None.
ir::Params decomposition_params(const char* a, bool va, const char* b, bool vb) {
  ir::Params p;
  p.items.push_back({"algorithm", std::string("None"), true});
  p.items.push_back({a, va, true});
  p.items.push_back({b, vb, true});
  p.items.push_back({"subset_by_index", std::string("None"), true});
  return p;
}

// A `jit[name=...]` equation with several results (call_named's, for multi-result bodies).
std::vector<Atom> call_named_results(GraphBuilder& b, const std::string& name, Atom x,
                                     const SubgraphBody& body, const std::string& variant) {
  const ir::GraphPtr sub = shared_subgraph(b, name + "[" + variant + "]", {x}, body);
  ir::Params p;
  p.items.push_back({"name", name, true});
  p.items.push_back({"jaxpr", sub, true});
  return b.emit(Prim::jit, {x}, std::move(p));
}

}  // namespace

std::vector<Atom> lower_lax_eigh(GraphBuilder& b, Atom x, bool lower, bool symmetrize_input,
                                 bool sort_eigenvalues, const char* fn) {
  check_spectral_operand(b, x, fn, true);
  if (symmetrize_input) {
    const ir::Aval av = b.aval(x);
    const Atom sum = b.emit1(Prim::add, {x, matrix_transpose(b, x)});
    x = b.emit1(Prim::div,
                {sum, Atom::of_literal(ir::Literal::of(2.0, true).cast(av.dtype, false))});
  }
  return emit_named(b, Prim::eigh, x,
                    decomposition_params("lower", lower, "sort_eigenvalues", sort_eigenvalues), fn);
}

std::vector<Atom> lower_eigh(GraphBuilder& b, Atom x, bool lower, bool symmetrize_input) {
  const char* fn = "fj::linalg::eigh";
  check_spectral_operand(b, x, fn, true);
  return call_named_results(
      b, "eigh", x,
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        const auto vw =
            lower_lax_eigh(g, promote_inexact(g, in[0]), lower, symmetrize_input, true, fn);
        return std::vector<Atom>{vw[1], vw[0]};
      },
      std::string(lower ? "L" : "U") + (symmetrize_input ? "s" : ""));
}

std::vector<Atom> lower_lax_svd(GraphBuilder& b, Atom x, bool full_matrices, bool compute_uv,
                                const char* fn) {
  check_spectral_operand(b, x, fn, false);
  const auto s_u_vt = emit_named(
      b, Prim::svd, x,
      decomposition_params("compute_uv", compute_uv, "full_matrices", full_matrices), fn);
  return compute_uv ? std::vector<Atom>{s_u_vt[1], s_u_vt[0], s_u_vt[2]} : s_u_vt;
}

std::vector<Atom> lower_svd(GraphBuilder& b, Atom x, bool full_matrices, bool compute_uv) {
  const char* fn = "fj::linalg::svd";
  check_spectral_operand(b, x, fn, false);
  return call_named_results(
      b, "svd", x,
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        return lower_lax_svd(g, promote_inexact(g, in[0]), full_matrices, compute_uv, fn);
      },
      std::string(full_matrices ? "full" : "thin") + (compute_uv ? " uv" : ""));
}

std::vector<Atom> lower_lax_qr(GraphBuilder& b, Atom x, bool full_matrices, const char* fn) {
  check_spectral_operand(b, x, fn, false);
  ir::Params p;
  p.items.push_back({"full_matrices", full_matrices, true});
  p.items.push_back({"pivoting", false, true});
  p.items.push_back({"use_magma", std::string("None"), true});
  return emit_named(b, Prim::qr, x, std::move(p), fn);
}

std::vector<Atom> lower_qr(GraphBuilder& b, Atom x, const std::string& mode) {
  const char* fn = "fj::linalg::qr";
  check_spectral_operand(b, x, fn, false);
  if (mode == "raw")
    throw NotImplementedError(std::string(fn) + ": mode \"raw\" (LAPACK's geqrf) is not supported");
  if (mode != "reduced" && mode != "complete" && mode != "r")
    throw ValueError(std::string(fn) + ": unsupported mode '" + mode +
                     "' (reduced, complete, r or raw)");
  return call_named_results(
      b, "qr", x,
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        const auto qr = lower_lax_qr(g, promote_inexact(g, in[0]), mode == "complete", fn);
        return mode == "r" ? std::vector<Atom>{qr[1]} : qr;
      },
      mode);
}

Atom lower_eigvalsh(GraphBuilder& b, Atom x, bool lower) {
  check_spectral_operand(b, x, "fj::linalg::eigvalsh", true);
  return call_named(
      b, "eigvalsh", {x},
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        return lower_eigh(g, in[0], lower, true)[0];
      },
      lower ? "L" : "U");
}

}  // namespace fj::detail

// The params of a custom_linear_solve equation (lax.custom_linear_solve) and the views of its
// operands the rules, the printer and the backends share: four closed sub-graphs (matvec,
// vecmat, solve, transpose_solve), each taking its own consts then the right-hand sides.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/ir/graph.hpp"

namespace fj::ir {

/// The four functions of a linear solve, in JAX's _LinearSolveTuple order.
enum class LinearSolvePart : std::size_t { matvec = 0, vecmat = 1, solve = 2, transpose_solve = 3 };
inline constexpr std::array<const char*, 4> kLinearSolveParts = {"matvec", "vecmat", "solve",
                                                                 "transpose_solve"};

/// The params: const_lengths (how many leading operands each sub-graph takes as consts) and
/// jaxprs (the four sub-graphs), both in _LinearSolveTuple order.
inline Params linear_solve_params(std::vector<std::int64_t> const_lengths,
                                  std::vector<GraphPtr> jaxprs) {
  Params p;
  p.items.push_back({"const_lengths", std::move(const_lengths), true});
  p.items.push_back({"jaxprs", std::move(jaxprs), true});
  return p;
}

/// A custom_linear_solve's structure, checked: the sub-graphs, their const counts, and where
/// each one's consts start among the operands (the right-hand sides follow them all).
struct LinearSolveView {
  std::vector<GraphPtr> jaxprs;
  std::vector<std::int64_t> lengths;
  std::size_t n_consts = 0;

  explicit LinearSolveView(const Params& params)
      : jaxprs(params.get<std::vector<GraphPtr>>("jaxprs")),
        lengths(params.get<std::vector<std::int64_t>>("const_lengths")) {
    if (jaxprs.size() != 4 || lengths.size() != 4)
      throw ValueError("custom_linear_solve: jaxprs and const_lengths must have 4 entries");
    for (std::size_t k = 0; k < 4; ++k) {
      if (!jaxprs[k]) throw ValueError("custom_linear_solve: null " + part_name(k));
      if (lengths[k] < 0) throw ValueError("custom_linear_solve: negative const length");
      n_consts += static_cast<std::size_t>(lengths[k]);
    }
  }
  static std::string part_name(std::size_t k) { return kLinearSolveParts[k]; }
  const Graph& graph(LinearSolvePart p) const { return *jaxprs[static_cast<std::size_t>(p)]; }
  /// The first operand of part p's consts.
  std::size_t offset(LinearSolvePart p) const {
    std::size_t o = 0;
    for (std::size_t k = 0; k < static_cast<std::size_t>(p); ++k)
      o += static_cast<std::size_t>(lengths[k]);
    return o;
  }
  /// Part p's operands: its consts, then the right-hand sides `rhs`.
  template <class T>
  std::vector<T> args(LinearSolvePart p, const std::vector<T>& operands,
                      const std::vector<T>& rhs) const {
    const auto lo = static_cast<std::ptrdiff_t>(offset(p));
    std::vector<T> r(operands.begin() + lo,
                     operands.begin() + lo + lengths[static_cast<std::size_t>(p)]);
    r.insert(r.end(), rhs.begin(), rhs.end());
    return r;
  }
  /// The right-hand sides among an equation's operands.
  template <class T>
  std::vector<T> rhs(const std::vector<T>& operands) const {
    return std::vector<T>(operands.begin() + static_cast<std::ptrdiff_t>(n_consts), operands.end());
  }
};

/// The transposed solve's operands and params (JAX's _LinearSolveTuple.transpose): matvec and
/// vecmat swapped, solve and transpose_solve swapped, consts moved with their functions.
template <class T>
std::pair<std::vector<T>, Params> transposed_linear_solve(const LinearSolveView& v,
                                                          const std::vector<T>& operands,
                                                          const std::vector<T>& rhs) {
  static constexpr std::array<LinearSolvePart, 4> order = {
      LinearSolvePart::vecmat, LinearSolvePart::matvec, LinearSolvePart::transpose_solve,
      LinearSolvePart::solve};
  std::vector<T> ops;
  std::vector<std::int64_t> lengths;
  std::vector<GraphPtr> jaxprs;
  for (LinearSolvePart p : order) {
    const auto lo = static_cast<std::ptrdiff_t>(v.offset(p));
    const auto n = v.lengths[static_cast<std::size_t>(p)];
    ops.insert(ops.end(), operands.begin() + lo, operands.begin() + lo + n);
    lengths.push_back(n);
    jaxprs.push_back(v.jaxprs[static_cast<std::size_t>(p)]);
  }
  ops.insert(ops.end(), rhs.begin(), rhs.end());
  return {std::move(ops), linear_solve_params(std::move(lengths), std::move(jaxprs))};
}

}  // namespace fj::ir

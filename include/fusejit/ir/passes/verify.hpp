// Verification: re-runs every equation's shape and dtype rule, so a backend never generates
// code for a graph that the front end could not have produced (e.g. exp of an int32).
#pragma once
#include <string>

#include "fusejit/ir/builder.hpp"

namespace fj::ir {

/// Raises the shape rule's ShapeError / DTypeError, prefixed with `who`, for the first bad
/// equation.
inline void verify(const Graph& g, const std::string& who) {
  for (const Eqn& e : g.eqns) {
    std::vector<Aval> in;
    for (auto& a : e.in) in.push_back(g.aval(a));
    std::vector<Aval> out;
    try {
      out = infer_avals(e.prim, in, e.params);
    } catch (const DTypeError& err) {
      throw DTypeError(who + ": " + err.what());
    } catch (const ShapeError& err) {
      throw ShapeError(who + ": " + err.what());
    }
    for (std::size_t k = 0; k < out.size() && k < e.out.size(); ++k)
      if (out[k].dtype != g.aval(e.out[k]).dtype || !(out[k].shape == g.aval(e.out[k]).shape))
        throw DTypeError(who + ": " + std::string(name(e.prim)) + " gives " + out[k].str() +
                         ", but the graph says " + g.aval(e.out[k]).str());
    for_each_subgraph(e.params, [&](const Graph& sub) { verify(sub, who); });
  }
}

}  // namespace fj::ir

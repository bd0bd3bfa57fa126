// make_jaxpr's text: a Graph printed exactly as JAX prints a jaxpr.
#pragma once
#include <string>

#include "fusejit/ir/graph.hpp"

namespace fj::ir {

/// The graph in JAX's jaxpr syntax, laid out for 80 columns as JAX's pretty printer does.
std::string print_jaxpr(const Graph& g);

/// A literal as JAX prints it: `2.0:f32[]`, `1:i32[]`, `True:bool[]`.
std::string print_literal(const Literal& l);

/// Python's repr() of a float: shortest round-trip digits, `2.0`, `1e-07`, `inf`.
std::string python_float_repr(double v);

}  // namespace fj::ir

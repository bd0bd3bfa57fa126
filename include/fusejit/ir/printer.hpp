// make_jaxpr's text: a Graph printed exactly as JAX prints a jaxpr.
#pragma once
#include <string>

#include "fusejit/ir/graph.hpp"

namespace fj::ir {

/// The graph in JAX's jaxpr syntax, laid out for 80 columns as JAX's pretty printer does.
std::string print_jaxpr(const Graph& g);

/// An equation as print_jaxpr prints it: its first line (1-based) in the text and its text
/// there (more than one line where its params break, indented as if it began at column 0).
struct PrintedEqn {
  int line = 0;  // 0: not an equation of the graph
  std::string text;
};
/// Where equation `e` of `g`, or of a sub-graph of `g` (found by address), prints in
/// print_jaxpr(g), with the same variable names.
PrintedEqn locate_eqn(const Graph& g, const Eqn& e);

/// A literal as JAX prints it: `2.0:f32[]`, `1:i32[]`, `True:bool[]`; a weak f32 one rounded
/// to f32, unless `python_scalar` (a Python float passed to a jit, printed as itself: `0.1`).
std::string print_literal(const Literal& l, bool python_scalar = false);

/// Python's repr() of a float: shortest round-trip digits, `2.0`, `1e-07`, `inf`.
std::string python_float_repr(double v);

}  // namespace fj::ir

// ir::Graph, a jaxpr: typed input variables, single-assignment equations, outputs.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "fusejit/core/dtype.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/core/x64.hpp"
#include "fusejit/core/shape.hpp"
#include "fusejit/ir/aval.hpp"
#include "fusejit/ir/callback.hpp"
#include "fusejit/ir/primitive.hpp"

namespace fj::ir {

/// A rank-0 constant inlined into an equation, printed as `2.0:f32[]`.
struct Literal {
  DType dtype = DType::f32;
  bool weak = false;
  double f = 0;        // value when dtype is a float
  std::int64_t i = 0;  // value when dtype is bool or an integer
  /// The same value converted to dtype `to`, as NumPy's astype converts it.
  Literal cast(DType to, bool to_weak) const;
  double as_double() const { return is_float(dtype) ? f : static_cast<double>(i); }
  template <class T>
  static Literal of(T v, bool weak);
};

using VarId = std::int32_t;

/// An equation operand: a variable of the enclosing graph or a literal.
struct Atom {
  VarId var = -1;
  Literal lit;
  bool is_literal() const { return var < 0; }
  static Atom of_var(VarId v) { return Atom{v, {}}; }
  static Atom of_literal(Literal l) { return Atom{-1, l}; }
};

struct Graph;
using GraphPtr = std::shared_ptr<const Graph>;

/// A parameter value; tuples are int vectors, sub-graphs are shared, a tuple of sub-graphs
/// (cond's `branches`) is a vector of them, and a host function (a callback's) is a CallbackPtr.
using ParamValue = std::variant<std::int64_t, bool, DType, std::vector<std::int64_t>, std::string,
                                GraphPtr, std::vector<GraphPtr>, CallbackPtr>;

/// Whether p is one of lax's control-flow primitives (cond, while, scan): an equation that runs
/// sub-graphs, which backends execute between kernels.
constexpr bool is_lax_control(Prim p) {
  return p == Prim::cond || p == Prim::while_ || p == Prim::scan;
}

/// Every sub-graph held by an equation's params (jaxpr, body_jaxpr, cond_jaxpr, branches...).
template <class Params, class F>
void for_each_subgraph(const Params& ps, F&& f) {
  for (auto& p : ps.items) {
    if (auto* g = std::get_if<GraphPtr>(&p.value)) {
      if (*g) f(**g);
    } else if (auto* gs = std::get_if<std::vector<GraphPtr>>(&p.value)) {
      for (auto& x : *gs)
        if (x) f(*x);
    }
  }
}

struct Param {
  std::string name;
  ParamValue value;
  bool printed = true;  // JAX hides some params (the shape of broadcast_in_dim) when printing
};

struct Params {
  std::vector<Param> items;
  const ParamValue* find(std::string_view n) const {
    for (auto& p : items)
      if (p.name == n) return &p.value;
    return nullptr;
  }
  /// The param's value; a missing or mistyped param is a malformed graph (fj::ValueError).
  template <class T>
  const T& get(std::string_view n) const {
    const ParamValue* v = find(n);
    const T* t = v ? std::get_if<T>(v) : nullptr;
    if (!t) throw ValueError("ir::Params: missing or mistyped param '" + std::string(n) + "'");
    return *t;
  }
};

/// The hidden jit param naming how many leading operands are concrete arrays the jitted
/// function closed over: JAX keeps those as constvars of the inner jaxpr, so they print there
/// and not as operands (nor as constvars of the outer jaxpr, if nothing else reads them).
inline constexpr std::string_view kClosedConsts = "closed_consts";
/// The jit's count of closed-over leading operands (0 when there are none).
inline std::int64_t closed_consts(const Params& p) {
  const ParamValue* v = p.find(kClosedConsts);
  const std::int64_t* n = v ? std::get_if<std::int64_t>(v) : nullptr;
  return n ? *n : 0;
}

struct Eqn {
  Prim prim;
  std::vector<Atom> in;
  std::vector<VarId> out;
  Params params;
};

struct Graph {
  std::vector<Aval> avals;  // indexed by VarId
  std::vector<VarId> constvars;
  std::vector<VarId> invars;
  std::vector<Eqn> eqns;
  std::vector<Atom> outvars;

  const Aval& aval(VarId v) const { return avals[static_cast<std::size_t>(v)]; }
  Aval aval(const Atom& a) const {
    if (a.is_literal()) return Aval{a.lit.dtype, Shape{}, a.lit.weak};
    return aval(a.var);
  }
  VarId new_var(Aval a) {
    avals.push_back(std::move(a));
    return static_cast<VarId>(avals.size() - 1);
  }
};

template <class T>
Literal Literal::of(T v, bool weak) {
  Literal l;
  l.weak = weak;
  if constexpr (std::is_same_v<T, bool>) {
    l.dtype = DType::bool_, l.i = v;
  } else if constexpr (std::is_floating_point_v<T>) {
    // A weak scalar takes the default float dtype (f64 in x64 mode), as a Python float does.
    l.dtype = weak ? default_float_dtype() : std::is_same_v<T, double> ? DType::f64 : DType::f32;
    // A weak scalar keeps its full value until its dtype is final (f64 * 0.1 is exact); it is
    // rounded when cast, printed and run as f32.
    l.f = l.dtype == DType::f32 && !weak ? static_cast<double>(static_cast<float>(v))
                                         : static_cast<double>(v);
  } else if constexpr (std::is_same_v<T, std::uint32_t>) {
    l.dtype = weak ? default_int_dtype() : DType::u32, l.i = static_cast<std::int64_t>(v);
  } else {
    l.dtype = weak                              ? default_int_dtype()
              : std::is_same_v<T, std::int64_t> ? DType::i64
                                                : DType::i32;
    l.i = static_cast<std::int64_t>(v);
  }
  return l;
}

// Float to int as convert_element_type does on the backends: truncate, saturate, NaN -> 0
// (a plain static_cast is undefined behaviour out of range).
template <class I>
std::int64_t saturate(double x) {
  if (x != x) return 0;
  const double lo = static_cast<double>(std::numeric_limits<I>::min());
  const double hi = std::ldexp(1.0, std::numeric_limits<I>::digits);  // exact power of two
  if (x < lo) return static_cast<std::int64_t>(std::numeric_limits<I>::min());
  if (x >= hi) return static_cast<std::int64_t>(std::numeric_limits<I>::max());
  return static_cast<std::int64_t>(static_cast<I>(x));
}

inline Literal Literal::cast(DType to, bool to_weak) const {
  Literal l;
  l.dtype = to;
  l.weak = to_weak;
  const double d = as_double();
  switch (to) {
    case DType::bool_:
      l.i = is_float(dtype) ? (f != 0) : (i != 0);
      break;
    case DType::i32:
      l.i = is_float(dtype) ? saturate<std::int32_t>(f) : static_cast<std::int32_t>(i);
      break;
    case DType::i64:
      l.i = is_float(dtype) ? saturate<std::int64_t>(f) : i;
      break;
    case DType::u32:
      l.i = is_float(dtype) ? saturate<std::uint32_t>(f) : static_cast<std::uint32_t>(i);
      break;
    case DType::f32:
      l.f = static_cast<double>(static_cast<float>(d));
      break;
    case DType::f64:
      l.f = d;
      break;
  }
  return l;
}

}  // namespace fj::ir

// fj::make_jaxpr: the traced graph of a function, printable in JAX's exact text.
#pragma once
#include <ostream>
#include <source_location>
#include <string>

#include "fusejit/api/trace_function.hpp"
#include "fusejit/ir/printer.hpp"

namespace fj {

/// A traced graph (JAX's ClosedJaxpr): `.str()` and `operator<<` give the jaxpr text.
class Jaxpr {
 public:
  /// Wraps a traced graph (fj::make_jaxpr makes them).
  explicit Jaxpr(ir::GraphPtr g) : graph_(std::move(g)) {}
  /// The jaxpr text, character for character what print(jax.make_jaxpr(f)(x)) prints.
  std::string str() const { return ir::print_jaxpr(*graph_); }
  /// The graph itself (the IR, docs/ARCHITECTURE.md): its equations, invars and outvars.
  const ir::Graph& graph() const { return *graph_; }
  /// Prints str().
  friend std::ostream& operator<<(std::ostream& os, const Jaxpr& j) { return os << j.str(); }

 private:
  ir::GraphPtr graph_;
};

/// What fj::make_jaxpr returns: a callable that traces f (jax.make_jaxpr(f)).
template <class F, class Statics = static_argnums_t<>>
class JaxprMaker {
 public:
  /// Traces `f`, named `name` in error messages, written at `loc`.
  JaxprMaker(F f, std::string name, std::source_location loc = {})
      : f_(std::move(f)), site_(std::move(name), "fj::make_jaxpr", loc) {}
  /// Traces f with the arguments' avals (shapes and dtypes; static ones by value) and returns its
  /// jaxpr; nothing runs. A shape or dtype error in f raises here (fj::ShapeError, ...).
  template <class... Args>
  Jaxpr operator()(const Args&... args) const {
    const detail::CollectedArgs c = detail::collect_args<Statics, false>(args...);
    return Jaxpr(detail::trace_function<Statics>(f_, site_, c.avals, c.trees, args...).graph);
  }

 private:
  F f_;
  detail::TraceSite site_;
};

/// jax.make_jaxpr: make_jaxpr(f)(args...) traces f with the arguments' avals and returns its
/// jaxpr; the arguments named by fj::static_argnums<I...> are static (their values are traced
/// in). `name` names f in error messages: std::cout << fj::make_jaxpr(f)(x).
///@{
template <class F, std::size_t... I>
auto make_jaxpr(F f, static_argnums_t<I...>, std::string name = "<lambda>",
                std::source_location loc = std::source_location::current()) {
  return JaxprMaker<F, static_argnums_t<I...>>(std::move(f), std::move(name), loc);
}
template <class F>
auto make_jaxpr(F f, std::string name = "<lambda>",
                std::source_location loc = std::source_location::current()) {
  return JaxprMaker<F>(std::move(f), std::move(name), loc);
}
///@}

}  // namespace fj

// jit(f).lower(args...): a traced function ready to inspect (as_text) and compile ahead of time.
#pragma once
#include <string>
#include <vector>

#include "fusejit/api/trace_function.hpp"
#include "fusejit/ir/printer.hpp"

namespace fj {

namespace detail {
/// The executable's description (fused graph, generated code) of a compiled graph.
std::string describe_compiled(const Compiled& c);
}  // namespace detail

/// A compiled function for fixed argument avals; call it with the dynamic arguments only.
template <class R>
class CompiledFunction {
 public:
  CompiledFunction(detail::Compiled c, std::vector<ir::Aval> avals)
      : c_(std::move(c)), avals_(std::move(avals)) {}

  template <class... Args>
  auto operator()(const Args&... args) const {
    if (sizeof...(Args) != avals_.size())
      throw ValueError("fj::CompiledFunction: expected " + std::to_string(avals_.size()) +
                       " dynamic arguments, got " + std::to_string(sizeof...(Args)));
    std::vector<backend::Value> values;
    std::size_t i = 0;
    auto add = [&](const auto& a) {
      const Array m = as_array(a);
      const ir::Aval av = detail::arg_aval(m, i);
      if (!(av.dtype == avals_[i].dtype && av.shape == avals_[i].shape))
        throw ShapeError("fj::CompiledFunction: argument " + std::to_string(i) + " is " + av.str() +
                         " but the function was compiled for " + avals_[i].str());
      values.push_back(detail::arg_value(m, avals_[i]));
      ++i;
    };
    (add(args), ...);
    return detail::unflatten_result<R>(detail::run_compiled(c_, values));
  }
  std::string as_text() const { return detail::describe_compiled(c_); }

 private:
  template <class A>
  static Array as_array(const A& a) {
    if constexpr (std::is_arithmetic_v<A>)
      return detail::literal_array(ir::Literal::of(a, !std::is_same_v<A, bool>));
    else
      return Array(a);
  }
  detail::Compiled c_;
  std::vector<ir::Aval> avals_;
};

/// The result of jit(f).lower(args...).
template <class R>
class Lowered {
 public:
  Lowered(detail::TraceResult r, std::vector<ir::Aval> avals)
      : r_(std::move(r)), avals_(std::move(avals)) {}
  /// The traced graph as a jaxpr.
  std::string jaxpr() const { return ir::print_jaxpr(*r_.graph); }
  /// The jaxpr, then what the default backend makes of it: the fused kernel graph and the
  /// optimized LLVM IR of each kernel (compiles if needed; the kernel cache makes that cheap).
  std::string as_text() const { return "# jaxpr\n" + jaxpr() + "\n" + compile().as_text(); }
  CompiledFunction<R> compile() const {
    detail::TraceResult copy = r_;
    return CompiledFunction<R>(detail::compile_traced(std::move(copy)), avals_);
  }

 private:
  detail::TraceResult r_;
  std::vector<ir::Aval> avals_;
};

}  // namespace fj

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
  /// What Lowered::compile makes: the compiled graph, the argument avals and pytree structures
  /// it was compiled for, and the result's structure.
  CompiledFunction(detail::Compiled c, std::vector<ir::Aval> avals, std::vector<PyTreeDef> trees,
                   PyTreeDef out_tree)
      : c_(std::move(c)),
        avals_(std::move(avals)),
        trees_(std::move(trees)),
        out_tree_(std::move(out_tree)) {}

  /// Runs the compiled code on the dynamic arguments (jax's Compiled.__call__). Another count
  /// or pytree structure raises fj::ValueError, another shape fj::ShapeError, another dtype
  /// fj::DTypeError: it never retraces.
  template <class... Args>
  auto operator()(const Args&... args) const {
    if (sizeof...(Args) != trees_.size())
      throw ValueError("fj::CompiledFunction: expected " + std::to_string(trees_.size()) +
                       " dynamic arguments, got " + std::to_string(sizeof...(Args)));
    std::vector<backend::Value> values;
    std::size_t i = 0, k = 0;
    auto add = [&](const auto& a) {
      const PyTreeDef d = tree_structure(a);
      if (!(d == trees_[k]))
        throw ValueError("fj::CompiledFunction: argument " + std::to_string(k) + " has structure " +
                         d.str() + " but the function was compiled for " + trees_[k].str());
      ++k;
      for (const Array& m : detail::flatten_arrays(a)) {
        const ir::Aval av = detail::arg_aval(m, i);
        if (!(av.shape == avals_[i].shape))
          throw ShapeError("fj::CompiledFunction: argument " + std::to_string(i) + " is " +
                           av.str() + " but the function was compiled for " + avals_[i].str());
        if (av.dtype != avals_[i].dtype)  // a dtype-only difference is a dtype error
          throw DTypeError("fj::CompiledFunction: argument " + std::to_string(i) + " is " +
                           av.str() + " but the function was compiled for " + avals_[i].str());
        values.push_back(detail::arg_value(m, avals_[i]));
        ++i;
      }
    };
    (add(args), ...);
    return detail::unflatten_result<R>(out_tree_, detail::run_compiled(c_, values));
  }
  /// The executable's description (Compiled.as_text()): the fused kernel graph and the
  /// generated code of each kernel.
  std::string as_text() const { return detail::describe_compiled(c_); }

 private:
  detail::Compiled c_;
  std::vector<ir::Aval> avals_;
  std::vector<PyTreeDef> trees_;
  PyTreeDef out_tree_;
};

/// The result of jit(f).lower(args...).
template <class R>
class Lowered {
 public:
  /// What Jitted::lower makes: the trace, the argument avals and structures, f's name.
  Lowered(detail::TraceResult r, std::vector<ir::Aval> avals, std::vector<PyTreeDef> trees,
          std::string name = "<lambda>")
      : r_(std::move(r)),
        avals_(std::move(avals)),
        trees_(std::move(trees)),
        name_(std::move(name)) {}
  /// The traced graph as a jaxpr.
  std::string jaxpr() const { return ir::print_jaxpr(*r_.graph); }
  /// The jaxpr, then what the default backend makes of it: the fused kernel graph and the
  /// optimized LLVM IR of each kernel (compiles if needed; the kernel cache makes that cheap).
  std::string as_text() const { return "# jaxpr\n" + jaxpr() + "\n" + compile().as_text(); }
  /// Compiled for `device` (the CPU unless asked): the function then takes arrays there.
  CompiledFunction<R> compile(Device device = cpu()) const {
    detail::TraceResult copy = r_;
    PyTreeDef out = copy.out_tree;
    detail::Compiled c = detail::compile_traced(std::move(copy), device);
    c.name = "fj::jit(" + name_ + ")";
    return CompiledFunction<R>(std::move(c), avals_, trees_, std::move(out));
  }

 private:
  detail::TraceResult r_;
  std::vector<ir::Aval> avals_;
  std::vector<PyTreeDef> trees_;
  std::string name_;
};

}  // namespace fj

// Calling C++ functions from compiled code: the one path by which fj::debug::print,
// fj::debug::callback and fj::pure_callback stage their equation in a trace, or call at once
// outside one.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

#include "fusejit/api/pytree/traced.hpp"
#include "fusejit/backend/host_callback.hpp"

namespace fj::detail {

/// A C++ function of flat array leaves giving flat array results: what a callback equation
/// calls. Arrays it receives own their data (copies), so the function may keep them.
using FlatFunction = std::function<std::vector<Array>(const std::vector<Array>&)>;

/// Stages `prim` (a callback primitive) with operands `leaves` and `params` (to which the
/// `callback` param is added, unprinted unless `print_callback`), and returns its results as
/// tracers; outside a trace, runs it at once on the concrete leaves and returns the results.
std::vector<Array> call_host(ir::Prim prim, std::shared_ptr<const backend::HostCallback> cb,
                             const std::vector<Array>& leaves, ir::Params params,
                             bool print_callback);

/// A host callback running a FlatFunction, whose results must have the avals `results`;
/// `repr` is how its `callback=` param prints.
std::shared_ptr<const backend::HostCallback> function_callback(FlatFunction fn, std::string name,
                                                               std::vector<ir::Aval> results,
                                                               std::string repr);

/// `<function NAME at 0xXXXXXXXXXXXX>`: a function as a jaxpr prints it (JAX masks addresses).
inline std::string function_repr(const std::string& name) {
  return "<function " + name + " at 0xXXXXXXXXXXXX>";
}

/// T's C++ type, demangled: how messages name a callback (a lambda's type names its scope).
std::string type_name(const std::type_info& t);

/// The dynamic arguments of a callback: their leaves (expressions evaluated or staged, scalars
/// as weak rank-0 arrays) and structures.
struct CallbackArgs {
  std::vector<Array> leaves;
  std::vector<PyTreeDef> trees;
  template <class... Args>
  explicit CallbackArgs(const Args&... args) {
    (add(args), ...);
  }
  /// `PyTreeDef(((*, *), {}))`: the positional arguments and no keyword ones, as JAX prints a
  /// callback's in_tree.
  std::string in_tree() const;

 private:
  template <class A>
  void add(const A& a) {
    flatten_arrays(a, leaves);
    trees.push_back(tree_structure(a));
  }
};

/// `fn` called on the arguments rebuilt from flat leaves with the structures `trees`, each
/// argument as traced_t<Args> (fj::Array leaves).
template <class... Args, class F>
auto call_on_leaves(const F& fn, const std::vector<PyTreeDef>& trees,
                    const std::vector<Array>& leaves) {
  std::size_t pos = 0, k = 0;
  auto next = [&]<class A>(std::type_identity<A>) {
    return unflatten_arrays<A>(trees.at(k++), leaves, pos);
  };
  // Braced initialization evaluates left to right: arguments take leaves in order.
  std::tuple<traced_t<Args>...> call_args{next(std::type_identity<Args>{})...};
  return std::apply(fn, call_args);
}

}  // namespace fj::detail

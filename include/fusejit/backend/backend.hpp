// The backend interface: what a backend lowers itself, compile(graph) -> Executable, run.
#pragma once
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fusejit/core/small_vector.hpp"
#include "fusejit/ir/graph.hpp"
#include "fusejit/runtime/buffer.hpp"

namespace fj::backend {

/// Concrete array data as a backend sees it: a buffer plus its aval (row-major, contiguous).
struct Value {
  runtime::BufferPtr buf;
  ir::Aval aval;
  // A splat: buf holds one element, the value at every index of aval's shape. Only the LLVM
  // backend makes them, for a library operand that a kernel would fill with one literal, and
  // only where the routine reads that operand as a splat (reference::reads_splat).
  bool splat = false;
};

/// A run's outputs, inline up to four: the warm path of a jitted call allocates no list.
using ValueList = SmallVector<Value, 4>;

/// A compiled graph. run() is thread-safe: one executable serves concurrent callers.
class Executable {
 public:
  virtual ~Executable() = default;
  /// inputs are the graph's constvars followed by its invars; returns one Value per outvar.
  virtual std::vector<Value> run(std::span<const Value> inputs) const = 0;
  /// The same, appending the outputs to `out`: what jit's calls use. A backend whose run can
  /// avoid allocating overrides it (the LLVM backend); this default goes through run().
  virtual void run_into(std::span<const Value> inputs, ValueList& out) const {
    for (Value& v : run(inputs)) out.push_back(std::move(v));
  }
  /// What was compiled, for inspection (fused graph, generated code); empty if nothing to say.
  virtual std::string describe() const { return {}; }
};

/// An executable whose outputs are appended by run_into (the backends that compile kernels):
/// run() collects them into a vector.
class AppendingExecutable : public Executable {
 public:
  std::vector<Value> run(std::span<const Value> inputs) const final {
    ValueList out;
    run_into(inputs, out);
    return {std::make_move_iterator(out.begin()), std::make_move_iterator(out.end())};
  }
  void run_into(std::span<const Value> inputs, ValueList& out) const override = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  /// Whether the backend lowers primitive p itself (the rest are decomposed by shared rules).
  virtual bool supports(ir::Prim p) const = 0;
  /// Compiles a graph; failures raise fj::CompileError with the backend's log.
  virtual std::shared_ptr<const Executable> compile(const ir::GraphPtr& graph) = 0;
};

/// The backend used for new compiles: FUSEJIT_BACKEND, else the best available.
Backend& default_backend();
/// Selects the default backend by name ("reference"); unknown names raise fj::ValueError.
void set_default_backend(std::string_view name);
/// Names of the registered backends.
std::vector<std::string> backend_names();

}  // namespace fj::backend

namespace fj {
/// Selects the backend new compiles use ("reference"); FUSEJIT_BACKEND sets the initial one.
void set_default_backend(std::string_view name);
}  // namespace fj

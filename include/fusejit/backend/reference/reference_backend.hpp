// The reference backend: an op-by-op interpreter, the test oracle and the un-jitted baseline.
#pragma once
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "fusejit/backend/backend.hpp"

namespace fj::backend {

/// Called after each equation the interpreter runs, with the graph that holds it, the equation
/// and its results. The equations of a jit or control equation's sub-graphs are observed (each
/// time they run) before that equation. It may throw, which ends the run.
using StepObserver =
    std::function<void(const ir::Graph&, const ir::Eqn&, std::span<const Value> results)>;

/// Runs `graph` on the reference interpreter (inputs: constvars, then invars), calling `observe`
/// after every equation: fj::set_debug_nans's re-run. Defined in reference_backend.cpp.
std::vector<Value> run_observed(const ir::GraphPtr& graph, std::span<const Value> inputs,
                                const StepObserver& observe);

/// A new reference backend. Its executables materialize every intermediate; run() is thread-safe.
/// Defined in reference_backend.cpp, compiled into the one implementation unit.
std::unique_ptr<Backend> make_reference_backend();

}  // namespace fj::backend

// Reference backend, implementation unit only: includes its parts, defines the factory.
#include "fusejit/backend/reference/reference_backend.hpp"

#include "fusejit/backend/reference/float_math.hpp"
#include "fusejit/backend/reference/ops.hpp"
#include "fusejit/backend/reference/elementwise.hpp"
#include "fusejit/backend/reference/kernels.hpp"
#include "fusejit/backend/reference/interpreter.hpp"

namespace fj::backend {

std::unique_ptr<Backend> make_reference_backend() {
  return std::make_unique<detail::reference::ReferenceBackend>();
}

std::vector<Value> run_observed(const ir::GraphPtr& graph, std::span<const Value> inputs,
                                const StepObserver& observe) {
  if (!graph) throw ValueError("reference backend: run of a null graph");
  return detail::reference::Plan(graph).run(inputs, &observe);
}

}  // namespace fj::backend

// Reference backend, implementation unit only: includes its parts, defines the factory.
#pragma once
#include "fusejit/backend/reference/reference_backend.hpp"

#include "fusejit/backend/reference/float_math.ipp"
#include "fusejit/backend/reference/ops.ipp"
#include "fusejit/backend/reference/elementwise.ipp"
#include "fusejit/backend/reference/kernels.ipp"
#include "fusejit/backend/reference/interpreter.ipp"

namespace fj::backend {

std::unique_ptr<Backend> make_reference_backend() {
  return std::make_unique<detail::reference::ReferenceBackend>();
}

}  // namespace fj::backend
